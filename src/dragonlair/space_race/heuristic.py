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
from typing import Any, Final, cast

from dragonlair.core import Action, Bot, Game
from dragonlair.core.views import seat_of

from .cards import (
    DAMAGE,
    FLIGHT,
    NSTACK,
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
from .scoring import SeatGain, loot_award, own_points
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


_LOWEST: Final = -math.inf  # below every value


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
        self._picks, kind_stack, kind_card = _pick_table(sr)
        # each pick's kind by the action's id, for a ship with a Power Source and for one
        # without (its plain kind): a candidate is one of the game's own Action objects,
        # which know their id (``Action._table_id``, confirmed by identity, as the state
        # does; any other action is looked up by equality)
        actions = sr.table.actions
        picks = [self._picks[a] for a in actions[: sr.bid0]]  # the picks' ids come first
        self._powered = tuple(kind for kind, _ in picks)
        self._plain = tuple(plain for _, plain in picks)
        # what the pick loop reads: the actions, how many are picks, each kind's stack and
        # one card of it, and how many kinds there are
        self._pick_tables = (actions, sr.bid0, kind_stack, kind_card, len(kind_stack))
        w = weights
        # what a card kept as Fuel or Crew is worth for the Dangers to come, by round
        rounds = sr.rounds
        self._fuel_later = tuple(
            w.fuel_per_danger * (rounds - rnd + 1) for rnd in range(rounds + 1)
        )
        self._crew_later = tuple(
            w.crew_per_danger * (rounds - rnd + 1) for rnd in range(rounds + 1)
        )
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
        """The pick worth most: what it adds to the seat's total now
        (``scoring.SeatGain.gain``) and the bonuses (the weights) for what it may be worth
        later (:meth:`_later`), ties broken by a random draw per candidate."""
        sr = self._sr
        base = seat * NSTACK
        powered = bool(row[base + S_POWER_COCKPIT] or row[base + S_POWER_ENGINE])
        # what a pick is worth depends only on its kind (see _pick_table), so it is worked
        # out once per kind among the candidates, from one card of the kind
        kinds = self._powered if powered else self._plain
        actions, npicks, kind_stack, kind_card, nkinds = self._pick_tables
        worth: list[float | None] = [None] * nkinds
        gains = SeatGain(row, seat, sr.tables, sr.every_power_source)
        picks_left = (sr.rounds - rnd) * sr.hand_size + sr.hand_size - pick_no
        best = best_tie = _LOWEST
        choice = legal[0]
        draw = rng.random
        for action in legal:
            aid = action._table_id
            if aid < npicks and actions[aid] is action:
                kind = kinds[aid]
            else:
                kind = self._kind_of(action, powered)
            value = worth[kind]
            if value is None:
                stack = kind_stack[kind]
                card = kind_card[kind]
                value = worth[kind] = gains.gain(stack, card) + self._later(
                    stack, card, row[base + stack], rnd, picks_left, top
                )
            # the best value, ties broken by a random draw per candidate (one each, in order)
            tie = draw()
            if value >= best and (value > best or tie > best_tie):
                best = value
                best_tie = tie
                choice = action
        return choice

    def _later(
        self,
        stack: int,
        card: int,
        old: tuple[int, ...],
        rnd: int,
        picks_left: int,
        top: int | None,
    ) -> float:
        """The weights' bonus for what ``card`` on ``stack`` (holding ``old``) may be worth
        later: Fuel and Crew for the Dangers to come (more for the kind of the Danger seen
        on top), a Robot Part the ship lacks most, a Crystal towards a set, while enough
        picks are left to finish them."""
        t = self._sr.tables
        w = self.weights
        if stack == S_FUEL:
            seen = top is not None and t.danger_kind[top] == FLIGHT
            return self._fuel_later[rnd] + (w.seen_danger_bonus if seen else 0.0)
        if stack == S_CREW:
            seen = top is not None and t.danger_kind[top] != FLIGHT
            return self._crew_later[rnd] + (w.seen_danger_bonus if seen else 0.0)
        if stack == S_ROBOT:
            part = t.part
            parts = [0, 0, 0]
            for c in old:
                parts[part[c]] += 1
            lacking = parts[part[card]] == min(parts)
            return w.robot_progress if lacking and picks_left >= 2 else 0.0
        if stack == S_CRYSTAL:
            per_set = t.scoring.crystal_set
            missing = per_set - (len(old) + 1) % per_set
            return w.set_progress if missing < per_set and picks_left >= missing else 0.0
        return 0.0

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
        flight = t.danger_kind[card] == FLIGHT
        stack = S_FUEL if flight else S_CREW
        mine = row[seat * NSTACK + stack]
        # what each rival is expected to bid (about half of what it holds), and the most
        # any rival holds
        expected = set()
        rival = 0
        for i in self._others[seat][stack]:
            n = len(row[i])
            expected.add((n + 1) // 2)
            if n > rival:  # noqa: PLR1730  (max() would be one more call per ship)
                rival = n
        # the total each bid b leaves (scoring.SeatGain.bid_totals, written out): the
        # total with the stack emptied, and what the cards kept, mine[b:], add to it
        rest = self._total_without(row, seat, stack)
        left = [rest] * (len(mine) + 1)  # a bid of all of them keeps nothing
        bonus = t.scoring.most_fuel if flight else t.scoring.most_crew
        vp = t.vp
        kept = 0
        for b in range(len(mine) - 1, -1, -1):
            if not flight:
                kept += vp[mine[b]]
            left[b] = rest + kept + (bonus if len(mine) - b >= rival else 0)
        average_damage = self._average_damage
        my_damage: list[int] | None = None  # the seat's Damage, cheapest first
        later = self.weights.keep_per_danger * (self._sr.rounds - rnd)
        ranks = t.danger_ranks[card]
        best = -math.inf
        best_bid = 0
        choice = legal[0]
        for action in legal:
            b = int(action.args[0])
            rank = 1
            for e in expected:
                if e > b:
                    rank += 1
            icon, n = ranks[rank - 1]
            if icon == WRENCH:
                if my_damage is None:
                    my_damage = sorted([t.damage_vp[c] for c in row[seat * NSTACK + S_DAMAGE]])
                effect = -float(sum(my_damage[:n]))
            elif icon == DAMAGE:
                effect = n * average_damage
            else:
                effect = 0.0
            value = effect + left[b] - b * later
            # the best value, the smaller bid of two worth the same
            if value > best or (value == best and b < best_bid):
                best = value
                best_bid = b
                choice = action
        return choice

    def _total_without(self, row: Sequence[tuple[int, ...]], seat: int, stack: int) -> int:
        """``scoring.seat_total`` of ``seat`` with its Fuel or Crew ``stack`` emptied:
        its own cards' points (``scoring.own_points``), the Loot Carrier and Alien Drone
        awards and the majority of the other of the two stacks."""
        base = seat * NSTACK
        ship = list(row[base : base + NSTACK])
        ship[stack] = ()
        sr = self._sr
        total = own_points(ship, sr.tables, sr.every_power_source)
        n = len(ship[S_LOOT])
        if n:
            total += loot_award(n, [len(row[i]) for i in self._stacks[S_LOOT]], sr.tables)
        n = len(ship[S_DRONE])
        if n:
            for i in self._others[seat][S_DRONE]:
                if len(row[i]) < n:
                    total += sr.tables.scoring.drone_per_fewer
        other = S_CREW if stack == S_FUEL else S_FUEL
        n = len(ship[other])
        if n:
            for i in self._others[seat][other]:
                if len(row[i]) > n:
                    return total  # a rival holds more
            sc = sr.tables.scoring
            total += sc.most_crew if other == S_CREW else sc.most_fuel
        return total
