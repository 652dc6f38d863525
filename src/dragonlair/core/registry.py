"""The functions that make, replay and load games, and read positions, by id.

Games are found through their manifests (:mod:`dragonlair.core.manifest`): the ones
installed under the ``dragonlair.games`` entry points and those added with
:func:`~dragonlair.core.manifest.register`. A game package is imported only when its
manifest is first loaded, so ``import dragonlair`` stays quick.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import (
    BadDataFile,
    BadOptions,
    BadRecord,
    DragonlairError,
    IllegalAction,
    UnknownAction,
    UnknownGame,
)
from .manifest import game_ids, manifest
from .position import BadPosition, build, check_int, parse
from .record import RECORD_FORMATS, Record, data_digests
from .spec import GameSpec
from .state import STATE_FORMAT, UNDO_TEXT, Game, State


def game_class(game_id: str) -> type[Game]:
    """The class of the game ``game_id``; UnknownGame lists the ids there are."""
    return manifest(game_id).game


def games() -> list[str]:
    """The ids of the games that can be made."""
    return game_ids()


def spec(game_id: str) -> GameSpec:
    """The declared spec of a game: name, player range, options, rules version."""
    return game_class(game_id).spec


def make(
    game_id: str, players: int | None = None, options: Mapping[str, object] | None = None
) -> Game:
    """A game for ``players`` (default: 4 where allowed) with ``options`` validated."""
    return game_class(game_id)(players, options)


def position(
    game_id: str, source: str | bytes | Mapping[str, Any], seed: int | None = None
) -> State:
    """The state a position describes (TOML or JSON text, or a dict), for the game
    ``game_id``; hidden parts left out are dealt from ``seed`` (omitted: a fresh one, kept
    in the record). Raises BadPosition naming the field that is wrong."""
    doc = parse(source)
    game_in_doc = doc.get("game", game_id)
    if game_in_doc != game_id:
        raise BadPosition("game", f"the position is for {game_in_doc!r}, not {game_id!r}")
    players = doc.get("players")
    if players is not None:
        check_int("players", players)
    options = doc.get("options", {})
    if not isinstance(options, Mapping):
        raise BadPosition("options", f"should be a table, not {options!r}")
    try:
        game = make(game_id, players=players, options=options)
    except BadOptions as e:
        raise BadPosition("players" if "player" in str(e) else "options", str(e)) from None
    return build(game, doc, seed)


def replay(record: Record | Mapping[str, Any] | str) -> State:
    """The state a record describes, rebuilt by playing its actions again."""
    if isinstance(record, str):
        record = Record.from_json(record)
    elif not isinstance(record, Record):
        record = Record.from_dict(record)
    game = _game_for(record.game, record.rules_version, record.players, record.options)
    _check_data_files(game, record)
    if record.position is None:
        state = game.new_game(record.seed)
    else:
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
        _name_termination(state, replayed)
        mine, theirs = state._snapshot(), replayed._snapshot()
        if mine != theirs:
            diff = sorted(k for k in mine if mine.get(k) != theirs.get(k))
            raise BadRecord(
                f"saved state does not match a replay of its actions (fields {', '.join(diff)})"
            )
    return state


def _name_termination(saved: State, replayed: State) -> None:
    """A finished game saved before results named their termination has "" there: it
    takes the replay's, when the rest of its result is the same."""
    mine, theirs = saved._result, replayed._result
    if mine is None or theirs is None or mine.termination or not theirs.termination:
        return
    if dataclasses.replace(mine, termination=theirs.termination) == theirs:
        saved._result = theirs


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
        return cls(players, options)
    except (BadOptions, BadDataFile) as e:
        raise BadRecord(f"record's players or options are not valid: {e}") from None


def _check_data_files(game: Game, record: Record) -> None:
    """Refuse a record whose data files have changed since it was played."""
    if not record.data_files:
        return
    now = data_digests(game.spec, game.options)
    for option, digest in record.data_files.items():
        if now.get(option) != digest:
            path = game.options.get(option)
            raise BadRecord(
                f"record was played with the data file {path} ({option}) whose SHA-256 was "
                f"{digest}; the file now has {now.get(option, 'no file')}: it has changed, "
                "so the record would replay other rules"
            )
