"""What a browser needs to draw a table, besides the seat's own messages: public data only.

A view names components by id (crew card 42, Danger card 3, spot 29) and a state message
lists legal actions and events as text and dicts. To draw them the page needs what is
printed on the components, a label for every action (``describe_action``) and the
sentence pattern of every kind of event, plus each game's rules in brief, in the current
language (:mod:`dragonlair.i18n`): a template with a count comes with its forms
(``plurals``); the words an event's values hold are in the page's strings. All of it is the
same for everyone at a table (it depends on the game, its player count and its options,
which are public) and none of it depends on the state, so it cannot leak anything: these
are served by plain GET endpoints, and a client fetches them once per table.

:func:`components` is the catalog a game's manifest declares; a game whose manifest says
``catalog=None`` gets an empty dict, and the page falls back to showing ids and the
action labels. ``board`` is the manifest's browser board module as a path under
``/static/`` (see :mod:`.boards`), or None for the page's generic board.
"""

from __future__ import annotations

from typing import Any

from ..core import Game, manifest
from ..core.events import CORE_EVENTS
from ..i18n import _, counted, language
from .boards import board_path


def components(game: Game) -> dict[str, Any]:
    """The printed component data of ``game`` (as its options chose it), JSON-ready."""
    build = manifest(game.spec.id).catalog
    return build(game) if build is not None else {}


def table_catalog(game: Game) -> dict[str, Any]:
    """Everything public a page needs to draw a table of ``game``: components, the phases
    its views can show and their names, a label for every action, and the text patterns
    of every kind of event (the engine's own, such as ``undo``, included) with the fields
    that name a seat."""
    return {
        "game": game.spec.id,
        "players": game.players,
        "options": dict(game.options),
        "components": components(game),
        "phases": list(game.phases),
        "phase_names": {phase: _(name) for phase, name in game.phase_names.items()},
        "board": board_path(game.spec.id),
        "actions": {str(a): game.describe_action(a) for a in game.actions},
        "events": {
            kind: {
                "text": _(s.text),
                "public_text": _(s.public_text),
                "fields": list(s.fields),
                "seat_fields": list(s.seat_fields),
                "plurals": {
                    key: {"field": p[0], "forms": p[1]}
                    for key, p in (
                        ("text", counted(s.text)),
                        ("public_text", counted(s.public_text)),
                    )
                    if p is not None
                },
            }
            for kind, s in {**CORE_EVENTS, **game.event_specs}.items()
        },
    }


def rules(game: Game) -> dict[str, Any]:
    """A game's rules for players (Markdown, from its manifest) and what each kind of
    action does."""
    return {
        "id": game.spec.id,
        "name": game.spec.name,
        "summary": _(game.spec.summary),
        "text": manifest(game.spec.id).player_rules(language()).strip(),
        "actions": [{"form": k.form, "help": _(k.help)} for k in game.table.kinds],
    }
