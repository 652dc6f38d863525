"""Train a small agent to play Dragon Stripes against the random bot.

The agent is OpenSpiel's tabular Q-learner (``open_spiel.python.algorithms.
tabular_qlearner``), which comes with ``dragonlair[rl]``: it needs no deep-learning
framework, trains in about a minute on one core, and its whole policy is a small table
one can read. It plays seat 0 of the Gymnasium environment ``dragonlair/DragonStripes-v0``
(two players; the other seat is dragonlair's ``random`` bot) and is rewarded only at the
end, with its share of the win.

A table needs few states, so the agent does not look at the whole observation tensor: it
reads a handful of its named slices (the table in docs/rl.md) and buckets them: the
phase (draw or offer), the pot, the risk of the next card (Stop and Danger cards left
over cards left), the Danger cards drawn, whether it could pay the takeover price, and
whether it must draw. Which slices to read is the only game knowledge here.

    python examples/train_dragon_stripes.py                 # the figures in docs/rl.md
    python examples/train_dragon_stripes.py --episodes 300  # a quick look

It prints the learner's win rate when it plays at random (the baseline: about one half)
and after training, each over the same seeded evaluation games.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from open_spiel.python import rl_environment, rl_tools
from open_spiel.python.algorithms import tabular_qlearner

import dragonlair.rl.gymnasium_env  # noqa: F401  (registers dragonlair/<Game>-v0)

ENV = "dragonlair/DragonStripes-v0"
POT_BANDS = [0.5, 10.5, 20.5, 40.5, 80.5]  # the takeover price bands, and a rich pot
StepType = rl_environment.StepType


def make_env() -> Any:
    """Seat 0 of a two-player game against dragonlair's random bot."""
    return gym.make(ENV, players=2, opponents="random").unwrapped


def summary(env: Any) -> Callable[[np.ndarray], tuple[int, ...]]:
    """The agent's state: a few slices of the observation tensor, bucketed."""
    sl = env.encoder.slices()
    total_gems = env.game.total_gems

    def key(obs: np.ndarray) -> tuple[int, ...]:
        pot = float(obs[sl["pot"]][0]) * total_gems
        return (
            int(np.argmax(obs[sl["phase"]])),
            int(np.searchsorted(POT_BANDS, pot)),
            min(3, int(float(obs[sl["risk"]][0]) * 8)),
            int(np.argmax(obs[sl["dangers"]])),
            int(obs[sl["can_take"]][0]),
            int(obs[sl["must_draw"]][0]),
        )

    return key


def time_step(key: tuple[int, ...], info: dict[str, Any], reward: float, kind: Any) -> Any:
    """What OpenSpiel's agents read: the state, the legal actions, the reward."""
    return rl_environment.TimeStep(
        observations={
            "info_state": [key],
            "legal_actions": [list(np.flatnonzero(info["action_mask"]))],
            "current_player": 0,
        },
        rewards=[reward],
        discounts=[1.0],
        step_type=kind,
    )


def play(env: Any, agent: Any, episodes: int, seed: int, learn: bool) -> float:
    """The agent's average share of the win over ``episodes`` seeded games."""
    key = summary(env)
    won = 0.0
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        step = time_step(key(obs), info, 0.0, StepType.FIRST)
        while True:
            action = agent.step(step, is_evaluation=not learn).action
            obs, reward, terminated, _, info = env.step(action)
            if terminated:
                agent.step(time_step(key(obs), info, reward, StepType.LAST), not learn)
                won += reward
                break
            step = time_step(key(obs), info, reward, StepType.MID)
    return won / episodes


def random_baseline(env: Any, episodes: int, seed: int) -> float:
    """The same seat playing uniformly at random among its legal actions."""
    rng = np.random.default_rng(seed)
    won = 0.0
    for i in range(episodes):
        _, info = env.reset(seed=seed + i)
        while True:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, reward, terminated, _, info = env.step(action)
            if terminated:
                won += reward
                break
    return won / episodes


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print and return the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=6000, help="training games")
    parser.add_argument("--eval", type=int, default=2000, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    np.random.seed(args.seed)  # the Q-learner explores with NumPy's global generator
    env = make_env()
    agent = tabular_qlearner.QLearner(
        player_id=0,
        num_actions=env.action_space.n,
        step_size=0.1,
        epsilon_schedule=rl_tools.LinearSchedule(0.3, 0.02, max(1, args.episodes * 15)),
    )
    eval_seed = 10**9 + args.seed  # evaluation games are never trained on
    start = time.perf_counter()
    baseline = random_baseline(env, args.eval, eval_seed)
    play(env, agent, args.episodes, args.seed * 10**6, learn=True)
    trained = play(env, agent, args.eval, eval_seed, learn=False)
    seconds = time.perf_counter() - start
    print(f"Dragon Stripes, 2 players, against the random bot; {args.eval} evaluation games")
    print(f"  random play:  {baseline:.3f} of the wins")
    print(f"  trained:      {trained:.3f} of the wins, after {args.episodes} training games")
    print(f"  table: {len(agent._q_values)} states; {seconds:.0f} s in all")
    return {"baseline": baseline, "trained": trained, "states": float(len(agent._q_values))}


if __name__ == "__main__":
    main()
