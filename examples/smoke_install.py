"""A smoke test of an installed dragonlair and its extras, run in a fresh virtual
environment after installing a built wheel (not the checkout): every extra is used once,
as its user would, and any failure stops the script with a non-zero exit.

    python -m build --outdir dist
    python -m venv /tmp/fresh
    /tmp/fresh/bin/pip install 'dist/dragonlair-0.1.0-py3-none-any.whl[dev,web,rl,sim,train,accel]'
    cd /tmp && /tmp/fresh/bin/python /path/to/examples/smoke_install.py

Each name checks one part: ``base`` (the engine and the command line), ``web`` (the
server's lobby through FastAPI's test client), ``rl`` (OpenSpiel, PettingZoo, Gymnasium,
the shipped trained policy and the evaluation command), ``sim`` (a simulation with a plot),
``train`` (PyTorch: a network exported to ONNX and played as a bot), ``accel`` (a batched
JAX engine under jit and vmap), ``dev`` (the test and lint tools answer).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = Path(sys.executable).parent


def run(*args: str) -> str:
    out = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False)
    if out.returncode != 0:
        raise SystemExit(f"failed: {' '.join(args)}\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return out.stdout


def base() -> None:
    import dragonlair

    assert "site-packages" in dragonlair.__file__, dragonlair.__file__  # the wheel, not a checkout
    assert set(dragonlair.games()) == {
        "dragon-race",
        "dragon-stripes",
        "space-dragons",
        "space-race",
    }
    state = dragonlair.make("dragon-stripes", players=2).new_game(seed=1)
    assert state.legal_actions(state.to_act[0])
    assert "space-race" in run(str(BIN / "dragonlair"), "games")


def web() -> None:
    from fastapi.testclient import TestClient

    from dragonlair.web.app import create_app
    from dragonlair.web.config import ServerConfig

    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(db=f"sqlite:///{tmp}/smoke.db", seal_key=f"{tmp}/seal.key")
        with TestClient(create_app(config)) as client:
            games = {g["id"]: g for g in client.get("/api/games").json()}
            assert "heuristic" in games["space-race"]["bots"]
            assert "trained" in games["dragon-stripes"]["bots"]


def rl() -> None:
    import gymnasium as gym
    import pyspiel

    import dragonlair.rl.gymnasium_env
    import dragonlair.rl.openspiel  # noqa: F401  (registers the OpenSpiel games)
    from dragonlair.rl.pettingzoo_env import parallel_env

    game = pyspiel.load_game("python_space_race(players=2)")
    assert game.new_initial_state().is_simultaneous_node()
    env = gym.make("dragonlair/DragonStripes-v0", players=2, opponents="trained")
    env.reset(seed=0)
    par = parallel_env("space-dragons", players=3)
    par.reset(seed=0)
    out = run(
        str(BIN / "python"),
        "-m",
        "dragonlair.rl.evaluate",
        "trained",
        "dragon-stripes",
        "--players",
        "2",
        "--opponents",
        "random",
        "--games",
        "10",
        "--json",
    )
    assert json.loads(out)["games"] == 10


def sim() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        plot = Path(tmp) / "chart.png"
        run(
            str(BIN / "dragonlair"),
            "simulate",
            "dragon-stripes",
            "-p",
            "2",
            "--bots",
            "trained,heuristic",
            "--games",
            "8",
            "--seed",
            "1",
            "--plot",
            str(plot),
        )
        assert plot.stat().st_size > 1000


def train() -> None:
    import torch

    import dragonlair
    from dragonlair.bots import make_bot
    from dragonlair.rl.export import export_module
    from dragonlair.rl.layout import encoder_for

    game = dragonlair.make("space-race", players=2)
    net = torch.nn.Linear(encoder_for(game).size, game.num_actions)
    with tempfile.TemporaryDirectory() as tmp:
        path = export_module(net, game, Path(tmp) / "net.onnx", "smoke test")
        bot = make_bot("trained", game, policy=str(path))
        state = game.new_game(seed=2)
        seat = state.to_act[0]
        import random

        assert bot.choose(state.seat_view(seat), state.legal_actions(seat), random.Random(0))


def accel() -> None:
    import jax

    from dragonlair import accel as batched

    env = batched.make("space-dragons", players=3)
    keys = jax.random.split(jax.random.PRNGKey(0), 8)
    state = jax.jit(jax.vmap(env.init))(keys)
    action = jax.numpy.argmax(state.legal_action_mask, axis=-1)
    state = jax.jit(jax.vmap(env.step))(state, action, keys)
    assert state.observation.shape[0] == 8
    assert bool(state.legal_action_mask.any(axis=-1).all())


def dev() -> None:
    for tool in ("pytest", "ruff", "mypy", "lint-imports"):
        assert run(str(BIN / tool), "--help"), tool


CHECKS = {
    "base": base,
    "web": web,
    "rl": rl,
    "sim": sim,
    "train": train,
    "accel": accel,
    "dev": dev,
}

if __name__ == "__main__":
    names = sys.argv[1:] or list(CHECKS)
    for name in names:
        CHECKS[name]()
        print(f"ok {name}", flush=True)
