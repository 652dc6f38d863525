"""What each seat may know in Dragon Stripes, and the hidden-state sampler.

What is public: the knight, the pot and its takeover price, whose turn and who holds the
knight, the dragon's phase, every card drawn so far (so the make-up of the rest of the
deck), and every payment made in the open: pots banked, takeover prices paid and received,
and that a penalty was paid (with its fraction, 1/4 or 1/2). A penalty is paid into the
lair from behind the player's screen, so its amount is the payer's secret; the lair's
total is not shown either, only that it has run dry (when a stripe could not be paid in
full, until gems next go into it).

What is secret: each seat's own total of gems (shown only to that seat) and the order of
the undrawn cards. With the ``open_holdings`` option every total is public.

The sampler keeps everything public, then redraws the order of the undrawn cards and each
other seat's gems within what its public ledger allows (:func:`holding_bounds`), such that
all the gems still add up (the pot and the viewer's own gems are known; the lair takes
the rest, and is exactly empty when the view says it is).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeAlias

from dragonlair.core.game_views import GameViews, install_views
from dragonlair.core.rng import shuffle_with
from dragonlair.core.views import ABSENT, View, own_keys

from .cards import DRAGON_PHASES, card_name
from .kinds import penalty_divisor, penalty_fraction, reward_multiplier
from .rules import DragonStripes, DragonStripesState, holding_bounds
from .view_types import DragonStripesView, LedgerEntry

# Each figure a view shows that is worked out from the state, in one place: build_view
# (the JSON view, filled in one pass) and DragonStripesSeatView (the typed view, each key
# when first read) both call these.


Undrawn = tuple[tuple[int, int], ...]  # (card code, how many are left) for each kind

# The decks asked about by undrawn(), by identity, each with the counts it last gave
# (entries replaced whole, never changed in place): a game's views are asked of one deck
# again and again, each time the same number of cards or a few more drawn, so a count
# starts from the last one. Kept for up to UNDRAWN_DECKS decks at once (the tables of a
# vector environment or a server take turns); then the next new deck starts afresh. An
# entry holds its deck, so no other deck can take that identity while it is kept. The
# entry last used is looked at first (one table asks again and again).
UNDRAWN_DECKS = 256
_Counted: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], int, Undrawn]
_undrawn: dict[int, _Counted] = {}
_last_counted: list[_Counted] = [((), (), 0, ())]


def undrawn(deck: tuple[int, ...], top: int, kinds: tuple[int, ...]) -> Undrawn:
    """The undrawn cards ``deck[top:]`` as ``(card code, how many)`` for each code of
    ``kinds`` in turn (``DragonStripes.card_kinds``)."""
    known = _last_counted[0]
    if known[0] is not deck:
        known = _undrawn.get(id(deck), known)
    last_deck, last_kinds, last_top, left = known
    if last_deck is deck and last_kinds is kinds and last_top <= top:
        if last_top == top:
            _last_counted[0] = known
            return left
        for c in deck[last_top:top]:  # one card on, usually
            i = kinds.index(c)
            left = (*left[:i], (c, left[i][1] - 1), *left[i + 1 :])
    else:
        rest = deck[top:]
        left = tuple(zip(kinds, map(rest.count, kinds), strict=True))
        if len(_undrawn) >= UNDRAWN_DECKS and id(deck) not in _undrawn:
            _undrawn.clear()
    _undrawn[id(deck)] = _last_counted[0] = (deck, kinds, top, left)
    return left


def deck_left(left: Undrawn) -> dict[str, int]:
    """The view's ``deck_left``: :func:`undrawn`'s counts by card name."""
    return {card_name(c): n for c, n in left}


def card_names(cards: tuple[int, ...]) -> list[str]:
    """Cards by name (the view's ``drawn``)."""
    return [card_name(c) for c in cards]


Ledger = tuple[tuple[int, int, int, int, int], ...]


def ledger_json(
    banked: Sequence[int],
    received: Sequence[int],
    paid: Sequence[int],
    penalties: Sequence[int],
    half_penalties: Sequence[int],
) -> list[LedgerEntry]:
    """The view's ``ledger``: each seat's public ledger, from the five lists by seat."""
    return [
        {"banked": b, "received": r, "paid": p, "penalties": q, "half_penalties": h}
        for b, r, p, q, h in zip(banked, received, paid, penalties, half_penalties, strict=True)
    ]


def build_view(st: DragonStripesState, seat: int | None, out: dict[str, Any]) -> None:
    """Add what ``seat`` (None: a spectator) may know to ``out``."""
    g = st.game
    deck, top, dangers = st.deck, st.top, st.dangers
    out["stripes"] = list(g.components.stripes)
    out["head"] = g.last_stripe + 1
    out["knight"] = st.knight
    out["pot"] = st.pot
    out["price"] = g.prices[st.pot]
    out["turn"] = st.turn
    out["starter"] = st.starter
    out["holder"] = st.holder
    out["must_draw"] = st.must_draw
    out["dangers"] = dangers
    out["dragon"] = DRAGON_PHASES[dangers]
    out["reward_multiplier"] = reward_multiplier(dangers, g.multipliers)
    out["penalty"] = penalty_fraction(penalty_divisor(dangers, g.divisors))
    out["drawn"] = card_names(deck[:top])
    out["deck_size"] = len(deck) - top
    out["deck_left"] = deck_left(undrawn(deck, top, g.card_kinds))
    out["lair_empty"] = st.lair_empty
    out["start_gems"] = g.start_gems
    out["total_gems"] = g.total_gems
    out["ledger"] = ledger_json(st.banked, st.received, st.paid, st.penalties, st.half_penalties)
    out["gems"] = None if seat is None else st.gems[seat]
    if g.open_holdings:
        out["all_gems"] = list(st.gems)
        out["lair"] = st.lair


class DragonStripesSeatView(View[DragonStripes]):
    """A seat's view of Dragon Stripes as a typed object (see ``core.views``): its keys
    are those of :class:`DragonStripesView`, and its attributes are the figures a bot
    reads without the mapping, as plain ints and tuples (read-only: ``Final``, which
    ``mypy`` holds every reader to). It holds the cards drawn and how many of each kind
    are left, never the order of the undrawn deck."""

    __slots__ = (
        "_drawn",
        "all_gems",
        "banked",
        "dangers",
        "deck_size",
        "gems",
        "half_penalties",
        "holder",
        "knight",
        "lair",
        "lair_empty",
        "left",
        "must_draw",
        "paid",
        "penalties",
        "pot",
        "price",
        "received",
        "start_gems",
        "starter",
        "stripes",
        "total_gems",
        "turn",
    )
    KEYS = own_keys(DragonStripesView)

    knight: Final[int]  # 0 is the tail
    turn: Final[int]
    starter: Final[int]  # the seat that started this turn
    holder: Final[int]  # the knight's holder
    must_draw: Final[bool]  # the holder must draw before it may hold
    pot: Final[int]
    price: Final[int]  # the pot's takeover price
    dangers: Final[int]  # Danger cards drawn
    deck_size: Final[int]  # cards left to draw
    left: Final[Undrawn]
    """The undrawn cards as ``(card code, how many)``, in the order of ``deck_left`` (a
    footprint's code is its steps; ``cards.STOP``, ``cards.DANGER``)."""
    stripes: Final[tuple[int, ...]]  # the gems each stripe shows, stripe 1 first
    lair_empty: Final[bool]
    lair: Final[int | None]  # shown only with open holdings (else None)
    gems: Final[int | None]  # the seat's own gems (None: a spectator)
    all_gems: Final[tuple[int, ...] | None]  # every seat's, with open holdings (else None)
    start_gems: Final[int]
    total_gems: Final[int]
    # each seat's public ledger, by seat (the view's ``ledger``)
    banked: Final[tuple[int, ...]]
    received: Final[tuple[int, ...]]
    paid: Final[tuple[int, ...]]
    penalties: Final[tuple[int, ...]]
    half_penalties: Final[tuple[int, ...]]

    def __init__(self, st: DragonStripesState, seat: int | None) -> None:
        View.__init__(self, st, seat)
        g = st.game
        deck, top, pot = st.deck, st.top, st.pot
        self._drawn = deck[:top]
        self.left = undrawn(deck, top, g.card_kinds)
        self.deck_size = len(deck) - top
        self.knight = st.knight
        self.pot = pot
        self.price = g.prices[pot]
        self.dangers = st.dangers
        self.turn = st.turn
        self.starter = st.starter
        self.holder = st.holder
        self.must_draw = st.must_draw
        self.lair_empty = st.lair_empty
        self.stripes = g.components.stripes
        self.start_gems = g.start_gems
        self.total_gems = g.total_gems
        self.banked = tuple(st.banked)
        self.received = tuple(st.received)
        self.paid = tuple(st.paid)
        self.penalties = tuple(st.penalties)
        self.half_penalties = tuple(st.half_penalties)
        self.gems = None if seat is None else st.gems[seat]
        shown = g.open_holdings
        self.all_gems = tuple(st.gems) if shown else None
        self.lair = st.lair if shown else None

    @property
    def ledger(self) -> Ledger:
        """By seat: banked, received, paid, penalties and half penalties."""
        return tuple(
            zip(
                self.banked,
                self.received,
                self.paid,
                self.penalties,
                self.half_penalties,
                strict=True,
            )
        )

    # the JSON value of every key (DragonStripesView's), worked out when first read

    def _k_stripes(self) -> list[int]:
        return list(self.stripes)

    def _k_head(self) -> int:
        return self._game.last_stripe + 1

    def _k_knight(self) -> int:
        return self.knight

    def _k_pot(self) -> int:
        return self.pot

    def _k_price(self) -> int:
        return self.price

    def _k_turn(self) -> int:
        return self.turn

    def _k_starter(self) -> int:
        return self.starter

    def _k_holder(self) -> int:
        return self.holder

    def _k_must_draw(self) -> bool:
        return self.must_draw

    def _k_dangers(self) -> int:
        return self.dangers

    def _k_dragon(self) -> str:
        return DRAGON_PHASES[self.dangers]

    def _k_reward_multiplier(self) -> int:
        return reward_multiplier(self.dangers, self._game.multipliers)

    def _k_penalty(self) -> str:
        return penalty_fraction(penalty_divisor(self.dangers, self._game.divisors))

    def _k_drawn(self) -> list[str]:
        return card_names(self._drawn)

    def _k_deck_size(self) -> int:
        return self.deck_size

    def _k_deck_left(self) -> dict[str, int]:
        return deck_left(self.left)

    def _k_lair_empty(self) -> bool:
        return self.lair_empty

    def _k_start_gems(self) -> int:
        return self.start_gems

    def _k_total_gems(self) -> int:
        return self.total_gems

    def _k_ledger(self) -> list[LedgerEntry]:
        return ledger_json(
            self.banked, self.received, self.paid, self.penalties, self.half_penalties
        )

    def _k_gems(self) -> int | None:
        return self.gems

    def _k_all_gems(self) -> Any:
        return ABSENT if self.all_gems is None else list(self.all_gems)

    def _k_lair(self) -> Any:
        return ABSENT if self.lair is None else self.lair


# What a bot is handed as a seat's view: the typed view, its JSON form read back (a dict),
# or a wrapper such as the checks' poisoned view. The TypedDict comes first so that mypy
# checks every key read; the Mapping, because compiled code checks a parameter's type
# and must take every one of them (docs/engine.md, "The compiled build").
AnyDragonStripesView: TypeAlias = DragonStripesView | DragonStripesSeatView | Mapping[str, Any]


def sample_from_view(st: DragonStripesState, view: dict[str, Any], rng: Any) -> None:
    """The hidden-state sampler: set every field of ``st`` from ``view``, redrawing
    what its seat cannot see with ``rng``."""
    g = st.game
    seat: int | None = view["seat"]
    st.knight = view["knight"]
    st.pot = view["pot"]
    st.dangers = view["dangers"]
    st.turn = view["turn"]
    st.starter = view["starter"]
    st.holder = view["holder"]
    st.must_draw = view["must_draw"]
    st.lair_empty = view["lair_empty"]
    ledger = view["ledger"]
    st.banked = [e["banked"] for e in ledger]
    st.received = [e["received"] for e in ledger]
    st.paid = [e["paid"] for e in ledger]
    st.penalties = [e["penalties"] for e in ledger]
    st.half_penalties = [e["half_penalties"] for e in ledger]

    code = {card_name(c): c for c in g.card_kinds}
    drawn = [code[name] for name in view["drawn"]]
    rest = list(g.deck)
    for c in drawn:
        rest.remove(c)
    shuffle_with(rng, rest)
    st.deck = tuple(drawn + rest)
    st.top = len(drawn)

    result = view.get("result")
    if result is not None:
        st.gems = list(result["points"])
    elif "all_gems" in view:
        st.gems = list(view["all_gems"])
    else:
        st.gems = _sample_gems(st, seat, view.get("gems"), rng)
    st.lair = g.total_gems - st.pot - sum(st.gems)


def _sample_gems(st: DragonStripesState, seat: int | None, mine: int | None, rng: Any) -> list[int]:
    """Every other seat's gems, uniform within its ledger's bounds, seat by seat in a
    random order, keeping the total feasible: the others and the lair together hold
    what the pot and the viewer do not, and the lair holds nothing if it is known empty."""
    g = st.game
    n = g.players
    gems = [0] * n
    room = g.total_gems - st.pot
    if seat is not None and mine is not None:
        gems[seat] = mine
        room -= mine
    bounds = {
        s: holding_bounds(
            g.start_gems,
            st.banked[s] + st.received[s],
            st.paid[s],
            st.penalties[s] - st.half_penalties[s],
            st.half_penalties[s],
            g.divisors,
        )
        for s in range(n)
        if s != seat
    }
    order = list(bounds)
    shuffle_with(rng, order)
    rest_low = sum(lo for lo, _ in bounds.values())
    rest_high = sum(hi for _, hi in bounds.values())
    for s in order:
        lo, hi = bounds[s]
        rest_low -= lo
        rest_high -= hi
        most = min(hi, room - rest_low)
        least = max(lo, room - rest_high) if st.lair_empty else lo
        pick = least + rng.randrange(most - least + 1)
        gems[s] = pick
        room -= pick
    return gems


# The views of the game's states: the rules never import this module; the game's package
# does, so they are installed whenever the rules are used.
install_views(DragonStripesState, GameViews(build_view, sample_from_view, DragonStripesSeatView))
