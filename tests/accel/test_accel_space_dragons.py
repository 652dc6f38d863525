"""The batched Space Dragons engine: held to the Python engine step for step (Hiring Crew
in its sequential form, lowest seat first), its observations the Python layout's to the
bit (the designer's variant, which has no simultaneous choice, gives the tensor digests
recorded for the layouts), usable through Pgx's interface under jit and vmap, and
refusing what it cannot serve."""

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
from dragonlair.accel import AccelError, SpaceDragonsEnv
from dragonlair.accel.space_dragons import _shuffled_ranks
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
# the option sets tests/rl/rl_helpers.py plays: the designer's variant, and B sides as
# bonuses with a random mood side and odd shield and damage values
VARIANT: dict[str, object] = {"variant": True}
OPTIONS: dict[str, object] = {
    "b_sides": "bonus",
    "damage": 5,
    "mood": "random",
    "science": "b",
    "shield": -5,
}
# one engine per table size, each with another option set: every engine is compiled once
# for the module (about 30 seconds on a loaded 2-core machine, or read from the cache)
TABLES: dict[int, dict[str, object]] = {3: {}, 4: dict(VARIANT), 5: dict(OPTIONS)}


@pytest.fixture(scope="module")
def envs() -> dict[int, SpaceDragonsEnv]:
    out = {}
    for n, options in TABLES.items():
        env = accel.make("space-dragons", players=n, options=options)
        assert isinstance(env, SpaceDragonsEnv)
        out[n] = env
    return out


def _recorded(options: dict[str, object], players: int) -> str:
    key = f"space-dragons {json.dumps(options, sort_keys=True)} {players}p"
    return str(json.loads(DIGESTS.read_text())[key])


def _steps(players: int, options: dict[str, object]) -> int:
    """The steps of a game: 9 picks (none in the variant) and 7 plays by every seat."""
    return (7 if options.get("variant") else 16) * players


@pytest.mark.timeout(300)
@pytest.mark.parametrize("players", sorted(TABLES))
def test_random_games_agree_with_the_python_engine(
    envs: dict[int, SpaceDragonsEnv], players: int
) -> None:
    """22 random games per table size (the slow tier plays more), the first two from the
    deals and actions of tests/rl/tensor_digests.py. The designer's variant has no
    simultaneous choice, so its tensors give the digest recorded there; the draft's
    seats answer lowest first here, and in a random order there."""
    options = TABLES[players]
    seeds = [0, 1, *range(1000 * players, 1000 * players + 20)]
    steps, digest = compare(envs[players], seeds, digest_of=2)
    assert steps == 22 * _steps(players, options)
    if options == VARIANT:
        assert digest == _recorded(options, players)


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_many_random_games_agree_with_the_python_engine(
    envs: dict[int, SpaceDragonsEnv],
) -> None:
    """`make differential`: 10,000 random games, 3,334, 3,333 and 3,333 at 3, 4 and 5
    players (DRAGONLAIR_DIFFERENTIAL_GAMES; skipped without it)."""
    for n, per in many_games(sorted(TABLES)).items():
        seeds = range(100_000 * n, 100_000 * n + per)
        assert compare(envs[n], seeds)[0] == per * _steps(n, TABLES[n])


