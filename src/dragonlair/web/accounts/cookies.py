"""The session cookie: ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (another
site's pages never send it), ``Secure`` where the server is reached over HTTPS, for the
whole site, for as long as the session lasts."""

from __future__ import annotations

from starlette.responses import Response

COOKIE = "dl_session"


def set_session_cookie(response: Response, token: str, max_age: float, secure: bool) -> None:
    """Hand the browser its session."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(max_age),
        path="/",
        httponly=True,
        samesite="strict",
        secure=secure,
    )


def clear_session_cookie(response: Response, secure: bool) -> None:
    """Make the browser forget its session."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=secure)
