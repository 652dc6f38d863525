"""The differential check of a batched engine against its Python engine: both start from
the same deals (the Python states, through their positions), the same actions are applied
to both (each picked at random among the Python engine's legal ones), and at every step the
current player, the legal actions, every seat's observation, the rewards and the end must
agree. Dragon Stripes and Space Dragons leave nothing to chance after the deal, so the
deal is the only chance outcome the two must share. Space Race has chance after the deal
(each round's Navigation Coin, the order of a refilled Damage deck): the batched engine
keeps each such outcome in its state ahead of its use, and after every step of the Python
engine that drew one, the same outcome is written into the batched table before its step
(:func:`_share_space_race_chance`). A simultaneous choice (Space Dragons' Hiring Crew,
Space Race's picks and bids) is played in its sequential form: the seats still to choose
answer lowest seat first, as the batched engine asks them.

Tables run in batches of :data:`BATCH` (the last one padded with copies of its first
table, which are played but not compared), so each table size compiles one program. The
tests of Pgx's interface run :func:`pgx_programs` on :data:`PGX_TABLES` tables, so each engine
compiles those once too (a program is compiled once per engine and batch size: every test
of a file asks for the same sizes)."""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from dragonlair.accel import DragonRaceEnv, Engine, SpaceRaceEnv
from dragonlair.rl.common import win_shares
from dragonlair.rl.layout import encoder_for
from tests.accel import GAMES_VARIABLE

BATCH = 64
PGX_TABLES = 64


@cache
def _jitted(env: Engine) -> tuple[Callable[..., Any], Callable[[Any], jax.Array]]:
    step = jax.jit(jax.vmap(env.step))
    seats = jnp.arange(env.players, dtype=jnp.int32)

    def every_seat(st: Any) -> jax.Array:
        return jax.vmap(lambda s: env.observe_seat(st, s))(seats)

    return step, jax.jit(jax.vmap(every_seat))


@cache
def pgx_programs(
    env: Engine,
) -> tuple[Callable[[jax.Array], Any], Callable[..., Any], Callable[..., jax.Array]]:
    """Pgx's way, jitted and vmapped: ``init`` of a batch of keys, ``step`` with Pgx's
    ``auto_reset`` (a finished table is dealt again), and Pgx's ``act_randomly`` (a batch
    of masks, one key)."""
    from pgx.experimental import act_randomly, auto_reset

    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    return init, step, jax.jit(act_randomly)


def compare(env: Engine, seeds: Sequence[int], digest_of: int = 0) -> tuple[int, str]:
    """Play a random game from the deal of each seed in both engines, in lockstep;
    AssertionError at the first disagreement, naming the table, the move and what differs.
    Returns the number of steps compared, and the SHA-256 of the batched engine's tensors
    of every seat at every step of the first ``digest_of`` games, one game after the other
    (as tests/rl/tensor_digests.py makes it from the Python engine's)."""
    steps = 0
    streams: list[list[bytes]] = []
    for at in range(0, len(seeds), BATCH):
        part = list(seeds[at : at + BATCH])
        n, kept = _compare_batch(env, part, max(0, digest_of - at))
        steps += n
        streams += kept
    h = hashlib.sha256()
    for stream in streams:
        for chunk in stream:
            h.update(chunk)
    return steps, h.hexdigest()


def _compare_batch(env: Engine, seeds: list[int], keep: int) -> tuple[int, list[list[bytes]]]:
    game = env.game
    n = env.players
    enc = encoder_for(game)
    step, observe = _jitted(env)
    real = len(seeds)
    padded = seeds + [seeds[0]] * (BATCH - real)
    states = [game.new_game(seed=s) for s in padded]
    rngs = [random.Random(s) for s in padded]
    batch = env.from_states(states)
    obs = np.zeros((BATCH, n, enc.size), dtype=np.float32)
    actions = np.zeros(BATCH, dtype=np.int32)
    kept: list[list[bytes]] = [[] for _ in range(min(keep, real))]
    finished = [False] * real + [True] * (BATCH - real)  # the end compared already
    steps = 0
    share: Callable[..., Any] | None = None
    marks: Callable[[Any], Any] = _chance_marks
    if isinstance(env, SpaceRaceEnv):
        share = _share_space_race_chance
    elif isinstance(env, DragonRaceEnv):
        share, marks = _share_dragon_race_chance, _event_count
    for move in range(game.max_length + 2):
        if all(finished):
            return steps, kept
        before = [marks(st) for st in states] if share else []
        jax_obs = np.asarray(observe(batch))
        masks = np.asarray(batch.legal_action_mask)
        current = np.asarray(batch.current_player)
        ended = np.asarray(batch.terminated)
        rewards = np.asarray(batch.rewards)
        for t, st in enumerate(states):
            if t >= real:  # padding: played on, never compared
                if not st.is_over:
                    seat = st.to_act[0]
                    actions[t] = a = rngs[t].choice(st.legal_action_ids(seat))
                    st.apply_id(seat, a)
                continue
            if finished[t]:
                continue
            where = f"table {t} (deal seed {seeds[t]}, {n} players), move {move}"
            for s in range(n):
                enc.encode(st.seat_view(s), obs[t, s])
                if t < len(kept):
                    kept[t].append(jax_obs[t, s].tobytes())
            if not np.array_equal(obs[t], jax_obs[t]):
                s, i = np.argwhere(obs[t] != jax_obs[t])[0]
                name = next(r.name for r in enc.rows if r.offset <= i < r.offset + r.size)
                raise AssertionError(
                    f"{where}: seat {s}'s observation differs in {name!r} (index {i}): "
                    f"Python {obs[t, s, i]!r}, JAX {jax_obs[t, s, i]!r}"
                )
            assert bool(ended[t]) == st.is_over, f"{where}: the end differs"
            expected = win_shares(st.result, n)  # 0 for every seat before the end
            assert np.allclose(rewards[t], expected), (
                f"{where}: rewards {rewards[t].tolist()} against {expected}"
            )
            if st.is_over:
                finished[t] = True
                actions[t] = 0
                continue
            # the random draw of tests/rl/tensor_digests.py, then the sequential form's
            # seat: the same seat where one seat is asked, so those games' tensors give
            # the digests recorded there
            rngs[t].choice(st.to_act)
            seat = min(st.to_act)
            assert current[t] == seat, f"{where}: current player {current[t]} against {seat}"
            ids = st.legal_action_ids(seat)
            got = [int(a) for a in np.flatnonzero(masks[t])]
            assert got == sorted(ids), f"{where}: legal actions {got} against {sorted(ids)}"
            actions[t] = a = rngs[t].choice(ids)
            st.apply_id(seat, a)
            steps += 1
        if share:
            batch = share(batch, states, before)
        batch = step(batch, jnp.asarray(actions))
    raise AssertionError("a game ran past the game's max_length")


