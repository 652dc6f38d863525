"""The language of a page: German or English, for the browser's words only.

A page's language is chosen where the page is served: the ``lang`` cookie the language
switch sets (remembered for a year), else the browser's ``Accept-Language``. It is written
into the page (``<html lang="de">``), and the page asks for its words in that language
explicitly: ``GET /api/strings?lang=de`` (every message of the catalog) and ``?lang=de``
on a table's catalog and a game's rules. Without ``lang`` the API answers in English, so
it stays the same for every client; what the game records and what a client sends (action
texts, seat numbers) never depend on a language.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from babel.messages.mofile import read_mo
from fastapi import Query, Request

from ..i18n import DEFAULT, DOMAIN, LANGUAGE_NAMES, LANGUAGES, LOCALE_DIR, negotiate
from .protocol import ProtocolError

COOKIE = "lang"


def page_language(request: Request) -> str:
    """The language to serve a page in: the remembered switch, else Accept-Language."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return negotiate(request.headers.get("accept-language"))


def check(lang: str) -> str:
    """``lang`` if we have it; ProtocolError ``invalid_request`` (422) else."""
    if lang not in LANGUAGES:
        raise ProtocolError(
            "invalid_request", f"lang: one of {', '.join(LANGUAGES)}, not {lang!r}", 422
        )
    return lang


LangQuery = Annotated[
    str, Query(description=f"language of the texts: {', '.join(LANGUAGES)}", max_length=8)
]


@cache
def strings(lang: str) -> dict[str, Any]:
    """Every message of the catalog in ``lang``, for the browser: ``messages`` maps a
    message id to its text, ``plurals`` a singular id to its forms (both languages have
    two: one, and every other count)."""
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    if lang != DEFAULT:
        path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        with path.open("rb") as f:
            catalog = read_mo(f)
        for m in catalog:
            if not m.id or not m.string:
                continue
            if isinstance(m.id, tuple | list):
                plurals[m.id[0]] = list(m.string)
            else:
                messages[m.id] = str(m.string)
    return {
        "lang": lang,
        "languages": dict(LANGUAGE_NAMES),
        "messages": messages,
        "plurals": plurals,
    }
