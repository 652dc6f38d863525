"""A simple Space Dragons bot that adds up what a card is worth to it, from its view only.

What it values, and why:

- **Every card played scores**, so a card's own plus/minus points count in full, and each
  scoring symbol is worth a weight read from the face-up scoring cards: a symbol that
  moves you towards a card's awards (most science on A, most mood, fewest crime on A)
  weighs plus, one that moves you towards its penalties weighs minus. The weight is the
  card's awards summed with that sign, divided by 6 (a symbol moves you only part way).
- **Immediate effects** are worth exactly what they change on its own ship now: a shield
  its shield value, a damage the shield it costs or the damage points, a tool the damage
  it repairs (nothing if there is none).
- **Winning the dragon** is worth the dragon's points and symbols, less the crosshair hits
  the winner takes. The chance to win is estimated from the view: zero if a higher card
  is already down; otherwise, for each player still to play, the chance that none of the
  cards in their hand beats this one, drawing their hand from the cards the bot has not
  seen.
- **High cards are kept for later** while rounds remain: playing card n without winning
  gives up about 10 * (n/80)^3 points of future dragon chances.
- **Hiring Crew** picks the card with the best points, symbols and expected effects, plus
  the same 10 * (n/80)^3 for its chance to win a dragon later.

The numbers above are its :class:`Weights`; the archetypes (``archetypes.py``) are this
bot with other weights.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from math import prod
from typing import Any, Final, cast

from dragonlair.core import Action, Bot, Game
from dragonlair.core.views import seat_of

from .cards import CREW_CARDS, DAMAGE, SHIELD, SIDES, SYMBOLS
from .kinds import HIRE, HIRE_BASE, PLAY_BASE
from .rules import SpaceDragons
from .view import AnySpaceDragonsView, SpaceDragonsSeatView

SYMBOL_SCALE = 6.0
DRAGON_HOPE = 10.0


@dataclass(frozen=True)
class Weights:
    """The bot's numbers (see the module docstring); the defaults are the heuristic's."""

    symbol_scale: float = SYMBOL_SCALE  # a symbol is worth its card's awards / this
    dragon_hope: float = DRAGON_HOPE  # high cards kept: dragon_hope * (n/80)^3
    dragon_prize: float = 1.0  # the expected dragon (its points and symbols) counts this much
    hire_shield: float = 0.5  # hiring: a shield's worth beyond its shield value now
    hire_damage: float = 0.75  # hiring: the share of a damage's cost counted
    hire_tool: float = 0.5  # hiring: a tool, which helps only if there is damage then
    hire_crosshair: float = 0.3  # hiring: a crosshair, which sometimes hits a rival


class Heuristic(Bot):
    """Plays the card with the best estimated value; see the module docstring."""

    level = "heuristic"

    def __init__(self, game: Game, weights: Weights = Weights()) -> None:
        if not isinstance(game, SpaceDragons):
            raise TypeError(f"the Space Dragons heuristic cannot play {game.spec.name}")
        if not isinstance(weights, Weights):
            raise TypeError(f"the Space Dragons heuristic's weights are Weights, not {weights!r}")
        super().__init__(game)
        self.sd = game
        self.weights = weights
        self._hope = HOPE if weights.dragon_hope == DRAGON_HOPE else hopes(weights.dragon_hope)
        # by the face-up sides of the scoring cards (fixed for a game, 0 A and 1 B by
        # symbol): the prices of every card and dragon under them
        self._priced: dict[tuple[int, ...], _Prices] = {}
        self._hire = [0.0] + [self.hire_effects(c) for c in range(1, CREW_CARDS + 1)]
        self._chances: dict[tuple[int, ...], _Chances] = {}
        # by a ship's shields and damage: _ship_effects
        self._ships: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        # by action id, its card; a last 0 for an Action of no table (whose id is -1)
        self._card_by_aid = [
            aid - HIRE_BASE if aid <= PLAY_BASE else aid - PLAY_BASE
            for aid in range(len(game.table))
        ] + [0]
        # by seat and by how many cards are down before it: the seats still to play after it
        n = game.players
        self._later = tuple(
            tuple(tuple((seat + k) % n for k in range(1, n - down)) for down in range(n))
            for seat in range(n)
        )
        # the last scoring sides asked about and their prices (the same all game)
        self._last_sides: tuple[int, ...] = ()
        self._last_prices: _Prices | None = None

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        card_by_aid = self._card_by_aid
        cards = [card_by_aid[a._table_id] for a in legal]  # the game's own Action objects
        if 0 in cards:  # an Action of no table
            cards = [int(a.args[0]) for a in legal]
        if isinstance(view, SpaceDragonsSeatView):
            sides = view.sides
            prices = self._last_prices
            if sides is not self._last_sides or prices is None:
                prices = self._last_prices = self._prices(sides)
                self._last_sides = sides
            if view.phase == HIRE:
                scored = list(map(prices.hire.__getitem__, cards))
            else:
                scored = _seat_view_hunt(self, view, prices, cards)
        else:
            # every view of this game is one of these (the conformance suite checks it)
            v = cast(AnySpaceDragonsView, view)
            prices = self._prices(_sides(v))
            if v["phase"] == HIRE:
                scored = list(map(prices.hire.__getitem__, cards))
            else:
                scored = _hunt_values(self, v, seat_of(v), prices, cards)[0]
        least = max(scored) - 1e-9
        # (by index: scored has one value per action, and zip's strict= is a keyword
        # argument parsed on every call)
        top = [legal[i] for i, v in enumerate(scored) if v >= least]
        return top[rng.randrange(len(top))]

    def _prices(self, key: tuple[int, ...]) -> _Prices:
        """The prices of every card and dragon under the scoring sides ``key``, worked out
        once per game (the sides never change)."""
        found = self._priced.get(key)
        if found is None:
            found = self._priced[key] = _Prices(self, key)
        return found

    # ------------------------------------------------------------------ values

    def symbol_weights(self, sides: Mapping[str, str]) -> list[float]:
        """Points one more symbol of each kind is worth, from the face-up scoring sides."""
        t = self.sd.tables
        out = []
        for k, name in enumerate(SYMBOLS):
            side = 0 if sides[name] == "a" else 1
            total = 0.0
            for rank, points in t.scoring[k][side]:
                total += points if rank in ("most", "second most") else -points
            out.append(total / self.weights.symbol_scale)
        return out

    def printed_value(self, card: int, weights: Sequence[float]) -> float:
        t = self.sd.tables
        # sum's start is 0.0: the compiled build reads int + sum(floats) as an int
        return t.crew_points[card] + sum(
            (w * x for w, x in zip(weights, t.crew_symbols[card], strict=True)), 0.0
        )

    def dragon_value(self, dragon: int, weights: Sequence[float]) -> float:
        """What winning ``dragon`` is worth: its points and symbols."""
        t = self.sd.tables
        return t.dragon_points[dragon] + sum(
            (w * x for w, x in zip(weights, t.dragon_symbols[dragon], strict=True)), 0.0
        )

    def hire_effects(self, card: int) -> float:
        """What hiring ``card`` is worth beyond its printed value and its :func:`hope`:
        its immediate effects as expected, and the hits it may deal."""
        g = self.sd
        t = g.tables
        w = self.weights
        effects = 0.0
        for e in t.immediate[card]:
            if e == SHIELD:
                effects += g.shield_value + w.hire_shield  # and it protects against a later hit
            elif e == DAMAGE:
                effects += min(-g.shield_value, g.damage_value) * w.hire_damage
            else:
                effects += w.hire_tool  # a tool helps only if there is damage when it is played
        effects += w.hire_crosshair * t.crosshairs[card]  # hits someone else's ship, sometimes
        return effects

    def hire_value(self, card: int, weights: Sequence[float]) -> float:
        return self.printed_value(card, weights) + self._hire[card] + self._hope[card]

    def play_value(
        self, view: AnySpaceDragonsView, seat: int, card: int, weights: Sequence[float]
    ) -> float:
        """What playing ``card`` is worth to ``seat`` in the Dragon Hunt of ``view``."""
        return _hunt_values(self, view, seat, self._prices(_sides(view)), (card,))[0][0]

    def unseen(self, view: AnySpaceDragonsView) -> list[bool]:
        """By crew card number (index 0 unused): whether the seat has not seen the card."""
        out = [True] * (CREW_CARDS + 1)
        out[0] = False
        for c in _seen(view):
            out[c] = False
        return out

    def win_chance(self, view: AnySpaceDragonsView, seat: int, card: int) -> float:
        """The chance that ``card`` is the highest of this round, from what the seat saw."""
        return _hunt_values(self, view, seat, self._prices(_sides(view)), (card,))[1][0]


class _Prices:
    """What the heuristic reads per card under one game's scoring sides, by card number
    (index 0 unused): a crew card's printed value, its whole value when hired, and each
    dragon's prize."""

    __slots__ = ("hire", "printed", "prizes", "ships")

    def __init__(self, bot: Heuristic, key: tuple[int, ...]) -> None:
        t = bot.sd.tables
        weights = bot.symbol_weights({name: SIDES[k] for name, k in zip(SYMBOLS, key, strict=True)})
        cards = range(1, CREW_CARDS + 1)
        self.printed = [0.0] * (CREW_CARDS + 1)
        self.hire = [0.0] * (CREW_CARDS + 1)
        for card in cards:
            self.printed[card] = bot.printed_value(card, weights)
            self.hire[card] = self.printed[card] + bot._hire[card] + bot._hope[card]
        # by a ship's shields and damage: _priced_ship
        self.ships: dict[tuple[int, int], tuple[list[float], list[float], list[int]]] = {}
        self.prizes = [0.0] * len(t.dragon_points)
        for dragon in range(1, len(t.dragon_points)):
            self.prizes[dragon] = bot.dragon_value(dragon, weights)


