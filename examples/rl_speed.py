"""How fast the research interfaces run, per game: observations encoded per second, and
random play through Gymnasium (learner steps, bots included), PettingZoo (AEC steps) and
OpenSpiel (applied actions, turn-based registration, with the observation tensor of the
player to act made through OpenSpiel's observer API).

    python examples/rl_speed.py               # every game at 4 players (3 for none)
    python examples/rl_speed.py --seconds 3 --game dragon-race

Figures vary with the machine and its load; run it next to ``dragonlair bench``, which
measures the engine itself.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

import gymnasium as gym
import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

import dragonlair
from dragonlair.rl import encoder_for, layout_ids
from dragonlair.rl import openspiel as spiel
from dragonlair.rl.gymnasium_env import env_id
from dragonlair.rl.gymnasium_env import register as register_gym
from dragonlair.rl.pettingzoo_env import env as aec_env


def rate(seconds: float, run: Callable[[], int]) -> float:
    """Units of work per second: ``run`` does some and says how many, until time is up."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += run()
    return done / elapsed


def measure(game_id: str, players: int, seconds: float) -> dict[str, float]:
    """The four rates for one game."""
    rng = np.random.default_rng(0)
    game = dragonlair.make(game_id, players=players)
    enc = encoder_for(game)
    view = game.new_game(seed=1).seat_view(0)

    def encode() -> int:
        enc.encode(view)
        return 1

    register_gym(game_id)
    g = gym.make(env_id(game_id), players=players).unwrapped
    _, info = g.reset(seed=0)

    def gym_step() -> int:
        nonlocal info
        _, _, done, _, info = g.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if done:
            _, info = g.reset()
        return 1

    aec = aec_env(game_id, players=players)

    def aec_game() -> int:
        aec.reset()
        steps = 0
        for _agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            legal = None if term or trunc else np.flatnonzero(obs["action_mask"])
            aec.step(None if legal is None else int(rng.choice(legal)))
            steps += 1
        return steps

    sg = spiel.load_game(game_id, players=players, turn_based=True)
    # OpenSpiel's observer API; state.observation_tensor() also works, but OpenSpiel's
    # bridge to Python games works out the tensor's shape again on every such call
    observation = make_observation(sg)

    def spiel_game() -> int:
        state = sg.new_initial_state()
        steps = 0
        while not state.is_terminal():
            observation.set_from(state, state.current_player())
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        return steps

    return {
        "encode_per_s": rate(seconds, encode),
        "gymnasium_steps_per_s": rate(seconds, gym_step),
        "pettingzoo_steps_per_s": rate(seconds, aec_game),
        "openspiel_steps_per_s": rate(seconds, spiel_game),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, float]]:
    """Measure, print and return the rates of every game asked for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--game", action="append", help="a game id (default: all)")
    args = parser.parse_args(argv)
    installed = set(dragonlair.games())
    ids = args.game or [g for g in layout_ids() if g in installed]
    out = {}
    print(f"pyspiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else '?'}")
    for gid in ids:
        spec = dragonlair.spec(gid)
        players = min(max(4, spec.min_players), spec.max_players)
        r = out[gid] = measure(gid, players, args.seconds)
        print(
            f"{gid} ({players}p): {r['encode_per_s']:,.0f} observations/s; Gymnasium "
            f"{r['gymnasium_steps_per_s']:,.0f} learner steps/s; PettingZoo AEC "
            f"{r['pettingzoo_steps_per_s']:,.0f} steps/s; OpenSpiel "
            f"{r['openspiel_steps_per_s']:,.0f} actions/s"
        )
    return out


if __name__ == "__main__":
    main()
