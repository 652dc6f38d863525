"""The registry of games, and the functions that make, replay and load them.

The four games are registered by id and imported only when first used, so ``import
dragonlair`` stays quick. Other games (the example game in our tests, a designer's
variant) can be added with :func:`register`.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import (
    BadOptions,
    BadRecord,
    DragonlairError,
    IllegalAction,
    UnknownAction,
    UnknownGame,
)
from .game import Game
from .record import RECORD_FORMATS, Record
from .spec import GameSpec
from .state import STATE_FORMAT, UNDO_TEXT, State

_BUILTIN: dict[str, str] = {
    "space-dragons": "dragonlair.space_dragons:SpaceDragons",
    "space-race": "dragonlair.space_race:SpaceRace",
    "dragon-stripes": "dragonlair.dragon_stripes:DragonStripes",
    "dragon-race": "dragonlair.dragon_race:DragonRace",
}
_classes: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Add a game class to the registry under its spec's id (usable as a decorator)."""
    _classes[cls.spec.id] = cls
    return cls


def unregister(game_id: str) -> None:
    _classes.pop(game_id, None)


def _load_builtin(game_id: str) -> type[Game] | None:
    target = _BUILTIN.get(game_id)
    if target is None:
        return None
    module_name, attr = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name is not None and module_name.startswith(e.name):
            return None  # this game is not part of this installation
        raise
    cls: type[Game] = getattr(module, attr)
    _classes[game_id] = cls
    return cls


def game_class(game_id: str) -> type[Game]:
    """The class registered under ``game_id``; UnknownGame lists the ids there are."""
    cls = _classes.get(game_id) if isinstance(game_id, str) else None
    if cls is None and isinstance(game_id, str):
        cls = _load_builtin(game_id)
    if cls is None:
        raise UnknownGame(f"no game {game_id!r}; the games are: {', '.join(games())}")
    return cls


def games() -> list[str]:
    """The ids of the games that can be made."""
    ids = [g for g in _BUILTIN if g in _classes or _load_builtin(g) is not None]
    return ids + sorted(g for g in _classes if g not in _BUILTIN)


def spec(game_id: str) -> GameSpec:
    """The declared spec of a game: name, player range, options, rules version."""
    return game_class(game_id).spec


def make(
    game_id: str, players: int | None = None, options: Mapping[str, object] | None = None
) -> Game:
    """A game for ``players`` (default: 4 where allowed) with ``options`` validated."""
    return game_class(game_id)(players, options)


def replay(record: Record | Mapping[str, Any] | str) -> State:
    """The state a record describes, rebuilt by playing its actions again."""
    if isinstance(record, str):
        record = Record.from_json(record)
    elif not isinstance(record, Record):
        record = Record.from_dict(record)
    game = _game_for(record.game, record.rules_version, record.players, record.options)
    if record.position is None:
        state = game.new_game(record.seed)
    else:
        from .position import BadPosition, build

        try:
            state = build(game, record.position, record.seed)
        except BadPosition as e:
            raise BadRecord(f"record's position cannot be set up: {e}") from None
    return replay_actions(state, record.actions)


def replay_actions(state: State, actions: Sequence[tuple[int, str]], start: int = 0) -> State:
    """Apply record actions (``[seat, "undo"]`` included) to ``state``; BadRecord names the
    first one that cannot be replayed."""
    for i, (seat, text) in enumerate(actions, start=start):
        try:
            if text == UNDO_TEXT:
                state.undo(seat)
            else:
                state.apply(seat, text)
        except (UnknownAction, IllegalAction, DragonlairError, ValueError) as e:
            raise BadRecord(
                f"record action {i} (seat {seat}: {text!r}) cannot be replayed: {e}"
            ) from None
    return state


def load(text: str | bytes) -> State:
    """A state from ``State.to_json()`` (or a record's JSON), exactly as it was saved.
    A saved state with a seed is checked against a replay of its actions."""
    try:
        doc = json.loads(text)
    except (ValueError, TypeError) as e:
        raise BadRecord(f"a saved game must be JSON: {e}") from None
    if not isinstance(doc, dict):
        raise BadRecord("a saved game is a JSON object")
    fmt = doc.get("format")
    if fmt in RECORD_FORMATS:
        return replay(doc)
    if fmt != STATE_FORMAT:
        raise BadRecord(
            f"unknown format {fmt!r}; expected {STATE_FORMAT!r} "
            f"or one of {', '.join(RECORD_FORMATS)}"
        )
    for key in ("game", "rules_version", "players", "options", "seed", "actions", "state"):
        if key not in doc:
            raise BadRecord(f"saved game has no {key!r}")
    seed = doc["seed"]
    if seed is not None:
        keys = ("game", "rules_version", "players", "options", "seed", "actions", "position")
        rec = Record.from_dict({k: doc[k] for k in keys if k in doc})
        actions = rec.actions
    else:
        rec = None
        raw = doc["actions"]
        if not isinstance(raw, list) or not all(
            isinstance(a, list) and len(a) == 2 and isinstance(a[0], int) and isinstance(a[1], str)
            for a in raw
        ):
            raise BadRecord('saved actions should be a list of [seat, "action text"]')
        actions = tuple((a[0], a[1]) for a in raw)
    if not isinstance(doc["game"], str) or not isinstance(doc["options"], dict):
        raise BadRecord("saved game's 'game' should be an id and 'options' an object")
    game = _game_for(doc["game"], doc["rules_version"], doc["players"], doc["options"])
    state = game.state_class._restore(game, doc["state"], actions)
    if state.seed != seed:
        raise BadRecord("saved state's seed does not match its header")
    if rec is not None:
        replayed = replay(rec)
        mine, theirs = state._snapshot(), replayed._snapshot()
        if mine != theirs:
            diff = sorted(k for k in mine if mine.get(k) != theirs.get(k))
            raise BadRecord(
                f"saved state does not match a replay of its actions (fields {', '.join(diff)})"
            )
    return state


def _game_for(game_id: str, rules_version: object, players: object, options: Any) -> Game:
    try:
        cls = game_class(game_id)
    except UnknownGame as e:
        raise BadRecord(f"record is for an unknown game: {e}") from None
    if rules_version != cls.spec.rules_version:
        raise BadRecord(
            f"record was made under {cls.spec.name} rules version {rules_version}; "
            f"this is version {cls.spec.rules_version}"
        )
    try:
        return cls(players, options)  # type: ignore[arg-type]
    except BadOptions as e:
        raise BadRecord(f"record's players or options are not valid: {e}") from None
