"""The Great Dragon Race as a pure-function JAX engine (see docs/engine.md, "Batched engines").

The Python engine (:mod:`dragonlair.dragon_race.rules`) is the specification; this module
is the same game written as array arithmetic, so that ``jax.jit`` compiles a step once and
``jax.vmap`` runs it over thousands of tables. Every figure of the game's data (the board's
watering holes, shortcut and hazards, the deck, the characters' insignia, how far the
specials move pawns, the hand sizes) and every option is read from the Python game's
tables (``forward_at``, ``next_hole_at``, ``a_kind``, ...), never written here again: a
user's data file plays the same in both engines. The rules are written again, each stage
next to the name of the Python method it mirrors; the differential test in
``tests/accel`` holds the two to the same legal actions, observations and rewards.

The engine is Pgx's :class:`pgx.Env`. The game has no simultaneous choice: the one seat
asked at a time (the active player, or each other seat in turn in a HALT! window) is the
current player, and a step runs the Python engine's chain of consequences of one action
(a pass that closes a window lets the play stand: hazards, a win, a bonus play, a steal,
the end of the turn and the next turn's draw), each stage masked by whether it happens.

Chance. ``init`` shuffles the deck (the deal and the draw pile). Three more chance events
follow the deal, each decided by random keys kept in the state, where no observation shows
them: the card a hazard discards and the card a steal takes (the card of the hand with the
highest ``pick`` key), and the order of a draw pile shuffled from the discards (the
discards ordered by their ``order`` keys, the highest on top). ``step`` hashes both sets
of keys afresh from the state's ``key`` and its step count after every step, and ignores
its own key. The differential test writes the Python engine's choices into the keys
before the step that uses them.

Conventions Pgx sets, which this engine follows (as the other batched engines do): an
illegal action ends the game at once with -1 to the seat that took it and a share of the
win to each other seat; a finished table accepts any action and changes no more;
``rewards`` are given at the step that ends the game: each seat's share of the win (the
pawns furthest ahead share it), as ``dragonlair.rl.common.win_shares`` gives it.
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
from dragonlair.dragon_race.board import (
    BALLS,
    BOLTS,
    DOWNDRAFT,
    HALT,
    KINDS,
    NUMBER,
    PASSING_WIND,
    TORNADO,
    UPDRAFT,
)
from dragonlair.dragon_race.kinds import (
    A_BLOW,
    A_HALT,
    A_PASS,
    A_PLAY,
    A_STEAL,
    A_STOP,
    A_TRIPLE,
    PHASES,
)
from dragonlair.dragon_race.rules import DragonRace
from dragonlair.rl.layout import encoder_for
from dragonlair.rl.layouts.dragon_race import LAST_KINDS, _spot_marks

from .common import AccelError, BatchedEnv

Array = jax.Array

PLAY, HALT_PLAY, VICTIM, HALT_STEAL, STOLEN, OVER = range(6)  # the layout's phase one-hot
assert PHASES == ("play", "halt-play", "victim", "halt-steal", "stolen", "over")
# Where a card is (``State.loc``): a seat's hand (0 to 3), or one of these.
DRAW, DISCARD, TAKEN, NOWHERE = 8, 9, 10, -1  # TAKEN: the card being stolen
TOP = 1 << 30  # above every key: the draw pile's cards are drawn before a new pile's
# The layout's features, in order: checked against the Python encoder's rows when an
# engine is made, so that a change to the layout stops here with a clear error.
FEATURES = (
    "phase",
    "acting",
    "to_act",
    "seats",
    "window_next",
    "active",
    "turn",
    "pawns",
    "turn_start",
    "landmarks",
    "my_spot",
    "hand",
    "hand_summary",
    "hand_sizes",
    "draw_size",
    "discards",
    "extra_draw",
    "bonus",
    "robbed",
    "moved",
    "last",
    "stolen",
    "rules",
)


@dataclass
class State(pgx_core.State):  # type: ignore[misc]
    """One table. The fields after Pgx's own are the Python state's, as arrays, by card id
    (index 0 unused) or by seat: ``loc`` where each card is (a seat's hand, the draw
    pile, the discards, or being stolen), ``dpos`` a card's place in the draw pile (the
    highest on top; a pile shuffled from the discards keeps their ``order`` keys);
    ``asked`` counts the seats the open HALT! window has asked (the current player is
    the ``asked``-th seat after the active player); ``victim`` is the seat robbed last
    this turn; ``pick``, ``order`` and ``key`` are the chance drawn ahead (see the
    module's docstring)."""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array
    loc: Array
    dpos: Array
    ndraw: Array
    pawns: Array
    start: Array
    extra: Array
    turn: Array
    active: Array
    phase: Array
    asked: Array
    bonus: Array
    robbed: Array
    victim: Array
    stolen: Array
    last: Array
    moved: Array
    pick: Array
    order: Array
    key: Array

    @property
    def env_id(self) -> str:
        return "dragon-race"


def _one_hot(i: Array, size: int, on: Array | bool = True) -> Array:
    """``i`` of ``size`` as floats (all zeros where not ``on``)."""
    return ((jnp.arange(size) == i) & on).astype(jnp.float32)


def _seat_slot(s: Array, seat: Array, n: int, m: int, on: Array | bool = True) -> Array:
    """Seat ``s`` (-1: none) as the one-hot of its slot counted from ``seat``."""
    return _one_hot((s - seat) % n, m, on & (s >= 0))


def _distinct(bits: Array, size: int) -> Array:
    """Random 32-bit ``bits`` made ``size`` distinct non-negative int32 keys: the low bits
    hold the index, so that no two keys tie."""
    width = max(1, (size - 1).bit_length())
    idx = jnp.arange(bits.shape[-1], dtype=jnp.uint32) % size
    return (((bits >> (2 + width)) << width) | idx).astype(jnp.int32)  # below TOP


def _mix(x: Array) -> Array:
    """MurmurHash3's 32-bit finaliser: a bijection of uint32 words that spreads every
    input bit over the output."""
    x = x ^ (x >> 16)
    x = x * jnp.uint32(0x85EBCA6B)
    x = x ^ (x >> 13)
    x = x * jnp.uint32(0xC2B2AE35)
    return x ^ (x >> 16)


def _hashed(seed: Array, count: Array, rows: int, size: int) -> Array:
    """``rows`` rows of ``size`` distinct random keys for a table's step ``count``, hashed
    from the table's ``seed`` (its JAX key): a few integer operations per key, where
    drawing them with ``jax.random`` (Threefry) costs several times more."""
    i = jnp.arange(rows * size, dtype=jnp.uint32)
    base = _mix(seed[0] ^ (count.astype(jnp.uint32) * jnp.uint32(0x9E3779B9)))
    bits = _mix(base + seed[1] + i * jnp.uint32(0x632BE5AB))
    return _distinct(bits, size).reshape(rows, size)


class DragonRaceEnv(BatchedEnv):
    """The Great Dragon Race for one player count and one set of data and options, as a
    Pgx environment (made by :func:`dragonlair.accel.make`)."""

    game: DragonRace

    def __init__(self, game: Game) -> None:
        super().__init__()
        if not isinstance(game, DragonRace):
            raise AccelError(f"expected a Great Dragon Race game, got {game.spec.id!r}")
        self.game = g = game
        n = g.players
        self.players = n
        self.max_players = g.spec.max_players
        self.cards = g.num_cards
        self.finish = g.finish
        self.start_spot = g.board.start
        self.turn_cap = g.turn_cap
        self.bonus_optional = g.bonus_optional
        self.deal = g.deal
        self.draw_up_to = g.draw_up_to
        self.max_hand = g.max_hand
        self._num_actions = g.num_actions
        i32 = np.int32

        def arr(values: Sequence[Any], dtype: Any = i32) -> Array:
            return jnp.asarray(np.array(values, dtype=dtype))

        self._kind = arr(g.card_kind)
        self._value = arr(g.card_value)
        self._forward = arr(g.forward_at)
        self._next_hole = arr(g.next_hole_at)
        self._hole_behind = arr(g.hole_behind_at)
        self._safe = arr(g.safe_at, np.bool_)
        self._hazard = arr(g.hazard_at)
        self._a_kind = arr(g.a_kind)
        self._a_card = arr([max(c, 0) for c in g.a_card])
        self._a_cards = arr([list(cs) + [0] * (3 - len(cs)) for cs in g.a_cards])
        self._a_target = arr([max(t, 0) for t in g.a_target])
        self._bonus_for = arr(g.bonus_for)
        self._steal_id = arr(g.steal_id)
        self.stop_id = g.stop_id
        self.pass_id = g.pass_id
        # the actions in id order: a play per card, the blows, the threes of a kind, the
        # HALT! calls, the steals, stop, pass (the rules' _action_tables)
        blows = sorted((aid, c, s) for c, by in g.blow_id.items() for s, aid in enumerate(by))
        triples = sorted((aid, trio) for trio, aid in g.triple_id.items())
        halts = sorted((aid, c) for c, aid in g.halt_id.items())
        expected = (
            list(range(self.cards))
            + [aid for aid, _, _ in blows]
            + [aid for aid, _ in triples]
            + [aid for aid, _ in halts]
            + list(g.steal_id)
            + [g.stop_id, g.pass_id]
        )
        if expected != list(range(g.num_actions)):
            raise AccelError("the Great Dragon Race's actions are no longer in the order read here")
        self._blow_card = arr([c for _, c, _ in blows])
        self._blow_seat = arr([s for _, _, s in blows])
        self._triple_cards = arr([list(trio) for _, trio in triples])
        self._halt_card = arr([c for _, c in halts])
        self._check_layout()
        self._make_tables()

    # ------------------------------------------------------------------ Pgx's interface

    def _init(self, key: Array) -> State:
        """``_setup``: the deck shuffled (each card's place in the draw pile a random key,
        the highest on top), a hand dealt to each seat from the top (seat 0 first), and
        ``_start_turn(0)``: seat 0 draws up to its hand from the top of what is left."""
        c = self.cards
        n, deal = self.players, self.deal
        dealt = n * deal
        first = min(max(0, self.draw_up_to - deal), c - dealt)
        deck, pick, order = _hashed(key, jnp.uint32(0xFFFFFFFF), 3, c + 1)
        deck = deck.at[0].set(-1)  # no card 0
        # the top cards one at a time (cheaper on a CPU than XLA's top_k or sort)
        loc = jnp.full(c + 1, DRAW, dtype=jnp.int32).at[0].set(NOWHERE)
        left = deck
        for i in range(dealt + first):
            card = jnp.argmax(left)
            loc = loc.at[card].set(i // deal if i < dealt else 0)
            left = left.at[card].set(-1)
        st = self._blank(
            loc=loc,
            dpos=deck,
            ndraw=jnp.int32(c - dealt - first),
            turn=jnp.int32(1),
            pick=pick,
            order=order,
            key=key,
        )
        done: State = st.replace(legal_action_mask=self._legal(st))  # Pgx adds the tensor
        return done

    def _blank(self, **fields: Any) -> State:
        n = self.players
        c = self.cards
        none = jnp.zeros(n, dtype=jnp.bool_)
        base: dict[str, Any] = {
            "current_player": jnp.int32(0),
            "observation": jnp.zeros(self.obs_size, dtype=jnp.float32),
            "rewards": jnp.zeros(n, dtype=jnp.float32),
            "terminated": jnp.bool_(False),
            "truncated": jnp.bool_(False),
            "legal_action_mask": jnp.zeros(self._num_actions, dtype=jnp.bool_),
            "_step_count": jnp.int32(0),
            "loc": jnp.full(c + 1, NOWHERE, dtype=jnp.int32),
            "dpos": jnp.zeros(c + 1, dtype=jnp.int32),
            "ndraw": jnp.int32(0),
            "pawns": jnp.full(n, self.start_spot, dtype=jnp.int32),
            "start": jnp.full(n, self.start_spot, dtype=jnp.int32),
            "extra": none,
            "turn": jnp.int32(0),
            "active": jnp.int32(0),
            "phase": jnp.int32(PLAY),
            "asked": jnp.int32(0),
            "bonus": jnp.bool_(False),
            "robbed": none,
            "victim": jnp.int32(-1),
            "stolen": jnp.int32(-1),
            "last": jnp.int32(-1),
            "moved": none,
            "pick": jnp.zeros(c + 1, dtype=jnp.int32),
            "order": jnp.zeros(c + 1, dtype=jnp.int32),
            "key": jax.random.PRNGKey(0),
        }
        base.update(fields)
        return State(**base)

    # ------------------------------------------------------------------ positions

    def from_states(
        self, py_states: Sequence[Any], batched: bool = True, key: Array | None = None
    ) -> State:
        """The tables of Python engine states, one batch (leading axis: the tables), each
        through its position (``state.to_position()``, the public format). The chance
        still to come (hazards, steals, a reshuffled draw pile) is drawn from ``key``
        (PRNGKey(0) when None)."""
        stacked = self._stacked(py_states, batched)
        keys = jax.random.split(jax.random.PRNGKey(0) if key is None else key, len(py_states))
        arrays = {k: jnp.asarray(v) for k, v in stacked.items()}
        if not batched:
            keys = keys[0]
        make = self._from_arrays_batch if batched else self._from_arrays_one
        done: State = make(arrays, keys)
        return done

    def _from_arrays(self, arrays: dict[str, Array], key: Array) -> State:
        pick, order = _hashed(key, jnp.uint32(0), 2, self.cards + 1)
        st = self._blank(**arrays, pick=pick, order=order, key=key)
        st = st.replace(legal_action_mask=self._legal(st))
        done: State = st.replace(observation=self.observe_seat(st, st.current_player))
        return done

    def _fields(self, py_state: Any) -> dict[str, Any]:
        """A Python state's table as the arrays of :class:`State`, read from its position."""
        game = py_state.game
        if game is not self.game and (
            game.players != self.players
            or game.spec.id != self.id
            or dict(game.options) != dict(self.game.options)
        ):
            raise AccelError(
                "the state is of another game, table size or options than this engine's"
            )
        if py_state.is_over:
            raise AccelError("the game of this position is over")
        pos = py_state.to_position()
        n = self.players
        i32 = np.int32
        c = self.cards
        loc = np.full(c + 1, NOWHERE, dtype=i32)
        dpos = np.zeros(c + 1, dtype=i32)
        for s, hand in enumerate(pos["hands"]):
            loc[hand] = s
        draw = pos["draw"]  # top first
        for i, card in enumerate(draw):
            loc[card] = DRAW
            dpos[card] = len(draw) - 1 - i
        loc[pos["discards"]] = DISCARD
        stolen = int(pos.get("stolen", -1))
        if stolen >= 0:
            loc[stolen] = TAKEN
        phase = PHASES.index(pos["phase"])
        active = int(pos["active"])
        current, asked = active, 0
        if "asked" in pos:
            current = int(pos["asked"][0])
            asked = (current - active) % n
        robbed = pos["robbed"]
        table = self.game.table
        last = table.ids[table.parse(pos["last"])] if "last" in pos else -1

        def seats(listed: Sequence[int]) -> Any:
            return np.array([s in listed for s in range(n)], dtype=np.bool_)

        return {
            "current_player": i32(current),
            "loc": loc,
            "dpos": dpos,
            "ndraw": i32(len(draw)),
            "pawns": np.array(pos["pawns"], dtype=i32),
            "start": np.array(pos["turn_start"], dtype=i32),
            "extra": seats(pos["extra_draw"]),
            "turn": i32(pos["turn"]),
            "active": i32(active),
            "phase": i32(phase),
            "asked": i32(asked),
            "bonus": np.bool_(pos["bonus"]),
            "robbed": seats(robbed),
            "victim": i32(robbed[-1] if robbed else -1),
            "stolen": i32(stolen),
            "last": i32(last),
            "moved": seats(pos["moved"]),
        }

    # ------------------------------------------------------------------ the rules

    def _legal(self, st: State) -> Array:
        """``_legal_ids`` of the current player: the HALT! answers in a window, the plays
        from the hand (``_play_ids``, ``_card_ids``) and stop, the ways to play a stolen
        card, the opponents a thief can choose among."""
        n = self.players
        seats = jnp.arange(n, dtype=jnp.int32)
        p = st.current_player
        ph = st.phase
        window = (ph == HALT_PLAY) | (ph == HALT_STEAL)
        playing = ph == PLAY
        stolen_phase = ph == STOLEN
        ids = jnp.arange(self.cards + 1)
        in_hand = st.loc == p
        avail = jnp.where(stolen_phase, ids == st.stolen, playing & in_hand)
        pawns = st.pawns
        mine = pawns[p]
        kind = self._kind
        has_hole = self._next_hole[mine] >= 0
        top = jnp.max(pawns)
        dd_targets = (pawns == top) & (top > mine) & ~self._safe[top]
        tornado_targets = (seats != p) & (pawns != self.start_spot) & ~self._safe[pawns]
        plays = avail & (
            (kind <= UPDRAFT)
            | ((kind == PASSING_WIND) & (stolen_phase | has_hole))
            | ((kind == DOWNDRAFT) & ~jnp.any(dd_targets))
            | (kind == TORNADO)
        )
        bk = kind[self._blow_card]
        blows = avail[self._blow_card] & (
            ((bk == DOWNDRAFT) & dd_targets[self._blow_seat])
            | ((bk == TORNADO) & tornado_targets[self._blow_seat])
        )
        triples = playing & has_hole & jnp.all(in_hand[self._triple_cards], axis=1)
        halts = window & in_hand[self._halt_card]
        steals = (ph == VICTIM) & self._victims_here(st.loc, pawns, st.active, st.robbed)
        some = jnp.any(plays) | jnp.any(blows) | jnp.any(triples)
        stop = playing & (~some | (st.bonus & self.bonus_optional))
        return jnp.concatenate(
            [plays[1:], blows, triples, halts, steals, jnp.stack([stop, window])]
        )

    def _victims_here(self, loc: Array, pawns: Array, active: Array, robbed: Array) -> Array:
        """``_victims_here``: the opponents on the active player's spot (not the Start, not
        a watering hole), not robbed yet this turn, holding a card."""
        n = self.players
        seats = jnp.arange(n, dtype=jnp.int32)
        p = pawns[active]
        holding = jnp.any(loc[None, :] == seats[:, None], axis=1)
        return (
            (pawns == p)
            & (seats != active)
            & ~robbed
            & holding
            & (p != self.start_spot)
            & ~self._safe[p]
        )

    def _outcome(self, pawns: Array, seat: Array, aid: Array, stolen: Array) -> Array:
        """``DragonRace.outcome``: the pawns after ``seat``'s play ``aid``."""
        n = self.players
        seats = jnp.arange(n, dtype=jnp.int32)
        g = self.game
        me = seats == seat
        k = self._a_kind[aid]
        c = self._a_card[aid]
        ck = self._kind[c]
        target = seats == self._a_target[aid]
        p = pawns[seat]
        fwd = self._forward[p]
        triple = jnp.where(me, self._next_hole[p], pawns)
        number = jnp.where(me, fwd[self._value[c]], pawns)
        steps = jnp.where(ck == BOLTS, g.bolts_back, g.balls_back)
        back = jnp.where(self._safe[pawns], pawns, jnp.maximum(self.start_spot, pawns - steps))
        ahead = pawns > p
        nearest = jnp.min(jnp.where(ahead, pawns, self.finish + 1))
        draft = jnp.where(
            ~jnp.any(ahead),
            jnp.where(me & stolen, fwd[g.stolen_draft_ahead], pawns),
            jnp.where(
                ck == UPDRAFT,
                jnp.where(me, jnp.minimum(self.finish, nearest + 1), pawns),
                jnp.where(target & (k == A_BLOW), jnp.maximum(self.start_spot, p - 1), pawns),
            ),
        )
        hole = self._next_hole[p]
        wind = jnp.where(me & (hole >= 0), hole, pawns)
        tornado = jnp.where(
            k == A_BLOW,
            jnp.where(target, self._hole_behind[pawns], pawns),
            jnp.where(me, fwd[g.tornado_ahead], pawns),
        )
        return jnp.where(
            k == A_TRIPLE,
            triple,
            jnp.where(
                (ck == NUMBER) | (ck == HALT),
                number,
                jnp.where(
                    (ck == BOLTS) | (ck == BALLS),
                    back,
                    jnp.where(
                        (ck == UPDRAFT) | (ck == DOWNDRAFT),
                        draft,
                        jnp.where(ck == PASSING_WIND, wind, tornado),
                    ),
                ),
            ),
        )

    def _apply(self, st: State, action: Array) -> State:
        """One action and the chain of what follows from it, each stage of the Python
        engine masked by whether it happens: the action (:meth:`_act`), the window that
        stands (:meth:`_stands`), the movement done and a steal (:meth:`_movement_done`),
        then the end of the turn (:meth:`_end_turn`)."""
        now, stands, end_turn = self._act(st, action)
        now, won, settled = self._stands(st, now, stands)
        done = settled | (self._a_kind[action] == A_STOP)
        now, no_victim = self._movement_done(st, now, action, done)
        return self._end_turn(st, now, won, end_turn | no_victim)

    def _act(self, st: State, action: Array) -> tuple[State, Array, Array]:
        """The action itself: a play (its cards discarded, the pawns moved, a window
        opened unless nothing can stop it), a pass in a window, or a HALT! (the pawns
        back, a stolen card given back). With whether the window stands (its last seat
        passed, or nothing could stop the play) and whether the turn ends (a HALT!)."""
        n = self.players
        ids = jnp.arange(self.cards + 1, dtype=jnp.int32)
        k = self._a_kind[action]
        p = st.current_player
        a = st.active
        is_play = (k == A_PLAY) | (k == A_BLOW) | (k == A_TRIPLE)
        is_pass = k == A_PASS
        is_halt = k == A_HALT
        stolen_play = st.phase == STOLEN

        # -- _play: the cards spent go to the discards, the pawns move, a window opens
        spent = jnp.any(ids[:, None] == self._a_cards[action][None, :], axis=1) & (ids > 0)
        loc = jnp.where(is_play & spent, DISCARD, st.loc)
        stolen = jnp.where(is_play & stolen_play, -1, st.stolen)
        old = st.pawns
        new = self._outcome(old, p, action, stolen_play)
        pawns = jnp.where(is_play, new, old)
        last = jnp.where(is_play, action, st.last)
        bonus = st.bonus & ~is_play
        moved = jnp.where(is_play, new != old, st.moved)
        # no HALT! stops a three of a kind from a watering hole
        unstoppable = is_play & (k == A_TRIPLE) & self._safe[old[p]]
        opens = is_play & ~unstoppable
        phase = jnp.where(opens, HALT_PLAY, st.phase)
        asked = jnp.where(opens, 1, st.asked)
        current = jnp.where(opens, (a + 1) % n, p)

        # -- a pass: the next seat of the window, or (_window_next False) _stands
        more = is_pass & (st.asked < n - 1)
        asked = jnp.where(more, st.asked + 1, asked)
        current = jnp.where(more, (a + st.asked + 1) % n, current)
        stands = (is_pass & ~more) | unstoppable

        # -- _halt: the HALT! card discarded, a stolen card given back, the pawns back
        loc = jnp.where(is_halt & (ids == self._a_card[action]), DISCARD, loc)
        given_back = is_halt & (st.phase == HALT_STEAL)
        loc = jnp.where(given_back & (ids == st.stolen), st.victim, loc)
        stolen = jnp.where(given_back, -1, stolen)
        pawns = jnp.where(is_halt, st.start, pawns)
        now = st.replace(
            loc=loc,
            stolen=stolen,
            pawns=pawns,
            last=last,
            bonus=bonus,
            moved=moved,
            phase=phase,
            asked=asked,
            current_player=current,
        )
        return now, stands, is_halt

    def _stands(self, st: State, now: State, stands: Array) -> tuple[State, Array, Array]:
        """``_stands`` where ``stands``, ``now`` being the state after the action: after a
        steal the victim draws one more next turn and the thief plays; after a play,
        ``_hazard`` for every pawn moved onto one, then the win or the bonus play. With
        whether the active player won and whether its movement is done."""
        n = self.players
        seats = jnp.arange(n, dtype=jnp.int32)
        ids = jnp.arange(self.cards + 1, dtype=jnp.int32)
        a = st.active
        # -- _stands after a steal: the victim draws one more next turn, the thief plays
        after_steal = stands & (st.phase == HALT_STEAL)
        extra = st.extra | (after_steal & (seats == st.victim))
        phase = jnp.where(after_steal, STOLEN, now.phase)
        current = jnp.where(after_steal, a, now.current_player)
        # -- _stands after a play: _hazard for every pawn moved onto one, then the win,
        # the bonus play or _movement_done
        play_stands = stands & ~after_steal
        pawns = now.pawns
        hit = play_stands & now.moved & (self._hazard[pawns] > 0)
        hands = now.loc[None, :] == seats[:, None]  # [seat, card]
        chosen = jnp.argmax(jnp.where(hands, st.pick[None, :], -1), axis=1)
        lost = jnp.any(hit[:, None] & hands & (ids[None, :] == chosen[:, None]), axis=0)
        loc = jnp.where(lost, DISCARD, now.loc)
        won = play_stands & (pawns[a] >= self.finish)
        holds = jnp.any(loc == a)
        again = play_stands & ~won & (self._bonus_for[jnp.maximum(now.last, 0)] == a) & holds
        bonus = now.bonus | again
        phase = jnp.where(again, PLAY, phase)
        current = jnp.where(again, a, current)
        now = now.replace(loc=loc, extra=extra, phase=phase, bonus=bonus, current_player=current)
        return now, won, play_stands & ~won & ~again

    def _movement_done(
        self, st: State, now: State, action: Array, done: Array
    ) -> tuple[State, Array]:
        """``_movement_done`` where ``done``: rob the one opponent on the active player's
        spot, let it choose among several, or end the turn; and ``_steal`` (chosen or the
        only one): a card of the victim's, at random, and a window opens. With whether the
        turn ends for want of a victim."""
        n = self.players
        seats = jnp.arange(n, dtype=jnp.int32)
        ids = jnp.arange(self.cards + 1, dtype=jnp.int32)
        k = self._a_kind[action]
        a = st.active
        loc = now.loc
        # -- _movement_done: rob the one opponent here, choose among several, or end
        bonus = now.bonus & ~done
        here = self._victims_here(loc, now.pawns, a, st.robbed)
        count = jnp.sum(here)
        choose = done & (count > 1)
        phase = jnp.where(choose, VICTIM, now.phase)
        current = jnp.where(choose, a, now.current_player)

        # -- _steal: a card of the victim's, at random; a window opens
        robs = (k == A_STEAL) | (done & (count == 1))
        victim = jnp.where(k == A_STEAL, self._a_target[action], jnp.argmax(here))
        taken = jnp.argmax(jnp.where(loc == victim, st.pick, -1))
        now = now.replace(
            loc=jnp.where(robs & (ids == taken), TAKEN, loc),
            stolen=jnp.where(robs, taken, now.stolen),
            robbed=st.robbed | (robs & (seats == victim)),
            last=jnp.where(robs, self._steal_id[victim], now.last),
            bonus=bonus,
            phase=jnp.where(robs, HALT_STEAL, phase),
            asked=jnp.where(robs, 1, now.asked),
            current_player=jnp.where(robs, (a + 1) % n, current),
            victim=jnp.where(robs, victim, st.victim),
        )
        return now, done & (count == 0)

    def _end_turn(self, st: State, now: State, won: Array, end_turn: Array) -> State:
        """The game over (won, or ``end_turn`` at the turn cap), or ``_start_turn`` of the
        next seat where ``end_turn``; the rewards, the next action's draws and its legal
        actions."""
        capped = end_turn & (st.turn >= self.turn_cap)
        over = won | capped
        pawns = now.pawns
        now = now.replace(phase=jnp.where(over, OVER, now.phase), terminated=over)
        now = self._start_turn(now, end_turn & ~capped, (st.active + 1) % self.players, now.turn)
        pick, order = _hashed(now.key, now._step_count, 2, self.cards + 1)
        top = jnp.max(pawns)
        shares = (pawns == top) / jnp.sum(pawns == top).astype(jnp.float32)
        now = now.replace(
            rewards=jnp.where(over, shares, 0.0).astype(jnp.float32),
            pick=pick,
            order=order,
        )
        done_st: State = now.replace(legal_action_mask=self._legal(now))
        return done_st

    def _start_turn(self, st: State, on: Array, seat: Array, turn: Array) -> State:
        """``_start_turn`` of ``seat`` where ``on``: the turn counted, what the last turn
        left cleared, and ``_draw_up_to`` five cards (six after being robbed)."""
        n = self.players
        seats = jnp.arange(n, dtype=jnp.int32)
        me = seats == seat
        want = self.draw_up_to + st.extra[seat].astype(jnp.int32)
        loc = st.loc
        need = want - jnp.sum(loc == seat)
        in_draw = loc == DRAW
        # the usual case: the top ``need`` cards of the pile; else the whole pile, then the
        # discards shuffled into a new pile (each card's ``order`` key its place) and the
        # rest from its top: the ``need`` cards of the highest priority, the old pile's
        # first (need is at most max_hand)
        short = need > st.ndraw
        discards = loc == DISCARD
        prio = jnp.where(in_draw, st.dpos + TOP, jnp.where(discards & short, st.order, -1))
        taken = jnp.zeros_like(in_draw)
        for i in range(self.max_hand):
            best = jnp.max(jnp.where(taken, -1, prio))
            taken = taken | ((prio == best) & (best >= 0) & (i < need))
        reshuffled = on & short & discards
        loc = jnp.where(on & taken, seat, loc)
        loc = jnp.where(reshuffled & ~taken, DRAW, loc)
        dpos = jnp.where(reshuffled, st.order, st.dpos)
        ndraw = jnp.sum(loc == DRAW, dtype=jnp.int32)
        none = jnp.zeros(n, dtype=jnp.bool_)
        done: State = st.replace(
            loc=loc,
            dpos=dpos,
            ndraw=ndraw,
            turn=jnp.where(on, turn + 1, st.turn),
            active=jnp.where(on, seat, st.active),
            start=jnp.where(on, st.pawns, st.start),
            bonus=st.bonus & ~on,
            robbed=jnp.where(on, none, st.robbed),
            victim=jnp.where(on, -1, st.victim),
            stolen=jnp.where(on, -1, st.stolen),
            last=jnp.where(on, -1, st.last),
            moved=jnp.where(on, none, st.moved),
            extra=st.extra & ~(on & me),
            phase=jnp.where(on, PLAY, st.phase),
            asked=jnp.where(on, 0, st.asked),
            current_player=jnp.where(on, seat, st.current_player),
        )
        return done

    # ------------------------------------------------------------------ observations

    def _check_layout(self) -> None:
        enc = encoder_for(self.game)
        rows = [(r.name, r.size) for r in enc.rows]
        names = tuple(name for name, _ in rows)
        if names != FEATURES:
            raise AccelError(
                "the Great Dragon Race layout (dragonlair.rl.layouts.dragon_race) now has the "
                f"features {names}; this engine computes {FEATURES}: update both together"
            )
        self.sizes = dict(rows)
        self.obs_size = enc.size

    def _make_tables(self) -> None:
        """Every quotient an observation holds, worked out here as the Python layout works
        it (an int over an int in double precision, rounded to float32) and looked up at
        run time (XLA divides by a constant through its reciprocal, which can differ in the
        last bit)."""
        g = self.game

        def table(most: int, top: int) -> Array:
            return jnp.asarray(
                np.array([i / most if most else 0.0 for i in range(top + 1)], dtype=np.float32)
            )

        self._over_finish = table(self.finish, self.finish)
        self._over_hand = table(self.max_hand, self.cards)
        self._over_cards = table(self.cards, self.cards)
        cap = self.turn_cap
        self._turn_ratio = jnp.asarray(
            np.array([min(1.0, t / cap) for t in range(cap + 1)], dtype=np.float32)
        )
        self._marks = jnp.asarray(np.array(_spot_marks(g), dtype=np.float32))
        self._owner = jnp.asarray(np.array(g.card_owner, dtype=np.int32))
        self._n_kinds = len(KINDS)
        self._n_values = max(g.card_value)
        last_kind = [-1] * 7
        for i, name in enumerate(LAST_KINDS):
            last_kind[
                {"play": A_PLAY, "blow": A_BLOW, "triple": A_TRIPLE, "steal": A_STEAL}[name]
            ] = i
        self._last_kind = jnp.asarray(np.array(last_kind, dtype=np.int32))

    def observe_seat(self, st: State, seat: Array) -> Array:
        """The tensor of ``seat``'s view, float for float the Python layout's
        (``dragonlair.rl.layouts.dragon_race``; the feature each block mirrors is named
        beside it)."""
        n = self.players
        m = self.max_players
        c = self.cards
        f32 = jnp.float32
        over = st.phase == OVER
        slots = jnp.arange(m, dtype=jnp.int32)
        at_table = slots < n
        order = (seat + slots) % n  # the seat in each slot, observer first
        seats = jnp.arange(n, dtype=jnp.int32)

        def seat_slot(s: Array, on: Array | bool = True) -> Array:
            return _seat_slot(s, seat, n, m, on)

        def one(x: Array) -> Array:
            return jnp.reshape(x.astype(f32), (1,))

        def per_seat(by_seat: Array, table: Array) -> Array:
            return jnp.where(at_table, table[by_seat[order]], 0.0)

        def flags(by_seat: Array) -> Array:
            return (at_table & by_seat[order]).astype(f32)

        window = (st.phase == HALT_PLAY) | (st.phase == HALT_STEAL)
        rel = (seats - st.active) % n  # each seat counted from the active player
        window_next = window & (rel > st.asked)
        hand = st.loc == seat
        sizes = jnp.sum(st.loc[None, :] == seats[:, None], axis=1)
        marks = self._marks[st.pawns[order]]  # [slot, 4]
        landmarks = jnp.where(at_table[None, :], marks.T, 0.0).reshape(-1)
        sees = (st.stolen >= 0) & ((seat == st.active) | (seat == st.victim))
        blocks = [
            _one_hot(st.phase, 6),  # phase
            one((seat == st.current_player) & ~over),  # acting
            seat_slot(st.current_player, ~over),  # to_act
            at_table.astype(f32),  # seats
            flags(window_next),  # window_next
            seat_slot(st.active),  # active
            one(self._turn_ratio[jnp.clip(st.turn, 0, self.turn_cap)]),  # turn
            per_seat(st.pawns, self._over_finish),  # pawns
            per_seat(st.start, self._over_finish),  # turn_start
            landmarks,  # landmarks
            _one_hot(st.pawns[seat], self.finish + 1),  # my_spot
            hand[1:].astype(f32),  # hand
            self._over_hand[self._hand_summary(hand, seat)],  # hand_summary
            per_seat(sizes, self._over_hand),  # hand_sizes
            one(self._over_cards[st.ndraw]),  # draw_size
            (st.loc[1:] == DISCARD).astype(f32),  # discards
            flags(st.extra),  # extra_draw
            one(st.bonus),  # bonus
            flags(st.robbed),  # robbed
            flags(st.moved),  # moved
            self._last_block(st, seat),  # last
            _one_hot(st.stolen - 1, c, sees),  # stolen
            jnp.full((1,), 0.0 if self.bonus_optional else 1.0, dtype=f32),  # rules
        ]
        return jnp.concatenate(blocks)

    def _hand_summary(self, hand: Array, seat: Array) -> Array:
        """The ``hand_summary`` counts of a hand: its cards of each kind, of each value,
        and its own cards (the ones with ``seat``'s dragon)."""
        kinds = self._kind
        values = self._value
        by_kind = jnp.sum(hand[None, :] & (kinds[None, :] == jnp.arange(self._n_kinds)[:, None]), 1)
        by_value = jnp.sum(
            hand[None, :] & (values[None, :] == jnp.arange(1, self._n_values + 1)[:, None]),
            axis=1,
        )
        own = jnp.sum(hand & (self._owner == seat))
        return jnp.concatenate([by_kind, by_value, jnp.reshape(own, (1,))])

    def _last_block(self, st: State, seat: Array) -> Array:
        """The ``last`` block: the last play's kind, the card ids it used, and the seat it
        aimed at or robbed, in ``seat``'s slots (zeros before the first play)."""
        ids = jnp.arange(self.cards + 1, dtype=jnp.int32)
        has_last = st.last >= 0
        last = jnp.maximum(st.last, 0)
        lk = self._a_kind[last]
        used = jnp.any(ids[:, None] == self._a_cards[last][None, :], axis=1) & (ids > 0)
        aimed = (lk == A_BLOW) | (lk == A_STEAL)
        target = self._a_target[last]
        return jnp.concatenate(
            [
                _one_hot(self._last_kind[lk], len(LAST_KINDS), has_last),
                (used[1:] & has_last).astype(jnp.float32),
                _seat_slot(target, seat, self.players, self.max_players, has_last & aimed),
            ]
        )
