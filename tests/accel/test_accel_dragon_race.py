"""The batched Great Dragon Race engine: held to the Python engine step for step (the cards
hazards and steals take and the order of a reshuffled draw pile shared), its observations
the Python layout's to the bit (the tensor digests recorded for the layouts), usable
through Pgx's interface under jit and vmap, and refusing what it cannot serve."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax
import jax.numpy as jnp
import numpy as np

import dragonlair
from dragonlair import accel
from dragonlair.accel import AccelError, DragonRaceEnv
from dragonlair.accel.dragon_race import DISCARD, DRAW, TAKEN
from dragonlair.core.position import BadPosition
from tests.accel.differential import (
    BATCH,
    PGX_TABLES,
    _jitted,
    compare,
    many_games,
    pgx_programs,
)

accel.cache_compilations(Path(__file__).resolve().parents[2] / "build" / "jax-cache")

DIGESTS = Path(__file__).resolve().parents[1] / "rl" / "data" / "tensor_digests.json"
# the option set tests/rl/rl_helpers.py plays besides the defaults
OPTIONS: dict[str, object] = {"bonus_play": "must", "turn_cap": 30}
# one engine per table size, the last with the other option set (every engine is
# compiled once for the module, or read from the cache)
TABLES: dict[int, dict[str, object]] = {2: {}, 3: {}, 4: dict(OPTIONS)}


@pytest.fixture(scope="module")
def envs() -> dict[int, DragonRaceEnv]:
    return {n: _make(n, options) for n, options in TABLES.items()}


def _make(players: int, options: dict[str, object]) -> DragonRaceEnv:
    env = accel.make("dragon-race", players=players, options=options)
    assert isinstance(env, DragonRaceEnv)
    return env


def _recorded(options: dict[str, object], players: int) -> str:
    key = f"dragon-race {json.dumps(options, sort_keys=True)} {players}p"
    return str(json.loads(DIGESTS.read_text())[key])


def _events(env: DragonRaceEnv, seeds: range | list[int]) -> Counter[str]:
    """The events of the random games ``compare`` plays from ``seeds``, in Python alone."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        st = env.game.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            rng.choice(st.to_act)
            seat = min(st.to_act)
            st.apply_id(seat, rng.choice(st.legal_action_ids(seat)))
        seen.update(kind for kind, _, _ in st.event_log())
        assert st.result is not None
        seen[st.result.termination] += 1
    return seen


@pytest.mark.timeout(300)
@pytest.mark.parametrize("players", sorted(TABLES))
def test_random_games_agree_with_the_python_engine(
    envs: dict[int, DragonRaceEnv], players: int
) -> None:
    """10 random games per table size (`make differential` plays 10,000), the first two from the
    deals and actions of tests/rl/tensor_digests.py, whose tensors must give the digest
    recorded there: the layouts' own check, passed by the batched engine. The games hold
    every chance event and every way a turn goes that the engines must agree on."""
    seeds = [0, 1, *range(1000 * players, 1000 * players + 8)]
    steps, digest = compare(envs[players], seeds, digest_of=2)
    assert steps > 10 * 100
    assert digest == _recorded(TABLES[players], players)
    seen = _events(envs[players], seeds)
    for kind in ("reshuffled", "hazard", "robbed", "halted", "given_back", "triple", "bonus"):
        assert seen[kind] > 0, f"no {kind!r} in the sample"
    assert seen["turn_cap" if "turn_cap" in TABLES[players] else "finish"] > 0


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_many_random_games_agree_with_the_python_engine(envs: dict[int, DragonRaceEnv]) -> None:
    """`make differential`: 10,000 random games, 3,334, 3,333 and 3,333 at 2, 3 and 4
    players (DRAGONLAIR_DIFFERENTIAL_GAMES; skipped without it)."""
    for n, per in many_games(sorted(TABLES)).items():
        seeds = range(100_000 * n, 100_000 * n + per)
        assert compare(envs[n], seeds)[0] >= per * 30


