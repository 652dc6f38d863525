"""A simple Space Race bot that plays from its view alone.

Picks. It scores every legal pick by how much it would raise its own end score right now
(the rulebook's scoring applied to the public ships, so majorities, drones, colour bonuses
and sets all count), plus a little for what the card is likely to be worth later:

- a Crystal towards an unfinished set of four, and a Robot Part that its robots lack,
  while enough picks remain to finish them;
- Fuel and Crew for the Dangers still to come (more for the kind its Scanner has shown).

Bids. It knows the revealed Danger card and how much every rival holds (Fuel counts and
Crew are public). It expects each rival to bid about half of what they hold, works out the
rank each possible bid would reach, and weighs that rank's wrenches or damage against what
the bid costs: the end-game majority it may lose and the cards' use in later rounds.

It never sees the state: only the view, the legal actions and the game's card tables.

Those bonuses are its :class:`Weights`; the archetypes (``archetypes.py``) are this bot
with other weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from dragonlair.core import Action, Bot, Game
from dragonlair.core.views import seat_of

from .cards import (
    CRYSTAL,
    DAMAGE,
    FLIGHT,
    HAND_SIZE,
    ROBOT_PART,
    ROUNDS,
    S_CREW,
    S_DAMAGE,
    S_FUEL,
    S_POWER_COCKPIT,
    S_POWER_ENGINE,
    STACKS,
    WRENCH,
    CardTables,
)
from .kinds import DANGER
from .rules import SpaceRace
from .scoring import CRYSTAL_SET, SeatGain
from .view import AnySpaceRaceView, SpaceRaceSeatView

# What a card kept for later is worth, in VP, beyond its score now (see the docstring).
SET_PROGRESS = 2.0  # a Crystal towards an unfinished set of four
ROBOT_PROGRESS = 1.5  # a Robot Part of a kind the ship has fewest of
RESOURCE_PER_DANGER = 0.6  # a Fuel or Crew card, per Danger still to come
SEEN_DANGER_BONUS = 1.0  # ... when its Scanner showed that the next Danger wants it


@dataclass(frozen=True)
class Weights:
    """What the bot values beyond the score now, in VP; the defaults are the heuristic's."""

    set_progress: float = SET_PROGRESS
    robot_progress: float = ROBOT_PROGRESS
    fuel_per_danger: float = RESOURCE_PER_DANGER  # a card picked as Fuel, per Danger to come
    crew_per_danger: float = RESOURCE_PER_DANGER  # a Crew card, per Danger to come
    seen_danger_bonus: float = SEEN_DANGER_BONUS
    keep_per_danger: float = RESOURCE_PER_DANGER  # a card not bid, per later Danger


def ships_from_view(view: AnySpaceRaceView) -> list[list[tuple[int, ...]]]:
    """Every ship in the view as stacks (cards.STACKS); unseen Fuel cards are zeros."""
    out = []
    for ship in view["ships"]:
        stacks = []
        for k, name in enumerate(STACKS):
            if k == S_FUEL:
                stacks.append((0,) * ship["fuel"])
            else:
                stacks.append(tuple(ship[name]))  # type: ignore[literal-required]
        out.append(stacks)
    return out


def _ships(view: AnySpaceRaceView) -> list[list[tuple[int, ...]]]:
    """Every ship as stacks: straight from a typed view, parsed from a JSON one."""
    if isinstance(view, SpaceRaceSeatView):
        return view.ship_stacks()
    return ships_from_view(view)


def _pick_table(
    game: SpaceRace,
) -> tuple[dict[Action, tuple[int, int, int]], tuple[int, ...]]:
    """Every pick of ``game`` as ``(kind, plain kind, card)``, and each kind's stack.
    Two picks of one kind are worth the same to the bot: a kind is the stack with the
    card's type, robot part, colour and corner VP (any card as Fuel is one kind). Its
    plain kind leaves out the colour, which matters only to a ship with a Power Source
    or to a Power Source itself."""
    t = game.tables
    actions = game.table.actions
    kinds: dict[tuple[int, ...], int] = {}
    picks: dict[Action, tuple[int, int, int]] = {}
    for aid in range(game.bid0):
        card = game.aid_card[aid]
        stack = game.aid_stack[aid]
        if stack == S_FUEL:
            sig: tuple[int, ...] = (stack,)
            plain = sig
        else:
            sig = (stack, t.vp[card], t.type[card], t.part[card], t.colour[card])
            plain = sig if stack in (S_POWER_COCKPIT, S_POWER_ENGINE) else sig[:4]
        kind = kinds.setdefault(sig, len(kinds))
        picks[actions[aid]] = (kind, kinds.setdefault(plain, len(kinds)), card)
    return picks, tuple(sig[0] for sig in kinds)


