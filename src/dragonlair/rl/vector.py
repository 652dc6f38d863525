"""The per-table loops of the vector environment (``pettingzoo_env.vector_env``): check
every table's action, apply them, and encode the next seat's view into its row of the
batch. They run once per table for every call, so they live in a module of their own,
which the compiled build compiles with the layouts it calls (the environments' modules,
whose classes extend PettingZoo's and Gymnasium's, stay interpreted)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import State
from .common import action_index, refuse
from .layout import Encoder, Out


def checked_actions(
    states: Sequence[State],
    asked: Sequence[int],
    ended: Sequence[bool],
    ids: Sequence[Any],
    limit: int,
) -> list[int]:
    """Every table's action id, -1 for a table whose game ended (to be dealt again),
    checked at every table before any is applied: ValueError for an id that is not one
    in ``range(limit)``, IllegalAction for one the rules do not allow the seat asked."""
    chosen: list[int] = []
    for i, state in enumerate(states):
        if ended[i]:
            chosen.append(-1)
            continue
        raw = ids[i]
        if type(raw) is int and 0 <= raw < limit:
            aid: int = raw
        else:
            aid = action_index(raw, limit, f"table {i}'s action")
        seat = asked[i]
        if aid not in state.legal_action_ids(seat):
            raise refuse(state, seat, aid)
        chosen.append(aid)
    return chosen


def apply_actions(
    states: list[State], asked: list[int], chosen: Sequence[int], deal: Callable[[int], State]
) -> list[int]:
    """Apply each table's checked action for its seat asked, or deal table ``i`` again
    (``deal(i)``) where it is -1; ``asked`` then holds the seat asked next at each table
    (the last seat asked where the game is over). Returns the tables whose game ended."""
    over: list[int] = []
    for i, aid in enumerate(chosen):
        if aid < 0:
            state = states[i] = deal(i)
            asked[i] = state.to_act[0]
            continue
        state = states[i]
        state.apply_id(asked[i], aid)
        if state.is_over:
            over.append(i)
        else:
            asked[i] = state.to_act[0]
    return over


def observe_tables(
    states: Sequence[State],
    asked: Sequence[int],
    encoder: Encoder,
    out: Out,
    masks: npt.NDArray[np.int8],
) -> None:
    """Encode each table's seat asked into row ``i`` of ``out`` (the batch as
    ``Encoder.writable`` gives it), and set row ``i`` of ``masks`` (tables x actions) to
    that seat's legal action ids: the ids are collected in one pass and set with one
    NumPy call."""
    width = masks.shape[1]
    hot: list[int] = []
    for i, state in enumerate(states):
        seat = asked[i]
        encoder.encode_row(state.seat_view(seat), seat, out, i)
        base = i * width
        for aid in state.legal_action_ids(seat):
            hot.append(base + aid)
    flat = masks.reshape(-1)
    flat[:] = 0
    flat[hot] = 1
