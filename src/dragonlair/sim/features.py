"""Rich per-game data: what each game declares about a finished game beyond its result.

Each game says it through its manifest (:mod:`dragonlair.core.manifest`):

- the manifest's ``features``, ``features(view) -> {name: number}``: named numbers of a
  position; ``score_s`` is seat ``s``'s public score there, for snapshots of the score
  during the game;
- the manifest's ``game_data``, a module (``dragonlair/<game>/features.py`` in the four
  games) with ``features(state) -> dict``, read from the finished state's events
  and public view: ``{"start_seat": int | None, "length": {unit: int}, "seats": [{name:
  value}, ...]}`` (values are numbers, or strings of space-separated ids for lists such as
  cards played), and ``LENGTH`` and ``SEAT``, the names it always gives (so every row has
  the same columns).

:func:`features_module` and :func:`position_features` are the places that find them.
:func:`game_data` turns a finished game into flat columns for the results table:

- ``start_seat``; ``position_s``, seat ``s``'s place in turn order after the start
  player (0 = the start player);
- ``len_<unit>``: the length in the game's own units (rounds, turns);
- ``score_<label>_s``: the result's full scoring breakdown;
- ``<feature>_s``: the game's per-seat features;
- ``snap25_s``, ``snap50_s``, ``snap75_s``, ``snap90_s``: the public standing after 25,
  50, 75 and 90% of the decisions; ``leader25`` ... ``leader90``: the seat leading alone
  there (-1 on a tie for the lead); ``lead_changes``: how often the sole leader changed
  over checkpoints every 5% of the game;
- ``stage25`` ... ``stage90``: where the game stood at each snapshot in its own terms
  (``pick 5 of 9``, ``round 4 of 7``, ``turn 13``), where its features module has
  ``stage(state) -> int`` (taken like the standing: before the first decision and after
  each) and ``stage_name(game, value) -> str``.

The standing is what the game's ``position(view)`` says of the spectator's view, unless
its features module has its own ``standing(state)``, as the four games' have: Space Race,
each ship's running score as the view shows it (face-up cards, majorities so far;
face-down Fuel counts only for its majority), read from the state's row of stacks;
Space Dragons (``standing``), through the draft the points printed on
the cards each seat has hired so far (face down, so not public), from the hunt on the
points on the cards each seat has played and the dragons claimed; Dragon Stripes, each
seat's publicly known gems (start, banked pots, takeover prices received less paid; the
fines are private); the Great Dragon Race, each pawn's spot.

A game whose features module has ``standing(state)`` has it taken before the first
decision and after each by the simulation while it plays (``play_game``), and its
checkpoints are read from those. Otherwise snapshots replay the game's actions from its
seed (nothing a bot did is played again), so they cost about as much as the rules' part
of the game; a standing by ``position`` reads
the spectator's typed view (``state.seat_view(None)``), which works out only the keys
``position`` reads. The games' ``features`` read the event log (``state.event_log()``)
in one pass, without a dict per event.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, cast

from ..core import Action, Game, State
from ..core.manifest import Features, manifest

SNAPSHOTS = (25, 50, 75, 90)
CHECKPOINTS = 20  # lead changes are counted over the standings every 5% of the game


def features_module(game_id: str) -> ModuleType | None:
    """The module of finished games' data ``game_id``'s manifest names, or None."""
    found = manifest(game_id).load_game_data()
    return found if isinstance(found, ModuleType) else None


def position_features(game_id: str) -> Features | None:
    """The named numbers of a position that ``game_id``'s manifest declares, or None."""
    return manifest(game_id).features


# A game class's hooks, found once (looking up a manifest reads the installed entry points,
# which costs far more than a game).
_hooks: dict[type[Game], tuple[ModuleType | None, Features | None]] = {}


def hooks(game: Game) -> tuple[ModuleType | None, Features | None]:
    """The features module and position features of ``game``'s class, looked up once."""
    cls = type(game)
    found = _hooks.get(cls)
    if found is None:
        found = (features_module(game.spec.id), position_features(game.spec.id))
        _hooks[cls] = found
    return found


def column_name(label: str) -> str:
    """A breakdown label as a column name: ``"crew points"`` -> ``crew_points``."""
    return re.sub(r"[^0-9a-z]+", "_", label.lower()).strip("_")


def sole_leader(standing: Sequence[float]) -> int:
    """The seat with the most, or -1 when several share the most."""
    top = max(standing)
    return standing.index(top) if standing.count(top) == 1 else -1