@pytest.mark.timeout(300)
@pytest.mark.skipif(dragonlair.COMPILED, reason="a compiled engine's rules cannot be patched")
def test_a_rule_changed_in_the_python_engine_only_is_caught(
    envs: dict[int, DragonRaceEnv], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hazard that costs no card, in the Python rules only."""
    from dragonlair.dragon_race import rules

    monkeypatch.setattr(rules.DragonRaceState, "_hazard", lambda self, seat, h: None)
    with pytest.raises(AssertionError, match="observation differs"):
        compare(envs[2], range(5, 15))


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_rule_changed_in_the_batched_engine_only_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No hazard anywhere on the board, in the batched engine only (its step is compiled
    again)."""
    env = _make(2, {})
    monkeypatch.setattr(env, "_hazard", jnp.zeros_like(env._hazard))
    with pytest.raises(AssertionError, match="observation differs"):
        compare(env, range(5, 15))


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_jit_and_vmap_over_a_batch_of_tables(envs: dict[int, DragonRaceEnv]) -> None:
    """Pgx's way: init and step jitted and vmapped, random legal actions (Pgx's
    act_randomly) with Pgx's auto_reset, over a batch of tables: shapes stay fixed, every
    card stays in one place, the draw pile is counted right, and every finished game pays
    out one win."""
    env = envs[4]
    init, step, pick = pgx_programs(env)
    tables = PGX_TABLES
    key = jax.random.PRNGKey(0)
    st = init(jax.random.split(key, tables))
    assert st.observation.shape == (tables, env.obs_size)
    assert st.legal_action_mask.shape == (tables, env.num_actions)
    paid = 0.0
    ends = 0
    for i in range(300):  # turn cap 30: a game is at most 30 turns
        key, k1, k2 = jax.random.split(key, 3)
        action = pick(k1, st.legal_action_mask)
        st = step(st, action, jax.random.split(k2, tables))
        loc = np.asarray(st.loc)[:, 1:]
        assert np.isin(loc, (0, 1, 2, 3, DRAW, DISCARD, TAKEN)).all(), f"a card lost at {i}"
        draw = loc == DRAW
        assert (draw.sum(axis=1) == np.asarray(st.ndraw)).all(), f"the pile miscounted at {i}"
        assert ((loc == TAKEN).sum(axis=1) == (np.asarray(st.stolen) > 0)).all()
        paid += float(st.rewards.sum())
        ends += int(st.terminated.sum())
    assert ends >= tables  # every table finished at least one game
    assert paid == pytest.approx(ends)
    obs = np.asarray(st.observation)
    assert ((obs >= 0) & (obs <= 1)).all()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_new_table_is_dealt_as_the_rules_deal_it(envs: dict[int, DragonRaceEnv]) -> None:
    """init: four cards to each seat from the top of the shuffled deck (seat 0 first), then
    seat 0's turn drawing up to five; tables are dealt differently, and the same key deals
    the same table."""
    env = envs[4]
    init = pgx_programs(env)[0]  # the Pgx test's program, on a batch of its size
    tables = PGX_TABLES
    keys = jax.random.split(jax.random.PRNGKey(3), tables)
    st = init(keys)
    loc, pos = np.asarray(st.loc)[:, 1:], np.asarray(st.dpos)[:, 1:]
    for t in range(tables):
        assert [(loc[t] == s).sum() for s in range(4)] == [5, 4, 4, 4]
        assert len(set(pos[t].tolist())) == 56  # an order of the whole deck
        from_top = loc[t][np.argsort(-pos[t])]
        assert from_top[:17].tolist() == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4 + [0]
        assert (from_top[17:] == DRAW).all()
    assert (np.asarray(st.current_player) == 0).all() and (np.asarray(st.turn) == 1).all()
    assert len({tuple(row) for row in loc}) == tables
    again = init(keys)
    assert (np.asarray(again.loc)[:, 1:] == loc).all()


def test_an_illegal_action_ends_the_game_with_pgx_penalty(envs: dict[int, DragonRaceEnv]) -> None:
    """A pass on the active player's turn ends the game with -1 to that seat (the programs
    of the differential test, on a batch of its size)."""
    env = envs[2]
    step = _jitted(env)[0]
    st = env.from_states([env.game.new_game(seed=s) for s in range(BATCH)])
    actions = jnp.full(BATCH, env.pass_id, dtype=jnp.int32)
    after = step(st, actions)
    assert np.asarray(after.terminated).all()
    assert np.asarray(after.rewards[:2]).tolist() == [[-1.0, 1.0]] * 2
    again = step(after, jnp.zeros(BATCH, dtype=jnp.int32))  # a finished table changes no more
    assert np.asarray(again.terminated).all() and not np.asarray(again.rewards).any()


def test_positions_and_refusals(envs: dict[int, DragonRaceEnv]) -> None:
    env = envs[2]
    state = env.game.new_game(seed=2)
    seat = state.to_act[0]
    state.apply_id(seat, state.legal_action_ids(seat)[0])  # a play: the HALT! window opens
    table = env.from_state(state)
    assert int(table.current_player) == state.to_act[0] == 1
    pos = state.to_position()
    assert int(env.from_position(pos).last) == int(table.last) >= 0
    with pytest.raises(BadPosition, match="discards"):
        env.from_position({**pos, "discards": [pos["hands"][0][0]]})
    other = dragonlair.make("dragon-race", players=3).new_game(seed=1)
    with pytest.raises(AccelError, match="another game, table size or options"):
        env.from_state(other)
    with pytest.raises(AccelError, match="player"):
        accel.make("dragon-race", players=5)
    with pytest.raises(AccelError, match="option"):
        accel.make("dragon-race", players=3, options={"bonus_play": "never"})