def _chance_marks(st: Any) -> tuple[int, int, bool, int]:
    """What tells whether a Space Race step drew chance, before it: the event count,
    the round, the end, the size of the Damage deck."""
    if not hasattr(st, "damage_deck"):
        return (0, 0, False, 0)
    return (st.event_count, st.round, st.is_over, len(st.damage_deck))


def _share_space_race_chance(
    batch: Any, states: Sequence[Any], before: Sequence[tuple[int, int, bool, int]]
) -> Any:
    """Write the chance the Python engine drew in its last step into each batched table
    before the batched engine takes the same step: the coin of a round that started
    (``coins``), and the order of each refill of the Damage deck (``refill``: each
    refilled card's place in the pile, bottom first, read from the events ``refilled``
    and ``damaged`` and the deck left)."""
    coins = np.array(batch.coins)
    refill = np.array(batch.refill)
    changed = False
    for t, st in enumerate(states):
        events, round_, over, deck = before[t]
        if st.round == round_ and st.is_over == over:
            continue  # no Danger resolved: no chance drawn
        changed = True
        if st.round != round_:
            coins[t, st.round - 1] = st.direction
        # the cards drawn from each refilled pile, in order; ``deck`` counts the cards
        # left in the deck drawn from (the deck before the step, then the last pile)
        piles: list[list[int]] = []
        size = -1  # the size of a pile just refilled, not drawn from yet
        for kind, values, _ in st.event_log()[events:]:
            if kind == "refilled":
                size = int(values[0])
            elif kind == "damaged":
                cards = [int(c) for c in values[3]]
                old, new = (cards[:deck], cards[deck:]) if size >= 0 else (cards, [])
                if piles:
                    piles[-1] += old
                deck -= len(old)
                if size >= 0:  # the rest came from the new pile
                    piles.append(new)
                    deck, size = size - len(new), -1
        for i, drawn in enumerate(piles):
            rest = list(st.damage_deck) if i == len(piles) - 1 else []
            for place, card in enumerate(rest + drawn[::-1]):  # bottom first
                refill[t, card] = place
    if not changed:
        return batch
    return batch.replace(coins=jnp.asarray(coins), refill=jnp.asarray(refill))


def _event_count(st: Any) -> int:
    return int(st.event_count)


def _share_dragon_race_chance(batch: Any, states: Sequence[Any], before: Sequence[int]) -> Any:
    """Write the chance the Python engine drew in its last step into each batched table
    before the batched engine takes the same step: the cards a hazard discarded and a
    steal took (``pick``: the highest keys, in the order drawn, so that each is the
    highest of the hand it was drawn from) and the order of a draw pile shuffled from the
    discards (``order``: each card's place in the pile left, bottom first; the cards drawn
    from it rank above)."""
    pick = np.array(batch.pick)
    order = np.array(batch.order)
    changed = False
    for t, st in enumerate(states):
        drawn = [
            (kind, values)
            for kind, values, _ in st.event_log()[before[t] :]
            if kind in ("hazard", "robbed", "reshuffled")
        ]
        if not drawn:
            continue
        changed = True
        pick[t] = 0
        top = 1 << 30
        for kind, values in drawn:
            if kind != "reshuffled":
                if int(values[2]) > 0:  # 0: a hazard on an empty hand
                    pick[t, int(values[2])] = top
                    top -= 1
            else:
                pile = list(st.draw)  # bottom first
                order[t] = len(pile) + np.arange(order.shape[1])
                for place, c in enumerate(pile):
                    order[t, c] = place
    if not changed:
        return batch
    return batch.replace(pick=jnp.asarray(pick), order=jnp.asarray(order))


def many_games(sizes: Sequence[int]) -> dict[int, int]:
    """The games of the big differential at each table size: DRAGONLAIR_DIFFERENTIAL_GAMES
    (`make differential` asks for 10,000) shared equally among ``sizes``, the first sizes
    taking the remainder. Without the variable the test is skipped: `make test` checks
    every table size with the fast tier's sample of games, and compiles nothing more."""
    given = os.environ.get(GAMES_VARIABLE)
    if given is None:
        pytest.skip(f"the big differential runs with {GAMES_VARIABLE} set (make differential)")
    if not given.isdigit() or int(given) < len(sizes):
        pytest.fail(
            f"{GAMES_VARIABLE} must be a number of games, at least {len(sizes)} "
            f"(one at each table size), not {given!r}"
        )
    games = int(given)
    return {n: games // len(sizes) + (i < games % len(sizes)) for i, n in enumerate(sorted(sizes))}
