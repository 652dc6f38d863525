"""Languages: every word a player reads, in English or German.

One gettext domain, ``dragonlair``, with its catalogs under ``dragonlair/locale/`` (package
data): ``dragonlair.pot`` is the template that ``pybabel extract`` writes from the sources,
``<lang>/LC_MESSAGES/dragonlair.po`` the translation and ``dragonlair.mo`` its compiled form,
which the standard library's :mod:`gettext` reads at run time. The message ids are the
English texts, so English needs no catalog of its own.

The language is a context variable: the terminal sets it once (``--lang``, else the
locale's ``LC_ALL``/``LC_MESSAGES``/``LANG``), the server sets it per connection and per
request, so two players at one table can read two languages. Records, action texts, the
API and logs never go through here: they stay in the record format.

Marking strings:

- :func:`_` (``gettext``) and :func:`ngettext` translate now, in the current language;
- :func:`N_` only marks a text for extraction (tables built at import, such as event
  templates and action help, are translated where they are shown);
- :func:`plural` marks a template with a count for extraction with its plural form; the
  template it returns is shown through :func:`template`, which picks the form by the count
  with ``ngettext``.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any, Final

from babel.core import Locale, UnknownLocaleError, negotiate_locale

from ..errors import DragonlairError

DOMAIN: Final = "dragonlair"
LANGUAGES: Final[tuple[str, ...]] = ("en", "de")
"""The languages every player-facing text exists in."""
DEFAULT: Final = "en"
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"
LANGUAGE_NAMES: Final[Mapping[str, str]] = {"en": "English", "de": "Deutsch"}
"""Each language by its own name (what a language switch shows)."""

_current: ContextVar[str] = ContextVar("dragonlair_language", default=DEFAULT)
_PLURALS: dict[str, tuple[str, str, str]] = {}


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the message ids themselves)."""
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, [check_language(lang)])


def check_language(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else a clear error."""
    if lang not in LANGUAGES:
        raise DragonlairError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


def language() -> str:
    """The language of the current context."""
    return _current.get()


def set_language(lang: str) -> None:
    """Make ``lang`` the language of the current context (the terminal, a request)."""
    _current.set(check_language(lang))


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block (one connection's texts at a shared table)."""
    token = _current.set(check_language(lang))
    try:
        yield
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the current language."""
    return translations(language()).gettext(message)


gettext = _


def ngettext(singular: str, plural_form: str, n: int) -> str:
    """The form of a counted message for ``n`` in the current language."""
    return translations(language()).ngettext(singular, plural_form, n)


def N_(message: str) -> str:  # noqa: N802 (the name gettext tools know)
    """Mark ``message`` for extraction only; translate it where it is shown."""
    return message


def plural(singular: str, plural_form: str, field: str) -> str:
    """Mark a template whose noun agrees with its ``field`` (a count): returns the plural
    template, which :func:`template` shows in the form its count asks for."""
    _PLURALS[plural_form] = (singular, plural_form, field)
    return plural_form


def template(text: str, values: Mapping[str, Any]) -> str:
    """A template marked with :func:`N_` or :func:`plural`, in the current language."""
    counted = _PLURALS.get(text)
    if counted is not None:
        singular, plural_form, field = counted
        n = values.get(field)
        if isinstance(n, int) and not isinstance(n, bool):
            return ngettext(singular, plural_form, n)
        return _(plural_form)
    return _(text) if text else text


_WORD = re.compile(r"\d*[A-Za-z][A-Za-z'-]*")
_LONGEST = 4


def words(text: str) -> str:
    """A value the engine wrote (``face up``, ``Green Scanner face up``, ``dragon 1 (8 pts;
    mood 2)``) in the current language: the whole text if it is a message, else, from
    left to right, the longest run of up to four words (separated by single spaces) that
    is one; numbers, names and other words stay as they are."""
    found = _(text)
    if found != text or language() == DEFAULT:
        return found
    spans = [m.span() for m in _WORD.finditer(text)]
    out: list[str] = []
    at = 0
    i = 0
    while i < len(spans):
        for j in range(min(len(spans), i + _LONGEST) - 1, i - 1, -1):
            phrase = text[spans[i][0] : spans[j][1]]
            if any(text[spans[k][1] : spans[k + 1][0]] != " " for k in range(i, j)):
                continue
            shown = _(phrase)
            if shown != phrase or j == i:
                out.append(text[at : spans[i][0]] + shown)
                at = spans[j][1]
                i = j + 1
                break
    out.append(text[at:])
    return "".join(out)


def counted(text: str) -> tuple[str, list[str]] | None:
    """For a template marked with :func:`plural`: its count's field and its forms in the
    current language (one, and every other count); None for any other."""
    found = _PLURALS.get(text)
    if found is None:
        return None
    singular, plural_form, field = found
    return field, [ngettext(singular, plural_form, 1), ngettext(singular, plural_form, 2)]


def parse_language(tag: str | None) -> str | None:
    """The language of a locale name or tag (``de_DE.UTF-8``, ``de-AT``, ``en``), if it is
    one of ours; ``C`` and ``POSIX`` are English."""
    if not tag:
        return None
    tag = tag.split(".")[0].split("@")[0].strip()
    if tag in ("C", "POSIX"):
        return DEFAULT
    try:
        found = Locale.parse(tag.replace("-", "_")).language
    except (ValueError, UnknownLocaleError):
        return None
    return found if found in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the locale: the first of ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set (gettext's own order); English if none names
    one of ours."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            for part in value.split(":"):
                found = parse_language(part)
                if found is not None:
                    return found
            return DEFAULT
    return DEFAULT


def negotiate(accept_language: str | None) -> str:
    """The language for a browser's ``Accept-Language`` header (RFC 9110 weights)."""
    if not accept_language:
        return DEFAULT
    weighted: list[tuple[float, int, str]] = []
    for i, item in enumerate(accept_language.split(",")):
        tag, _sep, params = item.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if tag and q > 0:
            weighted.append((-q, i, tag.strip()))
    preferred = [tag.replace("-", "_") for _q, _i, tag in sorted(weighted)]
    preferred = [*preferred, *(p.split("_")[0] for p in preferred)]
    found = negotiate_locale(preferred, list(LANGUAGES))
    return found if found in LANGUAGES else DEFAULT


def strings(lang: str, messages: Mapping[str, str]) -> dict[str, str]:
    """``messages`` (key -> English message id) in ``lang``: the strings a browser page
    shows, sent to it as JSON."""
    with using(lang):
        return {key: _(msgid) for key, msgid in messages.items()}
