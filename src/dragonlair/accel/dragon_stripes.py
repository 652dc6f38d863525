"""Dragon Stripes as a pure-function JAX engine (see docs/accel.md).

The Python engine (:mod:`dragonlair.dragon_stripes.rules`) is the specification; this
module is the same game written as array arithmetic, so that ``jax.jit`` compiles a step
once and ``jax.vmap`` runs it over thousands of tables. Every figure of the game's data
(stripes, deck, gems, prices) is read from the Python game object, never written here
again: a user's data file plays the same in both engines. The rules are written again,
each next to the name of the Python method it mirrors; the differential test in
``tests/accel`` holds the two to the same legal actions, observations and rewards.

The engine is Pgx's :class:`pgx.Env`: ``init(key)`` deals a table, ``step(state, action)``
applies the action of ``state.current_player``. Dragon Stripes has no simultaneous
choices: the one seat asked at a time (the holder drawing, or each other seat in turn
asked whether it takes the knight over) is the current player. The order of the deck is
the game's only chance: a table read from a position draws that position's deck in
order; a table made by ``init`` draws each card at random among those left, from a key it
keeps (see docs/accel.md, "Chance"), so ``step`` ignores its key.

Conventions Pgx sets, which this engine follows: an illegal action ends the game at once
with a reward of -1 to the seat that took it (the other seats share the win); every action
is legal in a finished state (and changes nothing); ``rewards`` are given at the step that
ends the game. Rewards are the Python environments' (``dragonlair.rl.common``): each
seat's share of the win, 1/k to each of k richest seats, 0 to the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as pgx_core
from pgx._src.struct import dataclass

from dragonlair.core import Game
from dragonlair.dragon_stripes.cards import DANGER, STOP, card_name
from dragonlair.dragon_stripes.kinds import DECLINE, DRAW, HOLD, PHASES, TAKE
from dragonlair.dragon_stripes.rules import DragonStripes
from dragonlair.rl.layout import encoder_for

from .common import AccelError, BatchedEnv

Array = jax.Array

DRAWING, OFFER, OVER = 0, 1, 2  # the phases, in the order of the layout's one-hot
NUM_ACTIONS = 4
# The layout's features, in order, with what this engine computes for each: checked against
# the Python encoder's rows when an environment is made, so a change to the layout stops
# here with a clear error instead of giving different tensors.
FEATURES = (
    "phase",
    "acting",
    "to_act",
    "seats",
    "knight",
    "ahead",
    "head_within",
    "pot",
    "price",
    "can_take",
    "dangers",
    "must_draw",
    "holder",
    "starter",
    "window_next",
    "deck_left",
    "risk",
    "deck_size",
    "turn",
    "lair_empty",
    "my_gems",
    "banked",
    "received",
    "paid",
    "penalties",
    "half_penalties",
    "gems_low",
    "gems_high",
    "open_holdings",
)
assert (DRAW, HOLD, TAKE, DECLINE) == (0, 1, 2, 3)
assert PHASES == ("draw", "offer", "over")


@dataclass
class State(pgx_core.State):  # type: ignore[misc]
    """One table. The fields after Pgx's own are the Python state's, as arrays:
    ``deck`` holds card kinds (indexes into the game's ``card_kinds``) in drawing order
    when ``dealt`` (a table read from a position; else cards are drawn from ``rng``),
    ``left`` how many of each kind are undrawn, ``asked`` how many seats the open offer
    has asked (the current player is the ``asked``-th seat after the holder)."""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array
    deck: Array
    dealt: Array
    rng: Array
    left: Array
    top: Array
    phase: Array
    knight: Array
    pot: Array
    lair: Array
    dangers: Array
    turn: Array
    starter: Array
    holder: Array
    asked: Array
    must_draw: Array
    lair_empty: Array
    gems: Array
    banked: Array
    received: Array
    paid: Array
    penalties: Array
    half_penalties: Array

    @property
    def env_id(self) -> str:
        return "dragon-stripes"


class _Drawn(NamedTuple):
    """What the top card does when a seat draws (:meth:`DragonStripesEnv._draw`)."""

    rng: Array  # the generator after the draw
    kind: Array  # the card's kind
    dangers: Array  # the Dangers drawn this turn, this one counted
    knight_to: Array  # where its footprint takes the knight
    head: Array  # the knight reaches the dragon's head: the game ends
    move: Array  # the knight moves on
    shown: Array  # the gems the stripe shows
    gained: Array  # the gems the pot gains from the lair
    wake: Array  # the third Danger wakes the dragon: the game ends
    flee: Array  # a Stop or one of the first two Dangers: the seat flees
    fine: Array  # what fleeing costs the seat


class DragonStripesEnv(BatchedEnv):
    """Dragon Stripes for one player count and one set of data and options, as a Pgx
    environment (made by :func:`dragonlair.accel.make`)."""

    game: DragonStripes

    def __init__(self, game: Game) -> None:
        super().__init__()
        if not isinstance(game, DragonStripes):
            raise AccelError(f"expected a Dragon Stripes game, got {game.spec.id!r}")
        self.game = game
        g = game
        comp = g.components
        n = g.players
        self.players = n
        self.max_players = g.spec.max_players
        kinds = g.card_kinds
        self._kind_of = {c: i for i, c in enumerate(kinds)}
        self._kind_by_name = {card_name(c): i for i, c in enumerate(kinds)}
        deck = np.array([self._kind_of[c] for c in g.deck], dtype=np.int32)
        self._deck = jnp.asarray(deck)
        self._deck_counts = np.array([g.deck.count(c) for c in kinds], dtype=np.int32)
        self._steps = jnp.asarray(np.array(kinds, dtype=np.int32))  # a card's code by kind
        self._bad_kind = jnp.asarray(np.array([c in (STOP, DANGER) for c in kinds]))
        self._stripes = jnp.asarray(np.array(g.stripes, dtype=np.int32))  # 0 at the tail
        self._prices = jnp.asarray(np.array(g.prices, dtype=np.int32))
        self.last = g.last_stripe
        self.total = g.total_gems
        self.start = g.start_gems
        self.max_steps = max(f.steps for f in comp.footprints)
        # before the second Danger, and from it on (the data file's values)
        self.multipliers = g.multipliers
        self.divisors = g.divisors
        # the most a footprint can add to the pot: the richest stripe at the larger reward
        self.richest = max(g.multipliers) * max(comp.stripes) if comp.stripes else 0
        self.top_price = max(b.price for b in comp.takeover)
        self.cards = comp.stop_cards + comp.danger_cards
        self.deck_size = len(g.deck)
        self.open_holdings = g.open_holdings
        # the most penalties a seat can have paid: one per Stop, one for each of the first
        # two Dangers (the third ends the game)
        self.most_penalties = comp.stop_cards + comp.danger_cards - 1
        self._check_layout()
        self._make_tables()
        self._num_actions = NUM_ACTIONS
        self._first_observation = self._from_arrays_one(self._fresh(self._deck)).observation

    # ------------------------------------------------------------------ Pgx's interface

    def init(self, key: Array) -> State:
        """A new table: nothing drawn yet, so seat 0's observation is the same at every
        table (worked out once); the cards are drawn from ``key`` as the game goes on."""
        return self._init(key)

    def _init(self, key: Array) -> State:
        st = self._fresh(self._deck).replace(rng=key, observation=self._first_observation)
        done: State = st
        return done

    # ------------------------------------------------------------------ positions

    def from_states(self, py_states: Sequence[Any], batched: bool = True) -> State:
        """The tables of Python engine states, one batch (leading axis: the tables), each
        through its position (``state.to_position()``, the public format)."""
        stacked = self._stacked(py_states, batched)
        st = self._fresh(jnp.asarray(stacked.pop("deck")), batch=len(py_states) if batched else 0)
        st = st.replace(**{k: jnp.asarray(v) for k, v in stacked.items()})
        make = self._from_arrays_batch if batched else self._from_arrays_one
        done: State = make(st)
        return done

    def _from_arrays(self, st: State) -> State:
        """A table read from positions (its arrays in ``st``), completed: its legal
        actions and the current player's observation."""
        st = st.replace(legal_action_mask=self._legal(st))
        done: State = st.replace(observation=self.observe_seat(st, st.current_player))
        return done

    def _fields(self, py_state: Any) -> dict[str, Any]:
        """A Python state's table as the arrays of :class:`State`, read from its position."""
        game = py_state.game
        if game is not self.game and (game.players != self.players or game.spec.id != self.id):
            raise AccelError("the state is of another game or table size than this engine's")
        if py_state.is_over:
            raise AccelError("the game of this position is over")
        pos = py_state.to_position()
        n = self.players
        i32 = np.int32
        drawn = [self._kind_by_name[c] for c in pos["drawn"]]
        rest = [self._kind_by_name[c] for c in pos["deck"]]
        ledger = pos["ledger"]
        penalties = [ledger[s]["penalties"] for s in range(n)]
        if max(penalties) > self.most_penalties:
            raise AccelError(
                f"a seat has paid {max(penalties)} penalties; the deck allows at most "
                f"{self.most_penalties}"
            )
        asked = 0
        current = pos["holder"]
        if pos["phase"] == "offer":
            current = pos["asked"][0]
            asked = (current - pos["holder"]) % n
        left = np.array(self._deck_counts)
        for k in drawn:
            left[k] -= 1
        danger = self._kind_of[DANGER]
        out: dict[str, Any] = {
            "deck": np.array(drawn + rest, dtype=i32),
            "dealt": np.bool_(True),
            "left": left,
            "top": i32(len(drawn)),
            "phase": i32(DRAWING if pos["phase"] == "draw" else OFFER),
            "knight": i32(pos["knight"]),
            "pot": i32(pos["pot"]),
            "lair": i32(pos["lair"]),
            "dangers": i32(drawn.count(danger)),
            "turn": i32(pos["turn"]),
            "starter": i32(pos["starter"]),
            "holder": i32(pos["holder"]),
            "asked": i32(asked),
            "must_draw": np.bool_(pos.get("must_draw", False)),  # an offer follows a draw
            "lair_empty": np.bool_(pos["lair_empty"]),
            "gems": np.array(pos["gems"], dtype=i32),
            "current_player": i32(current),
        }
        for column in ("banked", "received", "paid", "penalties", "half_penalties"):
            out[column] = np.array([ledger[s][column] for s in range(n)], dtype=i32)
        return out

    # ------------------------------------------------------------------ the rules

    def _fresh(self, deck: Array, batch: int = 0) -> State:
        """``DragonStripesState._setup`` after the shuffle: seat 0 starts turn 1 (``batch``
        tables when not 0, each with its row of ``deck``)."""
        if batch:
            one = self._fresh(deck[0])
            return jax.tree_util.tree_map(  # type: ignore[no-any-return]
                lambda x: jnp.broadcast_to(x, (batch, *x.shape)), one
            ).replace(deck=deck)
        n = self.players
        zeros = jnp.zeros(n, dtype=jnp.int32)
        lair = self.total - self.start * n
        st = State(
            current_player=jnp.int32(0),
            observation=jnp.zeros(self.obs_size, dtype=jnp.float32),
            rewards=jnp.zeros(n, dtype=jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.array([True, False, False, False]),
            _step_count=jnp.int32(0),
            deck=deck,
            dealt=jnp.bool_(False),
            rng=jax.random.PRNGKey(0),
            left=jnp.asarray(self._deck_counts),
            top=jnp.int32(0),
            phase=jnp.int32(DRAWING),
            knight=jnp.int32(0),
            pot=jnp.int32(0),
            lair=jnp.int32(lair),
            dangers=jnp.int32(0),
            turn=jnp.int32(1),
            starter=jnp.int32(0),
            holder=jnp.int32(0),
            asked=jnp.int32(0),
            must_draw=jnp.bool_(True),
            lair_empty=jnp.bool_(lair == 0),
            gems=jnp.full(n, self.start, dtype=jnp.int32),
            banked=zeros,
            received=zeros,
            paid=zeros,
            penalties=zeros,
            half_penalties=zeros,
        )
        return st

    def _legal(self, st: State) -> Array:
        """``_legal_ids``: draw (and hold once the holder has drawn); take (if the seat
        can pay the price) and decline while the knight is offered."""
        drawing = st.phase == DRAWING
        offer = st.phase == OFFER
        price = self._prices[st.pot]
        mine = st.gems[st.current_player]
        return jnp.stack([drawing, drawing & ~st.must_draw, offer & (mine >= price), offer])

    def _apply(self, st: State, action: Array) -> State:
        """One action: what a draw does (:meth:`_draw`), the gems it moves
        (:meth:`_gems`), then whose turn and which phase follow, each stage of the Python
        engine masked by whether it happens."""
        n = self.players
        seats = jnp.arange(n, dtype=jnp.int32)
        p = st.current_player
        me = seats == p
        at_holder = seats == st.holder
        drawing = action == DRAW
        d = self._draw(st, drawing)
        # -- _hold: the knight is offered to the seats after the holder, one at a time
        hold = action == HOLD
        # -- _take: pay the holder the price, take the knight and the pot, then draw
        take = action == TAKE
        price = self._prices[st.pot]
        # -- _decline: ask the next seat; after the last, the holder banks the pot
        decline = action == DECLINE
        asked = st.asked + 1
        banks = decline & (asked >= n)
        gems, lair, pot, lair_empty = self._gems(st, d, me & drawing, take, banks, price)
        gems = gems + jnp.where(take, jnp.where(at_holder, price, 0) - jnp.where(me, price, 0), 0)
        gems = gems + jnp.where(banks & at_holder, st.pot, 0)
        over = d.head | d.wake
        next_turn = d.flee | banks  # _next_turn: clockwise from the seat that started this one
        starter_next = (st.starter + 1) % n
        starter = jnp.where(next_turn, starter_next, st.starter)
        holder = jnp.where(next_turn, starter_next, jnp.where(take, p, st.holder))
        knight = jnp.where(
            next_turn,
            0,
            jnp.where(d.head, self.last + 1, jnp.where(d.move, d.knight_to, st.knight)),
        )
        must_draw = jnp.where(next_turn | take, True, jnp.where(d.move, False, st.must_draw))
        phase = jnp.where(
            over,
            OVER,
            jnp.where(
                hold | (decline & ~banks), OFFER, jnp.where(next_turn | take, DRAWING, st.phase)
            ),
        )
        asked_now = jnp.where(hold, 1, jnp.where(decline & ~banks, asked, 0))
        current = jnp.where(
            next_turn,
            starter_next,
            jnp.where(hold | (decline & ~banks), (st.holder + asked_now) % n, p),
        )
        penalised = me & d.flee
        st = st.replace(
            top=st.top + drawing.astype(jnp.int32),
            rng=jnp.where(drawing, d.rng, st.rng),
            left=st.left
            - jnp.where(
                drawing, jax.nn.one_hot(d.kind, self._deck_counts.shape[0], dtype=jnp.int32), 0
            ),
            dangers=d.dangers,
            phase=phase,
            knight=knight,
            pot=pot,
            lair=lair,
            lair_empty=lair_empty,
            gems=gems,
            banked=st.banked + jnp.where(banks & at_holder, st.pot, 0),
            received=st.received + jnp.where(take & at_holder, price, 0),
            paid=st.paid + jnp.where(take & me, price, 0),
            penalties=st.penalties + penalised.astype(jnp.int32),
            half_penalties=st.half_penalties + (penalised & (d.dangers >= 2)).astype(jnp.int32),
            turn=st.turn + next_turn.astype(jnp.int32),
            starter=starter,
            holder=holder,
            must_draw=must_draw,
            asked=asked_now,
            current_player=current,
            terminated=over,
        )
        done: State = st.replace(rewards=self._end(gems, over), legal_action_mask=self._legal(st))
        return done

    def _end(self, gems: Array, over: Array) -> Array:
        """``_end`` where ``over``: the richest seats share the win (the rewards)."""
        richest = gems == jnp.max(gems)
        shares = jnp.where(richest, self._shares[jnp.sum(richest)], 0.0)
        return jnp.where(over, shares, jnp.zeros(self.players, dtype=jnp.float32))

    def _draw(self, st: State, drawing: Array) -> _Drawn:
        """``_draw`` where ``drawing``: the top card, and what it does (the knight moves
        on or reaches the head, or a Danger or Stop wakes the dragon or sends the seat
        fleeing, with its fine)."""
        gems_p = st.gems[st.current_player]
        # The next card: the deck's, for a table dealt from a position; else drawn at
        # random from the cards left, which is the same as shuffling the deck at the
        # start (every order of the undrawn cards is equally likely either way), and
        # costs a draw instead of a shuffle of every card at every new table.
        rng, sub = jax.random.split(st.rng)
        pick = jax.random.randint(sub, (), 0, jnp.maximum(self.deck_size - st.top, 1))
        drawn_kind = jnp.sum(jnp.cumsum(st.left) <= pick).astype(jnp.int32)
        kind = jnp.where(st.dealt, st.deck[jnp.minimum(st.top, self.deck_size - 1)], drawn_kind)
        code = self._steps[kind]
        footprint = drawing & (code > 0)
        danger = drawing & (code == DANGER)
        stop = drawing & (code == STOP)
        dangers = st.dangers + danger.astype(jnp.int32)
        # _advance: the knight moves on and the pot gains the stripe's gems from the lair
        knight_to = st.knight + code
        head = footprint & (knight_to > self.last)
        move = footprint & ~head
        mult = jnp.where(st.dangers >= 2, self.multipliers[1], self.multipliers[0])
        shown = self._stripes[jnp.clip(knight_to, 0, self.last)] * mult
        gained = jnp.minimum(shown, st.lair)
        # _wake: the third Danger; _flee: a Stop or one of the first two Dangers
        wake = danger & (dangers == 3)
        flee = stop | (danger & (dangers < 3))
        divisor = jnp.where(dangers >= 2, self.divisors[1], self.divisors[0])
        fine = gems_p // divisor
        return _Drawn(rng, kind, dangers, knight_to, head, move, shown, gained, wake, flee, fine)

    def _gems(
        self, st: State, d: _Drawn, drawer: Array, take: Array, banks: Array, price: Array
    ) -> tuple[Array, Array, Array, Array]:
        """The seats' gems, the lair, the pot and whether the lair ran short after a
        draw (the ``drawer`` seat wins the pot and the lair, loses everything to the
        dragon or pays its fine), a take or the pot banked."""
        gems_p = st.gems[st.current_player]
        new_gems_p = jnp.where(
            d.head,
            gems_p + st.pot + st.lair,
            jnp.where(d.wake, 0, jnp.where(d.flee, gems_p - d.fine, gems_p)),
        )
        gems = jnp.where(drawer, new_gems_p, st.gems)
        lair = jnp.where(
            d.head,
            0,
            jnp.where(
                d.wake,
                st.lair + gems_p + st.pot,
                jnp.where(
                    d.flee,
                    st.lair + st.pot + d.fine,
                    jnp.where(d.move, st.lair - d.gained, st.lair),
                ),
            ),
        )
        pot = jnp.where(
            d.head | d.wake | d.flee | banks, 0, jnp.where(d.move, st.pot + d.gained, st.pot)
        )
        lair_empty = jnp.where(
            d.flee | d.wake,
            False,
            jnp.where(d.move, st.lair_empty | (d.gained < d.shown), st.lair_empty),
        )
        return gems, lair, pot, lair_empty

    def _check_layout(self) -> None:
        enc = encoder_for(self.game)
        rows = [(r.name, r.size) for r in enc.rows]
        names = tuple(name for name, _ in rows)
        if names != FEATURES:
            raise AccelError(
                "the Dragon Stripes layout (dragonlair.rl.layouts.dragon_stripes) now has the "
                f"features {names}; this engine computes {FEATURES}: update both together"
            )
        self.sizes = dict(rows)
        self.obs_size = enc.size

    def _make_tables(self) -> None:
        """Every quotient an observation holds, worked out here as the Python layout works
        it (an int over an int in double precision, rounded to float32) and looked up at
        run time: XLA divides by a constant through its reciprocal, which differs from the
        correctly rounded quotient in the last bit for about a third of the numerators."""
        # the most any gem count of the ledger can reach: every card drawn banking or
        # paying the most it can, plus the box
        upto = self.deck_size * max(self.top_price, self.richest, 1) + self.total

        def table(most: int, top: int) -> Array:
            if not most:
                return jnp.zeros(top + 1, dtype=jnp.float32)
            return jnp.asarray(np.array([i / most for i in range(top + 1)], dtype=np.float32))

        self._shares = jnp.asarray(
            np.array([1 / k if k else 0.0 for k in range(self.players + 1)], dtype=np.float32)
        )  # a share of the win among k winners (win_shares)
        self._over_total = table(self.total, upto)
        self._over_cards = table(self.cards, self.most_penalties)
        self._over_richest = table(self.richest, self.richest)
        self._price_ratio = jnp.asarray(
            np.array([p / self.top_price if p else 0.0 for p in self.game.prices], dtype=np.float32)
        )
        d = self.deck_size
        self._deck_ratio = table(d, d)
        self._turn_ratio = jnp.asarray(
            np.array([min(1.0, t / (d + 1)) for t in range(d + 2)], dtype=np.float32)
        )
        self._left_ratio = jnp.asarray(
            np.array(
                [[i / c if c else 0.0 for i in range(d + 1)] for c in self._deck_counts],
                dtype=np.float32,
            )
        )
        self._risk_ratio = jnp.asarray(
            np.array(
                [[b / k if k else 0.0 for k in range(d + 1)] for b in range(d + 1)],
                dtype=np.float32,
            )
        )

    def observe_seat(self, st: State, seat: Array) -> Array:
        """The tensor of ``seat``'s view, float for float the Python layout's
        (``dragonlair.rl.layouts.dragon_stripes``; the feature that each block mirrors is
        named beside it)."""
        n = self.players
        m = self.max_players
        f32 = jnp.float32
        over = st.phase == OVER
        slots = jnp.arange(m, dtype=jnp.int32)
        at_table = slots < n
        order = (seat + slots) % n  # the seat in each slot, observer first

        def one_hot(i: Array, size: int, on: Array | bool = True) -> Array:
            return ((jnp.arange(size) == i) & on).astype(f32)

        def seat_slot(s: Array, on: Array | bool = True) -> Array:
            return one_hot((s - seat) % n, m, on)

        def look(table: Array, i: Array) -> Array:
            return table[jnp.clip(i, 0, table.shape[-1] - 1)]

        def one(x: Array) -> Array:
            return jnp.reshape(x.astype(f32), (1,))

        def per_seat(by_seat: Array, table: Array) -> Array:
            return jnp.where(at_table, look(table, by_seat[order]), 0.0)

        mine = st.gems[seat]
        price = self._prices[st.pot]
        steps = jnp.arange(1, self.max_steps + 1, dtype=jnp.int32)
        ahead_at = st.knight + steps
        mult = jnp.where(st.dangers >= 2, self.multipliers[1], self.multipliers[0])
        ahead_gems = self._stripes[jnp.clip(ahead_at, 0, self.last)] * mult
        ahead = jnp.where(ahead_at <= self.last, look(self._over_richest, ahead_gems), 0.0)
        # window_next: the seats after the one asked now, up to the seat before the holder
        asked_as = (seat + slots - st.holder) % n  # each slot's seat, counted from the holder
        window = ((asked_as > st.asked) & at_table & (st.phase == OFFER)).astype(f32)
        kinds = jnp.arange(self._deck_counts.shape[0])
        cards_left = self.deck_size - st.top
        bad = jnp.sum(jnp.where(self._bad_kind, st.left, 0))
        low, high = self._bounds(st, seat, order)
        blocks = [
            one_hot(st.phase, 3),  # phase
            one((seat == st.current_player) & ~over),  # acting
            seat_slot(st.current_player, ~over),  # to_act
            at_table.astype(f32),  # seats
            one_hot(st.knight, self.last + 2),  # knight
            ahead,  # ahead
            (steps >= self.last + 1 - st.knight).astype(f32),  # head_within
            one(look(self._over_total, st.pot)),  # pot
            one(self._price_ratio[st.pot]),  # price
            one((mine >= price) & (st.holder != seat)),  # can_take
            one_hot(st.dangers, 4),  # dangers
            one(st.must_draw),  # must_draw
            seat_slot(st.holder),  # holder
            seat_slot(st.starter),  # starter
            window,  # window_next
            self._left_ratio[kinds, st.left],  # deck_left
            one(self._risk_ratio[bad, cards_left]),  # risk
            one(self._deck_ratio[cards_left]),  # deck_size
            one(look(self._turn_ratio, st.turn)),  # turn
            one(st.lair_empty),  # lair_empty
            one(look(self._over_total, mine)),  # my_gems
            per_seat(st.banked, self._over_total),  # banked
            per_seat(st.received, self._over_total),  # received
            per_seat(st.paid, self._over_total),  # paid
            per_seat(st.penalties, self._over_cards),  # penalties
            per_seat(st.half_penalties, self._over_cards),  # half_penalties
            jnp.where(at_table, look(self._over_total, low), 0.0),  # gems_low
            jnp.where(at_table, look(self._over_total, high), 0.0),  # gems_high
            jnp.full((1,), 1.0 if self.open_holdings else 0.0, dtype=f32),  # open_holdings
        ]
        return jnp.concatenate(blocks)

    def _bounds(self, st: State, seat: Array, order: Array) -> tuple[Array, Array]:
        """``holding_bounds`` of each seat, observer first (exact for the observer, and for
        every seat with open holdings)."""
        gems = st.gems[order]
        if self.open_holdings:
            return gems, gems
        half = st.half_penalties[order]
        quarter = st.penalties[order] - half
        income = (st.banked + st.received)[order]
        paid = st.paid[order]
        whole = self.start + income - paid

        def after_penalties(g: Array) -> Array:
            for i in range(self.most_penalties):
                g = jnp.where(i < quarter, g - g // self.divisors[0], g)
            for i in range(self.most_penalties):
                g = jnp.where(i < half, g - g // self.divisors[1], g)
            return g

        low = jnp.maximum(0, after_penalties(self.start + income) - paid)
        high = jnp.minimum(whole, income + after_penalties(jnp.maximum(0, self.start - paid)))
        exact = (quarter == 0) & (half == 0)
        low = jnp.where(exact, whole, low)
        high = jnp.where(exact, whole, high)
        me = jnp.arange(order.shape[0]) == 0
        return jnp.where(me, gems, low), jnp.where(me, gems, high)
