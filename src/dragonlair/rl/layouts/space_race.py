"""Space Race (2021) as a tensor: what a ship builder and a bidder weigh, from one seat's view.

In the Upgrade phase a player weighs the hand it holds against its ship: which stacks a
card would join (robot parts by part, crystals by fours, Power Sources and the colours
they reward), whether to keep it face down as Fuel instead, and the Danger to come (its
kind, Flight or Fight, decides whether Fuel or Crew will be bid; a Scanner may have shown
it). In the Danger phase it weighs its Fuel or Crew against the others' (every ship is
public, its Fuel only as a count) and the card's icon for each rank. Everyone's score if
the game ended now is public and summarises the rest. Space cards are one-hot by id (1
to 72 with the built-in data); their type, colour, part and points follow from the id.

A seat's memory of the hands it held earlier is in its events, not its view, so not in
the tensor; OpenSpiel's information-state string has it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, cast

from ...core import Game
from ...space_race.cards import COLOURS, DANGER_KINDS, HAND_SIZE, ICONS, PARTS, STACKS
from ...space_race.kinds import PHASES
from ...space_race.rules import SpaceRace
from ...space_race.view import AnySpaceRaceView as View
from ..layout import (
    Context,
    Feature,
    Layout,
    Values,
    acting_feature,
    choosing_feature,
    per_game,
    phase_feature,
    ratio,
    seats_feature,
    to_act_feature,
)

# Space Race's features read the view's keys (View: the typed view or its JSON form, as
# compiled code checks a parameter's type) and return their values.

SHIP_STACKS = tuple(s for s in STACKS if s != "fuel")
PICK_WAYS = ("up", "cockpit", "engine", "fuel")
RANKS = 4
_NPARTS: Final = len(PARTS)
_NCOLOURS: Final = len(COLOURS)


def _g(ctx: Context) -> SpaceRace:
    return ctx.game  # type: ignore[return-value]  # a SpaceRace encoder's context holds one


def _encoder(encode: Callable[[View, Context], Values]) -> Callable[[View, Context], Values]:
    """An encoder written as a lambda, with its view typed as this game's."""
    return encode


def _players(game: object) -> int:
    return cast(SpaceRace, game).spec.max_players


def _cards(game: object) -> int:
    return max(cast(SpaceRace, game).tables.space_ids)


def _dangers(game: object) -> int:
    return max(cast(SpaceRace, game).tables.danger_ids)


@per_game
def _sizes(game: Game) -> tuple[int, int]:
    """The highest Space card id and the highest Danger card id (the one-hot sizes)."""
    return _cards(game), _dangers(game)


@per_game
def _stack_scales(game: Game) -> tuple[tuple[str, int], ...]:
    """Each stack of a ship with the most cards it can hold (the whole deck; 1 for an
    empty deck, whose stacks are always empty, so that they show 0 as ``ratio`` does)."""
    t = cast(SpaceRace, game).tables
    return tuple(
        (name, (len(t.damage_ids) if name == "damage" else len(t.space_ids)) or 1)
        for name in SHIP_STACKS
    )


@per_game
def _max_bid(game: Game) -> int:
    """The largest bid an action can make."""
    return max(int(a.args[0]) for a in game.actions if a.kind == "bid")


def _hand(view: View, ctx: Context) -> list[float]:
    out = [0.0] * _sizes(ctx.game)[0]
    for c in view["hand"] or ():
        out[c - 1] = 1.0
    return out


def _my_choice(view: View, ctx: Context) -> list[float]:
    g = _g(ctx)
    cards = _sizes(g)[0]
    out = [0.0] * (cards + len(PICK_WAYS) + 2)  # one-hot card, one-hot way, the bid
    text = view.get("my_choice")
    if text:
        action = g.parse_action(text)
        value = int(action.args[0])
        if action.kind == "bid":
            out[-2] = 1.0
            out[-1] = ratio(value, _max_bid(g))
        else:
            out[value - 1] = 1.0
            out[cards + PICK_WAYS.index(action.kind)] = 1.0
    return out


@per_game
def _deck(game: Game) -> int:
    """The Space cards in the game (1 for none: no Fuel without cards)."""
    return len(cast(SpaceRace, game).tables.space_ids) or 1


