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

from typing import Final, Literal, cast

from ...core import Game
from ...space_race.cards import (
    COLOURS,
    DANGER_KINDS,
    ICONS,
    NSTACK,
    PARTS,
    S_FUEL,
    S_POWER_COCKPIT,
    S_POWER_ENGINE,
    S_ROBOT,
    STACKS,
)
from ...space_race.kinds import PHASES
from ...space_race.rules import SpaceRace
from ...space_race.view import SpaceRaceSeatView as View
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
)

# Every feature writes the numbers that are not zero (see dragonlair.rl.layout) from the
# typed view's attributes.

SHIP_STACKS = tuple(s for s in STACKS if s != "fuel")
# where each of SHIP_STACKS lies in a ship's row of stacks (cards.STACKS' order)
_SHIP_STACK_AT: Final = tuple(k for k in range(NSTACK) if k != S_FUEL)
PICK_WAYS = ("up", "cockpit", "engine", "fuel")
RANKS = 4
_NPARTS: Final = len(PARTS)
_NCOLOURS: Final = len(COLOURS)
_NICONS: Final = len(ICONS)
_NKINDS: Final = len(DANGER_KINDS)


def _g(ctx: Context) -> SpaceRace:
    return ctx.game  # type: ignore[return-value]  # a SpaceRace encoder's context holds one


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
def _stack_scales(game: Game) -> tuple[int, ...]:
    """For each of SHIP_STACKS, the most cards it can hold (the whole deck; 1 for an empty
    deck, whose stacks are always empty, so that they show 0 as ``ratio`` does)."""
    t = cast(SpaceRace, game).tables
    return tuple(
        (len(t.damage_ids) if name == "damage" else len(t.space_ids)) or 1 for name in SHIP_STACKS
    )


@per_game
def _max_bid(game: Game) -> int:
    """The largest bid an action can make."""
    return max(int(a.args[0]) for a in game.actions if a.kind == "bid")


def _progress(view: View, ctx: Context, out: Out, at: int) -> None:
    g = _g(ctx)
    if view.round:
        out[at] = view.round / g.rounds
    if view.pick:
        out[at + 1] = view.pick / g.hand_size
    if view.direction != 1:  # hands pass to the right
        out[at + 2] = 1.0


def _hand(view: View, ctx: Context, out: Out, at: int) -> None:
    write_ids(view.hand, out, at)


def _my_choice(view: View, ctx: Context, out: Out, at: int) -> None:
    mine = view.my_choice
    if mine is None:
        return
    g = _g(ctx)
    cards = _sizes(g)[0]  # one-hot card, one-hot way, then the bid
    action = g.table.actions[mine]
    value = int(action.args[0])
    if action.kind == "bid":
        out[at + cards + len(PICK_WAYS)] = 1.0
        if value:
            out[at + cards + len(PICK_WAYS) + 1] = value / _max_bid(g)
    else:
        out[at + value - 1] = 1.0
        out[at + cards + PICK_WAYS.index(action.kind)] = 1.0


def _hand_sizes(view: View, ctx: Context, out: Out, at: int) -> None:
    write_per_seat(view.hand_sizes, _g(ctx).hand_size, ctx, out, at)


@per_game
def _deck(game: Game) -> int:
    """The Space cards in the game (1 for none: no Fuel without cards)."""
    return len(cast(SpaceRace, game).tables.space_ids) or 1


def _stacks(view: View, ctx: Context, out: Out, at: int) -> None:
    width = ctx.max_players  # a block per stack, one slot per seat
    scales = _stack_scales(ctx.game)
    deck = _deck(ctx.game)
    stacks = view.stacks
    spent = view.spent_fuel
    fuel_at = at + len(scales) * width
    for r, s in enumerate(ctx.order):
        base = s * NSTACK
        i = at + r
        for j in range(len(_SHIP_STACK_AT)):
            n = len(stacks[base + _SHIP_STACK_AT[j]])
            if n:
                out[i] = n / scales[j]
            i += width
        fuel = len(stacks[base + S_FUEL])
        if fuel:
            out[fuel_at + r] = fuel / deck
        if spent[s]:
            out[fuel_at + width + r] = spent[s] / deck


def _robots(view: View, ctx: Context, out: Out, at: int) -> None:
    part = _g(ctx).tables.part
    width = ctx.max_players
    counts = [0] * (_NPARTS * width)  # a block per part, one slot per seat
    stacks = view.stacks
    for r, s in enumerate(ctx.order):
        for c in stacks[s * NSTACK + S_ROBOT]:
            k = part[c]
            if 0 <= k < _NPARTS:
                counts[k * width + r] += 1
    size = _g(ctx).hand_size
    for i, n in enumerate(counts):
        if n:
            out[at + i] = n / size


def _power_colours(view: View, ctx: Context, out: Out, at: int) -> None:
    colour = _g(ctx).tables.colour
    width = ctx.max_players  # per stack, a block per colour
    stacks = view.stacks
    for r, s in enumerate(ctx.order):
        cockpit = stacks[s * NSTACK + S_POWER_COCKPIT]
        engine = stacks[s * NSTACK + S_POWER_ENGINE]
        if cockpit:
            k = colour[cockpit[-1]]
            if 0 <= k < _NCOLOURS:
                out[at + k * width + r] = 1.0
        if engine:
            k = colour[engine[-1]]
            if 0 <= k < _NCOLOURS:
                out[at + (_NCOLOURS + k) * width + r] = 1.0


