"""Space Dragons as a tensor: what a drafter and a dragon hunter weigh, from one seat's view.

In Hiring Crew a player weighs the cards in the hand it holds against its picks so far
and the scoring cards' sides; in the Dragon Hunt, its hand against the cards played this
round (who leads, and the crosshairs aimed at the leader), the face-up dragon, every
ship's shields and damage, and everyone's symbols and points on the table, which decide
the scoring cards. Cards are one-hot by number (1 to 80): a card's number is its
strength, and its symbols, points and effects follow from the number through the data.

What a seat saw of the hands passed to it during the draft is not in its view (the game
keeps views to what is on the table now; it is in the seat's own events), so it is not in
the tensor either; OpenSpiel's information-state string has it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, cast

from ...core import Game
from ...space_dragons.cards import CREW_CARDS, SYMBOLS
from ...space_dragons.kinds import PHASES
from ...space_dragons.rules import HAND, ROUNDS, SpaceDragons
from ...space_dragons.view_types import SpaceDragonsView as View
from ..layout import (
    Context,
    Feature,
    Layout,
    Values,
    acting_feature,
    choosing_feature,
    one_hot,
    per_game,
    phase_feature,
    ratio,
    seats_feature,
    to_act_feature,
)


def _g(ctx: Context) -> SpaceDragons:
    return ctx.game  # type: ignore[return-value]  # a SpaceDragons encoder's context holds one


def _encoder(encode: Callable[[View, Context], Values]) -> Callable[[View, Context], Values]:
    """An encoder written as a lambda, with its view typed as this game's."""
    return encode


def _players(game: object) -> int:
    return cast(SpaceDragons, game).spec.max_players


def _cards(key: Literal["hand", "picks"], what: str) -> Feature:
    def encode(view: View, ctx: Context) -> list[float]:
        out = [0.0] * CREW_CARDS
        for c in view[key] or ():
            out[c - 1] = 1.0
        return out

    return Feature(key, CREW_CARDS, f"1 for each crew card (1 to 80) {what}", encode)


def _my_pick(view: View, ctx: Context) -> list[float]:
    text = view.get("my_choice")
    return one_hot(int(text.split()[1]) - 1, CREW_CARDS) if text else [0.0] * CREW_CARDS


def _on_table(view: View, ctx: Context) -> list[float]:
    out = [0.0] * CREW_CARDS
    for c in view["start_cards"]:
        out[c - 1] = 1.0
    for cards in view["played"]:
        for c in cards:
            out[c - 1] = 1.0
    return out


def _per_seat_count(key: Literal["hand_sizes", "pick_counts"], most: float) -> Feature:
    return Feature(
        key,
        _players,
        f"per seat (observer first): {key.replace('_', ' ')}, over {most:g}",
        _encoder(lambda v, c: [x / most for x in c.in_order(v[key])] + c.pad),
    )


def _progress(view: View, ctx: Context) -> list[float]:
    return [
        ratio(view["pick"] or 0, HAND),
        ratio(view["round"] or 0, ROUNDS),
        ratio(view["rounds_played"], ROUNDS),
    ]


@per_game
def _most_crosshairs(game: Game) -> int:
    """The most crosshairs a card has (1 if none has any)."""
    return max(cast(SpaceDragons, game).tables.crosshairs) or 1


def _round(view: View, ctx: Context) -> list[float]:
    width = ctx.max_players
    out = [0.0] * (4 * width)  # four blocks of one slot per seat, observer first
    played = view["this_round"]
    if played:
        crosshairs = _g(ctx).tables.crosshairs
        most = _most_crosshairs(ctx.game)
        best = max(c for _, c in played)
        for seat, card in played:
            r = ctx.rel(seat)
            out[r] = 1.0
            out[width + r] = card / CREW_CARDS
            out[2 * width + r] = 1.0 if card == best else 0.0
            out[3 * width + r] = crosshairs[card] / most
    return out


def _ship(key: Literal["shields", "damage"]) -> Feature:
    def encode(view: View, ctx: Context) -> list[float]:
        most = _scales(ctx.game)[key]  # never 0
        return [min(1.0, x / most) for x in ctx.in_order(view[key])] + ctx.pad

    return Feature(
        key,
        _players,
        f"per seat: {key} under its ship, over the {key} the whole deck can deal "
        "(more is shown as 1)",
        encode,
    )


@per_game
def _scales(game: Game) -> dict[str, int]:
    """The most shields and damage the deck can deal, and the most of each symbol."""
    g = cast(SpaceDragons, game)
    crew, dragons = g.components.crew, g.components.dragons
    out = {
        "shields": sum(c.effects.count("shield") for c in crew) or 1,
        "damage": sum(c.effects.count("damage") + c.effects.count("crosshair") for c in crew) or 1,
    }
    for k, name in enumerate(SYMBOLS):
        out[name] = sum(c.symbols[k] for c in crew) + sum(d.symbols[k] for d in dragons)
    return out


@per_game
def _most_dragon_points(game: Game) -> int:
    """The most points a dragon has (1 if none has any)."""
    return max(cast(SpaceDragons, game).tables.dragon_points) or 1


