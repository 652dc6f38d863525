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
from ...dragon_stripes.cards import DANGER, DANGER_CARDS, STOP, card_name
from ...dragon_stripes.kinds import PHASES
from ...dragon_stripes.rules import DragonStripes
from ...dragon_stripes.view import holding_bounds
from ...dragon_stripes.view_types import DragonStripesView as View
from ..layout import (
    Context,
    Feature,
    Layout,
    Values,
    acting_feature,
    one_hot,
    per_game,
    phase_feature,
    ratio,
    seats_feature,
    to_act_feature,
    window_feature,
)


def _g(ctx: Context) -> DragonStripes:
    return ctx.game  # type: ignore[return-value]  # a DragonStripes encoder's context holds one


def _encoder(encode: Callable[[View, Context], Values]) -> Callable[[View, Context], Values]:
    """An encoder written as a lambda, with its view typed as this game's."""
    return encode


def _stripes(game: object) -> int:
    return cast(DragonStripes, game).last_stripe


def _max_steps(game: object) -> int:
    return max(f.steps for f in cast(DragonStripes, game).components.footprints)


@per_game
def _steps(game: Game) -> range:
    """The footprints' steps, 1 to the most."""
    return range(1, _max_steps(game) + 1)


def _kinds(game: object) -> int:
    return len(cast(DragonStripes, game).card_kinds)


def _players(game: object) -> int:
    return cast(DragonStripes, game).spec.max_players


def _knight(view: View, ctx: Context) -> list[float]:
    return one_hot(view["knight"], _g(ctx).last_stripe + 2)


def _ahead(view: View, ctx: Context) -> list[float]:
    g = _g(ctx)
    stripes = view["stripes"]
    best = 2 * max(stripes) if stripes else 0
    mult = view["reward_multiplier"]
    out = []
    for k in _steps(g):
        pos = view["knight"] + k
        out.append(ratio(stripes[pos - 1] * mult, best) if pos <= g.last_stripe else 0.0)
    return out


def _head_within(view: View, ctx: Context) -> list[float]:
    g = _g(ctx)
    return [1.0 if view["knight"] + k > g.last_stripe else 0.0 for k in _steps(g)]


def _pot(view: View, ctx: Context) -> list[float]:
    return [ratio(view["pot"], _g(ctx).total_gems)]


@per_game
def _scales(game: Game) -> tuple[int, tuple[int, ...]]:
    """The highest takeover price, and how many cards of each kind the deck has."""
    g = cast(DragonStripes, game)
    return max(b.price for b in g.components.takeover), tuple(g.deck.count(k) for k in g.card_kinds)


def _price(view: View, ctx: Context) -> list[float]:
    return [ratio(view["price"], _scales(ctx.game)[0])]


def _can_take(view: View, ctx: Context) -> list[float]:
    gems = view["gems"] or 0
    return [1.0 if gems >= view["price"] and view["holder"] != ctx.seat else 0.0]


def _dangers(view: View, ctx: Context) -> list[float]:
    return one_hot(view["dangers"], DANGER_CARDS + 1)


@per_game
def _kind_names(game: Game) -> tuple[str, ...]:
    """The name of each kind of card, in the game's order (the keys of ``deck_left``)."""
    return tuple(card_name(k) for k in cast(DragonStripes, game).card_kinds)


_STOP, _DANGER = card_name(STOP), card_name(DANGER)


def _deck_left(view: View, ctx: Context) -> list[float]:
    left = view["deck_left"]
    counts = _scales(ctx.game)[1]
    return [ratio(left[k], n) for k, n in zip(_kind_names(ctx.game), counts, strict=True)]


def _risk(view: View, ctx: Context) -> list[float]:
    left = view["deck_left"]
    bad = left[_STOP] + left[_DANGER]
    return [ratio(bad, view["deck_size"])]


def _deck_size(view: View, ctx: Context) -> list[float]:
    return [ratio(view["deck_size"], len(_g(ctx).deck))]


def _turn(view: View, ctx: Context) -> list[float]:
    return [min(1.0, ratio(view["turn"], len(_g(ctx).deck) + 1))]


def _my_gems(view: View, ctx: Context) -> list[float]:
    return [ratio(view["gems"] or 0, _g(ctx).total_gems)]


