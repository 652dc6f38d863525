"""The games as single-agent Gymnasium environments: Gymnasium's own environment checker
for every game, registration, the bots, and our rules for bad and illegal actions."""

from __future__ import annotations

import warnings
from typing import Any, cast

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence

import dragonlair
from dragonlair.bots import UnknownBot
from dragonlair.core import IllegalAction
from dragonlair.rl import gymnasium_env
from dragonlair.rl.gymnasium_env import DragonlairEnv, env_id
from tests.rl.rl_helpers import rl_games

for _g in rl_games():
    gymnasium_env.register(_g)


@pytest.mark.parametrize("game_id", rl_games())
def test_every_game_passes_gymnasiums_environment_checker(game_id: str) -> None:
    players = dragonlair.spec(game_id).min_players
    env = gym.make(env_id(game_id), players=players, opponents="random")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_ids_follow_the_game_ids() -> None:
    assert env_id("dragon-stripes") == "dragonlair/DragonStripes-v0"
    assert "dragonlair/DragonStripes-v0" in gym.registry


def _episode(env: gym.Env[Any, Any], seed: int) -> tuple[list[int], float]:
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves: list[int] = []
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        moves.append(action)
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            return moves, float(reward)
        assert reward == 0.0


def test_an_episode_is_a_game_against_the_bots_reproducible_from_its_seed() -> None:
    env = gym.make("dragonlair/DragonStripes-v0", players=3, opponents=["heuristic", "random"])
    first = _episode(env, 5)
    assert first == _episode(env, 5)
    assert first[1] in (0.0, 1.0, 0.5, 1 / 3)
    state = cast(DragonlairEnv, env.unwrapped).state_now
    assert state.is_over and cast(DragonlairEnv, env.unwrapped).action_masks().sum() == 0


def test_the_learner_may_sit_anywhere() -> None:
    env = gym.make("dragonlair/DragonStripes-v0", players=4, seat=None)
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert len(seats) > 1
    _, info = env.reset(seed=0, options={"seat": 2})
    assert info["seat"] == 2 and 2 in cast(DragonlairEnv, env.unwrapped).state_now.to_act


def test_an_illegal_action_loses_by_default_and_changes_nothing() -> None:
    env = cast(DragonlairEnv, gym.make("dragonlair/DragonStripes-v0", players=2).unwrapped)
    env.reset(seed=0)
    before = env.state_now.to_json()
    _, reward, terminated, truncated, info = env.step(1)  # hold before any draw
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "hold" in info["illegal_action"] and "legal: 0 (draw)" in info["illegal_action"]
    assert env.state_now.to_json() == before
    with pytest.raises(RuntimeError, match="the episode is over: call reset"):
        env.step(0)


def test_an_illegal_action_can_raise_instead() -> None:
    env = gym.make("dragonlair/DragonStripes-v0", players=2, illegal_action="raise").unwrapped
    env.reset(seed=0)
    with pytest.raises(IllegalAction, match=r"action 1 \(hold\) is not legal for seat 0"):
        env.step(1)
    env.step(0)  # the episode goes on


def test_bad_arguments_are_refused_with_what_was_expected() -> None:
    with pytest.raises(ValueError, match="opponents: expected one bot for all or a list of 2"):
        gym.make("dragonlair/DragonStripes-v0", players=3, opponents=["random"])
    with pytest.raises(UnknownBot, match="no bot level 'genius'"):
        gym.make("dragonlair/DragonStripes-v0", opponents="genius")
    with pytest.raises(ValueError, match="seat must be None \\(random\\) or a seat from 0 to 1"):
        gym.make("dragonlair/DragonStripes-v0", players=2, seat=5)
    with pytest.raises(ValueError, match="illegal_action must be 'lose' or 'raise'"):
        gym.make("dragonlair/DragonStripes-v0", illegal_action="ignore")
    env = gym.make("dragonlair/DragonStripes-v0", players=2).unwrapped
    with pytest.raises(ValueError, match="unknown reset option 'colour'; the only one is 'seat'"):
        env.reset(options={"colour": 1})
    with pytest.raises(ValueError, match="reset option seat must be a seat from 0 to 1"):
        env.reset(options={"seat": 3})
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action id 4 is out of range"):
        env.step(4)