class Heuristic(Bot):
    """Greedy on the score it can see, with small bonuses for sets, robots and bids."""

    level = "heuristic"

    def __init__(self, game: Game, weights: Weights = Weights()) -> None:
        if not isinstance(weights, Weights):
            raise TypeError(f"the Space Race heuristic's weights are Weights, not {weights!r}")
        super().__init__(game)
        self.weights = weights
        self._picks, self._kind_stack = _pick_table(cast(SpaceRace, game))
        # the same by the id of the game's own Action objects, which legal actions are:
        # an int's hash is the interpreter's, an Action's is a call
        self._pick_by_id = {id(a): pick for a, pick in self._picks.items()}
        t = cast(SpaceRace, game).tables
        damage_vp = [t.damage_vp[c] for c in t.damage_ids] or [0]
        self._average_damage = sum(damage_vp) / len(damage_vp)  # what one Damage card costs

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        # every view of this game is one of these (the conformance suite checks it)
        return self._choose(cast(AnySpaceRaceView, view), legal, rng)

    def _choose(
        self, view: AnySpaceRaceView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        game = cast(SpaceRace, self.game)
        if view["phase"] == DANGER:
            return self._bid(game, view, legal)
        return self._pick(game, view, legal, rng)

    # ------------------------------------------------------------------ upgrade

    def _pick(
        self, game: SpaceRace, view: AnySpaceRaceView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        t = game.tables
        seat = seat_of(view)
        if isinstance(view, SpaceRaceSeatView):  # its typed attributes: nothing to parse
            rnd, pick_no, top = view.round, view.pick, view.danger_top
            ships = view.ship_stacks()
        else:
            rnd, pick_no, top = view["round"], view["pick"], view["danger_top"]
            ships = ships_from_view(view)
        scorer = SeatGain(ships, seat, t, game.every_power_source)
        mine = ships[seat]
        picks_left = (ROUNDS - rnd) * HAND_SIZE + HAND_SIZE - pick_no
        dangers_left = ROUNDS - rnd + 1
        flight_seen = None if top is None else t.danger_kind[top] == FLIGHT
        by_id = self._pick_by_id
        picks = self._picks
        powered = bool(mine[S_POWER_COCKPIT] or mine[S_POWER_ENGINE])
        # what a pick is worth depends only on its kind (see _pick_table), so it is worked
        # out once per kind among the candidates
        worth: dict[int, float] = {}
        best = best_tie = -math.inf
        choice = legal[0]
        for action in legal:
            pick = by_id.get(id(action))
            if pick is None:
                pick = picks.get(action)
                if pick is None:
                    raise ValueError(f"{action} is not a pick of {game.spec.name}")
            kind, plain, card = pick
            if not powered:
                kind = plain
            value = worth.get(kind)
            if value is None:
                value = worth[kind] = self._worth(
                    t, scorer, mine, card, kind, picks_left, dangers_left, flight_seen
                )
            # the best value, ties broken by a random draw per candidate (one each, in order)
            tie = rng.random()
            if value > best or (value == best and tie > best_tie):
                best = value
                best_tie = tie
                choice = action
        return choice

    def _worth(
        self,
        t: CardTables,
        scorer: SeatGain,
        mine: Sequence[tuple[int, ...]],
        card: int,
        kind: int,
        picks_left: int,
        dangers_left: int,
        flight_seen: bool | None,
    ) -> float:
        """What a pick of ``card`` of kind ``kind`` is worth: its gain in score now, and
        the bonuses for what it may be worth later."""
        w = self.weights
        stack = self._kind_stack[kind]
        value = float(scorer.gain(stack, card))
        if stack in (S_FUEL, S_CREW):
            per = w.fuel_per_danger if stack == S_FUEL else w.crew_per_danger
            value += per * dangers_left
            if flight_seen is not None and flight_seen == (stack == S_FUEL):
                value += w.seen_danger_bonus
        elif t.type[card] == CRYSTAL:
            missing = CRYSTAL_SET - (len(mine[stack]) + 1) % CRYSTAL_SET
            if missing < CRYSTAL_SET and picks_left >= missing:
                value += w.set_progress
        elif t.type[card] == ROBOT_PART:
            counts = [0, 0, 0]
            for c in mine[stack]:
                counts[t.part[c]] += 1
            if counts[t.part[card]] == min(counts) and picks_left >= 2:
                value += w.robot_progress
        return value

    # ------------------------------------------------------------------ danger

    def _bid(self, game: SpaceRace, view: AnySpaceRaceView, legal: Sequence[Action]) -> Action:
        t = game.tables
        eps = game.every_power_source
        seat = seat_of(view)
        card = view["danger"]
        assert card is not None, "bids are asked only with a Danger card up"
        stack = S_FUEL if t.danger_kind[card] == FLIGHT else S_CREW
        ships = _ships(view)
        scorer = SeatGain(ships, seat, t, eps)
        rivals = [len(s[stack]) for i, s in enumerate(ships) if i != seat]
        expected = {(n + 1) // 2 for n in rivals}
        average_damage = self._average_damage
        my_damage = sorted(t.damage_vp[c] for c in ships[seat][S_DAMAGE])
        later = self.weights.keep_per_danger * (ROUNDS - view["round"])
        mine = ships[seat][stack]
        best = (float("-inf"), 0)
        choice = legal[0]
        for action in legal:
            b = int(action.args[0])
            rank = 1
            for e in expected:
                if e > b:
                    rank += 1
            icon, n = t.danger_ranks[card][rank - 1]
            if icon == WRENCH:
                effect = -float(sum(my_damage[:n]))
            elif icon == DAMAGE:
                effect = n * average_damage
            else:
                effect = 0.0
            left = scorer.total_with(stack, mine[b:])
            value = effect + left - b * later
            key = (value, -b)
            if key > best:
                best = key
                choice = action
        return choice
