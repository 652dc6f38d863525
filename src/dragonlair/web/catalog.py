"""What a browser needs to draw a table, besides the seat's own messages: public data only.

A view names components by id (crew card 42, Danger card 3, spot 29) and a state message
lists legal actions and events as text and dicts. To draw them the page needs what is
printed on the components, a label for every action (``describe_action``) and the
sentence pattern of every kind of event, plus each game's rules in brief. All of it is the
same for everyone at a table (it depends on the game, its player count and its options,
which are public) and none of it depends on the state, so it cannot leak anything: these
are served by plain GET endpoints, and a client fetches them once per table.

:func:`components` knows where each of the four games keeps its printed data; a game it
does not know (a designer's own) gets an empty dict, and the page falls back to showing
ids and the action labels.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from importlib.resources import files
from typing import Any

from ..core import Game


def plain(value: Any) -> Any:
    """A dataclass, tuple or mapping of them as JSON-ready data (lists and str keys)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def _without_source(d: dict[str, Any]) -> dict[str, Any]:
    # ``source`` is the data file's name: a path on the server for a user's own file
    d.pop("source", None)
    return d


def _space_dragons(game: Any) -> dict[str, Any]:
    out: dict[str, Any] = _without_source(plain(game.components))
    for card, label in zip(out["crew"], game.tables.card_labels[1:], strict=True):
        card["label"] = label
    for dragon, label in zip(out["dragons"], game.tables.dragon_labels[1:], strict=True):
        dragon["label"] = label
    # the awards with their signs as this table scores them (b_sides option), largest first
    out["awards"] = {
        symbol: [[[rank, pts] for rank, pts in side] for side in sides]
        for symbol, sides in zip(("science", "mood", "crime"), game.tables.scoring, strict=True)
    }
    return out


def _space_race(game: Any) -> dict[str, Any]:
    out: dict[str, Any] = game.catalog()
    out["cockpits"] = [c.faction for c in game.data.cockpits]
    out["engines"] = [e.faction for e in game.data.engines]
    return out


def _dragon_stripes(game: Any) -> dict[str, Any]:
    out: dict[str, Any] = _without_source(plain(game.comp))
    out["total_gems"] = game.comp.total_gems
    return out


def _dragon_race(game: Any) -> dict[str, Any]:
    out: dict[str, Any] = _without_source(plain(game.data))
    for card in out["cards"]:
        card["name"] = game.card_name[card["id"]]
        card["text"] = game.describe_card(card["id"])
    return out


COMPONENTS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "space-dragons": _space_dragons,
    "space-race": _space_race,
    "dragon-stripes": _dragon_stripes,
    "dragon-race": _dragon_race,
}


def components(game: Game) -> dict[str, Any]:
    """The printed component data of ``game`` (as its options chose it), JSON-ready."""
    build = COMPONENTS.get(game.spec.id)
    return build(game) if build is not None else {}


def table_catalog(game: Game) -> dict[str, Any]:
    """Everything public a page needs to draw a table of ``game``: components, a label for
    every action, and the text patterns of every kind of event."""
    return {
        "game": game.spec.id,
        "players": game.players,
        "options": dict(game.options),
        "components": components(game),
        "actions": {str(a): game.describe_action(a) for a in game.actions},
        "events": {
            kind: {"text": s.text, "public_text": s.public_text, "fields": list(s.fields)}
            for kind, s in game.event_specs.items()
        },
    }


def player_rules(package: str) -> str | None:
    """The rules written for players (``<package>/data/player_rules.md``), or None."""
    try:
        text = files(package).joinpath("data", "player_rules.md").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError, OSError):
        return None
    return text.strip() or None


def rules(game: Game) -> dict[str, Any]:
    """A game's rules: the players' rules in Markdown (``player_rules``, None for a game
    without them), its package's docstring (rules, then rulings and deviations) and what
    each kind of action does."""
    module = type(game).__module__
    package = module.rsplit(".", 1)[0] if "." in module else module
    doc = getattr(sys.modules.get(package), "__doc__", None) or getattr(
        sys.modules.get(module), "__doc__", None
    )
    return {
        "id": game.spec.id,
        "name": game.spec.name,
        "summary": game.spec.summary,
        "text": (doc or game.spec.summary).strip(),
        "player_rules": player_rules(package),
        "actions": [{"form": k.form, "help": k.help} for k in game.table.kinds],
    }
