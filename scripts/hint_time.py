#!/usr/bin/env python3
"""How long a hint takes, and what it can tell apart, on every shipped puzzle (a
measurement, not a test).

Works out the server's hint (``dragonlair.web.bots.hint``: the advice of
``dragonlair.bots.advice`` with the server's default time and playout limits) for the
asked seat of each puzzle, in this process, and prints one Markdown row per puzzle: the
wall time, the rounds played, each choice's playouts and its win chance as shown (``≈``:
about as good as the best), and which sentence the hint gives.

    .venv/bin/python scripts/hint_time.py
    .venv/bin/python scripts/hint_time.py --seconds 1.0 --seed 7
"""

from __future__ import annotations

import argparse
import json
import time

from dragonlair.core.puzzles import puzzles
from dragonlair.web.bots import HintJob, hint, warm_hints
from dragonlair.web.config import ServerConfig


def main() -> None:
    config = ServerConfig()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=config.hint_seconds)
    parser.add_argument("--max-playouts", type=int, default=config.hint_max_playouts)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warm_hints()
    print("| puzzle | wall time (s) | rounds | choices: shown win chance (playouts) | why |")
    print("|---|---:|---:|---|---|")
    worst = 0.0
    for p in puzzles():
        state = p.state(seed=args.seed)
        seat = p.seat if p.seat is not None else state.to_act[0]
        job = HintJob(
            game=p.game,
            players=state.game.players,
            options_json=json.dumps(dict(state.game.options), sort_keys=True),
            view=state.view(seat),
            legal=tuple(str(a) for a in state.legal_actions(seat)),
            seed=args.seed,
            budget=args.seconds,
            max_playouts=args.max_playouts,
        )
        start = time.perf_counter()
        body = hint(job)
        took = time.perf_counter() - start
        worst = max(worst, took)
        choices = ", ".join(
            f"{'≈ ' if c['close'] and c['action'] != body['pick'] else ''}{c['action']} "
            f"{c['shown']['value']}% ({c['playouts']})"
            for c in body["choices"]
        )
        print(f"| {p.name} | {took:.2f} | {body['rounds']} | {choices} | {body['why']['kind']} |")
    print(f"\nslowest: {worst:.2f} s")


if __name__ == "__main__":
    main()
