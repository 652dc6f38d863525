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
from typing import Any, cast

from dragonlair.core import Action, Bot, Game
from dragonlair.core.views import seat_of

from .cards import CREW_CARDS, DAMAGE, SHIELD, SYMBOLS
from .kinds import HIRE
from .rules import ROUNDS, SpaceDragons
from .view import SpaceDragonsView

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

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        # every view of this game is a SpaceDragonsView (the conformance suite checks it)
        return self._choose(cast(SpaceDragonsView, view), legal, rng)

    def _choose(
        self, view: SpaceDragonsView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        weights = self.symbol_weights(view["scoring_cards"])
        if view["phase"] == HIRE:
            scored = [(self.hire_value(int(a.args[0]), weights), a) for a in legal]
        else:
            seat = seat_of(view)
            unseen = self.unseen(view)
            scored = [
                (self.play_value(view, seat, int(a.args[0]), weights, unseen), a) for a in legal
            ]
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v >= best - 1e-9]
        return top[rng.randrange(len(top))]

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

    def hire_value(self, card: int, weights: Sequence[float]) -> float:
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
        return self.printed_value(card, weights) + effects + hope(card, w.dragon_hope)

    def play_value(
        self,
        view: SpaceDragonsView,
        seat: int,
        card: int,
        weights: Sequence[float],
        unseen: Sequence[bool] | None = None,
    ) -> float:
        g = self.sd
        t = g.tables
        shields: int = view["shields"][seat]
        damage: int = view["damage"][seat]
        before = shields * g.shield_value + damage * g.damage_value
        for e in t.immediate[card]:
            if e == SHIELD:
                shields += 1
            elif e == DAMAGE:
                if shields:
                    shields -= 1
                else:
                    damage += 1
            elif damage:
                damage -= 1
        value = self.printed_value(card, weights)
        value += shields * g.shield_value + damage * g.damage_value - before
        p = self.win_chance(view, seat, card, unseen)
        if p > 0:
            dragon = view["face_up"]
            assert dragon is not None, "a round of the hunt is played for the face-up dragon"
            prize = t.dragon_points[dragon] + sum(
                w * x for w, x in zip(weights, t.dragon_symbols[dragon], strict=True)
            )
            others = [c for s, c in view["this_round"] if s != seat]
            later = g.players - 1 - len(others)
            hits = sum(t.crosshairs[c] for c in others) + 0.3 * later
            hit_cost = min(hits, shields) * g.shield_value + max(0.0, hits - shields) * (
                -g.damage_value
            )
            value += self.weights.dragon_prize * (p * (prize - hit_cost))
        if (view["round"] or 0) < ROUNDS:
            value -= (1 - p) * hope(card, self.weights.dragon_hope)
        return value

    def unseen(self, view: SpaceDragonsView) -> list[bool]:
        """By crew card number (index 0 unused): whether the seat has not seen the card."""
        out = [True] * (CREW_CARDS + 1)
        out[0] = False
        for c in view["hand"] or ():
            out[c] = False
        for c in view["start_cards"]:
            out[c] = False
        for p in view["played"]:
            for c in p:
                out[c] = False
        return out

    def win_chance(
        self,
        view: SpaceDragonsView,
        seat: int,
        card: int,
        unseen: Sequence[bool] | None = None,
    ) -> float:
        """The chance that ``card`` is the highest of this round, from what the seat saw
        (``unseen``: :meth:`unseen` of the view, when the caller has it already)."""
        down = [c for s, c in view["this_round"] if s != seat]
        if down and max(down) > card:
            return 0.0
        n = self.sd.players
        later = [(seat + k) % n for k in range(1, n - len(down))]
        if not later:
            return 1.0
        if unseen is None:
            unseen = self.unseen(view)
        left = sum(unseen)
        higher = sum(unseen[card + 1 :])
        chance = 1.0
        for s in later:
            for k in range(view["hand_sizes"][s]):
                if left - k <= 0:
                    break
                chance *= max(0.0, 1 - higher / (left - k))
        return chance


def hope(card: int, scale: float = DRAGON_HOPE) -> float:
    """Roughly what holding ``card`` is worth in future dragons."""
    return scale * (card / CREW_CARDS) ** 3
