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

from typing import Literal, cast

from ...core import Game
from ...space_dragons.cards import CREW_CARDS, SYMBOLS
from ...space_dragons.kinds import HIRE, HUNT, PHASES
from ...space_dragons.rules import SpaceDragons
from ...space_dragons.view import SpaceDragonsSeatView as View
from ..layout import (
    Context,
    Feature,
    Layout,
    Out,
    acting_feature,
    choosing_feature,
    per_game,
    phase_feature,
    ratio,
    seats_feature,
    to_act_feature,
    write_ids,
    write_per_seat,
    write_per_seat_in_range,
    write_seat,
)

# Every feature writes the numbers that are not zero (see dragonlair.rl.layout) from the
# typed view's attributes.


def _g(ctx: Context) -> SpaceDragons:
    return ctx.game  # type: ignore[return-value]  # a SpaceDragons encoder's context holds one


def _players(game: object) -> int:
    return cast(SpaceDragons, game).spec.max_players


def _cards(key: Literal["hand", "picks"], what: str) -> Feature:
    def write(view: View, ctx: Context, out: Out, at: int) -> None:
        write_ids(view.hand if key == "hand" else view.picks, out, at)

    return Feature(key, CREW_CARDS, f"1 for each crew card (1 to 80) {what}", write=write)


def _my_pick(view: View, ctx: Context, out: Out, at: int) -> None:
    mine = view.my_choice
    if mine is not None:
        card = int(_g(ctx).table.actions[mine].args[0])
        out[at + card - 1] = 1.0


def _on_table(view: View, ctx: Context, out: Out, at: int) -> None:
    write_ids(view.start_cards, out, at)
    for cards in view.played:
        write_ids(cards, out, at)


def _per_seat_count(key: Literal["hand_sizes", "pick_counts"]) -> Feature:
    def write(view: View, ctx: Context, out: Out, at: int) -> None:
        counts = view.hand_sizes if key == "hand_sizes" else view.pick_counts
        write_per_seat(counts, _sd(ctx).hand_size, ctx, out, at)

    return Feature(
        key,
        _players,
        f"per seat (observer first): {key.replace('_', ' ')}, over 9",
        write=write,
    )


def _sd(ctx: Context) -> SpaceDragons:
    return cast(SpaceDragons, ctx.game)


def _progress(view: View, ctx: Context, out: Out, at: int) -> None:
    g = _sd(ctx)
    if view.phase == HIRE:
        out[at] = (view.pick_counts[0] + 1) / g.hand_size  # the pick being made
    elif view.phase == HUNT:
        out[at + 1] = (view.rounds_played + 1) / g.rounds
    if view.rounds_played:
        out[at + 2] = view.rounds_played / g.rounds


def _starter(view: View, ctx: Context, out: Out, at: int) -> None:
    write_seat(view.starter, ctx, out, at)


@per_game
def _most_crosshairs(game: Game) -> int:
    """The most crosshairs a card has (1 if none has any)."""
    return max(cast(SpaceDragons, game).tables.crosshairs) or 1


def _round(view: View, ctx: Context, out: Out, at: int) -> None:
    played = view.round_cards()
    if not played:
        return
    width = ctx.max_players  # four blocks of one slot per seat, observer first
    crosshairs = _g(ctx).tables.crosshairs
    most = _most_crosshairs(ctx.game)
    best = max(c for _, c in played)
    for seat, card in played:
        r = at + (seat - ctx.seat) % ctx.players
        out[r] = 1.0
        out[width + r] = card / CREW_CARDS
        if card == best:
            out[2 * width + r] = 1.0
        if crosshairs[card]:
            out[3 * width + r] = crosshairs[card] / most


