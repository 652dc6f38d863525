"""Speed of Space Dragons against OpenSpiel's C++ hearts, measured in one process.

Not a test (pytest does not collect it). Run from the repository root:

    .venv/bin/pip install open_spiel   # once; not a project dependency
    .venv/bin/python tests/space_dragons/bench_space_dragons.py [games] [players]

It drives both games with the same random-playout loop through their public surfaces,
alternating short batches so that other work on the machine affects both alike, and
prints decisions/s, clones/s of a mid-game state and the ratios to hearts. Times are
CPU times of this process, so other work on a shared machine disturbs them less.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import dragonlair


def sd_playouts(game: Any, start: int, count: int, rng: random.Random) -> int:
    decisions = 0
    for i in range(start, start + count):
        s = game.new_game(seed=i)
        while not s.is_over:
            to_act = s.to_act
            seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            legal = s.legal_actions(seat)
            s.apply(seat, rng.choice(legal))
            decisions += 1
    return decisions


def hearts_playouts(g: Any, count: int, rng: random.Random) -> int:
    decisions = 0
    for _ in range(count):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(acts, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions(s.current_player())))
                decisions += 1
    return decisions


def sd_midgame(game: Any) -> Any:
    rng = random.Random(1)
    s = game.new_game(seed=1)
    while s.phase != "hunt" or s.move < game.players * 11:
        seat = rng.choice(s.to_act)
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    return s


def hearts_midgame(g: Any) -> Any:
    rng = random.Random(1)
    s = g.new_initial_state()
    decisions = 0
    while decisions < 26:
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions(s.current_player())))
            decisions += 1
    return s


def clones_per_s(state: Any, n: int = 100_000) -> float:
    clone = state.clone
    t = time.process_time()
    for _ in range(n):
        clone()
    return n / (time.process_time() - t)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 3000
    players = int(argv[1]) if len(argv) > 1 else 4
    import pyspiel

    hearts = pyspiel.load_game("hearts")
    game = dragonlair.make("space-dragons", players=players)
    rng_sd, rng_h = random.Random(0), random.Random(0)
    sd_time = h_time = 0.0
    sd_dec = h_dec = 0
    batch = 100
    for b in range(0, games, batch):
        t = time.process_time()
        sd_dec += sd_playouts(game, b, batch, rng_sd)
        sd_time += time.process_time() - t
        t = time.process_time()
        h_dec += hearts_playouts(hearts, batch, rng_h)
        h_time += time.process_time() - t
    sd_rate, h_rate = sd_dec / sd_time, h_dec / h_time
    print(f"space-dragons {players}p: {sd_rate:,.0f} decisions/s ({games} games)")
    print(f"hearts (OpenSpiel C++): {h_rate:,.0f} decisions/s ({games} games)")
    print(f"ratio: {sd_rate / h_rate:.2f}x hearts")
    sd_c = clones_per_s(sd_midgame(game))
    h_c = clones_per_s(hearts_midgame(hearts))
    print(f"clone of a mid-game state: {sd_c:,.0f}/s vs hearts {h_c:,.0f}/s: {sd_c / h_c:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
