"""The batched Space Race engine: held to the Python engine step for step (the picks and
bids in their sequential form, lowest seat first; the coin and a refilled Damage deck's
order shared), its observations the Python layout's to the bit (the tensor digests
recorded for the layouts), usable through Pgx's interface under jit and vmap, and
refusing what it cannot serve."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax
import jax.numpy as jnp
import numpy as np

import dragonlair
from dragonlair import accel
from dragonlair.accel import AccelError, SpaceRaceEnv
from dragonlair.accel.space_race import D_DECK, D_REMOVED, D_SHIP, DECK, HAND
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
OPTIONS: dict[str, object] = {"every_power_source": True, "scanner": "always"}
# one engine per table size, the first with the other option set (every engine is
# compiled once for the module, or read from the cache)
TABLES: dict[int, dict[str, object]] = {2: dict(OPTIONS), 3: {}, 4: {}}


@pytest.fixture(scope="module")
def envs() -> dict[int, SpaceRaceEnv]:
    return {n: _make(n, options) for n, options in TABLES.items()}


def _make(players: int, options: dict[str, object]) -> SpaceRaceEnv:
    env = accel.make("space-race", players=players, options=options)
    assert isinstance(env, SpaceRaceEnv)
    return env


def _steps_at_least(players: int, games: int) -> int:
    """Every game has 3 rounds of 6 picks by every seat (and bids besides)."""
    return games * 18 * players


@pytest.mark.timeout(300)
@pytest.mark.parametrize("players", sorted(TABLES))
def test_random_games_agree_with_the_python_engine(
    envs: dict[int, SpaceRaceEnv], players: int
) -> None:
    """12 random games per table size (`make differential` plays 10,000)."""
    seeds = range(1000 * players, 1000 * players + 12)
    assert compare(envs[players], seeds)[0] >= _steps_at_least(players, 12)


def _refill_data(tmp_path: Path) -> Path:
    """The built-in data with six Damage cards, Danger cards that deal more Damage (so the
    Damage deck runs out and is refilled from the removed cards), Crew of three worths, 4
    rounds of 5 picks, sets of 3 Crystals and 4 VP for the second most Loot Carriers."""
    built_in = Path(dragonlair.__file__).parent / "space_race" / "data" / "space_race.json"
    data = json.loads(built_in.read_text(encoding="utf-8"))
    damage = data["damage_cards"]
    picked = damage[:3] + damage[14:16] + damage[21:22]  # -1, -1, -1, -2, -2, -3
    data["damage_cards"] = [dict(c, id=i + 1) for i, c in enumerate(picked)]
    ranks = [("wrench", 2), ("damage", 3), ("damage", 2), ("damage", 3)]
    for d in data["danger_cards"]:
        d["ranks"] = [{"icon": icon, "n": n} for icon, n in ranks]
    data["danger_cards"][2]["ranks"][0] = {"icon": "damage", "n": 2}
    for card in data["space_cards"]:  # Crew worth -1, 0 or 1: a Fight bid spends the least first
        if card["type"] == "crew":
            card["corner_vp"] = card["id"] % 3 - 1
    data["scoring"].update(loot_second=4, crystal_set=3)
    data.update(rounds=4, hand_size=5)
    path = tmp_path / "refills.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.timeout(300)
def test_a_data_file_whose_damage_deck_runs_out_plays_the_same(tmp_path: Path) -> None:
    """A user's data file (other rounds, hand size, Danger icons, Damage cards, Crew
    worths and scoring values), read by both engines: the Damage deck is refilled in most games, the
    refills' order shared as the coins are, and the games still agree step for step."""
    env = accel.make("space-race", players=3, options={"data": str(_refill_data(tmp_path))})
    game = env.game
    refills = 0
    for seed in range(20, 32):  # the games compared below, played in Python alone
        st = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            rng.choice(st.to_act)
            seat = min(st.to_act)
            st.apply_id(seat, rng.choice(st.legal_action_ids(seat)))
        refills += sum(kind == "refilled" for kind, _, _ in st.event_log())
    assert refills >= 6
    assert compare(env, range(20, 32))[0] >= 12 * 4 * 5 * 3


def _recorded(options: dict[str, object], players: int) -> str:
    key = f"space-race {json.dumps(options, sort_keys=True)} {players}p"
    return str(json.loads(DIGESTS.read_text())[key])