class _Chances:
    """The chance that no card still to be played this round is one of ``higher`` unseen
    cards, by ``higher``, worked out when first asked: ``draws`` lists how many unseen
    cards each of those cards is drawn from (a hand of k cards is k draws without
    replacement from the unseen cards, for each seat still to play)."""

    __slots__ = ("by_higher", "draws")

    def __init__(self, draws: list[int]) -> None:
        self.draws = draws
        self.by_higher: list[float | None] = [None] * (CREW_CARDS + 1)

    def of(self, higher: int) -> float:
        found = self.by_higher[higher]
        if found is None:
            draws = self.draws
            if not draws:
                found = 1.0
            elif higher >= min(draws):
                found = 0.0  # that draw would surely be higher
            else:
                found = prod([1 - higher / left for left in draws], start=1.0)
            self.by_higher[higher] = found
        return found


_NO_CHANCES: Final = _Chances([])  # a placeholder until the chances are needed


# The chances by the unseen cards left and the hand sizes still to play this round, and
# the ship effects by shields and damage, are kept from round to round and game to game
# (they depend on nothing else); at most this many of each, so that they stay small.
_MAX_CACHED: Final = 4096


def _hunt_values(
    bot: Heuristic, view: AnySpaceDragonsView, seat: int, prices: _Prices, cards: Sequence[int]
) -> tuple[list[float], list[float]]:
    """The value of playing each of ``cards`` in the round of the Dragon Hunt ``view``
    shows, for ``seat`` (see the module docstring), and its chance of winning the round.

    What the candidates share is worked out once: the seat's ship, the highest card down,
    the cards the seat has seen, the hits the winner would take, the dragon."""
    if isinstance(view, SpaceDragonsSeatView):
        shields0 = view.shields[seat]
        damage0 = view.damage[seat]
        this_round = view.round_cards()
        sizes: Sequence[int] = view.hand_sizes
        dragon = view.face_up
        more_rounds = view.rounds_played + 1 < bot.sd.rounds
    else:
        shields0 = view["shields"][seat]
        damage0 = view["damage"][seat]
        this_round = [(s, c) for s, c in view["this_round"]]
        sizes = view["hand_sizes"]
        dragon = view["face_up"] or 0
        more_rounds = (view["round"] or 0) < bot.sd.rounds
    top_down, crossed, n_down = _cards_down(bot, this_round, seat)
    later = tuple(map(sizes.__getitem__, bot._later[seat][n_down]))  # their hand sizes
    wins: list[float] = []
    values = _values(
        bot,
        prices,
        cards,
        shields0,
        damage0,
        top_down,
        crossed,
        later,
        (_seen(view),),
        dragon,
        more_rounds,
        wins,
    )
    return values, wins


