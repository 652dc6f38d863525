"""The outside game (examples/high_card): :func:`install` puts its distribution in a
folder of its own, and run in a process whose path holds that folder,
``python tests/core/outside_game.py rl|server`` plays it on one surface and prints what it
saw as JSON on its last line (any failure is an exception, and a non-zero exit)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for tests.*

import httpx

import dragonlair

GAME = "high-card"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "high_card"


def install(tmp: Path) -> dict[str, str]:
    """Install High Card under ``tmp`` (its distribution, with its entry point, in a
    folder of its own, built from a copy of its source so the checkout stays clean: pip
    with no index, this environment's setuptools); the environment of a process that has
    it installed."""
    source = shutil.copytree(
        EXAMPLE, tmp / "source", ignore=shutil.ignore_patterns("build", "*.egg-info")
    )
    site = tmp / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--target",
            str(site),
            str(source),
        ],
        check=True,
        timeout=300,
    )
    if not any(p.name.startswith("dragonlair_high_card-") for p in site.glob("*.dist-info")):
        raise RuntimeError(f"pip installed no dragonlair_high_card distribution in {site}")
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return dict(os.environ, PYTHONPATH=path)


def rl() -> dict[str, Any]:
    """A whole game in each of PettingZoo (parallel), Gymnasium and OpenSpiel."""
    import gymnasium as gym
    import numpy as np

    from dragonlair.rl import openspiel
    from dragonlair.rl.gymnasium_env import register
    from dragonlair.rl.pettingzoo_env import parallel_env

    rng = np.random.default_rng(1)
    par = parallel_env(GAME, players=2)
    obs, _infos = par.reset(seed=3)
    steps = 0
    while par.agents:
        actions = {
            a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
            for a in par.agents
            if obs[a]["action_mask"].any()
        }
        obs, _rewards, _term, _trunc, _infos = par.step(actions)
        steps += 1
    env = gym.make(register(GAME), opponents="heuristic")
    _obs, info = env.reset(seed=4)
    done, gym_steps, reward = False, 0, 0.0
    while not done:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, r, term, trunc, info = env.step(a)
        reward += float(r)
        done = bool(term or trunc)
        gym_steps += 1
    game = openspiel.load_game(GAME, players=2, seed=5)
    state = game.new_initial_state()
    spiel_steps = 0
    while not state.is_terminal():
        if state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(2)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        spiel_steps += 1
    return {
        "pettingzoo_rounds": steps,
        "observation": len(next(iter(obs.values()))["observation"]) if obs else 0,
        "gymnasium_id": register(GAME),
        "gymnasium_steps": gym_steps,
        "openspiel_steps": spiel_steps,
        "openspiel_returns": list(state.returns()),
    }


def server() -> dict[str, Any]:
    """A table over HTTP and WebSocket: the catalog names the game's own board, served
    from its package with its style sheet, and a whole game against a bot."""
    from tests.web.serverkit import LiveServer, config, create_table, drive, open_all

    with tempfile.TemporaryDirectory() as tmp:
        live = LiveServer(config(f"sqlite:///{tmp}/t.db"))
        try:
            seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "level": "heuristic"}]
            created = create_table(live.http, game=GAME, players=2, seats=seats, seed=7)
            tid = created["table"]["id"]
            catalog = httpx.get(f"{live.http}/api/tables/{tid}/catalog").json()
            board = httpx.get(f"{live.http}/static/{catalog['board']}")
            css = httpx.get(f"{live.http}/static/games/{GAME}/board.css")
            refused = {
                path: httpx.get(f"{live.http}{path}").status_code
                for path in (
                    f"/static/games/{GAME}/%2e%2e/manifest.py",
                    f"/static/games/{GAME}/manifest.py",
                    "/static/games/space-race/manifest.py",  # a built-in board's package
                    "/static/games/no-such-game/board.js",
                    f"/static/games/{GAME}/",
                )
            }

            async def play() -> dict[str, Any]:
                clients = await open_all(live.ws, created)
                final = await drive(clients, random.Random(5))
                for c in clients.values():
                    await c.close()
                return final

            final = asyncio.run(play())
            record = httpx.get(f"{live.http}/api/tables/{tid}/record").json()
        finally:
            live.stop()
    return {
        "board": catalog["board"],
        "board_status": board.status_code,
        "board_type": board.headers.get("content-type", ""),
        "board_exports": "export function board" in board.text,
        "css_status": css.status_code,
        "refused": refused,
        "status": final["status"],
        "moves": final["move"],
        "replays": dragonlair.replay(record).is_over,
    }


if __name__ == "__main__":
    surface = {"rl": rl, "server": server}[sys.argv[1]]
    print(json.dumps(surface()))
