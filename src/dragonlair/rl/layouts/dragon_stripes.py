"""Dragon Stripes as a tensor: what the knight's holder and the players asked to take it
over weigh, from one seat's view.

A player deciding whether to draw again weighs the pot against the risk in the rest of
the deck (every drawn card is public, so the make-up of the undrawn deck is known), how
much the next footprints would add, how close the head is, and the dragon's phase (which
doubles rewards and penalties). A player offered the knight weighs the pot against the
price and what it can afford. Everyone follows the others' fortunes through the public
ledger: pots banked, takeover prices paid and received, penalties suffered; from it, the
range each seat's secret gems can lie in (``holding_bounds``, the rule the game's own
sampler uses). With ``open_holdings`` every seat's gems are shown exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, cast

from ...core import Game
from ...dragon_stripes.cards import DANGER, DANGER_CARDS, STOP
from ...dragon_stripes.kinds import PHASES, reward_multiplier
from ...dragon_stripes.rules import DragonStripes, holding_bounds
from ...dragon_stripes.view import DragonStripesSeatView as View
from ..layout import (
    Context,
    Feature,
    Layout,
    Out,
    acting_feature,
    per_game,
    phase_feature,
    seats_feature,
    to_act_feature,
    window_feature,
    write_per_seat,
    write_seat,
)

# Every feature writes the numbers that are not zero (see dragonlair.rl.layout) from the
# typed view's attributes.
Write = Callable[[View, Context, Out, int], None]


def _g(ctx: Context) -> DragonStripes:
    return ctx.game  # type: ignore[return-value]  # a DragonStripes encoder's context holds one


def _stripes(game: object) -> int:
    return cast(DragonStripes, game).last_stripe


@per_game
def _max_steps(game: Game) -> int:
    """The most steps a footprint takes."""
    return max(f.steps for f in cast(DragonStripes, game).components.footprints)


def _kinds(game: object) -> int:
    return len(cast(DragonStripes, game).card_kinds)


def _players(game: object) -> int:
    return cast(DragonStripes, game).spec.max_players


def _knight(view: View, ctx: Context, out: Out, at: int) -> None:
    out[at + view.knight] = 1.0


@per_game
def _richest(game: Game) -> int:
    """The gems of the richest stripe at the larger of the data file's reward multipliers
    (twice, in the printed game): the most a footprint can add to the pot."""
    g = cast(DragonStripes, game)
    stripes = g.components.stripes
    return max(g.multipliers) * max(stripes) if stripes else 0


def _ahead(view: View, ctx: Context, out: Out, at: int) -> None:
    best = _richest(ctx.game)
    if not best:
        return
    stripes = view.stripes
    last = _g(ctx).last_stripe
    mult = reward_multiplier(view.dangers, _g(ctx).multipliers)
    for k in range(1, _max_steps(ctx.game) + 1):
        pos = view.knight + k
        if pos > last:
            break
        gems = stripes[pos - 1]
        if gems:
            out[at + k - 1] = gems * mult / best


def _head_within(view: View, ctx: Context, out: Out, at: int) -> None:
    # a footprint of k steps reaches the head when knight + k is past the last stripe
    first = _g(ctx).last_stripe + 1 - view.knight  # the fewest steps that do
    for k in range(max(first, 1), _max_steps(ctx.game) + 1):
        out[at + k - 1] = 1.0


def _pot(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.pot:
        out[at] = view.pot / view.total_gems


@per_game
def _scales(game: Game) -> tuple[int, tuple[int, ...]]:
    """The highest takeover price, and how many cards of each kind the deck has."""
    g = cast(DragonStripes, game)
    return max(b.price for b in g.components.takeover), tuple(g.deck.count(k) for k in g.card_kinds)


def _price(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.price:
        out[at] = view.price / _scales(ctx.game)[0]


def _can_take(view: View, ctx: Context, out: Out, at: int) -> None:
    if (view.gems or 0) >= view.price and view.holder != ctx.seat:
        out[at] = 1.0


def _dangers(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.dangers <= DANGER_CARDS:
        out[at + view.dangers] = 1.0


def _must_draw(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.must_draw:
        out[at] = 1.0


def _holder(view: View, ctx: Context, out: Out, at: int) -> None:
    write_seat(view.holder, ctx, out, at)


def _starter(view: View, ctx: Context, out: Out, at: int) -> None:
    write_seat(view.starter, ctx, out, at)


def _deck_left(view: View, ctx: Context, out: Out, at: int) -> None:
    counts = _scales(ctx.game)[1]
    for k, (_, n) in enumerate(view.left):
        if n:
            out[at + k] = n / counts[k]


def _risk(view: View, ctx: Context, out: Out, at: int) -> None:
    bad = 0
    for code, n in view.left:
        if code in (STOP, DANGER):
            bad += n
    if bad:
        out[at] = bad / view.deck_size


def _deck_size(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.deck_size:
        out[at] = view.deck_size / len(_g(ctx).deck)


def _turn(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.turn:
        out[at] = min(1.0, view.turn / (len(_g(ctx).deck) + 1))


def _lair_empty(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.lair_empty:
        out[at] = 1.0


def _my_gems(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.gems:
        out[at] = view.gems / view.total_gems


LedgerKey = Literal["banked", "received", "paid", "penalties", "half_penalties"]
_LEDGER: dict[str, Callable[[View], tuple[int, ...]]] = {
    "banked": lambda v: v.banked,
    "received": lambda v: v.received,
    "paid": lambda v: v.paid,
    "penalties": lambda v: v.penalties,
    "half_penalties": lambda v: v.half_penalties,
}


def _ledger(key: LedgerKey, most: str) -> Feature:
    column = _LEDGER[key]

    def write(view: View, ctx: Context, out: Out, at: int) -> None:
        if most == "gems":
            top = view.total_gems
        else:
            c = _g(ctx).components
            top = c.stop_cards + c.danger_cards
        if top:
            write_per_seat(column(view), top, ctx, out, at)

    what = {
        "banked": "gems banked from pots",
        "received": "takeover prices received",
        "paid": "takeover prices paid",
        "penalties": "penalties paid (Stop or Danger)",
        "half_penalties": "of those, penalties at 1/2",
    }[key]
    scale = "all the gems in the box" if most == "gems" else "the Stop and Danger cards"
    return Feature(key, _players, f"per seat: {what}, over {scale}", write=write)


def _bounds(view: View, ctx: Context) -> list[tuple[int, int]]:
    """Each seat's fewest and most gems, observer first: what its public ledger allows
    (``holding_bounds``, the rule of the game's own sampler), exact for the observer and
    with open holdings. Worked out once per encoding, for the low and the high feature."""
    got: list[tuple[int, int]] | None = ctx.memo.get("bounds")
    if got is not None:
        return got
    out: list[tuple[int, int]] = []
    if view.all_gems is not None:
        out = [(view.all_gems[s], view.all_gems[s]) for s in ctx.order]
    else:
        mine = view.gems or 0
        start = view.start_gems
        for s in ctx.order:
            if s == ctx.seat:
                out.append((mine, mine))
                continue
            half = view.half_penalties[s]
            out.append(
                holding_bounds(
                    start,
                    view.banked[s] + view.received[s],
                    view.paid[s],
                    view.penalties[s] - half,
                    half,
                    _g(ctx).divisors,
                )
            )
    ctx.memo["bounds"] = out
    return out


def _gems_bound(high: bool) -> Write:
    def write(view: View, ctx: Context, out: Out, at: int) -> None:
        total = view.total_gems
        k = at
        for low, most in _bounds(view, ctx):
            x = most if high else low
            if x:
                out[k] = x / total
            k += 1

    return write


def _open(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.all_gems is not None:
        out[at] = 1.0


LAYOUT = Layout(
    "dragon-stripes",
    [
        phase_feature(PHASES),
        acting_feature(),
        to_act_feature(),
        seats_feature(),
        Feature(
            "knight",
            lambda g: _stripes(g) + 2,
            "one-hot knight position: the tail, each stripe, the head",
            write=_knight,
        ),
        Feature(
            "ahead",
            _max_steps,
            "for a footprint of 1, 2, ... steps: the gems the pot would gain (doubled after "
            "the second Danger), over the richest stripe at the larger reward (twice it); "
            "0 past the last stripe",
            write=_ahead,
        ),
        Feature(
            "head_within",
            _max_steps,
            "for a footprint of 1, 2, ... steps: 1 if it would reach the dragon's head",
            write=_head_within,
        ),
        Feature("pot", 1, "the pot, over all the gems in the box", write=_pot),
        Feature("price", 1, "the takeover price of the pot, over the highest price", write=_price),
        Feature(
            "can_take",
            1,
            "1 if the observer could pay the takeover price (and is not the holder)",
            write=_can_take,
        ),
        Feature(
            "dangers",
            DANGER_CARDS + 1,
            "one-hot number of Danger cards drawn (0 to 3; from 2, rewards double and a Stop "
            "costs 1/2)",
            write=_dangers,
        ),
        Feature(
            "must_draw",
            1,
            "1 if the knight's holder must draw before it may hold",
            write=_must_draw,
        ),
        Feature(
            "holder",
            _players,
            "per seat: 1 for the knight's holder",
            write=_holder,
        ),
        Feature(
            "starter",
            _players,
            "per seat: 1 for the seat that started this turn (the next turn is its left "
            "neighbour's)",
            write=_starter,
        ),
        window_feature(),
        Feature(
            "deck_left",
            _kinds,
            "for each kind of card (footprint 1, 2, ..., Stop, Danger): how many are left "
            "undrawn, over how many the deck has",
            write=_deck_left,
        ),
        Feature("risk", 1, "Stop and Danger cards left, over the cards left", write=_risk),
        Feature("deck_size", 1, "cards left, over the whole deck", write=_deck_size),
        Feature("turn", 1, "the turn number, over the number of cards plus one", write=_turn),
        Feature(
            "lair_empty",
            1,
            "1 if the lair is known to have run dry",
            write=_lair_empty,
        ),
        Feature(
            "my_gems", 1, "the observer's own gems, over all the gems in the box", write=_my_gems
        ),
        _ledger("banked", "gems"),
        _ledger("received", "gems"),
        _ledger("paid", "gems"),
        _ledger("penalties", "cards"),
        _ledger("half_penalties", "cards"),
        Feature(
            "gems_low",
            _players,
            "per seat: the fewest gems its public ledger allows (exact for the observer and "
            "with open holdings), over all the gems in the box",
            write=_gems_bound(high=False),
        ),
        Feature(
            "gems_high",
            _players,
            "per seat: the most gems its public ledger allows (same scale)",
            write=_gems_bound(high=True),
        ),
        Feature(
            "open_holdings", 1, "1 if every seat's gems are shown (open holdings)", write=_open
        ),
    ],
)
