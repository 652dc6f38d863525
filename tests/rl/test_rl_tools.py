"""The games driven by the research libraries' own tools, as a researcher would: OpenSpiel's
RL environment with its DQN agents on every registration, Stable-Baselines3's
``make_vec_env`` on every Gymnasium id, PettingZoo's ``parallel_seed_test`` on every
Parallel environment, and Gymnasium opponents written as bot specs."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import parallel_seed_test

import dragonlair
from dragonlair.bots import UnknownBot
from dragonlair.bots.ismcts import ISMCTSBot
from dragonlair.core import IllegalAction
from dragonlair.core.bot import RandomBot
from dragonlair.rl import openspiel
from dragonlair.rl.common import UnsupportedRenderMode
from dragonlair.rl.gymnasium_env import DragonlairEnv, env_id
from dragonlair.rl.pettingzoo_env import parallel_env
from tests.games import table_size
from tests.rl.rl_helpers import rl_games

torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")


def _registrations() -> list[tuple[str, bool]]:
    """Every OpenSpiel name of every game: (game id, turn-based twin or not)."""
    out = []
    for g in rl_games():
        out.append((g, False))
        if openspiel.game_name(g, turn_based=True) != openspiel.game_name(g):
            out.append((g, True))
    return out


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game_id", "turn_based"), _registrations())
def test_openspiels_dqn_agents_play_every_registration(game_id: str, turn_based: bool) -> None:
    """OpenSpiel's RL loop as its examples write it: every agent steps on every time step
    (a simultaneous game takes one action from each), learning as it goes."""
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    torch.manual_seed(0)
    players = dragonlair.spec(game_id).min_players
    game = openspiel.load_game(game_id, players=players, turn_based=turn_based, seed=1)
    env = rl_environment.Environment(game)
    assert env.is_turn_based == turn_based or not game.simultaneous
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        dqn.DQN(
            p,
            size,
            actions,
            hidden_layers_sizes=[16],
            replay_buffer_capacity=400,
            batch_size=8,
            learn_every=4,
            min_buffer_size_to_learn=16,
        )
        for p in range(env.num_players)
    ]
    for _ in range(3):
        time_step = env.reset()
        steps = 0
        while not time_step.last():
            if env.is_turn_based:
                seat = time_step.observations["current_player"]
                chosen = [agents[seat].step(time_step).action]
            else:
                chosen = [agent.step(time_step).action for agent in agents]
                assert None not in chosen
            time_step = env.step(chosen)
            steps += 1
        for agent in agents:
            agent.step(time_step)
        assert steps > 0 and sum(time_step.rewards) == pytest.approx(1.0)
    assert all(agent.loss is not None for agent in agents)  # they learned


@pytest.mark.parametrize("game_id", rl_games())
def test_stable_baselines3_make_vec_env_makes_every_environment(game_id: str) -> None:
    """``make_vec_env`` asks for ``render_mode="rgb_array"`` first and falls back on
    TypeError; the vector environment then steps with masked random actions."""
    from stable_baselines3.common.env_util import make_vec_env

    players = dragonlair.spec(game_id).min_players
    with pytest.warns(UserWarning, match="rgb_array"):  # Gymnasium's own, before ours
        vec = make_vec_env(env_id(game_id), n_envs=2, seed=0, env_kwargs={"players": players})
    obs = vec.reset()
    assert isinstance(obs, np.ndarray) and obs.shape[0] == 2
    rng = np.random.default_rng(0)
    for _ in range(20):
        masks = np.stack(vec.env_method("action_masks"))
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, _, _ = vec.step(acts)
        assert isinstance(obs, np.ndarray) and obs.shape[0] == 2 and rewards.shape == (2,)
    vec.close()


def test_an_unsupported_render_mode_is_a_type_error_and_a_value_error() -> None:
    for bad in ("rgb_array", "human"):
        with pytest.raises(UnsupportedRenderMode, match="render_mode must be None or 'ansi'"):
            DragonlairEnv("dragon-stripes", render_mode=bad)
    with pytest.raises(TypeError):
        parallel_env("dragon-stripes", render_mode="rgb_array")
    with pytest.raises(ValueError):
        parallel_env("dragon-stripes", render_mode="rgb_array")


@pytest.mark.parametrize("game_id", rl_games())
def test_parallel_passes_pettingzoos_seed_test_when_illegal_actions_lose(game_id: str) -> None:
    parallel_seed_test(
        lambda: parallel_env(game_id, players=table_size(game_id), illegal_action="lose"),
        num_cycles=50,
    )


def test_an_illegal_parallel_action_can_end_the_episode_instead_of_raising() -> None:
    par = parallel_env("dragon-stripes", players=3, illegal_action="lose", illegal_reward=-2)
    par.reset(seed=0)
    before = par.state_now.to_json()
    wait = par.game.num_actions
    obs, rewards, terms, truncs, infos = par.step({"player_0": 0, "player_1": 0, "player_2": wait})
    assert par.state_now.to_json() == before  # the game itself is unchanged
    assert rewards == {"player_0": 0.0, "player_1": -2.0, "player_2": 0.0}
    assert all(terms.values()) and not any(truncs.values()) and par.agents == []
    assert "seat 1 is not asked to act now" in infos["player_1"]["illegal_action"]
    assert infos["player_0"] == {} and set(obs) == {"player_0", "player_1", "player_2"}
    with pytest.raises(RuntimeError, match="the game is over"):
        par.step({"player_0": 0})
    # out of the action space is still an error, and "raise" is the default
    par.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        par.step({"player_0": 99})
    strict = parallel_env("dragon-stripes", players=3)
    strict.reset(seed=0)
    with pytest.raises(IllegalAction, match="seat 1 is not asked to act now"):
        strict.step({"player_0": 0, "player_1": 0})
    with pytest.raises(ValueError, match="illegal_action must be 'raise' or 'lose'"):
        parallel_env("dragon-stripes", illegal_action="ignore")  # type: ignore[arg-type]


def _made(**kwargs: Any) -> DragonlairEnv:
    env = gym.make("dragonlair/SpaceRace-v0", **kwargs).unwrapped
    assert isinstance(env, DragonlairEnv)
    return env


def test_gymnasium_opponents_are_bot_specs_with_their_own_parameters() -> None:
    env = _made(players=3, opponents=["ismcts:iterations=7", "random"])
    bots = env.opponents[0].bots
    assert isinstance(bots[1], ISMCTSBot) and bots[1].config.iterations == 7
    assert isinstance(bots[2], RandomBot)
    env.reset(seed=0)
    # bot_params, one mapping per other seat: the random bot gets none
    per_seat = _made(players=3, opponents=["ismcts", "random"], bot_params=[{"iterations": 5}, {}])
    searcher = per_seat.opponents[0].bots[1]
    assert isinstance(searcher, ISMCTSBot) and searcher.config.iterations == 5
    # what the text says takes precedence over bot_params
    both = _made(players=2, opponents="ismcts:iterations=3", bot_params={"iterations": 9})
    searcher = both.opponents[0].bots[1]
    assert isinstance(searcher, ISMCTSBot) and searcher.config.iterations == 3
    # an archetype of the game is a bot too
    _made(players=2, opponents="fuel-heavy").reset(seed=1)
    with pytest.raises(UnknownBot, match="the random bot takes no parameters"):
        _made(players=3, opponents="random", bot_params={"c": 1})
    with pytest.raises(ValueError, match="bot_params: expected one mapping for all"):
        _made(players=3, opponents="random", bot_params=[{}])
    with pytest.raises(UnknownBot, match="bot parameters are written key=value"):
        _made(players=2, opponents="ismcts:fast")
