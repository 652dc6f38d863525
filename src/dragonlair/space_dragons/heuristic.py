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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from dragonlair.core import Action, Bot, Game
from dragonlair.core.views import seat_of

from .cards import CREW_CARDS, DAMAGE, SHIELD, SIDES, SYMBOLS
from .kinds import HIRE
from .rules import ROUNDS, SpaceDragons
from .view import SpaceDragonsSeatView, SpaceDragonsView

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
        # by the face-up sides of the scoring cards (fixed for a game): the symbol weights,
        # each crew card's printed value and each dragon's prize under them
        self._priced: dict[tuple[str, ...], tuple[list[float], list[float]]] = {}
        self._hire = [0.0] + [self.hire_effects(c) for c in range(1, CREW_CARDS + 1)]

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        # every view of this game is a SpaceDragonsView (the conformance suite checks it)
        return self._choose(cast(SpaceDragonsView, view), legal, rng)

    def _choose(
        self, view: SpaceDragonsView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        printed, prizes = self._prices(_sides(view))
        if view["phase"] == HIRE:
            hire = self._hire
            scored = []
            for a in legal:
                c = int(a.args[0])
                scored.append((printed[c] + hire[c] + self._hope[c], a))
        else:
            round_ = _Round(self.sd, view, seat_of(view), self.unseen(view))
            scored = [(self._play_value(round_, int(a.args[0]), printed, prizes), a) for a in legal]
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v >= best - 1e-9]
        return top[rng.randrange(len(top))]

    def _prices(self, key: tuple[str, ...]) -> tuple[list[float], list[float]]:
        """By card number, the printed value (:meth:`printed_value`) of every crew card and
        the prize of every dragon under the scoring sides ``key`` (by symbol; worked out
        once per game: the sides never change)."""
        found = self._priced.get(key)
        if found is None:
            t = self.sd.tables
            weights = self.symbol_weights(dict(zip(SYMBOLS, key, strict=True)))
            printed = [0.0] * (CREW_CARDS + 1)
            for card in range(1, CREW_CARDS + 1):
                printed[card] = self.printed_value(card, weights)
            prizes = [0.0] * len(t.dragon_points)
            for dragon in range(1, len(t.dragon_points)):
                prizes[dragon] = t.dragon_points[dragon] + sum(
                    w * x for w, x in zip(weights, t.dragon_symbols[dragon], strict=True)
                )
            found = self._priced[key] = (printed, prizes)
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
        return t.crew_points[card] + sum(
            w * x for w, x in zip(weights, t.crew_symbols[card], strict=True)
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

    def _play_value(
        self, r: _Round, card: int, printed: Sequence[float], prizes: Sequence[float]
    ) -> float:
        """The value of playing ``card`` in the round ``r`` describes (see the docstring)."""
        g = self.sd
        shields = r.shields
        damage = r.damage
        for e in self.sd.tables.immediate[card]:
            if e == SHIELD:
                shields += 1
            elif e == DAMAGE:
                if shields:
                    shields -= 1
                else:
                    damage += 1
            elif damage:
                damage -= 1
        value = printed[card]
        value += shields * g.shield_value + damage * g.damage_value - r.before
        p = r.win_chance(card)
        if p > 0:
            assert r.dragon, "a round of the hunt is played for the face-up dragon"
            hits = r.hits
            hit_cost = min(hits, shields) * g.shield_value + max(0.0, hits - shields) * (
                -g.damage_value
            )
            value += self.weights.dragon_prize * (p * (prizes[r.dragon] - hit_cost))
        if r.more_rounds:
            value -= (1 - p) * self._hope[card]
        return value

    def play_value(
        self, view: SpaceDragonsView, seat: int, card: int, weights: Sequence[float]
    ) -> float:
        """What playing ``card`` is worth to ``seat`` in the Dragon Hunt of ``view``."""
        printed, prizes = self._prices(_sides(view))
        return self._play_value(
            _Round(self.sd, view, seat, self.unseen(view)), card, printed, prizes
        )

    def unseen(self, view: SpaceDragonsView) -> list[bool]:
        """By crew card number (index 0 unused): whether the seat has not seen the card."""
        out = [True] * (CREW_CARDS + 1)
        out[0] = False
        for c in view["hand"] or ():
            out[c] = False
        for c in view["start_cards"]:
            out[c] = False
        for p in view.played if isinstance(view, SpaceDragonsSeatView) else view["played"]:
            for c in p:
                out[c] = False
        return out

    def win_chance(self, view: SpaceDragonsView, seat: int, card: int) -> float:
        """The chance that ``card`` is the highest of this round, from what the seat saw."""
        return _Round(self.sd, view, seat, self.unseen(view)).win_chance(card)


class _Round:
    """What every candidate card of one Dragon Hunt decision shares: the seat's ship, the
    cards down, the seats still to play, the cards it has not seen and the hits the winner
    would take."""

    __slots__ = (
        "before",
        "damage",
        "down",
        "dragon",
        "hits",
        "later",
        "left",
        "more_rounds",
        "shields",
        "sizes",
        "unseen",
    )

    def __init__(self, g: SpaceDragons, view: SpaceDragonsView, seat: int, unseen: list[bool]):
        self.shields: int = view["shields"][seat]
        self.damage: int = view["damage"][seat]
        self.before = self.shields * g.shield_value + self.damage * g.damage_value
        this_round = (
            view.round_cards() if isinstance(view, SpaceDragonsSeatView) else view["this_round"]
        )
        self.down = [c for s, c in this_round if s != seat]
        n = g.players
        self.later = [(seat + k) % n for k in range(1, n - len(self.down))]
        self.sizes = view["hand_sizes"]
        self.unseen = unseen
        self.left = sum(unseen)
        dragon = view["face_up"]
        self.dragon = dragon or 0
        t = g.tables
        others = [c for s, c in this_round if s != seat]
        later = g.players - 1 - len(others)
        self.hits = sum(t.crosshairs[c] for c in others) + 0.3 * later
        self.more_rounds = (view["round"] or 0) < ROUNDS

    def win_chance(self, card: int) -> float:
        """The chance that ``card`` is the highest of this round (see the docstring)."""
        down = self.down
        if down and max(down) > card:
            return 0.0
        if not self.later:
            return 1.0
        left = self.left
        higher = sum(self.unseen[card + 1 :])
        chance = 1.0
        sizes = self.sizes
        for s in self.later:
            for k in range(sizes[s]):
                if left - k <= 0:
                    break
                miss = 1 - higher / (left - k)
                chance *= miss if miss > 0.0 else 0.0
        return chance


def hopes(scale: float) -> tuple[float, ...]:
    """By card number, :func:`hope` at ``scale`` (index 0 unused)."""
    return tuple(0.0 if c == 0 else scale * (c / CREW_CARDS) ** 3 for c in range(CREW_CARDS + 1))


HOPE: Final = hopes(DRAGON_HOPE)


def _sides(view: SpaceDragonsView) -> tuple[str, ...]:
    """The face-up side of each scoring card, by symbol."""
    if isinstance(view, SpaceDragonsSeatView):
        return tuple(SIDES[k] for k in view.sides)
    sides = view["scoring_cards"]
    return tuple(sides[name] for name in SYMBOLS)


def hope(card: int) -> float:
    """Roughly what holding ``card`` is worth in future dragons."""
    return DRAGON_HOPE * (card / CREW_CARDS) ** 3