def _stacks(view: View, ctx: Context) -> list[float]:
    width = ctx.max_players
    scales = _stack_scales(ctx.game)
    deck = _deck(ctx.game)
    out = [0.0] * ((len(scales) + 2) * width)  # a block per stack, one slot per seat
    for r, s in enumerate(ctx.in_order(view["ships"])):
        ship = cast(dict[str, Any], s)  # read by the stacks' names (cards.STACKS)
        i = r
        for name, most in scales:
            cards: list[int] = ship[name]
            out[i] = len(cards) / most
            i += width
        fuel: int = ship["fuel"]
        spent: int = ship["spent_fuel"]
        out[i] = fuel / deck
        out[i + width] = spent / deck
    return out


def _robots(view: View, ctx: Context) -> list[float]:
    part = _g(ctx).tables.part
    width = ctx.max_players
    counts = [0] * (len(PARTS) * width)  # a block per part, one slot per seat
    for r, ship in enumerate(ctx.in_order(view["ships"])):
        robots: list[int] = ship["robot_parts"]
        for c in robots:
            k = part[c]
            if 0 <= k < _NPARTS:
                counts[k * width + r] += 1
    return [n / HAND_SIZE for n in counts]


def _power_colours(view: View, ctx: Context) -> list[float]:
    colour = _g(ctx).tables.colour
    width = ctx.max_players
    out = [0.0] * (2 * _NCOLOURS * width)  # per stack, a block per colour
    for r, ship in enumerate(ctx.in_order(view["ships"])):
        cockpit: list[int] = ship["power_cockpit"]
        engine: list[int] = ship["power_engine"]
        if cockpit:
            k = colour[cockpit[-1]]
            if 0 <= k < _NCOLOURS:
                out[k * width + r] = 1.0
        if engine:
            k = colour[engine[-1]]
            if 0 <= k < _NCOLOURS:
                out[(_NCOLOURS + k) * width + r] = 1.0
    return out


def _danger_card(key: Literal["danger", "danger_top"]) -> Feature:
    def encode(view: View, ctx: Context) -> list[float]:
        t = _g(ctx).tables
        d = view[key]
        out = [0.0] * (1 + len(DANGER_KINDS) + RANKS * (len(ICONS) + 1))
        if d:
            out[0] = 1.0
            out[1 + t.danger_kind[d]] = 1.0
            for r, (icon, n) in enumerate(t.danger_ranks[d][:RANKS]):
                base = 1 + len(DANGER_KINDS) + r * (len(ICONS) + 1)
                out[base + icon] = 1.0
                out[base + len(ICONS)] = ratio(n, 3)
        return out

    what = (
        "revealed in this Danger phase"
        if key == "danger"
        else "on top of the Danger deck, if the observer's Scanner showed it"
    )
    return Feature(
        key,
        1 + len(DANGER_KINDS) + RANKS * (len(ICONS) + 1),
        f"the Danger card {what}: 1 if known; one-hot kind (flight, fight); for ranks 1 to 4, "
        "one-hot icon (x, wrench, damage) and its number over 3",
        encode,
    )


def _bidding(view: View, ctx: Context) -> list[float]:
    return [1.0 if view["bidding"] == "fuel" else 0.0, 1.0 if view["bidding"] == "crew" else 0.0]


def _decks(view: View, ctx: Context) -> list[float]:
    t = _g(ctx).tables
    return [
        ratio(view["space_deck"], len(t.space_ids)),
        ratio(view["danger_deck"], len(t.danger_ids)),
        ratio(view["damage_deck"], len(t.damage_ids)),
        ratio(len(view["damage_removed"]), len(t.damage_ids)),
        ratio(len(view["crew_discard"]), len(t.space_ids)),
    ]


def _danger_used(view: View, ctx: Context) -> list[float]:
    out = [0.0] * _sizes(ctx.game)[1]
    for d in view["danger_discard"]:
        out[d - 1] = 1.0
    return out


def _last_bids(view: View, ctx: Context) -> list[float]:
    bids = view["last_bids"]
    if bids is None:
        return [0.0] * ctx.max_players
    return ctx.per_seat([ratio(b, _max_bid(ctx.game)) for b in bids])


