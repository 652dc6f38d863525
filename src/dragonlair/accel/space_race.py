"""Space Race as a pure-function JAX engine (see docs/accel.md).

The Python engine (:mod:`dragonlair.space_race.rules`, with its end scoring in
:mod:`dragonlair.space_race.scoring`) is the specification; this module is the same game
written as array arithmetic, so that ``jax.jit`` compiles a step once and ``jax.vmap``
runs it over thousands of tables. Every printed figure (a Space card's type, colour,
robot part, corner VP and on-play peek; a Danger card's kind and rank icons; a Damage
card's VP; the scoring values; the rounds and the hand size) is read from the Python
game's ``tables`` and ``components``, never written here again: a user's data file
plays the same in both engines. The rules are written again, each next to the name of
the Python method it mirrors; the differential test in ``tests/accel`` holds the two to
the same legal actions, observations and rewards.

The engine is Pgx's :class:`pgx.Env`. Both of the game's choices are simultaneous and
secret (the Upgrade phase's picks, the Danger phase's bids); here they are played in the
sequential form of the ``python_space_race_turns`` OpenSpiel registration: the seats
asked that have not chosen answer one at a time, lowest seat first, and a choice stays
hidden until every seat asked has chosen (the tensors are the Python layout's, which
show only that a seat has chosen).

Chance. The deal (the Space, Danger and Damage decks) is shuffled by ``init``. The game
has two more chance events, each drawn ahead of its use and kept in the state, where no
observation shows it: the Navigation Coin of every round (``coins``, drawn by ``init``),
and the order a refill of the Damage deck gives the removed Damage cards (``refill``, a
random key per card, the pile ordered by them; drawn again from the state's ``key``
after each refill). A table read from a Python state draws them from the key given to
:meth:`SpaceRaceEnv.from_states`; the differential test writes the Python engine's coin
and refill order into them before the step that uses them. ``step`` ignores its key.

Conventions Pgx sets, which this engine follows (as the other batched engines do): an
illegal action ends the game at once with -1 to the seat that took it and a share of the
win to each other seat; a finished table accepts any action and changes no more;
``rewards`` are given at the step that ends the game, each seat's share of the win.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as pgx_core
from pgx._src.struct import dataclass

from dragonlair.core import Game
from dragonlair.rl.layout import encoder_for
from dragonlair.rl.layouts.space_race import PICK_WAYS, _score_range, _stack_scales
from dragonlair.space_race.cards import (
    COLOURS,
    CREW,
    DAMAGE,
    FLIGHT,
    NSTACK,
    PARTS,
    RANKS_PER_DANGER,
    S_CREW,
    S_CRYSTAL,
    S_DAMAGE,
    S_DRONE,
    S_FUEL,
    S_LOOT,
    S_POWER_COCKPIT,
    S_POWER_ENGINE,
    S_ROBOT,
    S_SCANNER,
    STACKS,
    WRENCH,
)
from dragonlair.space_race.kinds import PHASES
from dragonlair.space_race.rules import SpaceRace

from .common import AccelError, BatchedEnv

Array = jax.Array

UPGRADE, DANGER, OVER = 0, 1, 2  # the phases, in the order of the layout's one-hot
assert PHASES == ("upgrade", "danger", "over")
# Where a Space card is (``State.loc``): a stack of its owner's ship (cards.STACKS, 0 to
# 8; Fuel is 8), its owner's hand, the Space deck, its owner's spent Fuel, the Crew
# discard; index 0 (no card) is nowhere.
HAND, DECK, SPENT, DISCARD, NOWHERE = NSTACK, NSTACK + 1, NSTACK + 2, NSTACK + 3, -1
PLACES = NSTACK + 3  # the places counted per seat: the stacks (Damage unused), hand, deck, spent
# Where a Damage card is (``State.dloc``).
D_DECK, D_REMOVED, D_SHIP = 0, 1, 2
# The ship stacks the layout shows card by card, in its order (every stack but Fuel).
SHIP_STACKS = tuple(k for k in range(NSTACK) if k != S_FUEL)
assert STACKS[S_FUEL] == "fuel" and STACKS[S_DAMAGE] == "damage"
COLOUR_TOPS = (S_SCANNER, S_ROBOT, S_CRYSTAL)  # the tops the colour bonus matches
POWER = (S_POWER_COCKPIT, S_POWER_ENGINE)
FEATURES = (
    "phase",
    "acting",
    "to_act",
    "seats",
    "choosing",
    "progress",
    "hand",
    "my_choice",
    "hand_sizes",
    "ships",
    "robot_parts",
    "power_colours",
    "danger",
    "danger_top",
    "bidding",
    "decks",
    "danger_used",
    "last_bids",
    "seen_top_danger",
    "score",
    "rules",
)


@dataclass
class State(pgx_core.State):  # type: ignore[misc]
    """One table. The fields after Pgx's own are the Python state's, as arrays. Space
    cards are ids 1..C, each with its place (``loc``), its ``owner`` (-1: none), the
    order it was placed in its stack (``placed``: the top card has the largest) and its
    place in the Space deck (``deck_pos``: the top has the largest). Damage cards are ids
    1..D, likewise (``dloc``, ``downer``, ``dpos``: in the deck its place, top largest; in
    a ship the order drawn). ``danger_seq`` is every Danger card in the order drawn
    (used, in play, then the deck top first). ``chosen`` is each seat's sealed action id
    (-1: none yet). ``coins`` and ``refill`` are the chance drawn ahead (see the module's
    docstring); ``key`` draws the next ``refill``."""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array
    phase: Array
    round: Array
    pick: Array
    direction: Array
    loc: Array
    owner: Array
    placed: Array
    deck_pos: Array
    clock: Array
    chosen: Array
    danger_seq: Array
    seen: Array
    bids: Array
    dloc: Array
    downer: Array
    dpos: Array
    dclock: Array
    coins: Array
    refill: Array
    key: Array

    @property
    def env_id(self) -> str:
        return "space-race"


def _look(table: Array, i: Array) -> Array:
    """Row ``i`` of a scale's table, clipped to its rows."""
    return table[jnp.clip(i, 0, table.shape[0] - 1)]


