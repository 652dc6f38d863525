"""The Great Dragon Race as a tensor: what a racer weighs, from one seat's view.

On its turn a player weighs its hand (numbers, HALT! cards that double as numbers,
specials, cards with its own insignia that grant another play) against the board: where
every pawn stands, the watering holes that are safe and that threes of a kind and Passing
Wind fly to, the shortcut's arrow, the hazards that cost a card. Asked whether to shout
HALT!, it weighs the play just made (the latest play or steal, and the pawns it moved)
against the HALT! cards it holds. Cards are one-hot by id (their kind, number and
insignia follow from the id through the data) and also summed by kind and number, so a
learner need not discover what each id means.
"""

from __future__ import annotations

from typing import Literal, cast

from ...core import Game
from ...dragon_race.board import KINDS
from ...dragon_race.kinds import PHASES
from ...dragon_race.rules import DragonRace
from ...dragon_race.view import DragonRaceSeatView as View
from ..layout import (
    Context,
    Feature,
    Layout,
    Out,
    acting_feature,
    per_game,
    phase_feature,
    ratio,
    seats_feature,
    to_act_feature,
    window_feature,
    write_ids,
    write_per_seat,
    write_seat,
    write_seats,
)

LAST_KINDS = ("play", "blow", "triple", "steal")

# Every feature writes the numbers that are not zero (see dragonlair.rl.layout) from the
# typed view's attributes.


def _g(ctx: Context) -> DragonRace:
    return ctx.game  # type: ignore[return-value]  # a DragonRace encoder's context holds one


def _players(game: object) -> int:
    return cast(DragonRace, game).spec.max_players


def _cards(game: object) -> int:
    return cast(DragonRace, game).num_cards


def _values(game: object) -> int:
    return max(cast(DragonRace, game).card_value)


@per_game
def _hand_sizes(game: Game) -> tuple[int, int]:
    """The number of kinds of card and the highest card value (the hand summary's blocks)."""
    return len(KINDS), _values(game)


def _spots(key: Literal["pawns", "turn_start"]) -> Feature:
    def write(view: View, ctx: Context, out: Out, at: int) -> None:
        write_per_seat(
            view.pawns if key == "pawns" else view.turn_start, _g(ctx).finish, ctx, out, at
        )

    return Feature(
        key,
        _players,
        f"per seat: its pawn's spot {'when the turn began' if key == 'turn_start' else 'now'}"
        ", over the Finish",
        write=write,
    )


@per_game
def _spot_marks(game: Game) -> tuple[tuple[float, float, float, float], ...]:
    """For every spot of the board: on a watering hole, on a hazard, on the shortcut's
    entry arrow, and the distance to the next watering hole ahead over the Finish."""
    board = cast(DragonRace, game).board
    out = []
    for x in range(board.finish + 1):
        nxt = board.next_watering_hole(x)
        out.append(
            (
                1.0 if board.is_watering_hole(x) else 0.0,
                1.0 if board.hazard(x) else 0.0,
                1.0 if x == board.entry_arrow else 0.0,
                0.0 if nxt is None else ratio(nxt - x, board.finish),
            )
        )
    return tuple(out)


def _landmarks(view: View, ctx: Context, out: Out, at: int) -> None:
    marks = _spot_marks(ctx.game)
    width = ctx.max_players
    pawns = view.pawns
    r = at
    for s in ctx.order:  # every pawn's first mark, then its second, ... (a block each)
        k = r
        for x in marks[pawns[s]]:
            if x:
                out[k] = x
            k += width
        r += 1


def _active(view: View, ctx: Context, out: Out, at: int) -> None:
    write_seat(view.active, ctx, out, at)


def _turn(view: View, ctx: Context, out: Out, at: int) -> None:
    cap = _g(ctx).turn_cap
    if view.turn and cap:
        out[at] = min(1.0, view.turn / cap)


def _my_spot(view: View, ctx: Context, out: Out, at: int) -> None:
    spot = view.pawns[ctx.seat]
    if 0 <= spot <= _g(ctx).finish:
        out[at + spot] = 1.0


def _hand(view: View, ctx: Context, out: Out, at: int) -> None:
    write_ids(view.hand, out, at)


def _hand_summary(view: View, ctx: Context, out: Out, at: int) -> None:
    g = _g(ctx)
    n_kinds, n_values = _hand_sizes(g)
    counts = [0] * (n_kinds + n_values + 1)  # by kind, by value, own insignia
    kind, value, owner = g.card_kind, g.card_value, g.card_owner
    seat = ctx.seat
    for c in view.hand or ():
        counts[kind[c]] += 1
        if value[c]:
            counts[n_kinds + value[c] - 1] += 1
        if owner[c] == seat:
            counts[-1] += 1
    k = at
    for n in counts:
        if n:
            out[k] = n / g.max_hand
        k += 1


