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
    DAMAGE,
    FLIGHT,
    HAND_SIZE,
    NSTACK,
    ROUNDS,
    S_CREW,
    S_CRYSTAL,
    S_DAMAGE,
    S_DRONE,
    S_FUEL,
    S_LOOT,
    S_POWER_COCKPIT,
    S_POWER_ENGINE,
    S_ROBOT,
    STACKS,
    WRENCH,
)
from .kinds import DANGER
from .rules import SpaceRace
from .scoring import (
    COLOUR_STACKS,
    CRYSTAL_SET,
    CRYSTAL_SET_BONUS,
    DRONE_PER_FEWER,
    MOST_CREW,
    MOST_FUEL,
    POWER_STACKS,
    ROBOT_BONUS,
    SeatGain,
    colour_gain,
    colour_sets,
    loot_award,
)
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


def row_from_view(view: AnySpaceRaceView) -> list[tuple[int, ...]]:
    """Every ship in the view as one flat row of stacks, ``row[seat * NSTACK + k]``
    (``cards.STACKS``; unseen Fuel cards are zeros): a typed view's ``stacks``, or parsed
    from a JSON view."""
    if isinstance(view, SpaceRaceSeatView):
        return view.stacks
    return [stack for ship in ships_from_view(view) for stack in ship]


def _pick_table(
    game: SpaceRace,
) -> tuple[dict[Action, tuple[int, int]], tuple[int, ...], tuple[int, ...]]:
    """Every pick of ``game`` as ``(kind, plain kind)``, and each kind's stack and one
    card of it. Two picks of one kind are worth the same to the bot: a kind is the stack
    with the card's type, robot part, colour and corner VP (any card as Fuel is one
    kind). Its plain kind leaves out the colour, which matters only to a ship with a
    Power Source or to a Power Source itself."""
    t = game.tables
    actions = game.table.actions
    kinds: dict[tuple[int, ...], int] = {}
    cards: list[int] = []
    picks: dict[Action, tuple[int, int]] = {}
    for aid in range(game.bid0):
        card = game.aid_card[aid]
        stack = game.aid_stack[aid]
        if stack == S_FUEL:
            sig: tuple[int, ...] = (stack,)
            plain = sig
        else:
            sig = (stack, t.vp[card], t.type[card], t.part[card], t.colour[card])
            plain = sig if stack in (S_POWER_COCKPIT, S_POWER_ENGINE) else sig[:4]
        for k in (sig, plain):
            if k not in kinds:
                kinds[k] = len(kinds)
                cards.append(card)
        picks[actions[aid]] = (kinds[sig], kinds[plain])
    return picks, tuple(sig[0] for sig in kinds), tuple(cards)


def _rival(row: Sequence[tuple[int, ...]], others: tuple[int, ...]) -> int:
    """The most cards any of the stacks at ``others`` (indices into ``row``) holds."""
    most = 0
    for i in others:
        if len(row[i]) > most:  # noqa: PLR1730  (max() would be one more call per ship)
            most = len(row[i])
    return most