def _seen_top(view: View, ctx: Context) -> list[float]:
    marks = [0.0] * ctx.players
    for s in view["seen_top_danger"]:
        marks[s] = 1.0
    return ctx.per_seat(marks)


@per_game
def _score_range(game: Game) -> tuple[int, int]:
    """The least a ship can score, and (generously) the most."""
    t = cast(SpaceRace, game).tables
    low = sum(v for v in t.damage_vp if v < 0)
    high = 3 * sum(v for v in t.vp if v > 0) + 40
    return low, high


def _score(view: View, ctx: Context) -> list[float]:
    low, high = _score_range(ctx.game)
    return ctx.per_seat([min(1.0, max(0.0, ratio(x - low, high - low))) for x in view["score"]])


LAYOUT = Layout(
    "space-race",
    [
        phase_feature(PHASES),
        acting_feature(),
        to_act_feature(),
        seats_feature(),
        choosing_feature(),
        Feature(
            "progress",
            3,
            "the round over 3; the pick over 6 (0 outside the Upgrade phase); 1 if hands pass "
            "to the right this round",
            _encoder(
                lambda v, c: [
                    ratio(v["round"], v["rounds"]),
                    ratio(v["pick"] or 0, HAND_SIZE),
                    1.0 if v["direction"] == "right" else 0.0,
                ]
            ),
        ),
        Feature("hand", _cards, "1 for each Space card id in the observer's hand", _hand),
        Feature(
            "my_choice",
            lambda g: _cards(g) + len(PICK_WAYS) + 2,
            "the observer's sealed choice once made: one-hot card id; one-hot way (up, "
            "cockpit, engine, fuel); then 1 for a bid and the bid over the largest",
            _my_choice,
        ),
        Feature(
            "hand_sizes",
            _players,
            "per seat: cards in hand, over 6",
            _encoder(lambda v, c: c.per_seat([ratio(x, HAND_SIZE) for x in v["hand_sizes"]])),
        ),
        Feature(
            "ships",
            lambda g: (len(SHIP_STACKS) + 2) * _players(g),
            "a block of one slot per seat for each stack of the ship (scanners, robot parts, "
            "crystals, Power Sources on the cockpit, on the engine, alien drones, loot "
            "carriers, crew, damage), then Fuel and spent Fuel: its cards, over the deck",
            _stacks,
        ),
        Feature(
            "robot_parts",
            lambda g: len(PARTS) * _players(g),
            "a block per part (head, body, legs) of one slot per seat: robot parts of that "
            "part, over 6",
            _robots,
        ),
        Feature(
            "power_colours",
            lambda g: 2 * len(COLOURS) * _players(g),
            "for the cockpit's then the engine's Power Source stack, a block per colour "
            "(orange, green, purple) of one slot per seat: 1 if its top card has that colour",
            _power_colours,
        ),
        _danger_card("danger"),
        _danger_card("danger_top"),
        Feature("bidding", 2, "1 if Fuel is being bid (Flight); 1 if Crew (Fight)", _bidding),
        Feature(
            "decks",
            5,
            "Space deck, Danger deck, Damage deck, Damage cards removed, Crew cards "
            "discarded: each over how many there are",
            _decks,
        ),
        Feature("danger_used", _dangers, "1 for each Danger card id already used", _danger_used),
        Feature(
            "last_bids",
            _players,
            "per seat: its last revealed bid over the largest (0 before the first)",
            _last_bids,
        ),
        Feature(
            "seen_top_danger",
            _players,
            "per seat: 1 if it knows the top Danger card (its Scanner showed it)",
            _seen_top,
        ),
        Feature(
            "score",
            _players,
            "per seat: its score if the game ended now, from the least to the most a ship "
            "can score (more is shown as 1)",
            _score,
        ),
        Feature(
            "rules",
            2,
            "the options: every Power Source scores its colour bonus; a Scanner keeps "
            "showing the top Danger card",
            _encoder(
                lambda v, c: [
                    1.0 if _g(c).every_power_source else 0.0,
                    1.0 if _g(c).scanner_always else 0.0,
                ]
            ),
        ),
    ],
    simultaneous=True,
)
