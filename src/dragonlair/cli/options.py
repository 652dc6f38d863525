"""Shared parsing of command-line game options (``--option key=value``)."""

from __future__ import annotations

import typer

from ..i18n import N_


def parse_options(items: list[str] | None) -> dict[str, object]:
    """``["side=b", "variant=true"]`` as a dict; the game validates the values."""
    out: dict[str, object] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"options are key=value, not {item!r}")
        out[key.strip()] = value.strip()
    return out


def game_options(game: str, players: int | None, items: list[str] | None) -> dict[str, object]:
    """``--option`` items as ``game``'s options, a number of a data file among them
    (``data:scoring.crystal_set_bonus=7``) set in a data file of its own (see
    :func:`dragonlair.sim.datavalues.game_options`); every command reads options so."""
    if not any(":" in item.partition("=")[0] for item in items or []):
        return parse_options(items)
    from ..core import DragonlairError, make
    from ..sim import datavalues

    try:
        game_id = make(game, players=players).spec.id
        return datavalues.game_options(game_id, items or [])
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None


BOT_NAMES = {"random": N_("Random"), "heuristic": N_("Heuristic"), "ismcts": N_("ISMCTS")}
"""How a bot of each level is named at the table (in the current language, with ``_``)."""


def bot_name(level: str, seat: int) -> str:
    """The default name of a bot of ``level`` at ``seat`` (0-based): ``Heuristic 2``."""
    from ..i18n import _

    return _("{level} {n}").format(level=_(BOT_NAMES.get(level, level.title())), n=seat + 1)


LANG_HELP = N_(
    "Language of the screen: de or en (default: from the locale, LANGUAGE, LC_ALL, "
    "LC_MESSAGES or LANG). What you type (`play 2`) and what is saved are the same in both."
)
"""The help of ``--lang`` (marked only: the commands show it with ``_``)."""


def apply_language(lang: str | None) -> str:
    """Speak ``lang`` (``--lang``), else the locale's language, for the rest of the run."""
    from ..core import DragonlairError
    from ..i18n import from_environment, set_language

    try:
        chosen = from_environment() if lang is None else lang.strip().lower()
        set_language(chosen)
    except DragonlairError as e:
        raise typer.BadParameter(str(e), param_hint="'--lang'") from None
    return chosen
