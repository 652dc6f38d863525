"""Train a policy for one game by self-play against a league, and export it to ONNX.

The learner is sb3-contrib's MaskablePPO (PPO that samples only legal actions, reading
``env.action_masks()``) with a small MLP, on the Gymnasium environment
``dragonlair/<Game>-v0``: it plays a random seat each game against bots. Its opponents
come from a league that grows as it trains: the ``random`` and ``heuristic`` bots and
every checkpoint of the learner so far. Training is split into rounds; at each round
every table draws its opponents from the league (half the tables the heuristic, a
quarter a past checkpoint, the rest random), and at the end of the round the learner is
exported to ONNX (``checkpoint-<k>.onnx``) and joins the league as a ``trained``
bot (``trained:policy=<file>``), which plays from its seat's view and legal actions only.
The last export is ``<game>.onnx`` in the output folder.

Needs the ``train`` extra (``pip install 'dragonlair[rl,train]'``); the exported policy
needs only the ``rl`` extra to play. Runs on the CPU, one thread by default.

    python examples/selfplay.py dragon-stripes --players 2 --steps 100000 --seed 0 \\
        --out runs/dragon-stripes
    python -m dragonlair.rl.evaluate runs/dragon-stripes/dragon-stripes.onnx \\
        dragon-stripes --players 2 --opponents heuristic --games 400

The environments deal games with seeds below 2**62 and the evaluation plays seeds from
2**62 up, so no evaluation game was trained on.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import dragonlair
import dragonlair.rl.gymnasium_env
from dragonlair.rl.export import export_maskable_ppo


def league_opponents(league: list[str], rng: random.Random, heuristic: float) -> str:
    """One table's opponents: the heuristic with probability ``heuristic``, else a past
    checkpoint half the time (the random bot while there is none), else the random bot."""
    r = rng.random()
    if r < heuristic:
        return "heuristic"
    if r < heuristic + (1 - heuristic) / 2 and league:
        return rng.choice(league)
    return "random"


def make_envs(
    game_id: str,
    players: int,
    tables: int,
    league: list[str],
    rng: random.Random,
    seed: int,
    heuristic: float,
) -> DummyVecEnv:
    env_id = dragonlair.rl.gymnasium_env.env_id(game_id)

    def table(opponents: str) -> Any:
        return lambda: Monitor(gym.make(env_id, players=players, opponents=opponents, seat=None))

    vec = DummyVecEnv([table(league_opponents(league, rng, heuristic)) for _ in range(tables)])
    vec.seed(seed)
    return vec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game id, e.g. dragon-stripes")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=100_000, help="learner steps in all")
    parser.add_argument("--rounds", type=int, default=5, help="checkpoints (league size)")
    parser.add_argument("--tables", type=int, default=8, help="environments stepped together")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's CPU threads")
    parser.add_argument(
        "--heuristic-share",
        type=float,
        default=0.5,
        help="the share of tables whose opponents are the heuristic (the rest: half past "
        "checkpoints, half the random bot)",
    )
    parser.add_argument("--out", type=Path, required=True, help="folder for the ONNX files")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    game = dragonlair.make(args.game, players=args.players)
    rng = random.Random(args.seed)
    league: list[str] = []
    per_round = max(args.steps // args.rounds, 1)
    model: Any = None
    start = time.time()
    args.out.mkdir(parents=True, exist_ok=True)
    for k in range(args.rounds):
        vec = make_envs(
            args.game,
            args.players,
            args.tables,
            league,
            rng,
            args.seed + 1000 * k,
            args.heuristic_share,
        )
        if model is None:
            model = MaskablePPO(
                "MlpPolicy",
                vec,
                n_steps=256,
                batch_size=256,
                n_epochs=4,
                learning_rate=3e-4,
                gamma=1.0,
                ent_coef=0.01,
                policy_kwargs={"net_arch": [64, 64]},
                seed=args.seed,
                device="cpu",
                verbose=0,
            )
        else:
            model.set_env(vec)
        model.learn(per_round, reset_num_timesteps=False)
        note = (
            f"MaskablePPO self-play, {model.num_timesteps} steps, {args.players} players, "
            f"seed {args.seed}, league of {len(league)} checkpoints, "
            f"heuristic share {args.heuristic_share}"
        )
        ckpt = export_maskable_ppo(model, game, args.out / f"checkpoint-{k}.onnx", note)
        league.append(f"trained:policy={ckpt.resolve()}")
        mean = np.mean([ep["r"] for ep in model.ep_info_buffer]) if model.ep_info_buffer else 0
        print(
            f"round {k + 1}/{args.rounds}: {model.num_timesteps} steps, "
            f"{time.time() - start:.0f} s, mean reward of the last episodes {mean:.3f}",
            flush=True,
        )
        vec.close()
    final = export_maskable_ppo(model, game, args.out / f"{args.game}.onnx", note)
    model.save(args.out / f"{args.game}-maskable-ppo.zip")  # to train on from
    print(f"exported {final}")


if __name__ == "__main__":
    main()