def _digest(env: SpaceRaceEnv) -> str:
    """The digest of tests/rl/tensor_digests.py for the engine's game, its tensors made
    by the batched engine: the seeded games are played in the Python engine (a random
    seat of the simultaneous choices answers first, as that script plays them), every
    state read into the batched engine, and every seat's tensor of each hashed; the end
    is the batched engine's step from the state before it."""
    step, observe = _jitted(env)
    h = hashlib.sha256()
    for seed in (0, 1):
        rng = random.Random(seed)
        state = env.game.new_game(seed=seed)
        states: list[Any] = []
        last = 0
        while not state.is_over:
            states.append(state.clone())
            seat = rng.choice(state.to_act)
            last = rng.choice(state.legal_action_ids(seat))
            state.apply_id(seat, last)
        tensors = []
        for at in range(0, len(states), BATCH):
            part = states[at : at + BATCH]
            padded = part + [part[0]] * (BATCH - len(part))
            batch = env.from_states(padded)
            tensors += list(np.asarray(observe(batch))[: len(part)])
        before = env.from_states([states[-1]] * BATCH)
        end = step(before, jnp.full(BATCH, last, dtype=jnp.int32))
        assert bool(end.terminated[0])
        tensors.append(np.asarray(observe(end))[0])
        for t in tensors:
            for seat_tensor in t:
                h.update(seat_tensor.tobytes())
    return h.hexdigest()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("players", sorted(TABLES))
def test_tensors_give_the_recorded_digests(envs: dict[int, SpaceRaceEnv], players: int) -> None:
    """The layouts' own check, passed by the batched engine's tensors of the very states
    the recorded digests were made from (its own games ask the seats lowest first, so they
    cannot be those games; they are held to the Python engine tensor for tensor above)."""
    assert _digest(envs[players]) == _recorded(TABLES[players], players)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_many_random_games_agree_with_the_python_engine(envs: dict[int, SpaceRaceEnv]) -> None:
    """`make differential`: 10,000 random games, 3,334, 3,333 and 3,333 at 2, 3 and 4
    players (DRAGONLAIR_DIFFERENTIAL_GAMES; skipped without it)."""
    for n, per in many_games(sorted(TABLES)).items():
        seeds = range(100_000 * n, 100_000 * n + per)
        assert compare(envs[n], seeds)[0] >= _steps_at_least(n, per)