def _ship(key: Literal["shields", "damage"]) -> Feature:
    def write(view: View, ctx: Context, out: Out, at: int) -> None:
        most = _scales(ctx.game)[key]  # never 0
        values = view.shields if key == "shields" else view.damage
        k = at
        for s in ctx.order:
            x = values[s]
            if x:
                out[k] = min(1.0, x / most)
            k += 1

    return Feature(
        key,
        _players,
        f"per seat: {key} under its ship, over the {key} the whole deck can deal "
        "(more is shown as 1)",
        write=write,
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


def _face_up(view: View, ctx: Context, out: Out, at: int) -> None:
    d = view.face_up
    if not d:
        return
    t = _g(ctx).tables
    out[at] = 1.0
    points = t.dragon_points[d]
    if points:
        out[at + 1] = points / _most_dragon_points(ctx.game)
    k = at + 2
    for x in t.dragon_symbols[d]:
        if x:
            out[k] = x / 3
        k += 1


def _dragons(view: View, ctx: Context, out: Out, at: int) -> None:
    k = at
    claimed = view.claimed
    rounds = _sd(ctx).rounds
    for s in ctx.order:
        if claimed[s]:
            out[k] = len(claimed[s]) / rounds
        k += 1


def _pile(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.lair:
        out[at] = view.lair / _sd(ctx).rounds
    if view.pile:
        out[at + 1] = view.pile / CREW_CARDS


def _sides(view: View, ctx: Context, out: Out, at: int) -> None:
    for k, side in enumerate(view.sides):
        if side:  # side B
            out[at + k] = 1.0


@per_game
def _symbol_scales(game: Game) -> tuple[int, ...]:
    """The most of each symbol in the game (0 if none has it), in the order of SYMBOLS."""
    scales = _scales(game)
    return tuple(scales[name] for name in SYMBOLS)


def _symbols(view: View, ctx: Context, out: Out, at: int) -> None:
    counts = view.tallies()[0]
    base = at  # a block per symbol, one slot per seat
    for by_seat, most in zip(counts, _symbol_scales(ctx.game), strict=True):
        if most:
            write_per_seat(by_seat, most, ctx, out, base)
        base += ctx.max_players


@per_game
def _points_range(game: Game) -> tuple[int, int]:
    """The least and most points a player's crew and dragons can show."""
    g = cast(SpaceDragons, game)
    crew = sorted(c.points for c in g.components.crew)
    dragons = sorted(d.points for d in g.components.dragons)
    hand, rounds = g.hand_size, g.rounds
    low = sum(crew[:hand]) + min(0, sum(dragons[:rounds]))
    high = sum(crew[-hand:]) + sum(dragons[-rounds:])
    return low, high


def _points(view: View, ctx: Context, out: Out, at: int) -> None:
    low, high = _points_range(ctx.game)
    write_per_seat_in_range(view.tallies()[1], low, high, ctx, out, at)


def _rules(view: View, ctx: Context, out: Out, at: int) -> None:
    g = _g(ctx)
    if g.variant:
        out[at] = 1.0
    if g.options["b_sides"] == "bonus":
        out[at + 1] = 1.0
    for k, x in ((2, ratio(g.shield_value + 5, 10)), (3, ratio(g.damage_value + 10, 15))):
        if x:
            out[at + k] = x


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
            write=_my_pick,
        ),
        Feature(
            "on_table",
            CREW_CARDS,
            "1 for each crew card played face up by anyone, or drawn for the start player",
            write=_on_table,
        ),
        _per_seat_count("hand_sizes"),
        _per_seat_count("pick_counts"),
        Feature(
            "progress",
            3,
            "the pick being made (over 9), the round being played (over 7), rounds played "
            "(over 7); 0 when not in that phase",
            write=_progress,
        ),
        Feature(
            "starter",
            _players,
            "per seat: 1 for the round's starting player",
            write=_starter,
        ),
        Feature(
            "this_round",
            lambda g: 4 * _players(g),
            "this round of the hunt, four blocks of one slot per seat: has played; its "
            "card's number over 80; 1 if that card is the highest so far; its crosshairs "
            "over the most a card has",
            write=_round,
        ),
        _ship("shields"),
        _ship("damage"),
        Feature("dragons", _players, "per seat: dragons claimed, over 7", write=_dragons),
        Feature(
            "face_up",
            5,
            "the face-up dragon: 1 if there is one; its points over the most a dragon has; "
            "its science, mood and crime symbols over 3",
            write=_face_up,
        ),
        Feature("lair_pile", 2, "dragons left in the lair over 7; draw pile over 80", write=_pile),
        Feature(
            "scoring_sides",
            3,
            "for science, mood and crime: 1 if the scoring card shows side B",
            write=_sides,
        ),
        Feature(
            "symbols",
            lambda g: 3 * _players(g),
            "per seat, for science, then mood, then crime (a block each): symbols on its "
            "crew and dragons, over all such symbols in the game",
            write=_symbols,
        ),
        Feature(
            "card_points",
            _players,
            "per seat: plus/minus points on its crew and its dragons' values, from the least "
            "to the most a player can have (0 to 1)",
            write=_points,
        ),
        Feature(
            "rules",
            4,
            "the options: designer's variant; B sides as bonuses; shield value (-5 to 5) "
            "and damage value (-10 to 5) scaled to 0 to 1",
            write=_rules,
        ),
    ],
    simultaneous=True,
)