def _cards_down(
    bot: Heuristic, this_round: Sequence[tuple[int, int]], seat: int
) -> tuple[int, int, int]:
    """Of the cards the others have played this round (``this_round``: ``(seat, card)``):
    the highest, the crosshairs on them, and how many there are."""
    crosshairs = bot.sd.tables.crosshairs
    top_down = crossed = n_down = 0
    for s, c in this_round:
        if s != seat:
            n_down += 1
            crossed += crosshairs[c]
            if c > top_down:  # noqa: PLR1730  (max() would be one more call per card)
                top_down = c
    return top_down, crossed, n_down


def _seat_view_hunt(
    bot: Heuristic, view: SpaceDragonsSeatView, prices: _Prices, cards: Sequence[int]
) -> list[float]:
    """:func:`_hunt_values` of a typed view for its own seat in the Dragon Hunt (the
    values only), with the cards it has seen handed on unsorted (they are sorted only if
    a candidate could win)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to play")
    played = view.played
    r = view.rounds_played
    top_down, crossed, n_down = _cards_down(bot, view.round_cards(), seat)
    later = tuple(map(view.hand_sizes.__getitem__, bot._later[seat][n_down]))
    return _values(
        bot,
        prices,
        cards,
        view.shields[seat],
        view.damage[seat],
        top_down,
        crossed,
        later,
        (view.hand or (), view.start_cards, *played),
        view.face_up,
        r + 1 < bot.sd.rounds,
    )


def _values(
    bot: Heuristic,
    prices: _Prices,
    cards: Sequence[int],
    shields0: int,
    damage0: int,
    top_down: int,
    crossed: int,
    later: tuple[int, ...],
    seen_parts: tuple[Iterable[int], ...],
    dragon: int,
    more_rounds: bool,
    wins: list[float] | None = None,
) -> list[float]:
    """:func:`_hunt_values` from what its candidates share: the seat's ship, the highest
    card down, the crosshairs on the cards down, the hand sizes of the seats still to play
    after it, the cards it has seen (its hand, the start-player draw and the cards each
    seat played: sorted only if a candidate could win), the dragon, whether more rounds
    follow. Each candidate's chance of winning is added to ``wins`` if given."""
    ship = prices.ships.get((shields0, damage0))
    if ship is None:
        ship = _priced_ship(bot, prices, shields0, damage0)
    bases, lows, shields_after = ship
    if not more_rounds:
        lows = bases  # nothing is given up by playing a high card in the last round
    hope = bot._hope
    values = []
    seen: list[int] | None = None  # sorted when first needed
    n_seen = 0
    chances = _NO_CHANCES
    by_higher = chances.by_higher
    hits = 0.0
    prize = prices.prizes[dragon] if dragon else 0.0
    net_by_shields: dict[int, float] = {}  # prize - hit_cost, by the shields left
    dragon_prize = bot.weights.dragon_prize
    for card in cards:
        if top_down > card:  # it cannot win: its value with p = 0
            values.append(lows[card])
            if wins is not None:
                wins.append(0.0)
            continue
        # it wins if none of the unseen cards above it is played this round
        if seen is None:
            seen = sorted(chain(*seen_parts))
            n_seen = len(seen)
            chances = _chances(bot, CREW_CARDS - n_seen, later)
            by_higher = chances.by_higher
            hits = crossed + 0.3 * len(later)
        higher = CREW_CARDS - card - (n_seen - bisect_right(seen, card))
        found = by_higher[higher]
        p = chances.of(higher) if found is None else found
        if p > 0:
            assert dragon, "a round of the hunt is played for the face-up dragon"
            value = bases[card]  # printed[card] + gains[card]
            shields = shields_after[card]
            net = net_by_shields.get(shields)
            if net is None:
                hit_cost = min(hits, shields) * bot.sd.shield_value + max(0.0, hits - shields) * (
                    -bot.sd.damage_value
                )
                net = net_by_shields[shields] = prize - hit_cost
            value += dragon_prize * (p * net)
            if more_rounds:
                value -= (1 - p) * hope[card]
        else:
            value = lows[card]
        values.append(value)
        if wins is not None:
            wins.append(p)
    return values