def test_render_shows_the_learners_side() -> None:
    env = gym.make("dragonlair/DragonStripes-v0", players=2, render_mode="ansi")
    env.reset(seed=0)
    assert "you are seat 0" in str(env.render())


def _vector_run(envs: Any, steps: int, seed: int) -> list[Any]:
    """Masked random play of a vector environment: everything it returns, step by step."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    trace: list[Any] = [(obs, info["action_mask"], info["seat"])]
    for _ in range(steps):
        # a table whose episode just ended has no legal action: its next one is ignored
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        )
        obs, rewards, terms, truncs, info = envs.step(actions)
        trace.append((obs, rewards, terms, truncs, info["action_mask"], info["seat"]))
    return trace


@pytest.mark.parametrize("game_id", rl_games())
def test_the_vector_env_steps_like_gymnasiums_sync_vector_env_of_the_single_env(
    game_id: str,
) -> None:
    """Gymnasium has no checker for vector environments; the reference is its own
    SyncVectorEnv over the single environment (which passes check_env), with next-step
    autoreset: the same seeds give the same batches, episode ends and resets included."""
    players = dragonlair.spec(game_id).min_players
    ours = gym.make_vec(env_id(game_id), num_envs=3, players=players)
    assert isinstance(ours.unwrapped, gymnasium_env.DragonlairVectorEnv)
    sync = gym.make_vec(env_id(game_id), num_envs=3, players=players, vectorization_mode="sync")
    assert ours.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]
    assert ours.observation_space == sync.observation_space
    assert ours.action_space == sync.action_space
    a, b = _vector_run(ours, 120, seed=5), _vector_run(sync, 120, seed=5)
    assert data_equivalence(a, b, exact=True)
    assert any(row[2].any() for row in a[1:])  # some episodes ended and were reset


def test_the_vector_env_refuses_bad_batches_and_changes_nothing() -> None:
    envs = gymnasium_env.make_vec("dragon-stripes", 2, players=2)
    with pytest.raises(RuntimeError, match="call reset"):
        envs.step([0, 0])
    obs, info = envs.reset(seed=1)
    assert obs.shape == (2, envs.envs[0].encoder.size)
    assert envs.action_masks().shape == (2, envs.game.num_actions)
    with pytest.raises(ValueError, match=r"an array of shape \(2,\); got shape \(3,\)"):
        envs.step([0, 0, 0])
    with pytest.raises(ValueError, match="table 1's action: action id 9 is out of range"):
        envs.step([0, 9])
    with pytest.raises(ValueError, match="num_envs must be a positive int"):
        gymnasium_env.make_vec("dragon-stripes", 0)
    with pytest.raises(ValueError, match="expected 2 seeds"):
        envs.reset(seed=[1, 2, 3])
    again, _ = envs.reset(seed=1)
    assert np.array_equal(obs, again)
    # an illegal action ends that table's episode only, as the single environment does
    hold = next(i for i in range(envs.game.num_actions) if not info["action_mask"][0][i])
    legal = int(np.flatnonzero(info["action_mask"][1])[0])
    _, rewards, terms, _, info = envs.step([hold, legal])
    assert terms.tolist() == [True, False] and rewards[0] == -1.0
    assert "is not legal" in info["illegal_action"][0] and info["_illegal_action"].tolist() == [
        True,
        False,
    ]


def test_a_vector_env_that_raises_on_illegal_actions_moves_no_table_first() -> None:
    envs = gymnasium_env.make_vec("dragon-stripes", 2, players=2, illegal_action="raise")
    _, info = envs.reset(seed=4)
    before = [e.state_now.to_json() for e in envs.envs]
    legal = int(np.flatnonzero(info["action_mask"][0])[0])
    illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAction, match="is not legal for seat 0"):
        envs.step([legal, illegal])
    assert [e.state_now.to_json() for e in envs.envs] == before