def game_data(
    game: Game,
    state: State,
    actions: Sequence[tuple[int, Action]],
    module: ModuleType | None,
    position: Features | None = None,
    standings: Sequence[list[float]] | None = None,
    stages: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The flat per-game columns of a finished ``state`` (see the module's docstring).

    ``standings``: the game's own ``standing(state)`` taken before the first decision and
    after each one (``len(actions) + 1`` of them), as the simulation takes them while it
    plays a game whose features module has one; without them the checkpoints replay the
    game. ``stages``: the game's ``stage(state)`` taken the same way, which names where
    each snapshot fell (``stage25`` ... ``stage90``)."""
    result = state.result
    assert result is not None
    n = game.players
    out: dict[str, Any] = {}
    if module is not None:
        f = module.features(state)
        start = f["start_seat"]
        out["start_seat"] = -1 if start is None else start
        for s in range(n):
            out[f"position_{s}"] = -1 if start is None else (s - start) % n
        for unit in module.LENGTH:
            out[f"len_{unit}"] = f["length"][unit]
    for s, b in enumerate(result.breakdown):
        for label, points in b.items():
            out[f"score_{_column(label)}_{s}"] = points
    if module is not None:
        for s in range(n):
            seat = f["seats"][s]
            for name in module.SEAT:
                out[f"{name}_{s}"] = seat[name]
    if standings is not None:
        assert len(standings) == len(actions) + 1, "a standing before and after each decision"
        out.update(_checkpoints(n, len(actions), standings.__getitem__, state))
        if stages is not None and module is not None:
            assert len(stages) == len(actions) + 1, "a stage before and after each decision"
            out.update(_stage_names(module, game, len(actions), stages.__getitem__))
    else:
        tracked = standing_of(game, state, module, position)
        if tracked is not None:
            out.update(_snapshots(game, state, actions, tracked, module))
    return out


# the column names of the breakdown's labels, worked out once per label
_columns: dict[str, str] = {}


def _column(label: str) -> str:
    name = _columns.get(label)
    if name is None:
        name = _columns[label] = column_name(label)
    return name


def standing_of(
    game: Game, state: State, module: ModuleType | None, position: Features | None
) -> Callable[[State], list[float]] | None:
    """What the checkpoints read of a state: the game's own ``standing(state)`` where its
    features module has one (Space Dragons, whose draft has no public score), else the
    public score ``score_s`` of ``position`` on the spectator's view; None when neither."""
    own = getattr(module, "standing", None)
    if own is not None:
        return cast(Callable[[State], list[float]], own)
    if position is None or "score_0" not in position(state.seat_view(None)):
        return None
    pos = position
    keys = [f"score_{s}" for s in range(game.players)]

    def public(st: State) -> list[float]:
        values = pos(st.seat_view(None))
        return [float(values[k]) for k in keys]

    return public


def snapshot_moves(total: int) -> dict[int, list[int]]:
    """After how many of ``total`` decisions each snapshot of :data:`SNAPSHOTS` is taken:
    every percentage gets one, and in a short game two may share a move (3 decisions put
    both 50% and 75% after the second)."""
    wanted: dict[int, list[int]] = {}
    for p in SNAPSHOTS:
        wanted.setdefault(round(total * p / 100), []).append(p)
    return wanted


def _snapshots(
    game: Game,
    state: State,
    actions: Sequence[tuple[int, Action]],
    standing: Callable[[State], list[float]],
    module: ModuleType | None = None,
) -> dict[str, Any]:
    """Standings at fixed fractions of the game, from a replay of its actions, and where
    the module has ``stage``, the stage names of the snapshots."""
    total = len(actions)
    needed = checkpoint_moves(total)
    stage = getattr(module, "stage", None)
    replay = game.new_game(seed=state.seed)
    ids = game.table.ids
    taken: dict[int, list[float]] = {}
    stages: dict[int, int] = {}
    for move in range(total + 1):
        if move in needed:
            taken[move] = standing(replay)
            if stage is not None:
                stages[move] = stage(replay)
        if move < total:
            # the game's own legal sequence, from the same seed: nothing to check again
            seat, action = actions[move]
            replay.apply_unchecked(seat, ids[action])
    out = _checkpoints(game.players, total, taken.__getitem__, state)
    if stage is not None:
        out.update(_stage_names(module, game, total, stages.__getitem__))
    return out


def _stage_names(module: Any, game: Game, total: int, at: Callable[[int], int]) -> dict[str, str]:
    """``stage25`` ... ``stage90`` of a game of ``total`` decisions: the module's name of
    its ``stage`` ``at(move)`` after each snapshot's move."""
    out: dict[str, str] = {}
    for move, percents in snapshot_moves(total).items():
        name = str(module.stage_name(game, at(move)))
        for p in percents:
            out[f"stage{p}"] = name
    return out


def checkpoint_moves(total: int) -> set[int]:
    """The moves (decisions taken) of a game of ``total`` decisions at which a standing is
    read: the lead-change checkpoints every 5% and the snapshots."""
    return {round(total * k / CHECKPOINTS) for k in range(1, CHECKPOINTS)} | set(
        snapshot_moves(total)
    )


def _checkpoints(
    n: int, total: int, at: Callable[[int], list[float]], state: State
) -> dict[str, Any]:
    """The snapshot and lead-change columns of a game of ``total`` decisions, from its
    standing ``at(move)`` after each of :func:`checkpoint_moves`."""
    marks = sorted({round(total * k / CHECKPOINTS) for k in range(1, CHECKPOINTS)})
    leaders = [sole_leader(at(move)) for move in marks]
    out: dict[str, Any] = {}
    for move, percents in sorted(snapshot_moves(total).items()):
        now = at(move)
        for p in percents:
            for s in range(n):
                out[f"snap{p}_{s}"] = now[s]
            out[f"leader{p}"] = sole_leader(now)
    final = list(state.result.points) if state.result is not None else []
    leaders.append(sole_leader(final))
    sole = [x for x in leaders if x >= 0]
    out["lead_changes"] = sum(1 for a, b in itertools.pairwise(sole) if a != b)
    return out