@pytest.mark.timeout(300)
@pytest.mark.skipif(dragonlair.COMPILED, reason="a compiled engine's rules cannot be patched")
def test_a_rule_changed_in_the_python_engine_only_is_caught(
    envs: dict[int, SpaceRaceEnv], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A damage icon that draws one Damage card fewer, in the Python rules only."""
    from dragonlair.space_race import rules

    original = rules.SpaceRaceState._damage

    def one_fewer(self: rules.SpaceRaceState, seat: int, rank: int, k: int) -> None:
        original(self, seat, rank, k - 1)

    monkeypatch.setattr(rules.SpaceRaceState, "_damage", one_fewer)
    with pytest.raises(AssertionError, match="observation differs"):
        compare(envs[4], range(5, 17))


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_rule_changed_in_the_batched_engine_only_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Scanner played face up that shows nothing, in the batched engine only (its step
    is compiled again)."""
    env = _make(4, {})
    monkeypatch.setattr(env, "_peeks", jnp.zeros_like(env._peeks))
    with pytest.raises(AssertionError, match="observation differs"):
        compare(env, range(5, 17))


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_jit_and_vmap_over_a_batch_of_tables(envs: dict[int, SpaceRaceEnv]) -> None:
    """Pgx's way: init and step jitted and vmapped, random legal actions (Pgx's
    act_randomly) with Pgx's auto_reset, over a batch of tables: shapes stay fixed, every
    card stays in one place, and every finished game pays out one win."""
    env = envs[4]
    init, step, pick = pgx_programs(env)
    tables = PGX_TABLES
    key = jax.random.PRNGKey(0)
    st = init(jax.random.split(key, tables))
    assert st.observation.shape == (tables, env.obs_size)
    assert st.legal_action_mask.shape == (tables, env.num_actions) == (tables, 172)
    paid = 0.0
    ends = 0
    for i in range(100):  # a game is 72 picks and up to 12 bids at 4 players
        key, k1, k2 = jax.random.split(key, 3)
        action = pick(k1, st.legal_action_mask)
        st = step(st, action, jax.random.split(k2, tables))
        damage = np.asarray(st.dloc)[:, 1:]
        assert np.isin(damage, (D_DECK, D_REMOVED, D_SHIP)).all(), f"Damage lost at {i}"
        hands = (np.asarray(st.loc) == HAND).sum(axis=1)
        live = ~np.asarray(st.terminated) & (np.asarray(st.phase) == 0)
        assert (hands[live] == 4 * (7 - np.asarray(st.pick)[live])).all(), f"cards lost at {i}"
        paid += float(st.rewards.sum())
        ends += int(st.terminated.sum())
    assert ends >= tables  # every table finished at least one game
    assert paid == pytest.approx(ends)
    obs = np.asarray(st.observation)
    assert ((obs >= 0) & (obs <= 1)).all()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_new_table_is_dealt_as_the_rules_deal_it(envs: dict[int, SpaceRaceEnv]) -> None:
    """init: six distinct cards to each seat from the top of a shuffled Space deck (the
    first six to seat 0), the Danger and Damage decks shuffled, the first round's coin;
    the same key deals the same table, the coins fall both ways."""
    env = envs[4]
    init = pgx_programs(env)[0]  # the Pgx test's program, on a batch of its size
    tables = PGX_TABLES
    keys = jax.random.split(jax.random.PRNGKey(3), tables)
    st = init(keys)
    loc, owner, pos = np.asarray(st.loc), np.asarray(st.owner), np.asarray(st.deck_pos)
    for t in range(tables):
        for s in range(4):
            assert ((loc[t] == HAND) & (owner[t] == s)).sum() == 6
        deck = loc[t] == DECK
        assert sorted(pos[t][deck]) == list(range(72 - 24))
        dealt = np.flatnonzero(loc[t] == HAND)
        assert sorted(pos[t][dealt]) == list(range(48, 72))
        assert (owner[t][dealt] == (71 - pos[t][dealt]) // 6).all()
        assert sorted(np.asarray(st.danger_seq[t]).tolist()) == list(range(1, 9))
        assert sorted(np.asarray(st.dpos[t, 1:]).tolist()) == list(range(28))
    coins = np.asarray(st.coins)
    assert 0.3 < (coins == 1).mean() < 0.7
    assert (np.asarray(st.direction) == coins[:, 0]).all()
    again = init(keys)
    assert (np.asarray(again.loc) == loc).all() and (np.asarray(again.deck_pos) == pos).all()


def test_an_illegal_action_ends_the_game_with_pgx_penalty(envs: dict[int, SpaceRaceEnv]) -> None:
    """A bid during the Upgrade phase, and a pick of a card not in the hand, each end the
    game with -1 to that seat (the programs of the differential test, on a batch of its
    size)."""
    env = envs[2]
    step = _jitted(env)[0]
    st = env.from_states([env.game.new_game(seed=s) for s in range(BATCH)])
    legal = np.asarray(st.legal_action_mask)
    hand = np.flatnonzero((np.asarray(st.loc[0]) == HAND) & (np.asarray(st.owner[0]) == 0))
    picks = {int(env._aid_card[a]) for a in np.flatnonzero(legal[0])}
    assert picks == set(hand.tolist())
    actions = np.argmin(legal, axis=1).astype(np.int32)  # an action not legal
    actions[0] = env.bid0  # a bid of 0 while picking
    after = step(st, jnp.asarray(actions))
    assert np.asarray(after.terminated).all()
    assert np.asarray(after.rewards[:2]).tolist() == [[-1.0, 1.0]] * 2
    again = step(after, jnp.zeros(BATCH, dtype=jnp.int32))  # a finished table changes no more
    assert np.asarray(again.terminated).all() and not np.asarray(again.rewards).any()


def test_positions_and_refusals(envs: dict[int, SpaceRaceEnv]) -> None:
    env = envs[4]
    state = env.game.new_game(seed=2)
    picked = state.legal_action_ids(2)[0]
    state.apply_id(2, picked)  # seat 2 chose first: seats 0, 1 and 3 are still asked
    table = env.from_state(state)
    assert int(table.current_player) == 0 and int(table.chosen[2]) == picked
    pos = state.to_position()
    assert int(env.from_position(pos).chosen[2]) == picked
    with pytest.raises(BadPosition, match="danger_discard"):
        env.from_position({**pos, "danger_discard": [1]})
    other = dragonlair.make("space-race", players=3).new_game(seed=1)
    with pytest.raises(AccelError, match="another game, table size or options"):
        env.from_state(other)
    with pytest.raises(AccelError, match="player"):
        accel.make("space-race", players=5)
    with pytest.raises(AccelError, match="option"):
        accel.make("space-race", players=3, options={"scanner": "never"})