def _face_up(view: View, ctx: Context) -> list[float]:
    d = view["face_up"]
    if not d:
        return [0.0] * 5
    t = _g(ctx).tables
    out = [1.0, ratio(t.dragon_points[d], _most_dragon_points(ctx.game))]
    for x in t.dragon_symbols[d]:
        out.append(ratio(x, 3))
    return out


def _dragons(view: View, ctx: Context) -> list[float]:
    return [len(c) / ROUNDS for c in ctx.in_order(view["claimed"])] + ctx.pad


def _pile(view: View, ctx: Context) -> list[float]:
    return [ratio(view["lair"], ROUNDS), ratio(view["pile"], CREW_CARDS)]


def _sides(view: View, ctx: Context) -> list[float]:
    return [1.0 if view["scoring_cards"][s] == "b" else 0.0 for s in SYMBOLS]


@per_game
def _symbol_scales(game: Game) -> tuple[tuple[str, int], ...]:
    """Each symbol with the most of it in the game (0 if none has it)."""
    scales = _scales(game)
    return tuple((name, scales[name]) for name in SYMBOLS)


def _symbols(view: View, ctx: Context) -> list[float]:
    symbols = view["symbols"]
    width = ctx.max_players
    order = ctx.seats()
    out = [0.0] * (len(SYMBOLS) * width)  # a block per symbol, one slot per seat
    base = 0
    for name, most in _symbol_scales(ctx.game):
        if most:
            counts = symbols[name]
            for r, s in enumerate(order):
                out[base + r] = counts[s] / most
        base += width
    return out


@per_game
def _points_range(game: Game) -> tuple[int, int]:
    """The least and most points a player's crew and dragons can show."""
    g = cast(SpaceDragons, game)
    crew = sorted(c.points for c in g.components.crew)
    dragons = sorted(d.points for d in g.components.dragons)
    low = sum(crew[:HAND]) + min(0, sum(dragons[:ROUNDS]))
    high = sum(crew[-HAND:]) + sum(dragons[-ROUNDS:])
    return low, high


def _points(view: View, ctx: Context) -> list[float]:
    low, high = _points_range(ctx.game)
    return ctx.per_seat([ratio(x - low, high - low) for x in view["card_points"]])


def _rules(view: View, ctx: Context) -> list[float]:
    g = _g(ctx)
    return [
        1.0 if g.variant else 0.0,
        1.0 if g.options["b_sides"] == "bonus" else 0.0,
        ratio(g.shield_value + 5, 10),
        ratio(g.damage_value + 10, 15),
    ]


LAYOUT = Layout(
    "space-dragons",
    [
        phase_feature(PHASES),
        acting_feature(),
        to_act_feature(),
        seats_feature(),
        choosing_feature(),
        _cards("hand", "in the observer's hand"),
        _cards("picks", "among the observer's face-down picks"),
        Feature(
            "my_pick",
            CREW_CARDS,
            "one-hot of the observer's pick this round of Hiring Crew, once made (hidden "
            "from the others until all have picked)",
            _my_pick,
        ),
        Feature(
            "on_table",
            CREW_CARDS,
            "1 for each crew card played face up by anyone, or drawn for the start player",
            _on_table,
        ),
        _per_seat_count("hand_sizes", HAND),
        _per_seat_count("pick_counts", HAND),
        Feature(
            "progress",
            3,
            "the pick being made (over 9), the round being played (over 7), rounds played "
            "(over 7); 0 when not in that phase",
            _progress,
        ),
        Feature(
            "starter",
            _players,
            "per seat: 1 for the round's starting player",
            _encoder(lambda v, c: c.seat_one_hot(v["starter"])),
        ),
        Feature(
            "this_round",
            lambda g: 4 * _players(g),
            "this round of the hunt, four blocks of one slot per seat: has played; its "
            "card's number over 80; 1 if that card is the highest so far; its crosshairs "
            "over the most a card has",
            _round,
        ),
        _ship("shields"),
        _ship("damage"),
        Feature("dragons", _players, "per seat: dragons claimed, over 7", _dragons),
        Feature(
            "face_up",
            5,
            "the face-up dragon: 1 if there is one; its points over the most a dragon has; "
            "its science, mood and crime symbols over 3",
            _face_up,
        ),
        Feature("lair_pile", 2, "dragons left in the lair over 7; draw pile over 80", _pile),
        Feature(
            "scoring_sides",
            3,
            "for science, mood and crime: 1 if the scoring card shows side B",
            _sides,
        ),
        Feature(
            "symbols",
            lambda g: 3 * _players(g),
            "per seat, for science, then mood, then crime (a block each): symbols on its "
            "crew and dragons, over all such symbols in the game",
            _symbols,
        ),
        Feature(
            "card_points",
            _players,
            "per seat: plus/minus points on its crew and its dragons' values, from the least "
            "to the most a player can have (0 to 1)",
            _points,
        ),
        Feature(
            "rules",
            4,
            "the options: designer's variant; B sides as bonuses; shield value (-5 to 5) "
            "and damage value (-10 to 5) scaled to 0 to 1",
            _rules,
        ),
    ],
    simultaneous=True,
)