class Heuristic(Bot):
    """Greedy on the score it can see, with small bonuses for sets, robots and bids."""

    level = "heuristic"

    def __init__(self, game: Game, weights: Weights = Weights()) -> None:
        if not isinstance(weights, Weights):
            raise TypeError(f"the Space Race heuristic's weights are Weights, not {weights!r}")
        super().__init__(game)
        self.weights = weights
        sr = cast(SpaceRace, game)
        self._sr = sr
        self._picks, self._kind_stack, self._kind_card = _pick_table(sr)
        self._kinds = len(self._kind_stack)
        # each pick's kind by the id of the game's own Action objects, which legal actions
        # are (an int's hash is the interpreter's, an Action's is a call): for a ship with
        # a Power Source, and for one without (its plain kind)
        self._powered: dict[int, int] = {}
        self._plain: dict[int, int] = {}
        for a, (kind, plain) in self._picks.items():
            self._powered[id(a)] = kind
            self._plain[id(a)] = plain
        n = sr.players
        # where each stack of every ship lies in a row of them, and of every ship but one
        every = tuple(tuple(s * NSTACK + k for s in range(n)) for k in range(NSTACK))
        self._stacks = every
        self._others = tuple(
            tuple(tuple(i for i in at if i != seat * NSTACK + k) for k, at in enumerate(every))
            for seat in range(n)
        )
        t = sr.tables
        damage_vp = [t.damage_vp[c] for c in t.damage_ids] or [0]
        self._average_damage = sum(damage_vp) / len(damage_vp)  # what one Damage card costs

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if isinstance(view, SpaceRaceSeatView):  # its typed attributes: nothing to parse
            seat = view.seat
            if seat is None:
                raise ValueError("a spectator's view has no seat to play")
            if view.phase == DANGER:
                return self._bid(seat, view.stacks, view.danger, view.round, legal)
            return self._pick(seat, view.stacks, view.round, view.pick, view.danger_top, legal, rng)
        # every view of this game is one of these (the conformance suite checks it)
        v = cast(AnySpaceRaceView, view)
        row = row_from_view(v)
        if v["phase"] == DANGER:
            return self._bid(seat_of(v), row, v["danger"] or 0, v["round"], legal)
        return self._pick(seat_of(v), row, v["round"], v["pick"], v["danger_top"], legal, rng)

    # ------------------------------------------------------------------ upgrade

    def _pick(
        self,
        seat: int,
        row: Sequence[tuple[int, ...]],
        rnd: int,
        pick_no: int,
        top: int | None,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        """The pick worth most: what it adds to the seat's total now (as
        ``scoring.SeatGain.gain`` works it out, written out here for speed), and the
        bonuses (the weights) for what it may be worth later."""
        sr = self._sr
        t = sr.tables
        vp = t.vp
        w = self.weights
        base = seat * NSTACK
        picks_left = (ROUNDS - rnd) * HAND_SIZE + HAND_SIZE - pick_no
        dangers_left = ROUNDS - rnd + 1
        flight_seen = None if top is None else t.danger_kind[top] == FLIGHT
        powered = bool(row[base + S_POWER_COCKPIT] or row[base + S_POWER_ENGINE])
        # what a pick is worth depends only on its kind (see _pick_table), so it is worked
        # out once per kind among the candidates, from one card of the kind
        by_id = self._powered if powered else self._plain
        kind_stack = self._kind_stack
        kind_card = self._kind_card
        every = self._stacks  # where each stack of every ship lies in the row
        others = self._others[seat]  # ... of every ship but the seat's
        worth: list[float | None] = [None] * self._kinds
        fuel_later = w.fuel_per_danger * dangers_left  # for the Dangers to come
        crew_later = w.crew_per_danger * dangers_left
        # what the gains read of the ships, each worked out when first needed
        rival_fuel = rival_crew = -1  # the most Fuel, Crew any rival holds
        parts: list[int] | None = None  # how many of each Robot Part the ship has
        tops: list[int] | None = None  # colours of the top Scanner, Robot Part, Crystal
        sources: list[int] = []  # colours of the Power Sources that score
        best = best_tie = -math.inf
        choice = legal[0]
        draw = rng.random
        for action in legal:
            try:
                kind = by_id[id(action)]
            except KeyError:
                kind = self._kind_of(action, powered)
            value = worth[kind]
            if value is None:
                card = kind_card[kind]
                stack = kind_stack[kind]
                old = row[base + stack]
                n = len(old)
                if stack == S_FUEL:
                    if rival_fuel < 0:
                        rival_fuel = 0
                        for i in others[S_FUEL]:
                            if len(row[i]) > rival_fuel:  # noqa: PLR1730  (as in _rival)
                                rival_fuel = len(row[i])
                    gain = MOST_FUEL * ((n + 1 >= rival_fuel) - (bool(n) and n >= rival_fuel))
                    value = gain + fuel_later
                    if flight_seen is True:  # the more if the Danger seen is a Flight
                        value += w.seen_danger_bonus
                elif stack == S_CREW:
                    if rival_crew < 0:
                        rival_crew = _rival(row, others[S_CREW])
                    gain = MOST_CREW * ((n + 1 >= rival_crew) - (bool(n) and n >= rival_crew))
                    value = gain + vp[card] + crew_later
                    if flight_seen is False:
                        value += w.seen_danger_bonus
                else:
                    gain = vp[card]
                    progress = 0.0
                    if stack == S_ROBOT:
                        if parts is None:
                            parts = [0, 0, 0]
                            part = t.part
                            for c in old:
                                parts[part[c]] += 1
                        fewest = min(parts)
                        if parts[t.part[card]] == fewest:
                            after = parts.copy()
                            after[t.part[card]] += 1
                            gain += ROBOT_BONUS * (min(after) - fewest)  # a robot more
                            if picks_left >= 2:  # a part of a kind the ship has fewest of
                                progress = w.robot_progress
                    elif stack == S_CRYSTAL:
                        gain += CRYSTAL_SET_BONUS * ((n + 1) // CRYSTAL_SET - n // CRYSTAL_SET)
                        missing = CRYSTAL_SET - (n + 1) % CRYSTAL_SET
                        if missing < CRYSTAL_SET and picks_left >= missing:
                            progress = w.set_progress
                    elif stack == S_LOOT:
                        counts = [len(row[i]) for i in every[S_LOOT]]
                        gain -= loot_award(n, counts)
                        counts[seat] = n + 1
                        gain += loot_award(n + 1, counts)
                    elif stack == S_DRONE:
                        for i in others[S_DRONE]:
                            if len(row[i]) == n:
                                gain += DRONE_PER_FEWER  # a rival level with it now has fewer
                    if stack in COLOUR_STACKS and (powered or stack in POWER_STACKS):
                        if tops is None:
                            tops, sources = colour_sets(row, base, t, sr.every_power_source)
                        gain += colour_gain(
                            tops, sources, old, stack, card, t, sr.every_power_source
                        )
                    value = gain + progress
                worth[kind] = value
            # the best value, ties broken by a random draw per candidate (one each, in order)
            tie = draw()
            if value > best or (value == best and tie > best_tie):
                best = value
                best_tie = tie
                choice = action
        return choice

    def _kind_of(self, action: Action, powered: bool) -> int:
        """The kind of a pick that is not one of the game's own Action objects."""
        pick = self._picks.get(action)
        if pick is None:
            raise ValueError(f"{action} is not a pick of {self._sr.spec.name}")
        return pick[0] if powered else pick[1]

    # ------------------------------------------------------------------ danger

    def _bid(
        self,
        seat: int,
        row: Sequence[tuple[int, ...]],
        card: int,
        rnd: int,
        legal: Sequence[Action],
    ) -> Action:
        """The bid worth most on the Danger ``card`` in round ``rnd`` (see the module
        docstring)."""
        sr = self._sr
        t = sr.tables
        assert card, "bids are asked only with a Danger card up"
        stack = S_FUEL if t.danger_kind[card] == FLIGHT else S_CREW
        base = seat * NSTACK
        scorer = SeatGain(row, seat, t, sr.every_power_source)
        rivals = [len(row[i]) for i in range(stack, len(row), NSTACK) if i != base + stack]
        expected = {(n + 1) // 2 for n in rivals}
        average_damage = self._average_damage
        my_damage = sorted(t.damage_vp[c] for c in row[base + S_DAMAGE])
        later = self.weights.keep_per_danger * (ROUNDS - rnd)
        # the total each bid leaves (scorer.total_with(stack, mine[b:]), for every b)
        left = scorer.bid_totals(stack)
        ranks = t.danger_ranks[card]
        best = (float("-inf"), 0)
        choice = legal[0]
        for action in legal:
            b = int(action.args[0])
            rank = 1
            for e in expected:
                if e > b:
                    rank += 1
            icon, n = ranks[rank - 1]
            if icon == WRENCH:
                effect = -float(sum(my_damage[:n]))
            elif icon == DAMAGE:
                effect = n * average_damage
            else:
                effect = 0.0
            value = effect + left[b] - b * later
            key = (value, -b)
            if key > best:
                best = key
                choice = action
        return choice