def _ledger(
    key: Literal["banked", "received", "paid", "penalties", "half_penalties"], most: str
) -> Feature:
    def encode(view: View, ctx: Context) -> list[float]:
        g = _g(ctx)
        top = (
            g.total_gems if most == "gems" else g.components.stop_cards + g.components.danger_cards
        )
        ledger = ctx.in_order(view["ledger"])
        return ([e[key] / top for e in ledger] if top else [0.0] * len(ledger)) + ctx.pad

    what = {
        "banked": "gems banked from pots",
        "received": "takeover prices received",
        "paid": "takeover prices paid",
        "penalties": "penalties paid (Stop or Danger)",
        "half_penalties": "of those, penalties at 1/2",
    }[key]
    scale = "all the gems in the box" if most == "gems" else "the Stop and Danger cards"
    return Feature(key, _players, f"per seat: {what}, over {scale}", encode)


def _bounds(view: View, ctx: Context) -> list[tuple[int, int]]:
    """Each seat's range of gems, by seat (worked out once per encoding, for the low and
    the high feature)."""
    got: tuple[View, list[tuple[int, int]]] | None = ctx.memo.get("bounds")
    if got is None or got[0] is not view:
        got = ctx.memo["bounds"] = (view, _work_out_bounds(view, ctx))
    return got[1]


def _work_out_bounds(view: View, ctx: Context) -> list[tuple[int, int]]:
    g = _g(ctx)
    if "all_gems" in view:
        return [(x, x) for x in view["all_gems"]]
    out = []
    for s, e in enumerate(view["ledger"]):
        if s == ctx.seat:
            mine = view["gems"] or 0
            out.append((mine, mine))
            continue
        out.append(
            holding_bounds(
                g.start_gems,
                e["banked"] + e["received"],
                e["paid"],
                e["penalties"] - e["half_penalties"],
                e["half_penalties"],
            )
        )
    return out


def _gems_low(view: View, ctx: Context) -> list[float]:
    total = _g(ctx).total_gems
    return [ratio(lo, total) for lo, _ in ctx.in_order(_bounds(view, ctx))] + ctx.pad


def _gems_high(view: View, ctx: Context) -> list[float]:
    total = _g(ctx).total_gems
    return [ratio(hi, total) for _, hi in ctx.in_order(_bounds(view, ctx))] + ctx.pad


def _open(view: View, ctx: Context) -> list[float]:
    return [1.0 if "all_gems" in view else 0.0]


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
            _knight,
        ),
        Feature(
            "ahead",
            _max_steps,
            "for a footprint of 1, 2, ... steps: the gems the pot would gain (doubled after "
            "the second Danger), over twice the richest stripe; 0 past the last stripe",
            _ahead,
        ),
        Feature(
            "head_within",
            _max_steps,
            "for a footprint of 1, 2, ... steps: 1 if it would reach the dragon's head",
            _head_within,
        ),
        Feature("pot", 1, "the pot, over all the gems in the box", _pot),
        Feature("price", 1, "the takeover price of the pot, over the highest price", _price),
        Feature(
            "can_take",
            1,
            "1 if the observer could pay the takeover price (and is not the holder)",
            _can_take,
        ),
        Feature(
            "dangers",
            DANGER_CARDS + 1,
            "one-hot number of Danger cards drawn (0 to 3; from 2, rewards double and a Stop "
            "costs 1/2)",
            _dangers,
        ),
        Feature(
            "must_draw",
            1,
            "1 if the knight's holder must draw before it may hold",
            _encoder(lambda v, c: [1.0 if v["must_draw"] else 0.0]),
        ),
        Feature(
            "holder",
            _players,
            "per seat: 1 for the knight's holder",
            _encoder(lambda v, c: c.seat_one_hot(v["holder"])),
        ),
        Feature(
            "starter",
            _players,
            "per seat: 1 for the seat that started this turn (the next turn is its left "
            "neighbour's)",
            _encoder(lambda v, c: c.seat_one_hot(v["starter"])),
        ),
        window_feature(),
        Feature(
            "deck_left",
            _kinds,
            "for each kind of card (footprint 1, 2, ..., Stop, Danger): how many are left "
            "undrawn, over how many the deck has",
            _deck_left,
        ),
        Feature("risk", 1, "Stop and Danger cards left, over the cards left", _risk),
        Feature("deck_size", 1, "cards left, over the whole deck", _deck_size),
        Feature("turn", 1, "the turn number, over the number of cards plus one", _turn),
        Feature(
            "lair_empty",
            1,
            "1 if the lair is known to have run dry",
            _encoder(lambda v, c: [1.0 if v["lair_empty"] else 0.0]),
        ),
        Feature("my_gems", 1, "the observer's own gems, over all the gems in the box", _my_gems),
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
            _gems_low,
        ),
        Feature(
            "gems_high",
            _players,
            "per seat: the most gems its public ledger allows (same scale)",
            _gems_high,
        ),
        Feature("open_holdings", 1, "1 if every seat's gems are shown (open holdings)", _open),
    ],
)