def _chances(bot: Heuristic, left: int, later: tuple[int, ...]) -> _Chances:
    """The chances with ``left`` unseen cards and the seats still to play holding
    ``later`` cards, kept from round to round and game to game."""
    key = (left, *later)
    chances = bot._chances.get(key)
    if chances is None:
        draws: list[int] = []
        for size in later:
            draws += range(left, left - min(size, left), -1)  # left, left - 1, ...: > 0
        if len(bot._chances) >= _MAX_CACHED:
            bot._chances.clear()
        chances = bot._chances[key] = _Chances(draws)
    return chances


def _priced_ship(
    bot: Heuristic, prices: _Prices, shields0: int, damage0: int
) -> tuple[list[float], list[float], list[int]]:
    """By card number, a card's printed value and what its immediate effects gain on a
    ship with ``shields0`` shields and ``damage0`` damage; that less its hope (its value
    when it cannot win a round with more to come); and the shields left after them. Kept
    on ``prices`` (for the game: at most _MAX_CACHED ships)."""
    ship = bot._ships.get((shields0, damage0))
    if ship is None:
        if len(bot._ships) >= _MAX_CACHED:
            bot._ships.clear()
        ship = bot._ships[shields0, damage0] = _ship_effects(bot.sd, shields0, damage0)
    gains, shields_after = ship
    printed = prices.printed
    hope = bot._hope
    bases = [printed[card] + gains[card] for card in range(CREW_CARDS + 1)]
    # a card's value when it cannot win with rounds to come: (1 - 0.0) * hope is hope
    lows = [bases[card] - (1 - 0.0) * hope[card] for card in range(CREW_CARDS + 1)]
    if len(prices.ships) >= _MAX_CACHED:
        prices.ships.clear()
    found = prices.ships[shields0, damage0] = (bases, lows, shields_after)
    return found


