"""Dragon Stripes positions (see ``docs/rules/dragon-stripes.md``, "Positions").

Cards are written as the views write them: ``"footprint 3"``, ``"stop"``, ``"danger"``.
``drawn`` is every card turned over so far, in order; ``deck`` the cards still to come,
top first (the ones left out are shuffled in below, from the seed). The lair holds
whatever gems the seats and the pot do not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

from .cards import DANGER, card_name
from .rules import holding_bounds

if TYPE_CHECKING:
    from .rules import DragonStripesState

PHASES = ("draw", "offer")
LEDGER = ("banked", "received", "paid", "penalties", "half_penalties")


def write(st: DragonStripesState) -> dict[str, Any]:
    g = st.game
    out: dict[str, Any] = {
        "phase": st.phase,
        "turn": st.turn,
        "starter": st.starter,
        "holder": st.holder,
    }
    if st.phase == "draw":
        out["must_draw"] = st.must_draw
    else:
        out["asked"] = window_seats(st)
    out["knight"] = st.knight
    out["pot"] = st.pot
    out["gems"] = list(st.gems)
    out["lair"] = st.lair
    out["lair_empty"] = st.lair_empty
    out["drawn"] = [card_name(c) for c in st.deck[: st.top]]
    out["deck"] = [card_name(c) for c in st.deck[st.top :]]
    out["ledger"] = [{k: getattr(st, k)[s] for k in LEDGER} for s in range(g.players)]
    return out


def read(st: DragonStripesState, f: Fields, rng: Rng) -> None:
    """Read a position into the blank state ``st``: the deck, the ledger, the turn and the
    knight, the gems (the seats', the pot's and the lair's, which add up) and the phase;
    BadPosition names the first field that is wrong."""
    g = st.game
    n = g.players
    _read_deck(st, f, rng)
    _read_ledger(st, f)
    st.turn = f.number("turn", 1)
    st.starter = f.seat("starter", n)
    st.holder = f.seat("holder", n, st.starter)
    st.knight = f.number("knight", 0, g.last_stripe, 0)
    st.pot = f.number("pot", 0, g.total_gems, 0)
    if st.knight == 0 and st.pot:
        raise BadPosition("pot", "a pot with the knight at the tail")
    _read_gems(st, f)
    st.phase = f.text("phase", PHASES)
    if st.phase == "draw":
        st.must_draw = f.flag("must_draw", st.knight == 0)
        if not st.must_draw and st.knight == 0:
            raise BadPosition("must_draw", "at the tail the holder must draw")
        open_turn(st, (st.holder,))
    else:
        if st.knight == 0:
            raise BadPosition("phase", "the knight is offered only after a draw")
        st.must_draw = False
        asked = f.items("asked", list(g.others[st.holder]))
        seats = [check_int(f"asked[{i}]", a, 0, n - 1) for i, a in enumerate(asked)]
        order = g.others[st.holder]
        if not seats or tuple(seats) != order[len(order) - len(seats) :]:
            raise BadPosition(
                "asked",
                f"should be the last seats of {list(order)} (clockwise from the holder's left)",
            )
        open_window(st, seats, 3)  # DECLINE


def _read_deck(st: DragonStripesState, f: Fields, rng: Rng) -> None:
    """The cards drawn this turn and the deck's top; the rest of the deck shuffled."""
    g = st.game
    codes = {card_name(c): c for c in g.card_kinds}

    def lookup(x: object) -> int | None:
        return codes.get(x) if isinstance(x, str) else None

    pool = Pool(g.deck, card_name)
    drawn = names_to_ids("drawn", f.items("drawn", []), lookup)
    pool.take("drawn", drawn)
    top = names_to_ids("deck", f.items("deck", []), lookup)
    pool.take("deck", top)
    rest = pool.remaining()
    rng.shuffle(rest)
    st.deck = tuple(drawn + top + rest)
    st.top = len(drawn)
    st.dangers = drawn.count(DANGER)
    if st.dangers >= 3:
        raise BadPosition("drawn", "the third Danger has been drawn: the game would be over")
    if DANGER not in st.deck[st.top :]:
        raise BadPosition("deck", "no Danger is left to end the game")


def _read_ledger(st: DragonStripesState, f: Fields) -> None:
    """Each seat's ledger: banked, received, paid, penalties (and half ones)."""
    n = st.game.players
    ledger = f.items("ledger", [{}] * n, size=n)
    for k in LEDGER:
        setattr(st, k, [0] * n)
    for s, entry in enumerate(ledger):
        e = Fields(entry, f"ledger[{s}]")
        for k in LEDGER:
            getattr(st, k)[s] = e.number(k, 0, None, 0)
        e.finish()
        if st.half_penalties[s] > st.penalties[s]:
            raise e.fail("half_penalties", "is more than the seat's penalties")
    if sum(st.received) != sum(st.paid):
        raise BadPosition("ledger", "takeover prices received and paid do not add up")


def _read_gems(st: DragonStripesState, f: Fields) -> None:
    """Each seat's gems, within what its ledger allows (needed only where a penalty
    makes it unknown), and the lair: the gems the seats and the pot do not hold."""
    g = st.game
    n = g.players
    bounds = [
        holding_bounds(
            g.start_gems,
            st.banked[s] + st.received[s],
            st.paid[s],
            st.penalties[s] - st.half_penalties[s],
            st.half_penalties[s],
            g.divisors,
        )
        for s in range(n)
    ]
    raw = f.items("gems", None, size=n)
    if raw is None:
        if any(lo != hi for lo, hi in bounds):
            raise BadPosition("gems", "is missing: seats that paid penalties need their gems")
        gems = [lo for lo, _ in bounds]
    else:
        gems = [check_int(f"gems[{s}]", v, 0) for s, v in enumerate(raw)]
    for s, (lo, hi) in enumerate(bounds):
        if not lo <= gems[s] <= hi:
            raise BadPosition(f"gems[{s}]", f"is {gems[s]}; the seat's ledger allows {lo}..{hi}")
    st.gems = gems
    lair = g.total_gems - st.pot - sum(gems)
    if lair < 0 or f.number("lair", None, None, lair) != lair:
        raise BadPosition(
            "gems",
            f"gems not conserved: seats {sum(gems)}, pot {st.pot} and lair "
            f"{f.data.get('lair', lair)} should add up to {g.total_gems}",
        )
    st.lair = lair
    st.lair_empty = f.flag("lair_empty", lair == 0)
    if st.lair_empty and lair:
        raise BadPosition("lair_empty", f"the lair holds {lair} gems")
