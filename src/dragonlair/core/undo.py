"""Taking back a decision, where that is fair.

A seat may take back its own last decision (and everything played after it) as long as
nothing hidden was revealed to anyone since. That is decided here for every game alike,
from what each seat was told, never from a per-game list of safe actions:

for every seat and for a spectator, the hidden part of the game before the decision is
redrawn many times with the game's own sampler (``game.sample_state`` from that seat's
view), the same actions are played on each redraw, and the events that seat receives
(with their audiences applied) and its view afterwards are compared with the real ones.
If some redraw would have told that seat anything different, what it was told depended
on something it could not see, and the undo is refused. When another seat's action is
not legal in a redraw (its secret hand was redrawn without the card it picked), any
action of that seat that looks the same to the observer stands in for it (a secret pick
looks like any other pick); if none does, the action told the observer something about
that seat's hidden cards (a card played face up), and the undo is refused: nothing hidden
may have been revealed to anyone, the undoing seat's own cards included.

The redraws are seeded from the game's seed and move number, so the answer is the same
every time and a record with an undo replays exactly. The undo itself rebuilds the
state before the decision from the record (position or seed, then the actions), keeps
the whole action chain (the undone actions and the ``undo``) and the events (with an
``undo`` event for everyone), so the record shows what was taken back.
"""

from __future__ import annotations

import json
import random
from typing import Any

from .errors import IllegalAction
from .position import build
from .rng import derive_seed
from .state import SERVICES, UNDO, State

REDRAWS = 32  # redraws per seat; each must tell the seat exactly what it was told


def effective_actions(state: State) -> list[tuple[int, int]]:
    """The actions in play (seat, id): the record's actions with the undone ones removed."""
    chain = []
    node = state._hist
    while node is not None:
        chain.append((node[1], node[2]))
        node = node[0]
    chain.reverse()
    out: list[tuple[int, int]] = []
    for seat, aid in chain:
        if aid == UNDO:
            del out[_last_of(out, seat) :]
        else:
            out.append((seat, aid))
    return out


def _last_of(actions: list[tuple[int, int]], seat: int) -> int:
    for i in range(len(actions) - 1, -1, -1):
        if actions[i][0] == seat:
            return i
    raise AssertionError(f"seat {seat} has no decision to undo")


def _origin(state: State) -> State:
    if state._origin is None:
        assert state.seed is not None
        return state.game.new_game(state.seed)
    return build(state.game, json.loads(state._origin), state.seed)


def _rebuild(state: State, actions: list[tuple[int, int]]) -> State:
    s = _origin(state)
    for seat, aid in actions:
        s._apply_checked(seat, aid)
    return s


def _observed(state: State, seat: int | None, since: int) -> tuple[Any, ...]:
    events = [{k: v for k, v in e.items() if k != "seq"} for e in state.events_since(since, seat)]
    view = state.view(seat)
    view.pop("move", None)
    return (events, view)


def _steps(before: State, played: list[tuple[int, int]], seat: int | None) -> list[Any]:
    """What ``seat`` observed at each of the actions ``played`` from ``before``."""
    s = before.clone()
    out = []
    for p, aid in played:
        start = s.event_count
        s._apply_checked(p, aid)
        out.append(_observed(s, seat, start))
    return out


def learnt(before: State, played: list[tuple[int, int]], seat: int | None) -> bool:
    """Whether ``seat`` was told something by ``played`` that depended on what it could
    not see at ``before``."""
    truth = _steps(before, played, seat)
    game = before.game
    view = before.view(seat)
    assert before.seed is not None
    rng = random.Random(derive_seed(before.seed, before.move, -1 if seat is None else seat))
    for _ in range(REDRAWS):
        s = game.sample_state(view, rng)
        for (p, aid), seen in zip(played, truth, strict=True):
            start = s.event_count
            legal = s._legal_ids(p) if p in s._to_act else []
            if aid in legal:
                s._apply_checked(p, aid)
                if _observed(s, seat, start) == seen:
                    continue
                return True
            # another seat's action that its redrawn hand does not allow: the seat learnt
            # nothing from it if some action it could take here looks the same to ``seat``
            for other in legal:
                t = s.clone()
                t._apply_checked(p, other)
                if _observed(t, seat, start) == seen:
                    s = t
                    break
            else:
                return True
    return False


def undo_point(state: State, seat: int) -> tuple[list[tuple[int, int]], int] | None:
    """The actions in play and the index of ``seat``'s last decision, if it may be taken
    back now; else None."""
    if state.seed is None or state.is_over:
        return None
    actions = effective_actions(state)
    try:
        i = _last_of(actions, seat)
    except AssertionError:
        return None
    before = _rebuild(state, actions[:i])
    played = actions[i:]
    for observer in [*range(state.game.players), None]:
        if learnt(before, played, observer):
            return None
    return actions, i


def can_undo(state: State, seat: int) -> bool:
    return undo_point(state, seat) is not None


def undo(state: State, seat: int) -> None:
    point = undo_point(state, seat)
    if point is None:
        raise IllegalAction(
            f"seat {seat} cannot take back its last decision: it has none, the game is over, "
            "or something hidden has been revealed since"
        )
    actions, i = point
    before = _rebuild(state, actions[:i])
    core = State._all_slots()  # not State.__slots__: a compiled State keeps none
    for name in type(state)._all_slots():
        if name not in core:  # the game's own fields
            setattr(state, name, getattr(before, name))
    state.phase = before.phase
    state._rng = before._rng
    state._to_act = before._to_act
    state._choices = None if before._choices is None else before._choices.copy()
    state._window = before._window
    state._window_default = before._window_default
    state._result = before._result
    state._legal = None
    state._hist = (state._hist, seat, UNDO)
    state._move += 1
    state._emit("undo", (seat, len(actions) - i))


SERVICES.can_undo = can_undo
SERVICES.undo = undo
