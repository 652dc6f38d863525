"""Train a policy for Dragon Stripes on the batched JAX engine, export it to ONNX, and
evaluate it through the Python environment against the game's heuristic bot.

Training is PPO written in JAX with optax (no other framework): one small network (two
hidden layers of 128, a policy head over the 4 actions with the illegal ones masked out,
and a value head) plays every seat of 1,024 two-player tables at once on
``dragonlair.accel.make("dragon-stripes", players=2)`` (self-play), a rollout of 32 steps
per table per update, jitted as one program. A decision's return is the final reward of
the seat that took it (its share of the win; rewards come only at the end), so the
advantage is that return minus the value; decisions of games still running at the end of
a rollout are left out of that update.

The trained network is written as an ONNX model (``--out``, default
``build/dragon_stripes_ppo.onnx``) built with the ``onnx`` package from its weights:
input ``observation`` (batch x 123, the layout's tensor) and ``action_mask`` (batch x 4),
output ``logits`` (batch x 4, illegal actions at -1e9). It is then played with
onnxruntime, greedily, in seat 0 or 1 (alternating) of the Python Gymnasium environment
``dragonlair/DragonStripes-v0`` against the ``heuristic`` bot, and so is the untrained
network and the ``random`` bot for comparison; each result is the mean win share with a
95% Wilson interval (statsmodels).

    python examples/train_dragon_stripes_jax.py                   # the figures in docs/accel.md
    python examples/train_dragon_stripes_jax.py --updates 20 --games 200   # a quick look
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import jax
import jax.numpy as jnp
import numpy as np
import onnx
import onnxruntime as ort
import optax
from onnx import TensorProto, helper, numpy_helper
from pgx.experimental import auto_reset
from statsmodels.stats.proportion import proportion_confint

import dragonlair.rl.gymnasium_env  # noqa: F401  (registers dragonlair/<Game>-v0)
from dragonlair import accel

ENV = "dragonlair/DragonStripes-v0"
HIDDEN = 128
PLAYERS = 2


def init_params(key: Any, obs_size: int, actions: int) -> dict[str, Any]:
    sizes = [(obs_size, HIDDEN), (HIDDEN, HIDDEN), (HIDDEN, actions), (HIDDEN, 1)]
    keys = jax.random.split(key, len(sizes))
    names = ["w1", "w2", "pi", "v"]
    params = {}
    for name, (i, o), k in zip(names, sizes, keys, strict=True):
        scale = 0.01 if name == "pi" else np.sqrt(2.0 / i)
        params[name] = jax.random.normal(k, (i, o)) * scale
        params["b" + name] = jnp.zeros(o)
    return params


def forward(params: dict[str, Any], obs: Any, mask: Any) -> tuple[Any, Any]:
    h = jax.nn.relu(obs @ params["w1"] + params["bw1"])
    h = jax.nn.relu(h @ params["w2"] + params["bw2"])
    logits = h @ params["pi"] + params["bpi"]
    logits = jnp.where(mask, logits, -1e9)
    value = (h @ params["v"] + params["bv"])[..., 0]
    return logits, value


def make_update(env: Any, tables: int, steps: int, lr: float) -> tuple[Any, Any]:
    step = jax.vmap(auto_reset(env.step, env.init))
    optimiser = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(lr))

    def rollout(params: Any, state: Any, key: Any) -> tuple[Any, Any]:
        def body(carry: Any, _: Any) -> tuple[Any, Any]:
            state, key = carry
            key, k1, k2 = jax.random.split(key, 3)
            logits, value = forward(params, state.observation, state.legal_action_mask)
            action = jax.random.categorical(k1, logits)
            logp = jax.nn.log_softmax(logits)[jnp.arange(tables), action]
            player = state.current_player
            nxt = step(state, action, jax.random.split(k2, tables))
            out = (
                state.observation,
                state.legal_action_mask,
                action,
                logp,
                value,
                player,
                nxt.rewards,
                nxt.terminated,
            )
            return (nxt, key), out

        (state, key), traj = jax.lax.scan(body, (state, key), None, length=steps)
        return state, traj

    def returns(rewards: Any, ended: Any, player: Any) -> tuple[Any, Any]:
        # backwards: the final rewards of the game each step belongs to (NaN: not ended yet)
        def body(final: Any, x: Any) -> tuple[Any, Any]:
            r, e, p = x
            final = jnp.where(e[:, None], r, final)
            return final, final[jnp.arange(tables), p]

        start = jnp.full((tables, PLAYERS), jnp.nan)
        _, g = jax.lax.scan(body, start, (rewards, ended, player), reverse=True)
        return jnp.nan_to_num(g), ~jnp.isnan(g)

    def loss(params: Any, batch: Any) -> Any:
        obs, mask, action, old_logp, ret, valid = batch
        logits, value = forward(params, obs, mask)
        logp_all = jax.nn.log_softmax(logits)
        logp = jnp.take_along_axis(logp_all, action[:, None], axis=1)[:, 0]
        adv = ret - jax.lax.stop_gradient(value)
        w = valid.astype(jnp.float32)
        denom = jnp.maximum(w.sum(), 1.0)
        mean = (adv * w).sum() / denom
        std = jnp.sqrt((((adv - mean) ** 2) * w).sum() / denom) + 1e-6
        adv = (adv - mean) / std
        ratio = jnp.exp(logp - old_logp)
        clipped = jnp.clip(ratio, 0.8, 1.2)
        pg = -(jnp.minimum(ratio * adv, clipped * adv) * w).sum() / denom
        vf = (((value - ret) ** 2) * w).sum() / denom
        probs = jnp.exp(logp_all)
        entropy = -(jnp.where(mask, probs * logp_all, 0.0).sum(-1) * w).sum() / denom
        return pg + 0.5 * vf - 0.01 * entropy

    def update(params: Any, opt: Any, state: Any, key: Any) -> Any:
        key, k1, k2 = jax.random.split(key, 3)
        state, traj = rollout(params, state, k1)
        obs, mask, action, logp, _, player, rewards, ended = traj
        ret, valid = returns(rewards, ended, player)
        flat = [x.reshape(steps * tables, *x.shape[2:]) for x in (obs, mask, action, logp)]
        batch = (*flat, ret.reshape(-1), valid.reshape(-1))
        minibatches = 8
        size = steps * tables // minibatches

        def epoch(carry: Any, k: Any) -> tuple[Any, Any]:
            params, opt = carry
            order = jax.random.permutation(k, steps * tables)

            def mini(carry: Any, i: Any) -> tuple[Any, Any]:
                params, opt = carry
                idx = jax.lax.dynamic_slice(order, (i * size,), (size,))
                value, grads = jax.value_and_grad(loss)(params, [x[idx] for x in batch])
                updates, opt = optimiser.update(grads, opt, params)
                return (optax.apply_updates(params, updates), opt), value

            return jax.lax.scan(mini, (params, opt), jnp.arange(minibatches))

        (params, opt), losses = jax.lax.scan(epoch, (params, opt), jax.random.split(k2, 4))
        games = ended.sum()
        return params, opt, state, key, losses.mean(), games

    return jax.jit(update), optimiser


def export_onnx(params: dict[str, Any], path: Path) -> None:
    """The network as an ONNX graph: MatMul, Add and Relu, then the mask."""
    w = {k: numpy_helper.from_array(np.asarray(v, dtype=np.float32), k) for k, v in params.items()}
    big = numpy_helper.from_array(np.array(-1e9, dtype=np.float32), "illegal")
    nodes = [
        helper.make_node("MatMul", ["observation", "w1"], ["h1m"]),
        helper.make_node("Add", ["h1m", "bw1"], ["h1a"]),
        helper.make_node("Relu", ["h1a"], ["h1"]),
        helper.make_node("MatMul", ["h1", "w2"], ["h2m"]),
        helper.make_node("Add", ["h2m", "bw2"], ["h2a"]),
        helper.make_node("Relu", ["h2a"], ["h2"]),
        helper.make_node("MatMul", ["h2", "pi"], ["lm"]),
        helper.make_node("Add", ["lm", "bpi"], ["raw"]),
        helper.make_node("Cast", ["action_mask"], ["legal"], to=TensorProto.BOOL),
        helper.make_node("Where", ["legal", "raw", "illegal"], ["logits"]),
    ]
    obs_size = params["w1"].shape[0]
    actions = params["pi"].shape[1]
    graph = helper.make_graph(
        nodes,
        "dragon_stripes_policy",
        [
            helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", obs_size]),
            helper.make_tensor_value_info("action_mask", TensorProto.FLOAT, ["batch", actions]),
        ],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", actions])],
        initializer=[*(w[k] for k in ("w1", "bw1", "w2", "bw2", "pi", "bpi")), big],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def evaluate(session: ort.InferenceSession | None, opponent: str, games: int, seed: int) -> float:
    """Mean win share of the ONNX policy (None: uniformly random legal actions) over
    ``games`` games in the Python environment, seats alternating."""
    env = gym.make(ENV, players=PLAYERS, opponents=opponent, seat=None)
    rng = np.random.default_rng(seed)
    total = 0.0
    for g in range(games):
        obs, info = env.reset(seed=seed + g, options={"seat": g % PLAYERS})
        done = False
        reward = 0.0
        while not done:
            mask = info["action_mask"].astype(np.float32)
            if session is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                (logits,) = session.run(
                    None, {"observation": obs[None, :], "action_mask": mask[None, :]}
                )
                action = int(np.argmax(logits[0]))
            obs, r, term, trunc, info = env.step(action)
            reward += float(r)
            done = term or trunc
        total += reward
    env.close()
    return total / games


def interval(share: float, games: int) -> str:
    low, high = proportion_confint(round(share * games), games, alpha=0.05, method="wilson")
    return f"{share:.3f} (95% {low:.3f}-{high:.3f})"


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--updates", type=int, default=150)
    p.add_argument("--tables", type=int, default=1024)
    p.add_argument("--steps", type=int, default=32, help="rollout steps per table per update")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--games", type=int, default=1000, help="evaluation games per opponent")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("build/dragon_stripes_ppo.onnx"))
    args = p.parse_args(argv)

    env = accel.make("dragon-stripes", players=PLAYERS)
    key = jax.random.PRNGKey(args.seed)
    key, k_init, k_params = jax.random.split(key, 3)
    params = init_params(k_params, env.obs_size, env.num_actions)
    untrained = params
    update, optimiser = make_update(env, args.tables, args.steps, args.lr)
    opt = optimiser.init(params)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(k_init, args.tables))
    start = time.perf_counter()
    cpu = time.process_time()
    games = 0
    for i in range(args.updates):
        params, opt, state, key, loss, ended = update(params, opt, state, key)
        games += int(ended)
        if i % 10 == 0 or i == args.updates - 1:
            print(f"update {i:4d}  loss {float(loss):+.4f}  games so far {games:,}", flush=True)
    steps = args.updates * args.tables * args.steps
    wall = time.perf_counter() - start
    print(
        f"trained on {steps:,} steps ({games:,} games) in {wall:.0f} s "
        f"({time.process_time() - cpu:.0f} CPU s, compile included)"
    )
    export_onnx(params, args.out)
    export_onnx(untrained, args.out.with_suffix(".untrained.onnx"))
    print(f"wrote {args.out}")
    figures = {}
    for opponent in ("heuristic", "random"):
        for name, session in (
            ("trained", ort.InferenceSession(str(args.out))),
            ("untrained", ort.InferenceSession(str(args.out.with_suffix(".untrained.onnx")))),
            ("random play", None),
        ):
            share = evaluate(session, opponent, args.games, seed=10_000 + args.seed)
            figures[f"{name} vs {opponent}"] = share
            print(f"{name:>11} vs {opponent:<9}: win share {interval(share, args.games)}")
    return figures


if __name__ == "__main__":
    main()
