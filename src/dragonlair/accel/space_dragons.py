"""Space Dragons as a pure-function JAX engine (see docs/accel.md).

The Python engine (:mod:`dragonlair.space_dragons.rules`) is the specification; this
module is the same game written as array arithmetic, so that ``jax.jit`` compiles a step
once and ``jax.vmap`` runs it over thousands of tables. Every printed figure (a crew
card's effects, symbols and points, a dragon's, the scoring cards' awards) is read from
the Python game's ``tables``, never written here again: a user's data file plays the same
in both engines. The rules are written again, each next to the name of the Python method
it mirrors; the differential test in ``tests/accel`` holds the two to the same legal
actions, observations and rewards.

The engine is Pgx's :class:`pgx.Env`. Hiring Crew is a simultaneous secret choice; here
it is played in the sequential form of the ``python_space_dragons_turns`` OpenSpiel
registration: the seats that have not picked yet answer one at a time, lowest seat
first, and a pick stays hidden from the others until all have picked (the tensors are
the Python layout's, which shows only that a seat has picked). The deal is the game's
only chance (the cards tucked under the ships are never seen): ``init`` shuffles the crew
cards and the dragons from its key and draws a random scoring side where the options
say so; ``step`` ignores its key.

Conventions Pgx sets, which this engine follows (as the Dragon Stripes engine does): an
illegal action ends the game at once with -1 to the seat that took it and a share of the
win to each other seat; a finished table accepts any action and changes no more;
``rewards`` are given at the step that ends the game, each seat's share of the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as pgx_core
from pgx._src.struct import dataclass

from dragonlair.core import Game
from dragonlair.rl.layout import encoder_for
from dragonlair.rl.layouts.space_dragons import (
    _most_crosshairs,
    _most_dragon_points,
    _points_range,
    _scales,
)
from dragonlair.space_dragons.cards import CREW_CARDS, DAMAGE, DRAGONS, SHIELD, SYMBOLS, TOOL
from dragonlair.space_dragons.kinds import HIRE_BASE, PHASES, PLAY_BASE
from dragonlair.space_dragons.rules import SpaceDragons

from .common import AccelError, BatchedEnv

Array = jax.Array

HIRING, HUNTING, OVER = 0, 1, 2  # the phases, in the order of the layout's one-hot
NUM_ACTIONS = 2 * CREW_CARDS  # hire 1..80, then play 1..80 (the game's action ids)
NO_EFFECT = -1
# The layout's features, in order: checked against the Python encoder's rows when an
# environment is made, so a change to the layout stops here with a clear error.
FEATURES = (
    "phase",
    "acting",
    "to_act",
    "seats",
    "choosing",
    "hand",
    "picks",
    "my_pick",
    "on_table",
    "hand_sizes",
    "pick_counts",
    "progress",
    "starter",
    "this_round",
    "shields",
    "damage",
    "dragons",
    "face_up",
    "lair_pile",
    "scoring_sides",
    "symbols",
    "card_points",
    "rules",
)
assert PHASES == ("hire", "hunt", "over")
assert (HIRE_BASE, PLAY_BASE) == (-1, CREW_CARDS - 1)
RANKS = ("most", "second most", "fewest", "second fewest")


@dataclass
class State(pgx_core.State):  # type: ignore[misc]
    """One table. The fields after Pgx's own are the Python state's, as arrays. Crew
    cards are numbers 1..80 (0: none), held in masks indexed by number - 1; dragons are
    ids 1..20. ``hands`` and ``picks`` are by seat; ``chosen`` is each seat's pick not
    yet revealed (0: none); ``played`` each seat's card of each round; ``dragon_order``
    the face-up dragon of each round (the lair's order, known from the deal);
    ``symbols`` and ``points`` each seat's tallies on its crew and dragons."""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array
    phase: Array
    hands: Array
    picks: Array
    chosen: Array
    played: Array
    on_table: Array
    pile: Array
    shields: Array
    damage: Array
    dragon_order: Array
    dragons: Array
    symbols: Array
    points: Array
    round: Array
    lead: Array
    sides: Array

    @property
    def env_id(self) -> str:
        return "space-dragons"


def _shuffled_ranks(key: Array, size: int) -> Array:
    """A random order of ``size`` items, as each item's place in it: the rank of each
    item's random 32-bit key among all the keys (two equal keys, about one deal in 1.4
    million for 80 cards, are ordered by index). Ties apart, every order is equally
    likely, as with ``jax.random.permutation``, at half its cost on a CPU: XLA's CPU sort of 80 keys
    costs more than comparing every pair of them."""
    keys = jax.random.bits(key, (size,))
    i = jnp.arange(size)
    before = (keys[None, :] < keys[:, None]) | (
        (keys[None, :] == keys[:, None]) & (i[None, :] < i[:, None])
    )
    return jnp.sum(before, axis=1, dtype=jnp.int32)


class SpaceDragonsEnv(BatchedEnv):
    """Space Dragons for one player count and one set of data and options, as a Pgx
    environment (made by :func:`dragonlair.accel.make`)."""

    game: SpaceDragons

    def __init__(self, game: Game) -> None:
        super().__init__()
        if not isinstance(game, SpaceDragons):
            raise AccelError(f"expected a Space Dragons game, got {game.spec.id!r}")
        self.game = game
        g = game
        self._num_actions = NUM_ACTIONS
        t = g.tables
        self.players = g.players
        # cards dealt (picks in Hiring Crew) and rounds of the Dragon Hunt: the data file's
        self.hand = g.hand_size
        self.rounds = g.rounds
        self.max_players = g.spec.max_players
        self.variant = g.variant
        effects = np.full((CREW_CARDS + 1, 3), NO_EFFECT, dtype=np.int32)
        for c in range(1, CREW_CARDS + 1):
            for k, e in enumerate(t.immediate[c]):
                effects[c, k] = e
        self._effects = jnp.asarray(effects)
        self._crosshairs = jnp.asarray(np.array(t.crosshairs, dtype=np.int32))
        self._crew_points = jnp.asarray(np.array(t.crew_points, dtype=np.int32))
        self._crew_symbols = jnp.asarray(np.array(t.crew_symbols, dtype=np.int32))
        self._dragon_points = jnp.asarray(np.array(t.dragon_points, dtype=np.int32))
        self._dragon_symbols = jnp.asarray(np.array(t.dragon_symbols, dtype=np.int32))
        self._scoring = t.scoring  # by symbol, by side: (rank, signed points), largest first
        self.shield_value = g.shield_value
        self.damage_value = g.damage_value
        # the options' sides: 0 A, 1 B, -1 drawn at random by init
        self._side_options = tuple(
            -1 if o == "random" else ("a", "b").index(o) for o in g.side_options
        )
        self.pile_size = CREW_CARDS - (self.hand + 1) * self.players  # after the start draw
        self._check_layout()
        self._make_tables()

    # ------------------------------------------------------------------ Pgx's interface

    def _init(self, key: Array) -> State:
        """``_setup``: the crew cards and the dragons shuffled, nine cards to each seat,
        one more each for the start-player draw (the highest starts), the rest the draw
        pile; seven dragons form the lair; a scoring side drawn where the options say
        ``random``. The shuffles are ranks of random keys (:func:`_shuffled_ranks`)."""
        n = self.players
        k_crew, k_dragons, k_sides = jax.random.split(key, 3)
        rank = _shuffled_ranks(k_crew, CREW_CARDS)  # each card's place in the deck
        seats = jnp.arange(n, dtype=jnp.int32)
        hands = (rank[None, :] // self.hand == seats[:, None]) & (rank[None, :] < self.hand * n)
        on_table = (rank >= self.hand * n) & (rank < (self.hand + 1) * n)  # the start-player draw
        highest = jnp.max(jnp.where(on_table, jnp.arange(CREW_CARDS), -1))
        dragon_rank = _shuffled_ranks(k_dragons, DRAGONS)
        places = jnp.arange(self.rounds, dtype=jnp.int32)
        dragon_order = jnp.argmax(dragon_rank[None, :] == places[:, None], axis=1) + 1
        drawn = jax.random.randint(k_sides, (3,), 0, 2, dtype=jnp.int32)
        sides = jnp.array([max(o, 0) for o in self._side_options], dtype=jnp.int32)
        random_side = jnp.array([o < 0 for o in self._side_options])
        st = self._blank(
            hands=hands,
            on_table=on_table,
            dragon_order=dragon_order.astype(jnp.int32),
            lead=rank[highest] - self.hand * n,
            sides=jnp.where(random_side, drawn, sides),
        )
        done: State = st.replace(legal_action_mask=self._legal(st))  # Pgx adds the tensor
        return done

    # ------------------------------------------------------------------ positions

    def from_states(self, py_states: Sequence[Any], batched: bool = True) -> State:
        """The tables of Python engine states, one batch (leading axis: the tables), each
        through its position (``state.to_position()``, the public format)."""
        stacked = self._stacked(py_states, batched)
        make = self._from_arrays_batch if batched else self._from_arrays_one
        done: State = make({k: jnp.asarray(v) for k, v in stacked.items()})
        return done

    def _from_arrays(self, arrays: dict[str, Array]) -> State:
        return self._complete_one(self._blank(**arrays))

    def _fields(self, py_state: Any) -> dict[str, Any]:
        """A Python state's table as the arrays of :class:`State`, read from its position."""
        game = py_state.game
        if game is not self.game and (
            game.players != self.players
            or game.spec.id != self.id
            or game.options != self.game.options
        ):
            raise AccelError(
                "the state is of another game, table size or options than this engine's"
            )
        if py_state.is_over:
            raise AccelError("the game of this position is over")
        pos = py_state.to_position()
        n = self.players
        i32 = np.int32

        def mask(cards: Sequence[int]) -> Any:
            out = np.zeros(CREW_CARDS, dtype=np.bool_)
            out[np.array(list(cards), dtype=np.int64) - 1] = True
            return out

        hire = pos["phase"] == "hire"
        r = pos["round"]
        played = np.zeros((n, self.rounds), dtype=i32)
        for s, cards in enumerate(pos["played"]):
            played[s, : len(cards)] = cards
        chosen = np.zeros(n, dtype=i32)
        made = pos.get("chosen", {})
        for s, action in made.items():
            chosen[int(s)] = int(str(action).split()[1])
        # the sequential form asks the seats lowest first: those that have chosen are the
        # lowest seats
        if sorted(int(s) for s in made) != list(range(len(made))):
            raise AccelError(
                f"seats {sorted(int(s) for s in made)} have chosen: in the sequential form "
                "the seats choose lowest first"
            )
        order = np.zeros(self.rounds, dtype=i32)
        order[r] = pos["face_up"]
        order[r + 1 : self.rounds] = pos["lair"]
        t = self.game.tables
        symbols = np.zeros((n, 3), dtype=i32)
        points = np.zeros(n, dtype=i32)
        for s in range(n):
            for c in pos["played"][s]:
                symbols[s] += t.crew_symbols[c]
                points[s] += t.crew_points[c]
            for d in pos["claimed"][s]:
                symbols[s] += t.dragon_symbols[d]
                points[s] += t.dragon_points[d]
        done = sum(len(p) for p in pos["played"]) - n * r
        current = len(made) if hire else (pos["lead"] + done) % n
        return {
            "phase": i32(HIRING if hire else HUNTING),
            "hands": np.stack([mask(h) for h in pos["hands"]]),
            "picks": np.stack([mask(p) for p in pos.get("picks", [[]] * n)]),
            "chosen": chosen,
            "played": played,
            "on_table": mask([*pos["start_cards"], *(c for p in pos["played"] for c in p)]),
            "pile": i32(len(pos["pile"])),
            "shields": np.array(pos["shields"], dtype=i32),
            "damage": np.array(pos["damage"], dtype=i32),
            "dragon_order": order,
            "dragons": np.array([len(c) for c in pos["claimed"]], dtype=i32),
            "symbols": symbols,
            "points": points,
            "round": i32(r),
            "lead": i32(pos["lead"]),
            "sides": np.array([("a", "b").index(pos["sides"][k]) for k in SYMBOLS], dtype=i32),
            "current_player": i32(current),
        }

    def _blank(self, **fields: Any) -> State:
        """A table before the first pick (or the first play, with the variant), with
        ``fields`` set."""
        n = self.players
        zeros = jnp.zeros(n, dtype=jnp.int32)
        variant = self.variant
        base: dict[str, Any] = {
            "current_player": jnp.int32(0),
            "observation": jnp.zeros(self.obs_size, dtype=jnp.float32),
            "rewards": jnp.zeros(n, dtype=jnp.float32),
            "terminated": jnp.bool_(False),
            "truncated": jnp.bool_(False),
            "legal_action_mask": jnp.zeros(NUM_ACTIONS, dtype=jnp.bool_),
            "_step_count": jnp.int32(0),
            "phase": jnp.int32(HUNTING if variant else HIRING),
            "hands": jnp.zeros((n, CREW_CARDS), dtype=jnp.bool_),
            "picks": jnp.zeros((n, CREW_CARDS), dtype=jnp.bool_),
            "chosen": zeros,
            "played": jnp.zeros((n, self.rounds), dtype=jnp.int32),
            "on_table": jnp.zeros(CREW_CARDS, dtype=jnp.bool_),
            "pile": jnp.int32(self.pile_size),
            "shields": zeros,
            "damage": zeros,
            "dragon_order": jnp.zeros(self.rounds, dtype=jnp.int32),
            "dragons": zeros,
            "symbols": jnp.zeros((n, 3), dtype=jnp.int32),
            "points": zeros,
            "round": jnp.int32(0),
            "lead": jnp.int32(0),
            "sides": jnp.zeros(3, dtype=jnp.int32),
        }
        base.update(fields)
        if variant and "current_player" not in fields:
            base["current_player"] = base["lead"]  # _start_round: the lead plays first
        return State(**base)

    def _complete_one(self, st: State) -> State:
        st = st.replace(legal_action_mask=self._legal(st))
        done: State = st.replace(observation=self.observe_seat(st, st.current_player))
        return done

    # ------------------------------------------------------------------ rules

    def _legal(self, st: State) -> Array:
        """``_legal_ids``: hire or play any card of the current player's hand."""
        mine = st.hands[st.current_player]
        return jnp.concatenate([mine & (st.phase == HIRING), mine & (st.phase == HUNTING)])

    def _apply(self, st: State, action: Array) -> State:
        hire = self._hire(st, action - HIRE_BASE)
        hunt = self._play(st, action - PLAY_BASE)
        done: State = jax.tree_util.tree_map(
            lambda a, b: jnp.where(st.phase == HIRING, a, b), hire, hunt
        )
        out: State = done.replace(legal_action_mask=self._legal(done))
        return out

    def _hire(self, st: State, card: Array) -> State:
        """``_step`` in Hiring Crew: the seat's pick is kept hidden; after the last seat's,
        ``_reveal_picks``: every pick goes face down with the seat's earlier picks and the
        rest of each hand passes left; after the ninth, the picks are the hands and the
        hunt begins."""
        n = self.players
        p = st.current_player
        chosen = st.chosen.at[p].set(card)
        last = p == n - 1
        picked = jax.nn.one_hot(chosen - 1, CREW_CARDS, dtype=jnp.bool_)  # (n, 80)
        hands = st.hands & ~picked
        picks = st.picks | picked
        crew = jnp.sum(picks[0]) == self.hand
        passed = jnp.roll(hands, 1, axis=0)  # seat s receives what seat s - 1 kept
        hands = jnp.where(crew, picks, passed)
        picks = jnp.where(crew, False, picks)
        out: State = st.replace(
            hands=jnp.where(last, hands, st.hands),
            picks=jnp.where(last, picks, st.picks),
            chosen=jnp.where(last, 0, chosen),
            phase=jnp.where(last & crew, HUNTING, HIRING),
            current_player=jnp.where(last, jnp.where(crew, st.lead, 0), p + 1),
        )
        return out

    def _play(self, st: State, card: Array) -> State:
        """``_play``: the card goes face up and its immediate effects resolve in the
        card's order; after the last seat of the round, ``_end_round``."""
        n = self.players
        p = st.current_player
        r = jnp.minimum(st.round, self.rounds - 1)
        seats = jnp.arange(n)
        hands = st.hands.at[p, card - 1].set(False)
        played = st.played.at[p, r].set(card)
        on_table = st.on_table.at[card - 1].set(True)
        symbols = st.symbols.at[p].add(self._crew_symbols[card])
        points = st.points.at[p].add(self._crew_points[card])
        shields, damage, pile = st.shields[p], st.damage[p], st.pile
        for k in range(3):
            e = self._effects[card, k]
            # shield: one more shield, a card tucked (_take)
            # damage (_hit): a shield lost, or else one more damage and a card tucked
            # tool: one damage repaired, if there is one
            shield = e == SHIELD
            hit = e == DAMAGE
            tool = e == TOOL
            takes = shield | (hit & (shields == 0))
            damage = damage + (hit & (shields == 0)).astype(jnp.int32)
            damage = damage - (tool & (damage > 0)).astype(jnp.int32)
            shields = shields + shield.astype(jnp.int32) - (hit & (shields > 0)).astype(jnp.int32)
            pile = pile - (takes & (pile > 0)).astype(jnp.int32)
        shields_by_seat = st.shields.at[p].set(shields)
        damage_by_seat = st.damage.at[p].set(damage)
        nxt = (p + 1) % n
        end = nxt == st.lead

        # _end_round: the other seats' crosshairs hit the highest card, which takes the
        # face-up dragon and starts the next round
        cards = played[:, r]
        winner = jnp.argmax(cards).astype(jnp.int32)
        top = cards[winner]
        hits = jnp.sum(self._crosshairs[cards]) - self._crosshairs[top]
        lost = jnp.minimum(shields_by_seat[winner], hits)
        tucked = hits - lost
        at_winner = (seats == winner) & end
        shields_by_seat = shields_by_seat - jnp.where(at_winner, lost, 0)
        damage_by_seat = damage_by_seat + jnp.where(at_winner, tucked, 0)
        pile = pile - jnp.where(end, jnp.minimum(tucked, pile), 0)
        dragon = st.dragon_order[r]
        dragons = st.dragons + at_winner.astype(jnp.int32)
        symbols = symbols + jnp.where(at_winner[:, None], self._dragon_symbols[dragon], 0)
        points = points + jnp.where(at_winner, self._dragon_points[dragon], 0)
        rounds = st.round + end.astype(jnp.int32)
        over = rounds == self.rounds
        if self.variant:  # the hands pass left after each round but the last
            hands = jnp.where(end & ~over, jnp.roll(hands, 1, axis=0), hands)
        st = st.replace(
            hands=hands,
            played=played,
            on_table=on_table,
            symbols=symbols,
            points=points,
            shields=shields_by_seat,
            damage=damage_by_seat,
            pile=pile,
            dragons=dragons,
            round=rounds,
            lead=jnp.where(end, winner, st.lead),
            current_player=jnp.where(end, winner, nxt),
            phase=jnp.where(over, OVER, HUNTING),
            terminated=over,
        )
        out: State = st.replace(rewards=jnp.where(over, self._shares(st), 0.0))
        return out

    def _shares(self, st: State) -> Array:
        """``_end_game``: points on the crew and dragons, shields and damage, and the
        three scoring cards; the most points win, a tie goes to the most dragons, and the
        seats still tied share the win (each seat's share of it)."""
        points = st.points + st.shields * self.shield_value + st.damage * self.damage_value
        for k in range(3):
            by_side = [self._awards(st.symbols[:, k], self._scoring[k][side]) for side in (0, 1)]
            points = points + jnp.where(st.sides[k] == 1, by_side[1], by_side[0])
        best = jnp.max(points)
        tied = points == best
        most = jnp.max(jnp.where(tied, st.dragons, -1))
        winners = tied & (st.dragons == most)
        return jnp.where(winners, 1.0 / jnp.sum(winners), 0.0).astype(jnp.float32)

    @staticmethod
    def _awards(counts: Array, awards: Sequence[tuple[str, int]]) -> Array:
        """``award_points``: dense ranks (tied seats share a place, zero counts take
        part); a seat takes the first award it qualifies for."""
        big = jnp.int32(1 << 20)
        most = jnp.max(counts)
        fewest = jnp.min(counts)
        second_most = jnp.max(jnp.where(counts < most, counts, -big))
        second_fewest = jnp.min(jnp.where(counts > fewest, counts, big))
        target = {
            "most": most,
            "second most": second_most,
            "fewest": fewest,
            "second fewest": second_fewest,
        }
        got = jnp.zeros_like(counts)
        for rank, points in reversed(awards):  # the first match wins: written last
            got = jnp.where(counts == target[rank], points, got)
        return got

    # ------------------------------------------------------------------ observations

    def _check_layout(self) -> None:
        enc = encoder_for(self.game)
        rows = [(r.name, r.size) for r in enc.rows]
        names = tuple(name for name, _ in rows)
        if names != FEATURES:
            raise AccelError(
                "the Space Dragons layout (dragonlair.rl.layouts.space_dragons) now has the "
                f"features {names}; this engine computes {FEATURES}: update both together"
            )
        self.sizes = dict(rows)
        self.obs_size = enc.size

    def _make_tables(self) -> None:
        """Every quotient an observation holds, worked out here as the Python layout works
        it (in double precision, rounded to float32) and looked up at run time: XLA
        divides by a constant through its reciprocal, which can differ from the correctly
        rounded quotient in the last bit."""
        g = self.game

        def table(values: Sequence[float]) -> Array:
            return jnp.asarray(np.array(values, dtype=np.float32))

        def over(most: int, top: int, cap: bool = False) -> Array:
            if not most:
                return table([0.0] * (top + 1))
            return table([min(1.0, i / most) if cap else i / most for i in range(top + 1)])

        scales = _scales(g)
        self._over_hand = over(self.hand, self.hand + 1)
        self._over_rounds = over(self.rounds, self.rounds + 1)
        self._over_cards = over(CREW_CARDS, CREW_CARDS)
        self.most_shields = scales["shields"]
        self.most_damage = scales["damage"]
        self._over_shields = over(self.most_shields, self.most_shields, cap=True)
        self._over_damage = over(self.most_damage, self.most_damage, cap=True)
        most = _most_crosshairs(g)
        self._over_crosshairs = over(most, max(g.tables.crosshairs))
        self._over_dragon_points = over(_most_dragon_points(g), max(g.tables.dragon_points))
        self._over_three = over(3, 3)
        self.symbol_scales = tuple(scales[name] for name in SYMBOLS)
        self._over_symbols = [over(s, s) for s in self.symbol_scales]
        self.points_low, high = _points_range(g)
        span = high - self.points_low
        self._points_ratio = table(
            [min(1.0, max(0.0, i / span if span else 0.0)) for i in range(max(span, 0) + 1)]
        )
        enc = encoder_for(g)
        rules = enc.slices()["rules"]
        view = g.new_game(seed=0).seat_view(0)
        self._rules_block = jnp.asarray(enc.encode(view)[rules])  # the options: constants

    def observe_seat(self, st: State, seat: Array) -> Array:
        """The tensor of ``seat``'s view, float for float the Python layout's
        (``dragonlair.rl.layouts.space_dragons``; the feature each block mirrors is
        named beside it)."""
        n = self.players
        m = self.max_players
        f32 = jnp.float32
        slots = jnp.arange(m, dtype=jnp.int32)
        at_table = slots < n
        order = (seat + slots) % n  # the seat in each slot, observer first
        hire = st.phase == HIRING
        hunt = st.phase == HUNTING

        def one_hot(i: Array, size: int, on: Array | bool = True) -> Array:
            return ((jnp.arange(size) == i) & on).astype(f32)

        def slot_of(s: Array, on: Array | bool = True) -> Array:
            return one_hot((s - seat) % n, m, on)

        def look(table: Array, i: Array) -> Array:
            return table[jnp.clip(i, 0, table.shape[-1] - 1)]

        def per_seat(by_seat: Array, table: Array) -> Array:
            return jnp.where(at_table, look(table, by_seat[order]), 0.0)

        # the seats asked now: in Hiring Crew those that have not picked, in the hunt the
        # one to play
        waiting = jnp.where(hire, st.chosen == 0, (jnp.arange(n) == st.current_player) & hunt)
        r = jnp.minimum(st.round, self.rounds - 1)
        cards = st.played[:, r]
        in_round = (cards > 0) & hunt
        best = jnp.max(jnp.where(in_round, cards, 0))
        face_up = jnp.where(st.round < self.rounds, st.dragon_order[r], 0)
        shown = face_up > 0
        pick_counts = jnp.sum(st.picks, axis=1)
        hand_sizes = jnp.sum(st.hands, axis=1)
        rounds = st.round
        round_cards = cards[order]
        in_round_slots = in_round[order] & at_table
        symbols = [
            per_seat(st.symbols[:, k], self._over_symbols[k])
            if self.symbol_scales[k]
            else jnp.zeros(m, dtype=f32)
            for k in range(3)
        ]
        blocks = [
            one_hot(st.phase, 3),  # phase
            jnp.reshape(waiting[seat].astype(f32), (1,)),  # acting
            jnp.where(at_table, waiting[order], False).astype(f32),  # to_act
            at_table.astype(f32),  # seats
            (at_table & hire).astype(f32),  # choosing: taking part
            (at_table & hire & (st.chosen[order] > 0)).astype(f32),  # choosing: chosen
            st.hands[seat].astype(f32),  # hand
            st.picks[seat].astype(f32),  # picks
            one_hot(st.chosen[seat] - 1, CREW_CARDS, hire),  # my_pick
            st.on_table.astype(f32),  # on_table
            per_seat(hand_sizes, self._over_hand),  # hand_sizes
            per_seat(pick_counts, self._over_hand),  # pick_counts
            jnp.stack(  # progress
                [
                    jnp.where(hire, self._over_hand[pick_counts[0] + 1], 0.0),
                    jnp.where(hunt, look(self._over_rounds, rounds + 1), 0.0),
                    look(self._over_rounds, rounds),
                ]
            ),
            slot_of(st.lead),  # starter
            in_round_slots.astype(f32),  # this_round: has played
            jnp.where(in_round_slots, self._over_cards[round_cards], 0.0),  # its card
            (in_round_slots & (round_cards == best)).astype(f32),  # the highest so far
            jnp.where(  # its crosshairs
                in_round_slots, self._over_crosshairs[self._crosshairs[round_cards]], 0.0
            ),
            per_seat(st.shields, self._over_shields),  # shields
            per_seat(st.damage, self._over_damage),  # damage
            per_seat(st.dragons, self._over_rounds),  # dragons
            jnp.stack(  # face_up
                [
                    shown.astype(f32),
                    jnp.where(shown, self._over_dragon_points[self._dragon_points[face_up]], 0.0),
                    *(
                        jnp.where(shown, self._over_three[self._dragon_symbols[face_up, k]], 0.0)
                        for k in range(3)
                    ),
                ]
            ),
            jnp.stack(  # lair_pile
                [
                    look(self._over_rounds, jnp.maximum(0, self.rounds - 1 - rounds)),
                    look(self._over_cards, st.pile),
                ]
            ),
            st.sides.astype(f32),  # scoring_sides
            *symbols,  # symbols: science, mood, crime
            jnp.where(  # card_points
                at_table, look(self._points_ratio, st.points[order] - self.points_low), 0.0
            ),
            self._rules_block,  # rules
        ]
        return jnp.concatenate(blocks)
