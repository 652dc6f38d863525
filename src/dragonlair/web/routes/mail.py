"""E-mail over HTTP (dragonlair.web.mail): the account's e-mail setting
(``/api/account/email``), and the two links in messages, which need no sign-in:
``/mail/verify`` (an address's verification) and ``/mail/unsubscribe`` (no more turn
e-mail, in one click; ``POST`` for RFC 8058's one-click unsubscription)."""

from __future__ import annotations

import asyncio
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from ...i18n import LANGUAGES, _, using
from ..language import page_language
from ..mail import Mailer, MailError, Outbox, Tokens, is_mail_key
from ..protocol import ProtocolError
from .accounts import SignedInDep

router = APIRouter(tags=["accounts"])


class MailParts:
    """What the routes use of the server's e-mail: the outbox (settings and links always
    work), the tokens, and the sender (None: the operator configured no SMTP server)."""

    def __init__(self, outbox: Outbox, tokens: Tokens, mailer: Mailer | None) -> None:
        self.outbox = outbox
        self.tokens = tokens
        self.mailer = mailer


def get_mail(conn: HTTPConnection) -> MailParts:
    parts: MailParts = conn.app.state.mail
    return parts


MailDep = Annotated[MailParts, Depends(get_mail)]


class EmailBody(BaseModel):
    """An account's e-mail setting."""

    model_config = {"extra": "forbid"}
    address: str | None = Field(
        default=None, max_length=300, description="the address; null removes it"
    )
    turns: bool = Field(
        default=False,
        description="e-mail when it is my turn at a turn-based table (and one reminder)",
    )
    lang: str = Field(default="en", max_length=8, description="the language of the e-mail")


@router.get("/api/account/email")
async def email_setting(session: SignedInDep, mail: MailDep) -> dict[str, Any]:
    """The account's address, whether it is verified, whether turn e-mail is on; and
    whether this server sends e-mail at all (``available``)."""
    got = await asyncio.to_thread(mail.outbox.setting, session.account_id)
    if got is None:
        raise ProtocolError("not_signed_in", "sign in first: this needs an account", 401)
    return {"available": mail.mailer is not None, **got.to_dict()}


@router.post("/api/account/email")
async def save_email(body: EmailBody, session: SignedInDep, mail: MailDep) -> dict[str, Any]:
    """Set the account's address (a new one gets a verification e-mail; nothing else is
    sent to it before it is verified) and whether turn-based tables may write to it."""
    if mail.mailer is None:
        raise ProtocolError("mail_off", "this server sends no e-mail (no SMTP server is set)", 409)
    address = body.address.strip() if body.address and body.address.strip() else None
    try:
        got, sent = await asyncio.to_thread(
            mail.outbox.save, session.account_id, address, body.turns, body.lang
        )
    except MailError as e:
        raise ProtocolError(e.code, str(e), e.status) from None
    if sent:
        mail.mailer.wake()
    return {"available": True, **got.to_dict(), "verification_sent": sent}


# the pages' icon (static/index.html's), so that no browser asks for /favicon.ico
ICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
    "%3Ccircle cx='8' cy='8' r='7' fill='%23e0a040'/%3E%3C/svg%3E"
)


def _page(lang: str, title: str, text: str, status: int = 200) -> HTMLResponse:
    html = f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>dragonlair: {escape(title)}</title>
<link rel="stylesheet" href="/static/app.css">
<link rel="stylesheet" href="/static/app-end.css">
<link rel="icon" href="{ICON}"></head>
<body><header class="topbar"><a href="/" class="brand">dragonlair</a></header>
<main class="mail-page panel"><h1>{escape(title)}</h1>
<p id="mail-result">{escape(text)}</p>
<p><a class="button primary" href="/account">{escape(_("Your account"))}</a>
<a class="button" href="/">{escape(_("Back to the lobby"))}</a></p></main></body></html>
"""
    return HTMLResponse(html, status, headers={"Cache-Control": "no-store"})


TokenQuery = Annotated[str, Query(alias="t", max_length=1000)]


@router.get("/mail/verify", include_in_schema=False)
async def verify(request: Request, mail: MailDep, t: TokenQuery = "") -> Response:
    """An address's verification link: the address is verified if it is still the
    account's."""
    found = mail.tokens.read_verify(t) if is_mail_key(t) else None
    ok = found is not None and await asyncio.to_thread(mail.outbox.verify, *found)
    lang = await asyncio.to_thread(mail.outbox.lang_of, found[0]) if found else None
    lang = lang if lang in LANGUAGES else page_language(request)
    with using(lang):
        if ok:
            return _page(
                lang,
                _("Address confirmed"),
                _(
                    "Your e-mail address is confirmed. Turn-based tables can now tell you "
                    "when it is your turn, if you turned that on."
                ),
            )
        return _page(
            lang,
            _("This link does not work"),
            _(
                "The link is older than a week, or the address was changed since. Save "
                "your address again on your account page to get a new link."
            ),
            400,
        )


async def _unsubscribe(mail: MailParts, t: str) -> str | None:
    found = mail.tokens.read_unsubscribe(t) if is_mail_key(t) else None
    if found is None:
        return None
    return await asyncio.to_thread(mail.outbox.unsubscribe, *found)


@router.get("/mail/unsubscribe", include_in_schema=False)
async def unsubscribe(request: Request, mail: MailDep, t: TokenQuery = "") -> Response:
    """The unsubscribe link: no more turn e-mail to this address, at once and without
    signing in (the signed token says whose)."""
    lang = await _unsubscribe(mail, t)
    if lang is None:
        with using(page_language(request)):
            return _page(
                page_language(request),
                _("This link does not work"),
                _(
                    "The link is not whole, or the address was changed since: change your "
                    "e-mail setting on your account page."
                ),
                400,
            )
    with using(lang):
        return _page(
            lang,
            _("No more e-mail"),
            _(
                "You will get no more turn e-mail from dragonlair. You can turn it on "
                "again on your account page."
            ),
        )


@router.post("/mail/unsubscribe", include_in_schema=False)
async def unsubscribe_one_click(mail: MailDep, t: TokenQuery = "") -> Response:
    """RFC 8058's one-click unsubscription (the mail reader posts
    ``List-Unsubscribe=One-Click`` to the ``List-Unsubscribe`` link)."""
    if await _unsubscribe(mail, t) is None:
        return PlainTextResponse("this unsubscribe link does not work", 400)
    return PlainTextResponse("unsubscribed")
