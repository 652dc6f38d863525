"""The batched Dragon Stripes engine: held to the Python engine step for step, its
observations the Python layout's to the bit (the same tensor digests), usable through
Pgx's interface under jit and vmap, and refusing what it cannot serve."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax
import jax.numpy as jnp
import numpy as np

import dragonlair
from dragonlair import accel
from dragonlair.accel import AccelError, DragonStripesEnv
from dragonlair.core.position import BadPosition
from tests.accel.differential import BATCH, PGX_TABLES, _jitted, compare, many_games, pgx_programs

accel.cache_compilations(Path(__file__).resolve().parents[2] / "build" / "jax-cache")

PLAYERS = (2, 3, 4, 5, 6)
DIGESTS = Path(__file__).resolve().parents[1] / "rl" / "data" / "tensor_digests.json"


@pytest.fixture(scope="module")
def envs() -> dict[int, DragonStripesEnv]:
    return {n: accel.make("dragon-stripes", players=n) for n in PLAYERS}


def _recorded(options: str, players: int) -> str:
    return str(json.loads(DIGESTS.read_text())[f"dragon-stripes {options} {players}p"])


@pytest.mark.timeout(300)
@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_agree_with_the_python_engine(
    envs: dict[int, DragonStripesEnv], players: int
) -> None:
    """60 random games per table size (`make differential` plays 10,000), the first two
    from the deals and actions of tests/rl/tensor_digests.py, whose tensors must give the
    digest recorded there: the layouts' own check, passed by the batched engine."""
    seeds = [0, 1, *range(1000 * players, 1000 * players + 58)]
    steps, digest = compare(envs[players], seeds, digest_of=2)
    assert steps > 60
    assert digest == _recorded("{}", players)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_many_random_games_agree_with_the_python_engine(
    envs: dict[int, DragonStripesEnv],
) -> None:
    """`make differential`: 10,000 random games, 2,000 at each table size from 2 to 6
    (DRAGONLAIR_DIFFERENTIAL_GAMES; skipped without it)."""
    for n, per in many_games(PLAYERS).items():
        seeds = range(100_000 * n, 100_000 * n + per)
        assert compare(envs[n], seeds)[0] > per


@pytest.mark.timeout(300)
def test_open_holdings_agree_with_the_python_engine() -> None:
    env = accel.make("dragon-stripes", players=4, options={"open_holdings": True})
    _, digest = compare(env, [0, 1, *range(7, 37)], digest_of=2)
    assert digest == _recorded('{"open_holdings": true}', 4)


@pytest.mark.timeout(300)
def test_a_data_file_with_other_fines_and_rewards_plays_the_same(tmp_path: Path) -> None:
    """The fines (1/3, then 1/2) and the stripes' rewards (once, then three times) from a
    user's data file: both engines read them, so the games still agree step for step."""
    built_in = Path(dragonlair.__file__).parent / "dragon_stripes" / "data" / "dragon_stripes.json"
    data = json.loads(built_in.read_text(encoding="utf-8"))
    data["penalty_divisor"] = {"before_second_danger": 3, "from_second_danger": 2}
    data["reward_multiplier"] = {"before_second_danger": 1, "from_second_danger": 3}
    path = tmp_path / "fines.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    env = accel.make("dragon-stripes", players=3, options={"data": str(path)})
    assert compare(env, range(11, 41))[0] > 30