def _shuffled_ranks(key: Array, size: int) -> Array:
    """A random order of ``size`` items, as each item's place in it: the rank of each
    item's random 32-bit key among all the keys, ties ordered by index (as the Space
    Dragons engine shuffles: cheaper on a CPU than XLA's sort)."""
    keys = jax.random.bits(key, (size,))
    return _ranks(keys, jnp.ones(size, dtype=jnp.bool_))


def _before(first: Array, then: Array) -> Array:
    """``out[i, j]``: item j comes before item i, ordered by ``first`` and then by
    ``then`` (which tells apart every pair of items compared)."""
    a, b = first[None, :], first[:, None]
    return (a < b) | ((a == b) & (then[None, :] < then[:, None]))


def _ranks(keys: Array, among: Array) -> Array:
    """Each item's place among the items of ``among`` ordered by ``keys`` (ties by
    index): how many of them come before it."""
    before = _before(keys, jnp.arange(keys.shape[0]))
    return jnp.sum(before & among[None, :], axis=1, dtype=jnp.int32)


class SpaceRaceEnv(BatchedEnv):
    """Space Race for one player count and one set of data and options, as a Pgx
    environment (made by :func:`dragonlair.accel.make`)."""

    game: SpaceRace

    def __init__(self, game: Game) -> None:
        super().__init__()
        if not isinstance(game, SpaceRace):
            raise AccelError(f"expected a Space Race game, got {game.spec.id!r}")
        self.game = g = game
        t = g.tables
        sc = t.scoring
        self.players = g.players
        self.max_players = g.spec.max_players
        self.rounds = g.rounds
        self.hand = g.hand_size
        self.cards = max(t.space_ids)  # ids 1..C (the data file numbers them in order)
        self.dangers = len(t.danger_ids)
        self.damages = len(t.damage_ids)
        self.bid0 = g.bid0
        self.max_bid = self.rounds * self.hand
        self._num_actions = g.num_actions
        self.every_power_source = g.every_power_source
        self.scanner_always = g.scanner_always
        self.scoring = sc
        i32 = np.int32

        def arr(values: Sequence[int]) -> Array:
            return jnp.asarray(np.array(values, dtype=i32))

        # the actions: a pick's card and stack (the rules' aid_card, aid_stack), its way
        # (the layout's PICK_WAYS), a bid's amount
        self._aid_card = arr(g.aid_card)
        self._aid_stack = arr([max(k, 0) for k in g.aid_stack])
        kinds = [a.kind for a in g.table.actions]
        self._aid_way = arr([PICK_WAYS.index(k) if k in PICK_WAYS else 0 for k in kinds])
        self._is_bid = jnp.arange(self._num_actions) >= self.bid0
        self._vp = arr(t.vp)
        self._colour = arr(t.colour)
        self._part = arr(t.part)
        self._peeks = jnp.asarray(np.array(t.peeks, dtype=np.bool_))
        self._danger_kind = arr([FLIGHT, *t.danger_kind[1:]])  # (0: no card, not read)
        icons = np.zeros((self.dangers + 1, RANKS_PER_DANGER), dtype=i32)
        counts = np.zeros((self.dangers + 1, RANKS_PER_DANGER), dtype=i32)
        for d in t.danger_ids:
            for r, (icon, n) in enumerate(t.danger_ranks[d]):
                icons[d, r], counts[d, r] = icon, n
        self._icon = jnp.asarray(icons)
        self._icon_n = jnp.asarray(counts)
        self._damage_vp = arr(t.damage_vp)
        # _spend's order: Crew by worth, then the oldest (the order placed: ``placed`` is
        # below C + 1 when read from a position, then the clock counts one per reveal)
        crew_vps = sorted({t.vp[c] for c in t.space_ids if t.type[c] == CREW})
        self._crew_worth = arr([crew_vps.index(v) if v in crew_vps else 0 for v in t.vp])
        self._times = self.cards + 2 + self.rounds * self.hand
        self._grid = max(1, len(crew_vps)) * self._times
        self._check_layout()
        self._make_tables()

    # ------------------------------------------------------------------ Pgx's interface

    def _init(self, key: Array) -> State:
        """``_setup``: the Space, Danger and Damage decks shuffled (each a rank of random
        keys, :func:`_shuffled_ranks`), every round's Navigation Coin flipped ahead, and
        ``_start_round``: six cards dealt to each seat from the top of the Space deck."""
        k_space, k_danger, k_damage, k_coins, k_refill, k_next = jax.random.split(key, 6)
        c, d = self.cards, self.damages
        ids = jnp.arange(c + 1)
        deck_pos = jnp.concatenate([jnp.zeros(1, jnp.int32), _shuffled_ranks(k_space, c)])
        danger_rank = _shuffled_ranks(k_danger, self.dangers)
        order = jnp.argmax(danger_rank[None, :] == jnp.arange(self.dangers)[:, None], axis=1)
        dpos = jnp.concatenate([jnp.zeros(1, jnp.int32), _shuffled_ranks(k_damage, d)])
        coins = jnp.where(jax.random.bernoulli(k_coins, 0.5, (self.rounds,)), 1, -1)
        st = self._blank(
            round=jnp.int32(0),
            loc=jnp.where(ids == 0, NOWHERE, DECK).astype(jnp.int32),
            deck_pos=deck_pos,
            danger_seq=(order + 1).astype(jnp.int32),
            dloc=jnp.where(jnp.arange(d + 1) == 0, -1, D_DECK).astype(jnp.int32),
            dpos=dpos,
            coins=coins.astype(jnp.int32),
            refill=jax.random.bits(k_refill, (d + 1,)),
            key=k_next,
        )
        st = self._start_round(st)
        done: State = st.replace(legal_action_mask=self._legal(st))  # Pgx adds the tensor
        return done

    # ------------------------------------------------------------------ positions

    def from_states(
        self, py_states: Sequence[Any], batched: bool = True, key: Array | None = None
    ) -> State:
        """The tables of Python engine states, one batch (leading axis: the tables), each
        through its position (``state.to_position()``, the public format). The chance
        still to come (the coins of the rounds after the current one, the order of a
        refilled Damage deck) is drawn from ``key`` (PRNGKey(0) when None)."""
        stacked = self._stacked(py_states, batched)
        keys = jax.random.split(jax.random.PRNGKey(0) if key is None else key, len(py_states))
        arrays = {k: jnp.asarray(v) for k, v in stacked.items()}
        if not batched:
            keys = keys[0]
        make = self._from_arrays_batch if batched else self._from_arrays_one
        done: State = make(arrays, keys)
        return done

    def _from_arrays(self, arrays: dict[str, Array], key: Array) -> State:
        k_coins, k_refill, k_next = jax.random.split(key, 3)
        drawn = jnp.where(jax.random.bernoulli(k_coins, 0.5, (self.rounds,)), 1, -1)
        later = jnp.arange(self.rounds) >= arrays["round"]  # the rounds still to start
        coins = jnp.where(later, drawn, arrays["coins"]).astype(jnp.int32)
        refill = jax.random.bits(k_refill, (self.damages + 1,))
        st = self._blank(**{**arrays, "coins": coins, "refill": refill, "key": k_next})
        return self._complete_one(st)

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
        c, d = self.cards, self.damages
        i32 = np.int32
        loc = np.full(c + 1, NOWHERE, dtype=i32)
        owner = np.full(c + 1, -1, dtype=i32)
        placed = np.zeros(c + 1, dtype=i32)
        deck_pos = np.zeros(c + 1, dtype=i32)
        dloc = np.full(d + 1, -1, dtype=i32)
        downer = np.full(d + 1, -1, dtype=i32)
        dpos = np.zeros(d + 1, dtype=i32)

        def ids(cards: Sequence[int]) -> Any:
            return np.asarray(cards, dtype=np.int64)

        for s, hand in enumerate(pos["hands"]):
            loc[ids(hand)], owner[ids(hand)] = HAND, s
        for s, ship in enumerate(pos["ships"]):
            # each stack in the order placed (its top last), spent Fuel, Damage as drawn
            places = [(k, ship[STACKS[k]]) for k in range(NSTACK) if k != S_DAMAGE]
            for where, cards in [*places, (SPENT, ship["spent_fuel"])]:
                i = ids(cards)
                loc[i], owner[i], placed[i] = where, s, np.arange(len(i))
            i = ids(ship["damage"])
            dloc[i], downer[i], dpos[i] = D_SHIP, s, np.arange(len(i))
        loc[ids(pos["crew_discard"])] = DISCARD
        i = ids(pos["space_deck"])  # top first
        loc[i], deck_pos[i] = DECK, np.arange(len(i))[::-1]
        i = ids(pos["damage_deck"])
        dloc[i], dpos[i] = D_DECK, np.arange(len(i))[::-1]
        dloc[ids(pos["damage_removed"])] = D_REMOVED
        seq = [*pos["danger_discard"], *([pos["danger"]] if "danger" in pos else [])]
        seq += pos["danger_deck"]
        upgrade = pos["phase"] == "upgrade"
        chosen = np.full(n, -1, dtype=i32)
        table = self.game.table
        for s, text in pos.get("chosen", {}).items():
            chosen[int(s)] = table.ids[table.parse(text)]
        bids = np.zeros(n, dtype=i32)
        bids[: len(pos.get("bids", []))] = pos.get("bids", [])
        coins = np.zeros(self.rounds, dtype=i32)
        coins[pos["round"] - 1] = 1 if pos["direction"] == "left" else -1
        seen = np.zeros(n, dtype=np.bool_)
        seen[ids(pos["seen_top"])] = True
        return {
            "phase": i32(UPGRADE if upgrade else DANGER),
            "round": i32(pos["round"]),
            "pick": i32(pos["pick"] if upgrade else self.hand),
            "direction": i32(coins[pos["round"] - 1]),
            "loc": loc,
            "owner": owner,
            "placed": placed,
            "deck_pos": deck_pos,
            "clock": i32(c + 1),  # after every stack's places (0 up to its length)
            "chosen": chosen,
            "danger_seq": np.array(seq, dtype=i32),
            "seen": seen,
            "bids": bids,
            "dloc": dloc,
            "downer": downer,
            "dpos": dpos,
            "dclock": i32(d + 1),
            "coins": coins,
        }

    def _blank(self, **fields: Any) -> State:
        """A table before the deal, with ``fields`` set."""
        n = self.players
        c, d = self.cards, self.damages
        zeros = jnp.zeros(n, dtype=jnp.int32)
        base: dict[str, Any] = {
            "current_player": jnp.int32(0),
            "observation": jnp.zeros(self.obs_size, dtype=jnp.float32),
            "rewards": jnp.zeros(n, dtype=jnp.float32),
            "terminated": jnp.bool_(False),
            "truncated": jnp.bool_(False),
            "legal_action_mask": jnp.zeros(self._num_actions, dtype=jnp.bool_),
            "_step_count": jnp.int32(0),
            "phase": jnp.int32(UPGRADE),
            "round": jnp.int32(1),
            "pick": jnp.int32(1),
            "direction": jnp.int32(1),
            "loc": jnp.full(c + 1, NOWHERE, dtype=jnp.int32),
            "owner": jnp.full(c + 1, -1, dtype=jnp.int32),
            "placed": jnp.zeros(c + 1, dtype=jnp.int32),
            "deck_pos": jnp.zeros(c + 1, dtype=jnp.int32),
            "clock": jnp.int32(0),
            "chosen": jnp.full(n, -1, dtype=jnp.int32),
            "danger_seq": jnp.zeros(self.dangers, dtype=jnp.int32),
            "seen": jnp.zeros(n, dtype=jnp.bool_),
            "bids": zeros,
            "dloc": jnp.full(d + 1, -1, dtype=jnp.int32),
            "downer": jnp.full(d + 1, -1, dtype=jnp.int32),
            "dpos": jnp.zeros(d + 1, dtype=jnp.int32),
            "dclock": jnp.int32(0),
            "coins": jnp.ones(self.rounds, dtype=jnp.int32),
            "refill": jnp.zeros(d + 1, dtype=jnp.uint32),
            "key": jax.random.PRNGKey(0),
        }
        base.update(fields)
        return State(**base)

    def _complete_one(self, st: State) -> State:
        st = st.replace(current_player=self._first_waiting(st))
        st = st.replace(legal_action_mask=self._legal(st))
        done: State = st.replace(observation=self.observe_seat(st, st.current_player))
        return done

    # ------------------------------------------------------------------ who is asked

    def _counts(self, st: State) -> Array:
        """Every seat's cards in each place (stacks, hand, deck, spent): (n, PLACES)."""
        n = self.players  # (a scatter: on a CPU, far cheaper than comparing every pair)
        seat = jnp.where(st.owner >= 0, st.owner, n)
        place = jnp.where(st.loc >= 0, jnp.minimum(st.loc, PLACES), PLACES)
        out = jnp.zeros((n + 1, PLACES + 1), jnp.int32).at[seat, place].add(1)
        return out[:n, :PLACES]

    def _by_seat(self, owner: Array, where: Array, values: Array, width: int = 0) -> Array:
        """Every seat's sum of ``values`` over the items ``where`` it owns: (n,), or
        (n, width) with ``values`` the column each item adds 1 to."""
        n = self.players
        seat = jnp.where(where & (owner >= 0), owner, n)
        if not width:
            return jnp.zeros(n + 1, jnp.int32).at[seat].add(values)[:n]
        col = jnp.clip(values, 0, width - 1)
        return jnp.zeros((n + 1, width), jnp.int32).at[seat, col].add(1)[:n]

    def _parts(self, st: State) -> Array:
        """Every seat's Robot Parts by part (head, body, legs): (n, 3)."""
        robot = (st.loc == S_ROBOT) & (self._part >= 0)
        return self._by_seat(st.owner, robot, self._part, len(PARTS))

    def _damage_held(self, st: State, values: Array) -> Array:
        """Every seat's sum of ``values`` (by Damage card) over the Damage in its ship."""
        return self._by_seat(st.downer, st.dloc == D_SHIP, values)

    def _bid_stack(self, st: State) -> Array:
        """``_bid_stack``: Fuel for a Flight card, Crew for a Fight card."""
        return jnp.where(self._danger_kind[self._danger(st)] == FLIGHT, S_FUEL, S_CREW)

    def _danger(self, st: State) -> Array:
        """The Danger card up (0 outside the Danger phase)."""
        r = jnp.clip(st.round - 1, 0, self.dangers - 1)
        return jnp.where(st.phase == DANGER, st.danger_seq[r], 0)

    def _asked(self, st: State, counts: Array) -> Array:
        """The seats of the open choice: every seat in the Upgrade phase, the seats with
        Fuel (Flight) or Crew (Fight) to bid in the Danger phase (``_start_danger``)."""
        holding = counts[:, self._bid_stack(st)] > 0
        return jnp.where(st.phase == UPGRADE, True, (st.phase == DANGER) & holding)

    def _waiting(self, st: State, counts: Array) -> Array:
        return self._asked(st, counts) & (st.chosen < 0)

    def _first_waiting(self, st: State) -> Array:
        """The sequential form's seat: the lowest of those still to choose."""
        return jnp.argmax(self._waiting(st, self._counts(st))).astype(jnp.int32)

    def _legal(self, st: State) -> Array:
        """``_legal_ids``: a pick of a card in the hand, each way it can be played; a bid
        of 0 up to the Fuel or Crew the seat holds."""
        p = st.current_player
        card = self._aid_card
        in_hand = (st.loc[card] == HAND) & (st.owner[card] == p) & ~self._is_bid
        held = jnp.sum((st.owner == p) & (st.loc == self._bid_stack(st)))
        bid = self._is_bid & (jnp.arange(self._num_actions) - self.bid0 <= held)
        return jnp.where(st.phase == UPGRADE, in_hand, jnp.where(st.phase == DANGER, bid, False))

    # ------------------------------------------------------------------ rules

    def _apply(self, st: State, action: Array) -> State:
        """``_step``: the seat's choice is sealed; when every seat asked has chosen, the
        picks are revealed (``_reveal_picks``) or the bids resolved (``_resolve_danger``)."""
        st = st.replace(chosen=st.chosen.at[st.current_player].set(action))
        counts = self._counts(st)
        closed = ~jnp.any(self._waiting(st, counts))
        revealed = self._reveal_picks(st)
        after = jax.tree_util.tree_map(
            lambda a, b: jnp.where(closed & (st.phase == UPGRADE), a, b), revealed, st
        )
        # a Danger phase whose bids are in, or that nobody can bid in, resolves now
        counts = self._counts(after)
        resolve = (after.phase == DANGER) & ~jnp.any(self._waiting(after, counts))
        resolved = self._resolve_danger(after, counts)
        out: State = jax.tree_util.tree_map(lambda a, b: jnp.where(resolve, a, b), resolved, after)
        out = out.replace(current_player=self._first_waiting(out))
        done: State = out.replace(legal_action_mask=self._legal(out))
        return done

    def _reveal_picks(self, st: State) -> State:
        """``_reveal_picks``: every pick goes face up into its stack (a Scanner played
        face up shows its owner the top Danger card, ``_peek``) or face down as Fuel;
        then ``_pass_hands`` the way the coin shows, or after the last pick
        ``_start_danger``."""
        seats = jnp.arange(self.players)
        aid = jnp.maximum(st.chosen, 0)
        card = self._aid_card[aid]
        stack = self._aid_stack[aid]
        loc = st.loc.at[card].set(stack)
        placed = st.placed.at[card].set(st.clock)
        drawn = st.round - 1  # Danger cards drawn before this round's
        peek = self._peeks[card] & (stack != S_FUEL) & (drawn < self.dangers)
        seen = st.seen | peek
        last = st.pick >= self.hand
        # _pass_hands: left, seat s receives the hand of s - 1; right, of s + 1
        passed = jnp.where(loc == HAND, (st.owner + st.direction) % self.players, st.owner)
        st = st.replace(
            loc=loc,
            placed=placed,
            clock=st.clock + 1,
            seen=seen,
            owner=jnp.where(last, st.owner, passed),
            pick=jnp.where(last, st.pick, st.pick + 1),
            chosen=jnp.full_like(st.chosen, -1),
        )
        # _start_danger: the top Danger card is revealed; seen_top starts again (with the
        # option scanner=always, every seat with a face-up Scanner looks at the new top)
        ship = (st.loc >= 0) & (st.loc < S_FUEL) & self._peeks
        scanner = jnp.any(ship[None, :] & (st.owner[None, :] == seats[:, None]), axis=1)
        top_left = st.round < self.dangers
        danger_seen = (scanner & top_left) if self.scanner_always else jnp.zeros_like(seen)
        out: State = st.replace(
            phase=jnp.where(last, DANGER, UPGRADE),
            seen=jnp.where(last, danger_seen, st.seen),
        )
        return out

    def _resolve_danger(self, st: State, counts: Array) -> State:
        """``_resolve_danger``: the bids revealed and ranked (dense: ties share a rank);
        seat by seat, best rank first and then by seat, the rank's icon (``_repair``,
        ``_damage``, or nothing); then every bid is discarded (``_spend``); then the next
        round (``_start_round``) or the end (``_end``)."""
        n = self.players
        seats = jnp.arange(n)
        danger = self._danger(st)
        asked = self._asked(st, counts)
        bids = jnp.where(asked, st.chosen - self.bid0, 0)
        # dense_ranks: one more than the distinct bids above
        first = ~jnp.any((bids[None, :] == bids[:, None]) & (seats[None, :] < seats[:, None]), 1)
        rank = 1 + jnp.sum((bids[None, :] > bids[:, None]) & first[None, :], axis=1)
        icon = self._icon[danger, rank - 1]
        many = self._icon_n[danger, rank - 1]
        key = rank * n + seats
        order = jnp.sum(key[None, :] < key[:, None], axis=1)  # each seat's turn
        by_turn = jnp.argmax(order[None, :] == seats[:, None], axis=1)
        # _repair takes the most negative Damage first, the earliest drawn among equals:
        # each Damage card's place in its ship in that order
        in_ship = st.dloc == D_SHIP
        same = in_ship[None, :] & (st.downer[None, :] == st.downer[:, None])
        place = jnp.sum(same & _before(self._damage_vp, st.dpos), axis=1)
        # a refill's order: by the refill keys, ties by id (each card's place among all)
        by_key = _ranks(st.refill, jnp.ones_like(in_ship))
        dloc, downer, dpos, dclock = st.dloc, st.downer, st.dpos, st.dclock
        refilled = jnp.bool_(False)
        for i in range(n):
            s = by_turn[i]
            k = many[s]
            # _repair: k wrenches remove up to k Damage cards
            fix = (icon[s] == WRENCH) & in_ship & (st.downer == s) & (place < k)
            dloc = jnp.where(fix, D_REMOVED, dloc)
            # _damage: k cards from the top of the deck; an empty deck is refilled from
            # the removed cards (shuffled) first, and with none left the drawing stops
            k = jnp.where(icon[s] == DAMAGE, k, 0)
            deck = dloc == D_DECK
            m = jnp.sum(deck)
            t1 = jnp.minimum(k, m)
            take = deck & (dpos >= m - t1)
            dloc = jnp.where(take, D_SHIP, dloc)
            downer = jnp.where(take, s, downer)
            dpos = jnp.where(take, dclock + m - 1 - dpos, dpos)
            dclock = dclock + t1
            removed = dloc == D_REMOVED
            r = jnp.sum(removed)
            refill = (k > t1) & (r > 0)
            # each removed card's place among the removed ones, in the refill's order
            in_order = jnp.zeros_like(removed).at[by_key].set(removed)
            new_pos = jnp.cumsum(in_order, dtype=jnp.int32)[by_key] - 1
            dloc = jnp.where(refill & removed, D_DECK, dloc)
            dpos = jnp.where(refill & removed, new_pos, dpos)
            t2 = jnp.where(refill, jnp.minimum(k - t1, r), 0)
            take = refill & removed & (new_pos >= r - t2)
            dloc = jnp.where(take, D_SHIP, dloc)
            downer = jnp.where(take, s, downer)
            dpos = jnp.where(take, dclock + r - 1 - new_pos, dpos)
            dclock = dclock + t2
            refilled = refilled | refill
        key, k_refill = jax.random.split(st.key)
        st = st.replace(
            loc=self._spend(st, bids),
            dloc=dloc,
            downer=downer,
            dpos=dpos,
            dclock=dclock,
            bids=bids.astype(jnp.int32),
            chosen=jnp.full_like(st.chosen, -1),
            refill=jnp.where(refilled, jax.random.bits(k_refill, st.refill.shape), st.refill),
            key=jnp.where(refilled, key, st.key),
        )
        over = st.round >= self.rounds
        nxt = self._start_round(st)
        ended = st.replace(phase=OVER, terminated=True, rewards=self._shares(st))
        out: State = jax.tree_util.tree_map(lambda a, b: jnp.where(over, a, b), ended, nxt)
        return out

    def _spend(self, st: State, bids: Array) -> Array:
        """``_spend``: where the cards are once every seat's bid is paid from the stack it
        bids with: the oldest Fuel first (to the spent Fuel), Crew worth least first, then
        the oldest (to the discards)."""
        stack = self._bid_stack(st)
        held = (st.loc == stack) & (st.owner >= 0)
        # each held card's place in its stack in that order: how many of the seat's cards
        # come before it on a grid of (worth, when placed), counted by a scatter and a sum
        when = jnp.clip(st.placed, 0, self._times - 1)
        at = jnp.where(stack == S_CREW, self._crew_worth, 0) * self._times + when
        seat = jnp.where(held, st.owner, self.players)
        grid = jnp.zeros((self.players + 1, self._grid), jnp.int32).at[seat, at].add(1)
        place = jnp.cumsum(grid, axis=1)[seat, at] - 1
        spent = held & (place < bids[jnp.maximum(st.owner, 0)])
        return jnp.where(spent, jnp.where(stack == S_FUEL, SPENT, DISCARD), st.loc)

    def _start_round(self, st: State) -> State:
        """``_start_round``: six cards to each seat from the top of the Space deck (the
        first six to seat 0), the round's coin (``coins``), the first pick."""
        in_deck = st.loc == DECK
        m = jnp.sum(in_deck)
        depth = m - 1 - st.deck_pos
        dealt = in_deck & (depth < self.players * self.hand)
        rnd = st.round + 1
        out: State = st.replace(
            round=rnd,
            pick=jnp.int32(1),
            phase=jnp.int32(UPGRADE),
            loc=jnp.where(dealt, HAND, st.loc),
            owner=jnp.where(dealt, depth // self.hand, st.owner),
            direction=st.coins[jnp.clip(rnd - 1, 0, self.rounds - 1)],
            chosen=jnp.full_like(st.chosen, -1),
        )
        return out

    # ------------------------------------------------------------------ scoring

    def _totals(self, st: State) -> Array:
        """``row_totals`` (as ``score_ships`` sums them): every seat's score now."""
        sc = self.scoring
        counts = self._counts(st)
        face_up = (st.loc >= 0) & (st.loc < S_FUEL)
        corner = self._by_seat(st.owner, face_up, self._vp)
        total = corner + sc.robot_bonus * jnp.min(self._parts(st), axis=1)
        total += sc.crystal_set_bonus * (counts[:, S_CRYSTAL] // sc.crystal_set)
        total += sc.power_match_bonus * self._matches(st)
        total += self._damage_held(st, self._damage_vp)
        loot = counts[:, S_LOOT]
        most = jnp.max(loot)
        second = jnp.max(jnp.where(loot < most, loot, 0))
        total += jnp.where(
            loot > 0,
            jnp.where(loot == most, sc.loot_most, jnp.where(loot == second, sc.loot_second, 0)),
            0,
        )
        drones = counts[:, S_DRONE]
        total += sc.drone_per_fewer * jnp.sum(drones[None, :] < drones[:, None], axis=1)
        for k, award in ((S_FUEL, sc.most_fuel), (S_CREW, sc.most_crew)):
            held = counts[:, k]
            total += jnp.where((held > 0) & (held == jnp.max(held)), award, 0)
        return total

    def _tops(self, st: State) -> Array:
        """The colour of the top card of each seat's Scanners, Robot Parts, Crystals and
        two power stacks (stacks 0 to 4; -1: empty): (n, 5). The top is the card placed
        last: the largest of ``placed * 4 + colour`` in its stack."""
        n = self.players
        top_stacks = S_POWER_ENGINE + 1
        seat = jnp.where(st.owner >= 0, st.owner, n)
        stack = jnp.where((st.loc >= 0) & (st.loc < top_stacks), st.loc, top_stacks)
        colour = jnp.where(self._colour >= 0, self._colour, 3)
        keys = jnp.full((n + 1, top_stacks + 1), -1, jnp.int32)
        keys = keys.at[seat, stack].max(st.placed * 4 + colour)[:n, :top_stacks]
        return jnp.where((keys >= 0) & (keys % 4 < 3), keys % 4, -1)

    def _matches(self, st: State) -> Array:
        """``colour_bonus``'s matches: each top Scanner, Robot Part and Crystal against
        each scoring Power Source (the top of each power stack; every one of both with
        the option every_power_source)."""
        tops = self._tops(st)
        colours = jnp.arange(len(COLOURS))
        top_count = jnp.sum(tops[:, COLOUR_TOPS, None] == colours[None, None, :], axis=1)
        if self.every_power_source:
            power = (st.loc == S_POWER_COCKPIT) | (st.loc == S_POWER_ENGINE)
            sources = self._by_seat(st.owner, power & (self._colour >= 0), self._colour, 3)
        else:
            sources = jnp.sum(tops[:, POWER, None] == colours[None, None, :], axis=1)
        return jnp.sum(top_count * sources, axis=1)

    def _shares(self, st: State) -> Array:
        """``_end``: the most points win; seats tied share the win."""
        points = self._totals(st)
        winners = points == jnp.max(points)
        return jnp.where(winners, 1.0 / jnp.sum(winners), 0.0).astype(jnp.float32)

    # ------------------------------------------------------------------ observations

    def _check_layout(self) -> None:
        enc = encoder_for(self.game)
        rows = [(r.name, r.size) for r in enc.rows]
        names = tuple(name for name, _ in rows)
        if names != FEATURES:
            raise AccelError(
                "the Space Race layout (dragonlair.rl.layouts.space_race) now has the "
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
        t = g.tables
        top = max(self.cards, self.damages, self.max_bid, 9) + 1

        def over(most: int) -> Array:
            return jnp.asarray(
                np.array([i / most if most else 0.0 for i in range(top + 1)], dtype=np.float32)
            )

        self._over_rounds = over(self.rounds)
        self._over_hand = over(self.hand)
        self._over_three = over(3)
        self._over_bid = over(self.max_bid)
        self._over_space = over(len(t.space_ids))
        self._over_deck = over(len(t.space_ids) or 1)
        self._over_dangers = over(len(t.danger_ids))
        self._over_damage = over(len(t.damage_ids))
        self._over_stack = [over(s) for s in _stack_scales(g)]
        self.score_low, high = _score_range(g)
        span = high - self.score_low
        self.score_span = max(span, 0)
        self._score_ratio = jnp.asarray(
            np.array(
                [min(1.0, max(0.0, i / span if span else 0.0)) for i in range(self.score_span + 1)],
                dtype=np.float32,
            )
        )
        enc = encoder_for(g)
        rules = enc.slices()["rules"]
        view = g.new_game(seed=0).seat_view(0)
        self._rules_block = jnp.asarray(enc.encode(view)[rules])  # the options: constants

    def observe_seat(self, st: State, seat: Array) -> Array:
        """The tensor of ``seat``'s view, float for float the Python layout's
        (``dragonlair.rl.layouts.space_race``; the feature each block mirrors is named
        beside it)."""
        n = self.players
        m = self.max_players
        f32 = jnp.float32
        slots = jnp.arange(m)
        at_table = slots < n
        order = (seat + slots) % n  # the seat in each slot, observer first
        counts = self._counts(st)
        asked = self._asked(st, counts)
        waiting = asked & (st.chosen < 0)

        def per_slot(by_seat: Array) -> Array:
            return jnp.where(at_table, by_seat[order], 0)

        danger = self._danger(st)
        drawn = st.round - 1 + (st.phase != UPGRADE)  # Danger cards drawn so far
        top = jnp.where(
            drawn < self.dangers, st.danger_seq[jnp.clip(drawn, 0, self.dangers - 1)], 0
        )
        top = jnp.where(st.seen[seat] & (drawn < self.dangers), top, 0)
        ndiscard = st.round - 1 + (st.phase == OVER)
        used = jnp.arange(self.dangers) < ndiscard
        danger_used = (
            jnp.zeros(self.dangers + 1, f32).at[jnp.where(used, st.danger_seq, 0)].set(1.0)
        )
        points = self._totals(st)
        choosing = at_table & per_slot(asked).astype(jnp.bool_) & (st.phase != OVER)

        blocks = [
            (jnp.arange(3) == st.phase).astype(f32),  # phase
            jnp.reshape(waiting[seat].astype(f32), (1,)),  # acting
            (at_table & per_slot(waiting).astype(jnp.bool_)).astype(f32),  # to_act
            at_table.astype(f32),  # seats
            choosing.astype(f32),  # choosing: taking part
            (choosing & ~per_slot(waiting).astype(jnp.bool_)).astype(f32),  # choosing: chosen
            jnp.stack(  # progress
                [
                    _look(self._over_rounds, st.round),
                    _look(self._over_hand, st.pick),
                    (st.direction != 1).astype(f32),
                ]
            ),
            ((st.loc == HAND) & (st.owner == seat))[1:].astype(f32),  # hand
            self._my_choice(st, seat, asked),  # my_choice
            jnp.where(
                at_table, _look(self._over_hand, per_slot(counts[:, HAND])), 0.0
            ),  # hand_sizes
            *self._ships(st, counts, at_table, per_slot),  # ships, robot_parts, power_colours
            self._danger_block(danger),  # danger
            self._danger_block(top),  # danger_top
            jnp.where(
                danger > 0, (jnp.arange(2) == self._danger_kind[danger]).astype(f32), 0.0
            ),  # bidding
            jnp.stack(  # decks
                [
                    _look(self._over_space, jnp.sum(st.loc == DECK)),
                    _look(self._over_dangers, self.dangers - drawn),
                    _look(self._over_damage, jnp.sum(st.dloc == D_DECK)),
                    _look(self._over_damage, jnp.sum(st.dloc == D_REMOVED)),
                    _look(self._over_space, jnp.sum(st.loc == DISCARD)),
                ]
            ),
            danger_used[1:],  # danger_used
            jnp.where(at_table, _look(self._over_bid, per_slot(st.bids)), 0.0),  # last_bids
            (at_table & per_slot(st.seen).astype(jnp.bool_)).astype(f32),  # seen_top_danger
            jnp.where(
                at_table, _look(self._score_ratio, per_slot(points) - self.score_low), 0.0
            ),  # score
            self._rules_block,  # rules
        ]
        return jnp.concatenate(blocks)

    def _ships(
        self, st: State, counts: Array, at_table: Array, per_slot: Callable[[Array], Array]
    ) -> list[Array]:
        """The ``ships``, ``robot_parts`` and ``power_colours`` blocks: each seat's ship
        stacks (Fuel and spent Fuel last), Robot parts and Power Sources' colours, in the
        observer's slots (``per_slot``)."""
        f32 = jnp.float32
        damage = self._damage_held(st, jnp.ones_like(st.dloc))
        stack_blocks = []
        for j, k in enumerate(SHIP_STACKS):
            held = damage if k == S_DAMAGE else counts[:, k]
            stack_blocks.append(
                jnp.where(at_table, _look(self._over_stack[j], per_slot(held)), 0.0)
            )
        fuel = jnp.where(at_table, _look(self._over_deck, per_slot(counts[:, S_FUEL])), 0.0)
        spent = jnp.where(at_table, _look(self._over_deck, per_slot(counts[:, SPENT])), 0.0)
        robots = self._parts(st)
        parts = [
            jnp.where(at_table, _look(self._over_hand, per_slot(robots[:, k])), 0.0)
            for k in range(len(PARTS))
        ]
        tops = self._tops(st)
        power = [
            (at_table & (per_slot(tops[:, k]) == col)).astype(f32)
            for k in POWER
            for col in range(len(COLOURS))
        ]
        return [*stack_blocks, fuel, spent, *parts, *power]

    def _my_choice(self, st: State, seat: Array, asked: Array) -> Array:
        """The ``my_choice`` block: the observer's own pick of this Flight once made (a
        Space card and how it is played, or a bid and its size), else zeros."""
        f32 = jnp.float32
        aid = jnp.maximum(st.chosen[seat], 0)
        mine_made = asked[seat] & (st.chosen[seat] >= 0)
        is_bid = aid >= self.bid0
        value = jnp.where(is_bid, aid - self.bid0, self._aid_card[aid])
        card_hot = (jnp.arange(1, self.cards + 1) == value) & ~is_bid
        way_hot = (jnp.arange(len(PICK_WAYS)) == self._aid_way[aid]) & ~is_bid
        my_choice = jnp.concatenate(
            [
                card_hot.astype(f32),
                way_hot.astype(f32),
                jnp.stack(
                    [is_bid.astype(f32), jnp.where(is_bid, _look(self._over_bid, value), 0.0)]
                ),
            ]
        )
        return jnp.where(mine_made, my_choice, 0.0)

    def _danger_block(self, card: Array) -> Array:
        """The ``danger`` and ``danger_top`` blocks: a Danger card (0: none shown), its
        kind and each rank's icon and count."""
        f32 = jnp.float32
        shown = card > 0
        icons = self._icon[card]
        ranks = jnp.concatenate(
            [
                jnp.concatenate(
                    [
                        (jnp.arange(3) == icons[r]).astype(f32),
                        _look(self._over_three, self._icon_n[card, r])[None],
                    ]
                )
                for r in range(RANKS_PER_DANGER)
            ]
        )
        head = jnp.concatenate(
            [jnp.ones(1, f32), (jnp.arange(2) == self._danger_kind[card]).astype(f32)]
        )
        return jnp.where(shown, jnp.concatenate([head, ranks]), 0.0)
