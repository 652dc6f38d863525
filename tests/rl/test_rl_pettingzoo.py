"""The games as PettingZoo environments: PettingZoo's own API and seed tests (AEC) and its
Parallel API test, for every game, and our rules for bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from dragonlair.core import BadOptions, IllegalAction
from dragonlair.rl.pettingzoo_env import env, parallel_env, vector_env
from tests.games import table_size
from tests.rl.rl_helpers import rl_games

# What PettingZoo's API test says of any environment whose observations are dicts of an
# observation and an action mask (as its own classic games are), and of the final
# observation, whose mask is empty because nobody may act once the game is over.
EXPECTED = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "Action mask numpy array is all zeros (no legal actions).",
}


def _unexpected(caught: list[warnings.WarningMessage]) -> set[str]:
    return {str(w.message) for w in caught} - EXPECTED


@pytest.mark.parametrize("game_id", rl_games())
def test_aec_passes_pettingzoos_api_and_seed_tests(game_id: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        players = table_size(game_id)
        api_test(env(game_id, players=players), num_cycles=300)
        seed_test(lambda: env(game_id, players=players), num_cycles=300)
    assert not _unexpected(caught)


@pytest.mark.parametrize("game_id", rl_games())
def test_parallel_passes_pettingzoos_parallel_api_test(game_id: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(parallel_env(game_id, players=table_size(game_id)), num_cycles=300)
    assert not _unexpected(caught)


def _play_parallel(seed: int) -> list[object]:
    par = parallel_env("pebble-auction", players=3)
    obs, _ = par.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[object] = []
    while par.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        obs, rewards, terms, _, _ = par.step(actions)
        trace.append(sorted(actions.items()))
    trace.append(rewards)
    assert all(terms.values())
    return trace


def test_parallel_steps_are_decisions_and_the_same_seed_gives_the_same_game() -> None:
    par = parallel_env("pebble-auction", players=3)
    obs, _ = par.reset(seed=1)
    wait = par.game.num_actions
    # the first decision is a sealed bid of every seat: nobody waits
    assert all(obs[a]["action_mask"][wait] == 0 for a in par.agents)
    assert _play_parallel(4) == _play_parallel(4)
    assert sum(_play_parallel(4)[-1].values()) == pytest.approx(1.0)  # type: ignore[attr-defined]


def test_aec_rewards_come_at_the_end_and_sum_to_one() -> None:
    e = env("dragon-stripes", players=3)
    e.reset(seed=3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        action = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0])
        e.step(action)
    assert sum(total.values()) == pytest.approx(1.0)
    assert e.agents == []


def test_aec_observations_are_encoded_once_per_move_and_handed_out_fresh() -> None:
    e = env("space-race", players=3)
    e.reset(seed=2)
    encoder = e._t.encoder
    seats = 0
    for agent in e.agent_iter():
        state = e.state_now
        obs, _, term, trunc, _ = e.last()
        for other in e.possible_agents:  # every seat's, as the state is now
            seat = e._t.seat(other)
            again = e.observe(other)
            assert np.array_equal(again["observation"], encoder.encode(state.seat_view(seat)))
            assert again["action_mask"].sum() == len(state.legal_action_ids(seat))
        again = e.observe(agent)
        assert again["observation"] is not obs["observation"]
        obs["observation"][:] = 2.0  # a caller's change to its copy reaches no other
        obs["action_mask"][:] = 0
        assert e.observe(agent)["observation"].max() <= 1.0
        assert np.array_equal(e.observe(agent)["action_mask"], again["action_mask"])
        seats += 1
        e.step(None if term or trunc else int(np.flatnonzero(again["action_mask"])[0]))
        if seats > 50:
            break
    assert seats > 50


def test_aec_refuses_bad_input_and_changes_nothing() -> None:
    e = env("dragon-stripes", players=2)
    e.reset(seed=0)
    before = e.state_now.to_json()
    with pytest.raises(IllegalAction, match=r"action 1 \(hold\) is not legal for seat 0"):
        e.step(1)
    with pytest.raises(ValueError, match="action id 9 is out of range: expected 0 to 3"):
        e.step(9)
    with pytest.raises(ValueError, match="expected an action id .* got 'draw'"):
        e.step("draw")
    with pytest.raises(ValueError, match="no agent 'player_7'; the agents are player_0, player_1"):
        e.observe("player_7")
    assert e.state_now.to_json() == before
    with pytest.raises(BadOptions, match="no option 'colour'"):
        env("dragon-stripes", options={"colour": "red"})
    with pytest.raises(ValueError, match="render_mode must be None or 'ansi'"):
        env("dragon-stripes", render_mode="human")


def test_parallel_refuses_bad_input_and_changes_nothing() -> None:
    par = parallel_env("dragon-stripes", players=3)
    par.reset(seed=0)
    before = par.state_now.to_json()
    wait = par.game.num_actions
    with pytest.raises(IllegalAction, match="seat 1 is not asked to act now"):
        par.step({"player_0": 0, "player_1": 0, "player_2": wait})
    with pytest.raises(ValueError, match="player_0 must act now"):
        par.step({"player_1": wait})
    with pytest.raises(ValueError, match="no agent 'someone'"):
        par.step({"player_0": 0, "someone": wait})
    assert par.state_now.to_json() == before
    par.step({"player_0": 0})  # seats not asked may leave their entry out
    assert par.state_now.move == 1


def test_render_shows_the_game_in_text() -> None:
    e = env("dragon-stripes", players=2, render_mode="ansi")
    e.reset(seed=0)
    e.step(0)
    text = e.render()
    assert text.startswith("Dragon Stripes, move 1") and " draws " in text


@pytest.mark.parametrize("game_id", rl_games())
def test_each_table_of_the_vector_env_plays_the_aec_envs_game(game_id: str) -> None:
    """PettingZoo has no API test for many tables at once; the reference is the AEC
    environment, which passes its API test: table i, dealt from seed s + i, gives the same
    observations, masks, seats and rewards for the same actions, game after game."""
    tables, seed = 3, 11
    players = table_size(game_id)
    vec = vector_env(game_id, tables, players=players)
    obs, info = vec.reset(seed=seed)
    singles = [env(game_id, players=players) for _ in range(tables)]
    for i, single in enumerate(singles):
        single.reset(seed=seed + i)
    rng = np.random.default_rng(0)
    ended = 0
    while ended <= tables:  # until some table has played a second game
        for i, single in enumerate(singles):
            if single.agents and not any(single.terminations.values()):
                agent = single.agent_selection
                want = single.observe(agent)
                assert info["seat"][i] == single.possible_agents.index(agent)
                assert np.array_equal(obs[i], want["observation"])
                assert np.array_equal(info["action_mask"][i], want["action_mask"])
        actions = [
            int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in info["action_mask"]
        ]
        was_over = [bool(vec.states[i].is_over) for i in range(tables)]
        obs, rewards, terms, truncs, info = vec.step(actions)
        assert not truncs.any()
        for i, single in enumerate(singles):
            if was_over[i]:  # the vector env dealt this table again: so does the reference
                single.reset()
                continue
            single.step(actions[i])
            got = [single.rewards[a] for a in single.possible_agents]
            assert rewards[i].tolist() == got
            assert terms[i] == all(single.terminations.values())
            ended += int(terms[i])


def test_the_vector_env_refuses_bad_batches_and_changes_nothing() -> None:
    vec = vector_env("dragon-stripes", 2, players=2)
    with pytest.raises(RuntimeError, match="call reset"):
        vec.step([0, 0])
    _, info = vec.reset(seed=3)
    before = [s.to_json() for s in vec.states]
    with pytest.raises(ValueError, match=r"shape \(2,\); got shape \(1,\)"):
        vec.step([0])
    illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAction, match="is not legal for seat 0"):
        vec.step([int(np.flatnonzero(info["action_mask"][0])[0]), illegal])
    with pytest.raises(ValueError, match="table 0's action: action id 99 is out of range"):
        vec.step([99, 0])
    with pytest.raises(ValueError, match=r"table 0's action: expected an action id .*0\.0"):
        vec.step(np.zeros(2))
    with pytest.raises(ValueError, match="table 1's action: expected an action id"):
        vec.step(np.array([0, True], dtype=object))
    assert [s.to_json() for s in vec.states] == before  # nothing was applied anywhere
    # ids that are not Python ints but name one (NumPy integers in a list) are taken
    legal = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    vec.step(np.array([np.int16(legal[0]), np.int64(legal[1])], dtype=object))
    assert [s.to_json() for s in vec.states] != before
    with pytest.raises(ValueError, match="num_tables must be a positive int"):
        vector_env("dragon-stripes", 0)
    with pytest.raises(BadOptions):
        vector_env("dragon-stripes", 2, players=9)