def _hand_count(view: View, ctx: Context, out: Out, at: int) -> None:
    write_per_seat(view.hand_sizes, _g(ctx).max_hand, ctx, out, at)


def _draw_size(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.draw_size:
        out[at] = view.draw_size / _g(ctx).num_cards


def _discards(view: View, ctx: Context, out: Out, at: int) -> None:
    write_ids(view.discards, out, at)


def _extra_draw(view: View, ctx: Context, out: Out, at: int) -> None:
    k = at
    extra = view.extra_draw
    for s in ctx.order:
        if extra[s]:
            out[k] = 1.0
        k += 1


def _robbed(view: View, ctx: Context, out: Out, at: int) -> None:
    write_seats(view.robbed, ctx, out, at)


def _moved(view: View, ctx: Context, out: Out, at: int) -> None:
    write_seats(view.moved, ctx, out, at)


def _bonus(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.bonus:
        out[at] = 1.0


def _last(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.last_id < 0:
        return
    g = _g(ctx)
    action = g.table.actions[view.last_id]
    out[at + LAST_KINDS.index(action.kind)] = 1.0
    cards = at + len(LAST_KINDS)  # then the card ids, then the target by seat
    target = cards + g.num_cards
    args = [a for a in action.args if isinstance(a, int)]
    if action.kind == "steal":
        write_seat(args[0], ctx, out, target)
        return
    if action.kind == "blow":
        write_seat(args[-1], ctx, out, target)
        args = args[:-1]
    for c in args:
        out[cards + c - 1] = 1.0


def _stolen(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.stolen:
        out[at + view.stolen - 1] = 1.0


def _rules(view: View, ctx: Context, out: Out, at: int) -> None:
    if not _g(ctx).bonus_optional:
        out[at] = 1.0


LAYOUT = Layout(
    "dragon-race",
    [
        phase_feature(PHASES),
        acting_feature(),
        to_act_feature(),
        seats_feature(),
        window_feature(),
        Feature(
            "active",
            _players,
            "per seat: 1 for the player whose turn it is",
            write=_active,
        ),
        Feature(
            "turn",
            1,
            "the turn number, over the turn cap (the race stops there)",
            write=_turn,
        ),
        _spots("pawns"),
        _spots("turn_start"),
        Feature(
            "landmarks",
            lambda g: 4 * _players(g),
            "four blocks of one slot per seat: its pawn is on a watering hole; on a hazard "
            "(Ballista Bolt, Flaming Ball); on the shortcut's entry arrow; the distance to the "
            "next watering hole ahead over the Finish (0 if none)",
            write=_landmarks,
        ),
        Feature(
            "my_spot",
            lambda g: cast(DragonRace, g).finish + 1,
            "one-hot of the observer's spot, from the Start (0) to the Finish",
            write=_my_spot,
        ),
        Feature(
            "hand",
            _cards,
            "1 for each card id in the observer's hand",
            write=_hand,
        ),
        Feature(
            "hand_summary",
            lambda g: len(KINDS) + _values(g) + 1,
            "the observer's hand counted (over 6): by kind (number, HALT!, Bolts!, Balls!, "
            "Updraft!, Downdraft!, Passing Wind!, Tornado!); by number 1, 2, ... (numbers and "
            "HALT! cards); cards with its own insignia",
            write=_hand_summary,
        ),
        Feature(
            "hand_sizes",
            _players,
            "per seat: cards in hand, over 6",
            write=_hand_count,
        ),
        Feature(
            "draw_size",
            1,
            "cards in the draw pile, over the deck",
            write=_draw_size,
        ),
        Feature(
            "discards",
            _cards,
            "1 for each card id in the face-up discard pile",
            write=_discards,
        ),
        Feature(
            "extra_draw",
            _players,
            "per seat: 1 if it draws an extra card next turn (it was robbed)",
            write=_extra_draw,
        ),
        Feature(
            "bonus",
            1,
            "1 if the active player has earned another play",
            write=_bonus,
        ),
        Feature("robbed", _players, "per seat: 1 if it was robbed this turn", write=_robbed),
        Feature("moved", _players, "per seat: 1 if the latest play moved its pawn", write=_moved),
        Feature(
            "last",
            lambda g: len(LAST_KINDS) + _cards(g) + _players(g),
            "the latest play or steal of this turn (what a HALT! would cancel): one-hot kind "
            "(play, blow, triple, steal); the card ids it used; per seat, its target",
            write=_last,
        ),
        Feature(
            "stolen",
            _cards,
            "one-hot of the card being stolen, for the thief and its victim (0 for others)",
            write=_stolen,
        ),
        Feature(
            "rules",
            1,
            "1 if an own-insignia card's extra play is compulsory (option bonus_play=must)",
            write=_rules,
        ),
    ],
)
