"""The rules of Dragon Stripes: the game (spec, actions, events) and its state.

Each rule lives in one method of :class:`DragonStripesState`:

- ``_draw``: turn over the top card (footprint, Stop, Danger);
- ``_advance``: a footprint moves the knight and fills the pot from the lair (doubled after
  the second Danger; the lair pays what it has), or reaches the head;
- ``_flee``: a Stop or one of the first two Dangers: the pot returns to the lair, the holder
  pays the penalty, the turn ends;
- ``_hold``, ``_take``, ``_decline``: the hand-over, asked one seat at a time;
- ``_start_turn``: the next turn goes clockwise from the seat that started the last one;
- ``_end``: the head, or the third Danger; the richest wins.

Views and the hidden-state sampler are in :mod:`.view`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal, get_args

from mypy_extensions import mypyc_attr

from dragonlair.core import (
    Action,
    Game,
    GameSpec,
    OptionSpec,
    State,
    make_result,
)
from dragonlair.i18n import N_, _

from . import view_types
from .cards import (
    DANGER,
    DRAGON_PHASES,
    STOP,
    Components,
    check_players,
    load_components,
)
from .kinds import (
    ACTION_KINDS,
    DECLINE,
    DRAW,
    DRAWING,
    EVENT_SPECS,
    HOLD,
    OFFER,
    PHASE_NAMES,
    PHASES,
    SECOND_DANGER,
    TAKE,
    Phase,
    penalty_divisor,
    penalty_fraction,
    reward_multiplier,
)

# Where the knight stands: 0 is the tail; stripes are 1..last; last + 1 is the head.
TAIL = 0


# How a game ends (``Result.termination``), and the words a result gives for each
# (``Result.reason``, "" where none are needed).
Termination = Literal["head", "woke"]
TERMINATIONS: Final[dict[Termination, str]] = {
    "head": "the knight reached the dragon's head",
    "woke": "the third Danger woke the dragon",
}
TERMINATION_NAMES: Final[tuple[Termination, ...]] = get_args(Termination)


# Interpreted subclasses: the bot checks' poisoned states (dragonlair.bots.checks).
@mypyc_attr(allow_interpreted_subclasses=True)
class DragonStripesState(State["DragonStripes"]):
    """One game of Dragon Stripes. Fields are plain data; per-seat lists are indexed by seat.

    ``deck`` is the whole deck in drawing order and ``top`` the number of cards drawn, so
    ``deck[:top]`` is public and ``deck[top:]`` is hidden. ``gems`` is secret (each seat
    sees its own); ``banked``, ``received`` and ``paid`` (takeover prices), and the counts
    of ``penalties`` (of which ``half_penalties`` at 1/2) are public."""

    __slots__ = (
        "banked",
        "dangers",
        "deck",
        "gems",
        "half_penalties",
        "holder",
        "knight",
        "lair",
        "lair_empty",
        "must_draw",
        "paid",
        "penalties",
        "pot",
        "received",
        "starter",
        "top",
        "turn",
    )

    phase: Phase  # one of the phases the game declares (kinds.PHASES)
    deck: tuple[int, ...]
    top: int
    knight: int
    pot: int
    lair: int
    dangers: int
    turn: int
    starter: int
    holder: int
    must_draw: bool
    lair_empty: bool
    gems: list[int]
    banked: list[int]
    received: list[int]
    paid: list[int]
    penalties: list[int]
    half_penalties: list[int]

    # ------------------------------------------------------------------ setup and turns

    def _setup(self) -> None:
        g = self.game
        n = g.players
        deck = list(g.deck)
        self._shuffle(deck)
        self.deck = tuple(deck)
        self.top = 0
        self.gems = [g.start_gems] * n
        self.banked = [0] * n
        self.received = [0] * n
        self.paid = [0] * n
        self.penalties = [0] * n
        self.half_penalties = [0] * n
        self.lair = g.total_gems - g.start_gems * n
        self.lair_empty = self.lair == 0
        self.pot = 0
        self.knight = TAIL
        self.dangers = 0
        self.turn = 0
        self._emit("setup", (n, g.start_gems, self.lair))
        self._start_turn(0)

    def _start_turn(self, seat: int) -> None:
        """The knight goes back to the tail and ``seat`` starts a turn: it must draw."""
        self.turn += 1
        self.starter = self.holder = seat
        self.knight = TAIL
        self.must_draw = True
        self.phase = DRAWING
        self._to_act = (seat,)
        self._emit("turn", (seat, self.turn))

    def _next_turn(self) -> None:
        """The next turn goes to the seat clockwise from the one that started this one,
        however many times the knight changed hands."""
        self._start_turn((self.starter + 1) % self.game.players)

    def reward_multiplier(self) -> int:
        """Stripes give their gems once, twice from the second Danger on (the data
        file's reward_multiplier)."""
        return reward_multiplier(self.dangers, self.game.multipliers)

    def penalty_divisor(self) -> int:
        """A Stop costs 1/4 of the holder's gems, 1/2 from the second Danger on (that
        Danger included; the data file's penalty_divisor)."""
        return penalty_divisor(self.dangers, self.game.divisors)

    # ------------------------------------------------------------------ actions

    def _legal_ids(self, seat: int) -> list[int]:
        if self.phase == DRAWING:
            return [DRAW] if self.must_draw else [DRAW, HOLD]
        if self.gems[seat] >= self.game.prices[self.pot]:
            return [TAKE, DECLINE]
        return [DECLINE]  # a seat that cannot pay is still asked, so asking reveals nothing

    def _step(self, seat: int, aid: int) -> None:
        if aid == DRAW:
            self._draw(seat)
        elif aid == HOLD:
            self._hold(seat)
        elif aid == TAKE:
            self._take(seat)
        else:
            self._decline(seat)

    def _draw(self, seat: int) -> None:
        card = self.deck[self.top]
        self.top += 1
        if card > 0:
            self._advance(seat, card)
        elif card == STOP:
            self._emit("stop", (seat, self.pot))
            self._flee(seat)
        else:
            self.dangers += 1
            if self.dangers == 3:
                self._wake(seat)
            else:
                self._emit("danger", (seat, self.dangers, self.pot, DRAGON_PHASES[self.dangers]))
                self._flee(seat)

    def _advance(self, seat: int, steps: int) -> None:
        """A footprint: the knight moves on and the pot gains the stripe's gems from the
        lair (twice as many after the second Danger); a short lair pays what it has.
        Any move past the last stripe reaches the head."""
        g = self.game
        knight = self.knight + steps
        if knight > g.last_stripe:
            self._reach_head(seat, steps)
            return
        shown = g.stripes[knight] * self.reward_multiplier()
        lair = self.lair
        gained = shown if shown <= lair else lair
        self.lair = lair - gained
        self.pot += gained
        self.knight = knight
        self.must_draw = False
        self._emit("moved", (seat, steps, knight, gained, self.pot))
        if gained < shown:
            self.lair_empty = True
            self._emit("lair_short", (knight, shown, gained))

    def _flee(self, seat: int) -> None:
        """A Stop, or the first or second Danger: the pot returns to the lair, the holder
        pays 1/4 of their gems (1/2 from the second Danger on; the data's
        penalty_divisor), rounded down, into the lair, and the turn ends."""
        divisor = self.penalty_divisor()
        fine = self.gems[seat] // divisor
        self.gems[seat] -= fine
        self.lair += self.pot + fine
        self.pot = 0
        self.penalties[seat] += 1
        if self.dangers >= SECOND_DANGER:
            self.half_penalties[seat] += 1
        self.lair_empty = False  # gems went in, how many is not public
        audience = None if self.game.open_holdings else (seat,)
        self._emit("penalty", (seat, fine, penalty_fraction(divisor)), audience)
        self._next_turn()

    def _hold(self, seat: int) -> None:
        """Hold: the knight is offered to every other player in turn, clockwise from the
        holder's left, until one takes it."""
        price = self.game.prices[self.pot]
        self._emit("held", (seat, self.pot, price))
        self.phase = OFFER
        self._open_window(self.game.others[seat], DECLINE)

    def _take(self, seat: int) -> None:
        """Take over: pay the holder the price, take the knight and the pot, then draw."""
        price = self.game.prices[self.pot]
        holder = self.holder
        self.gems[seat] -= price
        self.paid[seat] += price
        self.gems[holder] += price
        self.received[holder] += price
        self._emit("took", (seat, holder, price, self.pot))
        self._close_window()
        self.holder = seat
        self.must_draw = True
        self.phase = DRAWING
        self._to_act = (seat,)

    def _decline(self, seat: int) -> None:
        self._emit("declined", (seat,))
        if not self._window_next():
            holder = self.holder
            self.gems[holder] += self.pot
            self.banked[holder] += self.pot
            self._emit("banked", (holder, self.pot))
            self.pot = 0
            self._next_turn()

    # ------------------------------------------------------------------ the end

    def _reach_head(self, seat: int, steps: int) -> None:
        """Past the last stripe: the holder takes the pot and everything left in the lair."""
        pot, lair = self.pot, self.lair
        self.knight = self.game.last_stripe + 1
        self.gems[seat] += pot + lair
        self.pot = self.lair = 0
        self._emit("head", (seat, steps, pot, lair))
        self._end("head", head=(seat, pot + lair))

    def _wake(self, seat: int) -> None:
        """The third Danger: the dragon wakes and its waker loses all their gems (to the
        lair, with the pot)."""
        lost, pot = self.gems[seat], self.pot
        self.gems[seat] = 0
        self.lair += lost + pot
        self.lair_empty = False
        self.pot = 0
        self._emit("woke", (seat, lost, pot))
        self._end("woke", woke=(seat, lost))

    def _end(
        self, how: Termination, head: tuple[int, int] = (-1, 0), woke: tuple[int, int] = (-1, 0)
    ) -> None:
        """The richest player wins; tied players share the win."""
        g = self.game
        breakdown = []
        for s in range(g.players):
            gained = head[1] if s == head[0] else 0
            lost = woke[1] if s == woke[0] else 0
            before_end = g.start_gems + self.banked[s] + self.received[s] - self.paid[s]
            fines = before_end + gained - lost - self.gems[s]  # paid from behind the screen
            breakdown.append(
                {
                    "start": g.start_gems,
                    "banked pots": self.banked[s],
                    "takeover prices received": self.received[s],
                    "takeover prices paid": -self.paid[s],
                    "penalties": -fines,
                    "dragon's head": gained,
                    "woke the dragon": -lost,
                }
            )
        reason = TERMINATIONS[how]
        result = make_result(self.gems, breakdown=breakdown, reason=reason, termination=how)
        self._finish(result)
        self._emit("game_over", (reason, result.winners, tuple(self.gems)))

    # ------------------------------------------------------------------ views, copies, checks

    def check_invariants(self) -> None:
        g = self.game
        n = g.players
        assert min(self.gems) >= 0 and self.pot >= 0 and self.lair >= 0, "negative gems"
        held = sum(self.gems) + self.pot + self.lair
        assert held == g.total_gems, f"gems not conserved: {held} != {g.total_gems}"
        assert sorted(self.deck) == sorted(g.deck), "the deck is not the deck"
        assert 0 <= self.top <= len(self.deck), f"bad deck position {self.top}"
        drawn = self.deck[: self.top]
        assert self.dangers == drawn.count(DANGER), "Danger count disagrees with the cards"
        assert not self.lair_empty or self.lair == 0, "the lair is said to be empty but is not"
        assert all(len(x) == n for x in (self.banked, self.received, self.paid)), "seat lists"
        assert sum(self.received) == sum(self.paid), "takeover prices not conserved"
        if self.is_over:
            assert self.pot == 0, "a pot is left after the end"
            return
        assert self.dangers < 3, "the third Danger should have ended the game"
        assert DANGER in self.deck[self.top :], "the deck cannot run out before the game ends"
        assert 0 <= self.knight <= g.last_stripe, f"knight off the dragon: {self.knight}"
        assert self.knight > TAIL or self.pot == 0, "a pot without a move"
        assert self.turn >= 1 and 0 <= self.starter < n and 0 <= self.holder < n
        for s in range(n):
            lo, hi = holding_bounds(
                g.start_gems,
                self.banked[s] + self.received[s],
                self.paid[s],
                self.penalties[s] - self.half_penalties[s],
                self.half_penalties[s],
                g.divisors,
            )
            assert lo <= self.gems[s] <= hi, (
                f"seat {s} holds {self.gems[s]}, outside what its public ledger allows ({lo}..{hi})"
            )


@lru_cache(maxsize=4096)  # bots and the sampler ask the same few ledgers again and again
def holding_bounds(
    start: int, income: int, paid: int, quarter: int, half: int, divisors: tuple[int, int]
) -> tuple[int, int]:
    """The least and most gems a seat can hold, from its public ledger: ``start`` gems,
    ``income`` received in the open (banked pots, takeover prices), ``paid`` in the open
    (takeover prices), and ``quarter`` penalties of 1/4 then ``half`` penalties of 1/2
    (every 1/4 penalty comes before the second Danger, every 1/2 one from it on; the
    fractions are 1/d of ``divisors``, the data file's penalty_divisor).

    A penalty of 1/d keeps g - floor(g/d) of g gems (ceil(3g/4), ceil(g/2)), which never
    gains by taking income earlier or paying later. So the fewest gems come from taking
    all income before the penalties and paying after them, and the most from paying
    first and taking all income after them; without penalties the holding is exact."""
    whole = start + income - paid
    if quarter == 0 and half == 0:
        return whole, whole
    low = _after_penalties(start + income, quarter, half, divisors) - paid
    high = income + _after_penalties(max(0, start - paid), quarter, half, divisors)
    return max(0, low), min(whole, high)


def _after_penalties(gems: int, quarter: int, half: int, divisors: tuple[int, int]) -> int:
    first, second = divisors
    for _penalty in range(quarter):
        gems -= gems // first
    for _penalty in range(half):
        gems -= gems // second
    return gems


class DragonStripes(Game):
    """Dragon Stripes for 2 to 6 players."""

    spec = GameSpec(
        id="dragon-stripes",
        name="Dragon Stripes",
        min_players=2,
        max_players=6,
        rules_version=1,
        summary=(
            N_(
                "Push your luck up the dragon's back: draw, fill the pot, hold and offer the "
                "knight; Stop and Danger cost you, the third Danger wakes the dragon."
            )
        ),
        options=(
            OptionSpec(
                "data",
                None,
                N_("a JSON file of component values with the same schema as the built-in one"),
                kind="path",
            ),
            OptionSpec(
                "open_holdings",
                False,
                N_("play with holdings open: everyone sees every player's gems and penalties"),
                kind="bool",
            ),
        ),
    )
    state_class = DragonStripesState
    view_type = view_types.DragonStripesView
    action_kinds = ACTION_KINDS
    event_specs = EVENT_SPECS
    phases = PHASES
    phase_names = PHASE_NAMES
    terminations = TERMINATION_NAMES

    components: Components
    deck: tuple[int, ...]
    stripes: tuple[int, ...]
    last_stripe: int
    total_gems: int
    start_gems: int
    prices: tuple[int, ...]
    others: tuple[tuple[int, ...], ...]
    card_kinds: tuple[int, ...]
    open_holdings: bool
    divisors: tuple[int, int]  # the data's penalty_divisor: before the second Danger, from it
    multipliers: tuple[int, int]  # the data's reward_multiplier, likewise

    def _prepare(self) -> None:
        path = self.options["data"]
        comp = load_components(path if isinstance(path, str) else None)
        check_players(comp, self.players)
        n = self.players
        self.components = comp
        self.deck = comp.deck()
        self.stripes = (0, *comp.stripes)  # indexed by the knight's position; 0 is the tail
        self.last_stripe = len(comp.stripes)
        self.total_gems = comp.total_gems
        self.start_gems = comp.start_gems
        self.prices = tuple(comp.price(p) for p in range(self.total_gems + 1))
        self.card_kinds = (*(f.steps for f in comp.footprints), STOP, DANGER)
        self.others = tuple(tuple((s + k) % n for k in range(1, n)) for s in range(n))
        self.open_holdings = bool(self.options["open_holdings"])
        self.divisors = comp.penalty_divisor
        self.multipliers = comp.reward_multiplier

    def _define_actions(self) -> Sequence[Action]:
        return [Action("draw"), Action("hold"), Action("take"), Action("decline")]

    @property
    def max_length(self) -> int:
        """Every card is drawn at most once; each hold needs a draw since the knight was
        last picked up, and asks at most the other players once each."""
        return len(self.deck) * (1 + self.players)

    def describe_action(self, action: Action) -> str:
        return {
            "draw": _(
                "draw: turn over the top card (footprints move the knight and fill the "
                "pot; a Stop or Danger ends the turn and costs a penalty)"
            ),
            "hold": _(
                "hold: stop drawing and offer the knight to the others; if nobody takes "
                "it, you bank the pot"
            ),
            "take": _(
                "take over: pay the holder the takeover price, take the knight and the "
                "pot, and draw at least once"
            ),
            "decline": _("decline: let the knight go on to the next player"),
        }.get(action.kind, str(action))
