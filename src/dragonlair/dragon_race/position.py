"""The Great Dragon Race positions (see ``docs/rules/dragon-race.md``, "Positions").

Cards are written by number, as the views show them; pawns by spot. ``draw`` is the draw
pile top first; a hand may be written in full or as a number (how many, dealt at random
from what is left), and the draw pile may be left out (the rest, shuffled). The HALT!
windows write ``asked``: the seat asked now, then those still to be asked.
"""

from __future__ import annotations

from typing import Any

from dragonlair.core.errors import UnknownAction
from dragonlair.core.position import (
    BadPosition,
    Fields,
    Pool,
    check_int,
    names_to_ids,
    open_turn,
    open_window,
    window_seats,
)
from dragonlair.core.rng import Rng

from .rules import DragonRaceState

# the phases a position can be in (see the rules module)
PLAY, HALT_PLAY, VICTIM, HALT_STEAL, STOLEN = "play", "halt-play", "victim", "halt-steal", "stolen"
PHASES = (PLAY, HALT_PLAY, VICTIM, HALT_STEAL, STOLEN)
PENDING_HALT = (HALT_PLAY, HALT_STEAL)  # the HALT! windows
PENDING_STEAL = (HALT_STEAL, STOLEN)  # a stolen card is in play


def write(st: DragonRaceState) -> dict[str, Any]:
    g = st.game
    n = g.players
    out: dict[str, Any] = {
        "phase": st.phase,
        "turn": st.turn,
        "active": st.active,
        "pawns": list(st.pawns),
        "turn_start": list(st.start),
        "hands": [list(h) for h in st.hands],
        "draw": list(st.draw[::-1]),
        "discards": list(st.discards),
        "extra_draw": [s for s in range(n) if st.extra[s]],
        "bonus": st.bonus,
        "robbed": list(st.victims),
    }
    if st.stolen >= 0:
        out["stolen"] = st.stolen
    if st.last >= 0:
        out["last"] = str(g.table.actions[st.last])
    out["moved"] = list(st.moved)
    if st.phase in PENDING_HALT:
        out["asked"] = window_seats(st)
    return out


def _seats(name: str, raw: object, n: int) -> list[int]:
    if not isinstance(raw, list):
        raise BadPosition(name, f"should be a list of seats, not {raw!r}")
    seats = [check_int(f"{name}[{i}]", s, 0, n - 1) for i, s in enumerate(raw)]
    if len(set(seats)) != len(seats):
        raise BadPosition(name, "names a seat twice")
    return seats


def read(st: DragonRaceState, f: Fields, rng: Rng) -> None:
    g = st.game
    n = g.players
    board = g.board

    def card(x: object) -> int | None:
        ok = isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= g.num_cards
        return x if ok else None  # type: ignore[return-value]

    st.phase = f.text("phase", PHASES)
    st.turn = f.number("turn", 1, g.turn_cap, 1)
    st.active = f.seat("active", n)
    pawns = f.items("pawns", size=n)
    st.pawns = [
        check_int(f"pawns[{s}]", p, board.start, board.finish - 1) for s, p in enumerate(pawns)
    ]
    start = f.items("turn_start", list(st.pawns), size=n)
    st.start = tuple(
        check_int(f"turn_start[{s}]", p, board.start, board.finish - 1) for s, p in enumerate(start)
    )
    pool = Pool(range(1, g.num_cards + 1), lambda c: f"card {c} ({g.card_name[c]})")
    discards = names_to_ids("discards", f.items("discards", []), card)
    pool.take("discards", discards)
    st.stolen = -1
    if st.phase in PENDING_STEAL:
        st.stolen = f.number("stolen", 1, g.num_cards)
        pool.take("stolen", [st.stolen])
    parts = []
    for s, h in enumerate(f.items("hands", size=n)):
        part = pool.part(f"hands[{s}]", h, card)
        size = len(part) if isinstance(part, list) else part
        if size > g.max_hand:
            raise BadPosition(f"hands[{s}]", f"holds {size} cards; at most {g.max_hand}")
        parts.append(part)
    top = names_to_ids("draw", f.items("draw", []), card) if f.has("draw") else []
    pool.take("draw", top)
    st.hands = [tuple(sorted(pool.fill(f"hands[{s}]", p, rng))) for s, p in enumerate(parts)]
    rest = pool.remaining()
    rng.shuffle(rest)
    st.draw = tuple((top + rest)[::-1])
    st.discards = tuple(discards)
    extra = _seats("extra_draw", f.items("extra_draw", []), n)
    st.extra = tuple(s in extra for s in range(n))
    st.bonus = f.flag("bonus", False)
    st.victims = tuple(_seats("robbed", f.items("robbed", []), n))
    if st.active in st.victims:
        raise BadPosition("robbed", "the active player does not rob themselves")
    last = f.text("last", None, "")
    st.last = -1
    if last:
        try:
            st.last = g.table.ids[g.table.parse(last)]
        except UnknownAction as e:
            raise BadPosition("last", str(e)) from None
    elif st.phase in PENDING_HALT:
        raise BadPosition("last", "a HALT! window is about a play or a steal: name it")
    st.moved = tuple(_seats("moved", f.items("moved", []), n))
    if st.phase in PENDING_HALT:
        order = g.others[st.active]
        asked = _seats("asked", f.items("asked", list(order)), n)
        if not asked or tuple(asked) != order[len(order) - len(asked) :]:
            raise BadPosition(
                "asked", f"should be the last seats of {list(order)} (from the active's left)"
            )
        open_window(st, asked, g.pass_id)
    else:
        open_turn(st, (st.active,))
    if st.phase == VICTIM and len(st._victims_here()) < 2:
        raise BadPosition("phase", "the victim is chosen only among two or more opponents")