def _ship_effects(g: SpaceDragons, shields0: int, damage0: int) -> tuple[list[int], list[int]]:
    """By card number, what playing the card changes on a ship with ``shields0`` shields
    and ``damage0`` damage: the points its immediate effects gain (or lose) at the end,
    and the shields left after them."""
    before = shields0 * g.shield_value + damage0 * g.damage_value
    gains = [0] * (CREW_CARDS + 1)
    shields_after = [shields0] * (CREW_CARDS + 1)
    for card, effects in enumerate(g.tables.immediate):
        shields = shields0
        damage = damage0
        for e in effects:
            if e == SHIELD:
                shields += 1
            elif e == DAMAGE:
                if shields:
                    shields -= 1
                else:
                    damage += 1
            elif damage:
                damage -= 1
        gains[card] = shields * g.shield_value + damage * g.damage_value - before
        shields_after[card] = shields
    return gains, shields_after


def _seen(view: AnySpaceDragonsView) -> list[int]:
    """The crew cards the seat of ``view`` has seen (its hand, the start-player draw and
    everything played), sorted."""
    if isinstance(view, SpaceDragonsSeatView):
        seen = [*(view.hand or ()), *view.start_cards]
        played: Sequence[Sequence[int]] = view.played
    else:
        seen = [*(view["hand"] or ()), *view["start_cards"]]
        played = view["played"]
    for p in played:
        seen += p
    seen.sort()
    return seen


def hopes(scale: float) -> tuple[float, ...]:
    """By card number, :func:`hope` at ``scale`` (index 0 unused)."""
    return tuple(0.0 if c == 0 else scale * (c / CREW_CARDS) ** 3 for c in range(CREW_CARDS + 1))


HOPE: Final = hopes(DRAGON_HOPE)


def _sides(view: AnySpaceDragonsView) -> tuple[int, ...]:
    """The face-up side of each scoring card, by symbol: 0 A, 1 B."""
    if isinstance(view, SpaceDragonsSeatView):
        return view.sides
    sides = view["scoring_cards"]
    return tuple(SIDES.index(sides[name]) for name in SYMBOLS)


def hope(card: int) -> float:
    """Roughly what holding ``card`` is worth in future dragons."""
    return DRAGON_HOPE * (card / CREW_CARDS) ** 3
