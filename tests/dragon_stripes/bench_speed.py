"""Dragon Stripes speed, measured against OpenSpiel's C++ hearts in the same process.

    .venv/bin/python tests/dragon_stripes/bench_speed.py [games] [hearts_games] [rounds]

Not a test (pytest does not collect it): it prints random-playout decisions/s through the
public surface at 4 players, clones/s of a mid-game state, and the same for hearts when
``pyspiel`` is installed (``pip install open_spiel``; not a project dependency). The two
loops alternate for a few rounds so that load on the machine hits both alike; the ratios
use the best round of each.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import dragonlair


def ours(games: int) -> float:
    game = dragonlair.make("dragon-stripes", players=4)
    rng = random.Random(0)
    decisions = 0
    t = time.perf_counter()
    for i in range(games):
        s = game.new_game(seed=i)
        while not s.is_over:
            to_act = s.to_act
            seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            legal = s.legal_actions(seat)
            s.apply(seat, rng.choice(legal))
            decisions += 1
    return decisions / (time.perf_counter() - t)


def our_clones(n: int) -> float:
    game = dragonlair.make("dragon-stripes", players=4)
    rng = random.Random(1)
    s = game.new_game(seed=3)
    for _ in range(12):  # a mid-game state: some turns played, the knight on its way
        if s.is_over:
            break
        seat = s.to_act[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    t = time.perf_counter()
    for _ in range(n):
        s.clone()
    return n / (time.perf_counter() - t)


def hearts(games: int) -> float:
    import pyspiel

    g = pyspiel.load_game("hearts")
    rng = random.Random(0)
    decisions = 0
    t = time.perf_counter()
    for _ in range(games):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(acts, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions(s.current_player())))
                decisions += 1
    return decisions / (time.perf_counter() - t)


def hearts_clones(n: int) -> float:
    import pyspiel

    g = pyspiel.load_game("hearts")
    rng = random.Random(1)
    s: Any = g.new_initial_state()
    moves = 0
    while moves < 26:  # a mid-game state: half the tricks played
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions(s.current_player())))
            moves += 1
    t = time.perf_counter()
    for _ in range(n):
        s.clone()
    return n / (time.perf_counter() - t)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 4000
    hearts_games = int(argv[1]) if len(argv) > 1 else 400
    rounds = int(argv[2]) if len(argv) > 2 else 3
    try:
        import pyspiel  # noqa: F401

        have_hearts = True
    except ImportError:
        have_hearts = False
    best = {"ours": 0.0, "our_clones": 0.0, "hearts": 0.0, "hearts_clones": 0.0}
    for r in range(rounds):
        row = {"ours": ours(games), "our_clones": our_clones(200_000)}
        if have_hearts:
            row["hearts"] = hearts(hearts_games)
            row["hearts_clones"] = hearts_clones(200_000)
        for k, v in row.items():
            best[k] = max(best[k], v)
        print(f"round {r + 1}: " + ", ".join(f"{k} {v:,.0f}/s" for k, v in row.items()))
    print(f"dragon-stripes 4p: {best['ours']:,.0f} decisions/s, {best['our_clones']:,.0f} clones/s")
    if have_hearts:
        print(
            f"hearts:            {best['hearts']:,.0f} decisions/s, "
            f"{best['hearts_clones']:,.0f} clones/s"
        )
        print(
            f"ratio to hearts: decisions {best['ours'] / best['hearts']:.2f}x, "
            f"clones {best['our_clones'] / best['hearts_clones']:.2f}x"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
