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

from collections.abc import Callable
from typing import Literal, cast

from ...core import Game
from ...dragon_race.board import KINDS
from ...dragon_race.kinds import PHASES
from ...dragon_race.rules import MAX_HAND, DragonRace
from ...dragon_race.view_types import DragonRaceView as View
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

LAST_KINDS = ("play", "blow", "triple", "steal")


def _g(ctx: Context) -> DragonRace:
    return ctx.game  # type: ignore[return-value]  # a DragonRace encoder's context holds one


def _encoder(encode: Callable[[View, Context], Values]) -> Callable[[View, Context], Values]:
    """An encoder written as a lambda, with its view typed as this game's."""
    return encode


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


def _multi_hot(ids: list[int] | None, size: int) -> list[float]:
    out = [0.0] * size
    for c in ids or ():
        out[c - 1] = 1.0
    return out


def _spots(key: Literal["pawns", "turn_start"]) -> Feature:
    return Feature(
        key,
        _players,
        f"per seat: its pawn's spot {'when the turn began' if key == 'turn_start' else 'now'}"
        ", over the Finish",
        _encoder(lambda v, c: [ratio(x, _g(c).finish) for x in c.in_order(v[key])] + c.pad),
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


def _landmarks(view: View, ctx: Context) -> list[float]:
    marks = _spot_marks(ctx.game)
    at = [marks[x] for x in ctx.in_order(view["pawns"])]
    pad = ctx.pad
    out: list[float] = []
    for block in zip(*at, strict=True):  # every pawn's first mark, then its second, ...
        out += block
        out += pad
    return out


def _my_spot(view: View, ctx: Context) -> list[float]:
    return one_hot(view["pawns"][ctx.seat], _g(ctx).finish + 1)


def _hand_summary(view: View, ctx: Context) -> list[float]:
    g = _g(ctx)
    n_kinds, n_values = _hand_sizes(g)
    counts = [0] * (n_kinds + n_values + 1)  # by kind, by value, own insignia
    kind, value, owner = g.card_kind, g.card_value, g.card_owner
    seat = ctx.seat
    for c in view["hand"] or ():
        counts[kind[c]] += 1
        if value[c]:
            counts[n_kinds + value[c] - 1] += 1
        if owner[c] == seat:
            counts[-1] += 1
    return [n / MAX_HAND for n in counts]


def _last(view: View, ctx: Context) -> list[float]:
    g = _g(ctx)
    kind = [0.0] * len(LAST_KINDS)
    cards = [0.0] * g.num_cards
    target = [0.0] * ctx.max_players
    text = view.get("last")
    if text:
        action = g.parse_action(text)
        kind[LAST_KINDS.index(action.kind)] = 1.0
        args = [a for a in action.args if isinstance(a, int)]
        if action.kind == "steal":
            target = ctx.seat_one_hot(args[0])
        else:
            if action.kind == "blow":
                target = ctx.seat_one_hot(args[-1])
                args = args[:-1]
            for c in args:
                cards[c - 1] = 1.0
    return kind + cards + target


def _flags(key: Literal["extra_draw", "robbed", "moved"], meaning: str) -> Feature:
    def encode(view: View, ctx: Context) -> list[float]:
        raw = view[key]
        if raw and isinstance(raw[0], bool):
            return [1.0 if x else 0.0 for x in ctx.in_order(raw)] + ctx.pad
        out = [0.0] * ctx.max_players
        for s in raw:
            out[ctx.rel(s)] = 1.0
        return out

    return Feature(key, _players, f"per seat: 1 if {meaning}", encode)


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
            _encoder(lambda v, c: c.seat_one_hot(v["active"])),
        ),
        Feature(
            "turn",
            1,
            "the turn number, over the turn cap (the race stops there)",
            _encoder(lambda v, c: [min(1.0, ratio(v["turn"], _g(c).turn_cap))]),
        ),
        _spots("pawns"),
        _spots("turn_start"),
        Feature(
            "landmarks",
            lambda g: 4 * _players(g),
            "four blocks of one slot per seat: its pawn is on a watering hole; on a hazard "
            "(Ballista Bolt, Flaming Ball); on the shortcut's entry arrow; the distance to the "
            "next watering hole ahead over the Finish (0 if none)",
            _landmarks,
        ),
        Feature(
            "my_spot",
            lambda g: cast(DragonRace, g).finish + 1,
            "one-hot of the observer's spot, from the Start (0) to the Finish",
            _my_spot,
        ),
        Feature(
            "hand",
            _cards,
            "1 for each card id in the observer's hand",
            _encoder(lambda v, c: _multi_hot(v["hand"], _g(c).num_cards)),
        ),
        Feature(
            "hand_summary",
            lambda g: len(KINDS) + _values(g) + 1,
            "the observer's hand counted (over 6): by kind (number, HALT!, Bolts!, Balls!, "
            "Updraft!, Downdraft!, Passing Wind!, Tornado!); by number 1, 2, ... (numbers and "
            "HALT! cards); cards with its own insignia",
            _hand_summary,
        ),
        Feature(
            "hand_sizes",
            _players,
            "per seat: cards in hand, over 6",
            _encoder(lambda v, c: [x / MAX_HAND for x in c.in_order(v["hand_sizes"])] + c.pad),
        ),
        Feature(
            "draw_size",
            1,
            "cards in the draw pile, over the deck",
            _encoder(lambda v, c: [ratio(v["draw_size"], _g(c).num_cards)]),
        ),
        Feature(
            "discards",
            _cards,
            "1 for each card id in the face-up discard pile",
            _encoder(lambda v, c: _multi_hot(v["discards"], _g(c).num_cards)),
        ),
        _flags("extra_draw", "it draws an extra card next turn (it was robbed)"),
        Feature(
            "bonus",
            1,
            "1 if the active player has earned another play",
            _encoder(lambda v, c: [1.0 if v["bonus"] else 0.0]),
        ),
        _flags("robbed", "it was robbed this turn"),
        _flags("moved", "the latest play moved its pawn"),
        Feature(
            "last",
            lambda g: len(LAST_KINDS) + _cards(g) + _players(g),
            "the latest play or steal of this turn (what a HALT! would cancel): one-hot kind "
            "(play, blow, triple, steal); the card ids it used; per seat, its target",
            _last,
        ),
        Feature(
            "stolen",
            _cards,
            "one-hot of the card being stolen, for the thief and its victim (0 for others)",
            _encoder(lambda v, c: one_hot((v["stolen"] or 0) - 1, _g(c).num_cards)),
        ),
        Feature(
            "rules",
            1,
            "1 if an own-insignia card's extra play is compulsory (option bonus_play=must)",
            _encoder(lambda v, c: [0.0 if _g(c).bonus_optional else 1.0]),
        ),
    ],
)