def _danger_card(key: Literal["danger", "danger_top"]) -> Feature:
    def write(view: View, ctx: Context, out: Out, at: int) -> None:
        d = view.danger if key == "danger" else view.danger_top
        if not d:
            return
        t = _g(ctx).tables
        out[at] = 1.0
        out[at + 1 + t.danger_kind[d]] = 1.0
        for r, (icon, n) in enumerate(t.danger_ranks[d][:RANKS]):
            base = at + 1 + _NKINDS + r * (_NICONS + 1)
            out[base + icon] = 1.0
            if n:
                out[base + _NICONS] = n / 3

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
        write=write,
    )


def _bidding(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.danger:  # Fuel for a Flight card (kind 0), Crew for a Fight card (kind 1)
        out[at + _g(ctx).tables.danger_kind[view.danger]] = 1.0


def _decks(view: View, ctx: Context, out: Out, at: int) -> None:
    t = _g(ctx).tables
    space, dangers, damage = len(t.space_ids), len(t.danger_ids), len(t.damage_ids)
    for k, x in enumerate(
        (
            ratio(view.space_deck, space),
            ratio(view.danger_deck, dangers),
            ratio(view.damage_deck, damage),
            ratio(len(view.damage_removed), damage),
            ratio(len(view.crew_discard), space),
        )
    ):
        if x:
            out[at + k] = x


def _danger_used(view: View, ctx: Context, out: Out, at: int) -> None:
    write_ids(view.danger_discard, out, at)


def _last_bids(view: View, ctx: Context, out: Out, at: int) -> None:
    if view.last_bids:
        write_per_seat(view.last_bids, _max_bid(ctx.game), ctx, out, at)


def _seen_top(view: View, ctx: Context, out: Out, at: int) -> None:
    seen = view.seen_top
    r = at
    for s in ctx.order:
        if seen >> s & 1:
            out[r] = 1.0
        r += 1


@per_game
def _score_range(game: Game) -> tuple[int, int]:
    """The least a ship can score, and (generously) the most."""
    t = cast(SpaceRace, game).tables
    low = sum(v for v in t.damage_vp if v < 0)
    high = 3 * sum(v for v in t.vp if v > 0) + 40
    return low, high


def _score(view: View, ctx: Context, out: Out, at: int) -> None:
    low, high = _score_range(ctx.game)
    write_per_seat_in_range(view.scores(), low, high, ctx, out, at)


def _rules(view: View, ctx: Context, out: Out, at: int) -> None:
    g = _g(ctx)
    if g.every_power_source:
        out[at] = 1.0
    if g.scanner_always:
        out[at + 1] = 1.0


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
            write=_progress,
        ),
        Feature("hand", _cards, "1 for each Space card id in the observer's hand", write=_hand),
        Feature(
            "my_choice",
            lambda g: _cards(g) + len(PICK_WAYS) + 2,
            "the observer's sealed choice once made: one-hot card id; one-hot way (up, "
            "cockpit, engine, fuel); then 1 for a bid and the bid over the largest",
            write=_my_choice,
        ),
        Feature(
            "hand_sizes",
            _players,
            "per seat: cards in hand, over 6",
            write=_hand_sizes,
        ),
        Feature(
            "ships",
            lambda g: (len(SHIP_STACKS) + 2) * _players(g),
            "a block of one slot per seat for each stack of the ship (scanners, robot parts, "
            "crystals, Power Sources on the cockpit, on the engine, alien drones, loot "
            "carriers, crew, damage), then Fuel and spent Fuel: its cards, over the deck",
            write=_stacks,
        ),
        Feature(
            "robot_parts",
            lambda g: len(PARTS) * _players(g),
            "a block per part (head, body, legs) of one slot per seat: robot parts of that "
            "part, over 6",
            write=_robots,
        ),
        Feature(
            "power_colours",
            lambda g: 2 * len(COLOURS) * _players(g),
            "for the cockpit's then the engine's Power Source stack, a block per colour "
            "(orange, green, purple) of one slot per seat: 1 if its top card has that colour",
            write=_power_colours,
        ),
        _danger_card("danger"),
        _danger_card("danger_top"),
        Feature("bidding", 2, "1 if Fuel is being bid (Flight); 1 if Crew (Fight)", write=_bidding),
        Feature(
            "decks",
            5,
            "Space deck, Danger deck, Damage deck, Damage cards removed, Crew cards "
            "discarded: each over how many there are",
            write=_decks,
        ),
        Feature(
            "danger_used", _dangers, "1 for each Danger card id already used", write=_danger_used
        ),
        Feature(
            "last_bids",
            _players,
            "per seat: its last revealed bid over the largest (0 before the first)",
            write=_last_bids,
        ),
        Feature(
            "seen_top_danger",
            _players,
            "per seat: 1 if it knows the top Danger card (its Scanner showed it)",
            write=_seen_top,
        ),
        Feature(
            "score",
            _players,
            "per seat: its score if the game ended now, from the least to the most a ship "
            "can score (more is shown as 1)",
            write=_score,
        ),
        Feature(
            "rules",
            2,
            "the options: every Power Source scores its colour bonus; a Scanner keeps "
            "showing the top Danger card",
            write=_rules,
        ),
    ],
    simultaneous=True,
)