@pytest.mark.timeout(300)
@pytest.mark.skipif(dragonlair.COMPILED, reason="a compiled engine's rules cannot be patched")
def test_a_rule_changed_in_the_python_engine_only_is_caught(
    envs: dict[int, DragonStripesEnv], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Stop costing 1/2 from the first Danger on (not the second), in the Python rules only."""
    from dragonlair.dragon_stripes import rules

    monkeypatch.setattr(
        rules.DragonStripesState, "penalty_divisor", lambda self: 2 if self.dangers >= 1 else 4
    )
    with pytest.raises(AssertionError, match="observation differs|rewards"):
        compare(envs[3], range(5, 45))


@pytest.mark.timeout(300)
def test_a_rule_changed_in_the_batched_engine_only_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The holder allowed to hold before drawing, in the batched engine only."""
    original = DragonStripesEnv._legal

    def slack(self: DragonStripesEnv, st: accel.dragon_stripes.State) -> jax.Array:
        return original(self, st).at[1].set(st.phase == 0)

    monkeypatch.setattr(DragonStripesEnv, "_legal", slack)
    env = accel.make("dragon-stripes", players=3)
    with pytest.raises(AssertionError, match="legal actions"):
        compare(env, [5])


@pytest.mark.timeout(300)
def test_jit_and_vmap_over_a_batch_of_tables(envs: dict[int, DragonStripesEnv]) -> None:
    """Pgx's way: init and step jitted and vmapped, random legal actions (Pgx's
    act_randomly) with Pgx's auto_reset, over a batch of tables; shapes stay fixed, gems
    are conserved and every finished game pays out one win."""
    env = envs[4]
    init, step, pick = pgx_programs(env)
    key = jax.random.PRNGKey(0)
    st = init(jax.random.split(key, PGX_TABLES))
    assert st.observation.shape == (PGX_TABLES, env.obs_size) == (PGX_TABLES, 123)
    assert st.legal_action_mask.shape == (PGX_TABLES, 4)
    paid = 0.0
    ends = 0
    for i in range(150):
        key, k1, k2 = jax.random.split(key, 3)
        action = pick(k1, st.legal_action_mask)
        st = step(st, action, jax.random.split(k2, PGX_TABLES))
        held = np.asarray(st.gems.sum(axis=1) + st.pot + st.lair)
        assert (held == env.total).all(), f"gems not conserved at step {i}"
        paid += float(st.rewards.sum())
        ends += int(st.terminated.sum())
    assert ends > PGX_TABLES  # every table finished at least one game in 150 steps
    assert paid == pytest.approx(ends)
    obs = np.asarray(st.observation)
    assert ((obs >= 0) & (obs <= 1)).all()


@pytest.mark.timeout(300)
def test_a_new_table_draws_its_cards_as_a_shuffled_deck_would(
    envs: dict[int, DragonStripesEnv],
) -> None:
    """A table made by init draws each card at random from the cards left: over 4,096
    tables (batches of the Pgx test's size, its programs) the first card's kinds come in
    the deck's proportions (within 5 standard errors), and the same key deals the same
    cards."""
    env = envs[4]
    init, step, _ = pgx_programs(env)
    draw = jnp.zeros(PGX_TABLES, dtype=jnp.int32)
    counts = np.array(env._deck_counts)
    seen = np.zeros(len(counts))
    batches = 64
    for b in range(batches):
        keys = jax.random.split(jax.random.PRNGKey(b), PGX_TABLES)
        st = init(keys)
        first = np.asarray(st.observation[0])
        assert (np.asarray(st.observation) == first).all()  # nothing is known yet
        after = step(st, draw, keys)
        drawn = np.argmax(counts - np.asarray(after.left), axis=1)
        seen += np.bincount(drawn, minlength=len(counts))
        if b == 0:
            again = step(init(keys), draw, keys)
            assert (np.asarray(again.left) == np.asarray(after.left)).all()
    tables = batches * PGX_TABLES
    seen /= tables
    expected = counts / counts.sum()
    error = np.sqrt(expected * (1 - expected) / tables)
    assert (np.abs(seen - expected) < 5 * error).all(), (seen, expected)


def test_an_illegal_action_ends_the_game_with_pgx_penalty(
    envs: dict[int, DragonStripesEnv],
) -> None:
    """Holding before drawing ends the game with -1 to that seat (the programs of the
    differential test, on a batch of its size)."""
    env = envs[3]
    step = _jitted(env)[0]
    st = env.from_states([env.game.new_game(seed=s) for s in range(BATCH)])
    assert np.asarray(st.legal_action_mask[0]).tolist() == [True, False, False, False]
    after = step(st, jnp.ones(BATCH, dtype=jnp.int32))  # hold before drawing
    assert np.asarray(after.terminated).all()
    assert np.asarray(after.rewards[:2]).tolist() == [[-1.0, 0.5, 0.5]] * 2
    again = step(after, jnp.full(BATCH, 2, dtype=jnp.int32))  # a finished table changes no more
    assert np.asarray(again.terminated).all() and not np.asarray(again.rewards).any()


def test_refusals() -> None:
    with pytest.raises(AccelError, match="no batched engine for 'chess'.*dragon-stripes"):
        accel.make("chess")
    with pytest.raises(AccelError, match="player"):
        accel.make("dragon-stripes", players=7)
    with pytest.raises(AccelError, match="option"):
        accel.make("dragon-stripes", players=3, options={"colour": "red"})
    env = accel.make("dragon-stripes", players=3)
    pos = env.game.new_game(seed=1).to_position()
    with pytest.raises(BadPosition, match="knight"):
        env.from_position({**pos, "knight": 99})
    with pytest.raises(BadPosition, match="players"):
        env.from_position({"game": "dragon-stripes", "players": 4})
    other = dragonlair.make("dragon-stripes", players=4).new_game(seed=1)
    with pytest.raises(AccelError, match="another game or table size"):
        env.from_state(other)


def test_a_position_plays_on_from_where_it_stands(envs: dict[int, DragonStripesEnv]) -> None:
    """A position written by hand: the knight on stripe 16, seat 2 to draw; a footprint 2
    on top reaches the head, and seat 2 takes the pot and the lair and wins. (The step is
    the differential's program, on a batch of its size, every table this one: stepped
    outside jit, one primitive at a time, it compiled each of them.)"""
    env = envs[3]
    st = env.from_position(
        {
            "game": "dragon-stripes",
            "players": 3,
            "phase": "draw",
            "turn": 3,
            "starter": 2,
            "holder": 2,
            "must_draw": False,
            "knight": 16,
            "pot": 20,
            "gems": [40, 40, 40],
            "lair": 210,
            "lair_empty": False,
            "drawn": ["footprint 4"] * 4,
            "deck": ["footprint 2"],
        }
    )
    assert int(st.current_player) == 2
    assert st.legal_action_mask.tolist() == [True, True, False, False]
    batch = jax.tree.map(lambda x: jnp.broadcast_to(x, (BATCH, *x.shape)), st)
    after = _jitted(env)[0](batch, jnp.zeros(BATCH, dtype=jnp.int32))
    assert np.asarray(after.terminated).all()
    assert np.asarray(after.gems).tolist() == [[40, 40, 270]] * BATCH
    assert np.asarray(after.rewards).tolist() == [[0.0, 0.0, 1.0]] * BATCH