@pytest.mark.timeout(300)
@pytest.mark.skipif(dragonlair.COMPILED, reason="a compiled engine's rules cannot be patched")
def test_a_rule_changed_in_the_python_engine_only_is_caught(
    envs: dict[int, SpaceDragonsEnv], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round's winner hit by its own card's crosshairs too, in the Python rules only."""
    from dragonlair.space_dragons import rules

    original = rules.SpaceDragonsState._end_round
    hit = rules.SpaceDragonsState._hit

    def end_round_with_own(self: rules.SpaceDragonsState) -> None:
        cards = [p[self.round] for p in self.played]
        top = max(cards)
        for _ in range(self.game.tables.crosshairs[top]):
            hit(self, cards.index(top), "a crosshair")
        original(self)

    monkeypatch.setattr(rules.SpaceDragonsState, "_end_round", end_round_with_own)
    with pytest.raises(AssertionError, match="observation differs|rewards"):
        compare(envs[3], range(5, 25))


@pytest.mark.timeout(300)
def test_a_rule_changed_in_the_batched_engine_only_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tool that repairs nothing, in the batched engine only (only its step is
    compiled again: the rest is the module's 3-player engine's, from the cache)."""
    env = accel.make("space-dragons", players=3)
    effects = np.asarray(env._effects)
    monkeypatch.setattr(env, "_effects", jnp.asarray(np.where(effects == 1, -1, effects)))
    with pytest.raises(AssertionError, match="observation differs"):
        compare(env, range(5, 25))


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_jit_and_vmap_over_a_batch_of_tables(envs: dict[int, SpaceDragonsEnv]) -> None:
    """Pgx's way: init and step jitted and vmapped, random legal actions (Pgx's
    act_randomly) with Pgx's auto_reset, over a batch of tables: shapes stay fixed, every
    seat holds the cards it should, and every finished game pays out one win."""
    env = envs[3]
    init, step, pick = pgx_programs(env)
    tables = PGX_TABLES
    key = jax.random.PRNGKey(0)
    st = init(jax.random.split(key, tables))
    assert st.observation.shape == (tables, env.obs_size) == (tables, 431)
    assert st.legal_action_mask.shape == (tables, 160)
    paid = 0.0
    ends = 0
    for i in range(50):  # a game is 48 steps at 3 players
        key, k1, k2 = jax.random.split(key, 3)
        action = pick(k1, st.legal_action_mask)
        st = step(st, action, jax.random.split(k2, tables))
        held = np.asarray(st.hands.sum(axis=2) + st.picks.sum(axis=2) + (st.played > 0).sum(2))
        assert ((held == 9) | np.asarray(st.terminated)[:, None]).all(), f"cards lost at {i}"
        paid += float(st.rewards.sum())
        ends += int(st.terminated.sum())
    assert ends == tables  # every table finished one game at its 48th step
    assert paid == pytest.approx(ends)
    obs = np.asarray(st.observation)
    assert ((obs >= 0) & (obs <= 1)).all()


@pytest.mark.timeout(300)
def test_a_new_table_is_dealt_as_the_rules_deal_it(envs: dict[int, SpaceDragonsEnv]) -> None:
    """init: nine distinct cards to each seat, one more each for the start-player draw
    (the highest starts), seven distinct dragons, as the deck's order says; a random
    scoring side takes both sides across tables, a chosen one never changes; the same
    key deals the same table."""
    env = envs[5]
    init = pgx_programs(env)[0]  # Pgx's program, on a batch of the Pgx test's size
    tables = PGX_TABLES
    keys = jax.random.split(jax.random.PRNGKey(3), tables)
    st = init(keys)
    hands = np.asarray(st.hands)
    assert (hands.sum(axis=2) == 9).all()
    start_cards = np.asarray(st.on_table)
    assert ((hands.sum(axis=1) + start_cards) <= 1).all() and (start_cards.sum(axis=1) == 5).all()
    order = np.asarray(st.dragon_order)
    assert all(len(set(row)) == 7 and row.min() >= 1 and row.max() <= 20 for row in order)
    sides = np.asarray(st.sides)
    assert (sides[:, 0] == 1).all() and (sides[:, 2] == 0).all()  # science b, crime a
    assert 0.3 < sides[:, 1].mean() < 0.7  # mood random
    assert (np.asarray(st.current_player) == 0).all()  # Hiring Crew asks seat 0 first
    # the deck's order: seat s holds the cards ranked 9s to 9s + 8, the start-player draw
    # is ranked 45 to 49 (seat by seat), and the seat that drew the highest card starts
    for t in range(8):
        rank = np.asarray(_shuffled_ranks(jax.random.split(keys[t], 3)[0], 80))
        assert sorted(rank) == list(range(80))
        for s in range(5):
            assert set(np.flatnonzero(hands[t, s])) == set(np.flatnonzero(rank // 9 == s))
        start = [int(np.flatnonzero(rank == 45 + s)[0]) for s in range(5)]
        assert set(np.flatnonzero(start_cards[t])) == set(start)
        assert int(st.lead[t]) == start.index(max(start))
    again = init(keys)
    assert (np.asarray(again.hands) == hands).all()


def test_an_illegal_action_ends_the_game_with_pgx_penalty(
    envs: dict[int, SpaceDragonsEnv],
) -> None:
    """Playing a card during Hiring Crew, and a card not in the hand, each end the game
    with -1 to that seat (the programs of the differential test, on a batch of its size)."""
    env = envs[3]
    step = _jitted(env)[0]
    st = env.from_states([env.game.new_game(seed=s) for s in range(BATCH)])
    hand = np.flatnonzero(np.asarray(st.hands[0, 0])) + 1
    assert np.flatnonzero(np.asarray(st.legal_action_mask[0])).tolist() == (hand - 1).tolist()
    hands = np.asarray(st.hands[:, 0])
    actions = np.argmin(hands, axis=1).astype(np.int32)  # hire a card not in hand
    actions[0] = 79 + int(hand[0])  # play during Hiring Crew
    after = step(st, jnp.asarray(actions))
    assert np.asarray(after.terminated).all()
    assert np.asarray(after.rewards[:2]).tolist() == [[-1.0, 0.5, 0.5]] * 2
    again = step(after, jnp.zeros(BATCH, dtype=jnp.int32))  # a finished table changes no more
    assert np.asarray(again.terminated).all() and not np.asarray(again.rewards).any()


def test_positions_and_refusals(envs: dict[int, SpaceDragonsEnv]) -> None:
    env = envs[3]
    state = env.game.new_game(seed=2)
    hired = state.legal_action_ids(0)[0]  # hire card hired + 1
    state.apply_id(0, hired)
    table = env.from_state(state)  # seat 0 has picked, unseen: seat 1 is asked
    assert int(table.current_player) == 1 and int(table.chosen[0]) == hired + 1
    pos = state.to_position()
    assert int(env.from_position(pos).current_player) == 1
    skipped = env.game.new_game(seed=2)
    skipped.apply_id(2, skipped.legal_action_ids(2)[0])
    with pytest.raises(AccelError, match="lowest first"):
        env.from_state(skipped)
    with pytest.raises(BadPosition, match="face_up"):
        env.from_position({**pos, "face_up": 99})
    other = dragonlair.make("space-dragons", players=4).new_game(seed=1)
    with pytest.raises(AccelError, match="another game, table size or options"):
        env.from_state(other)
    with pytest.raises(AccelError, match="player"):
        accel.make("space-dragons", players=6)
    with pytest.raises(AccelError, match="option"):
        accel.make("space-dragons", players=3, options={"crime": "c"})
