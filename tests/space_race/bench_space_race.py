"""Space Race speed, measured against OpenSpiel's C++ hearts in the same process.

    .venv/bin/python tests/space_race/bench_space_race.py [seconds per measurement]

Prints random-playout decisions/s through the public surface at 4 players (the project's
benchmark loop), clones/s of a mid-game state, and the ratios to hearts driven by the same
kind of loop (its chance outcomes sampled by their probabilities). Needs ``open_spiel``
installed in the environment for the ratios; it is not a project dependency. Not a test:
numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

import dragonlair


def _rate(batch: Callable[[], int], seconds: float) -> float:
    """Units per second of ``batch`` (which returns how many units it did), best of 3."""
    best = 0.0
    for _ in range(3):
        done = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            done += batch()
        best = max(best, done / elapsed)
    return best


def space_race_decisions(seconds: float, players: int = 4) -> float:
    game = dragonlair.make("space-race", players=players)
    rng = random.Random(0)
    seed = [0]

    def batch() -> int:
        decisions = 0
        for _ in range(20):
            s = game.new_game(seed=seed[0])
            seed[0] += 1
            while not s.is_over:
                to_act = s.to_act
                seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
                legal = s.legal_actions(seat)
                s.apply(seat, rng.choice(legal))
                decisions += 1
        return decisions

    return _rate(batch, seconds)


def space_race_mid_game(players: int = 4) -> Any:
    """A state in round 2 of a seeded random game."""
    game = dragonlair.make("space-race", players=players)
    rng = random.Random(1)
    s = game.new_game(seed=1)
    while s.round < 2 or s.pick < 3:  # type: ignore[attr-defined]
        seat = rng.choice(s.to_act)
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    return s


def clones(state: Any, seconds: float) -> float:
    def batch() -> int:
        c = state.clone
        for _ in range(1000):
            c()
        return 1000

    return _rate(batch, seconds)


def hearts_decisions(seconds: float) -> float:
    import pyspiel

    g = pyspiel.load_game("hearts")
    rng = random.Random(0)

    def batch() -> int:
        decisions = 0
        for _ in range(20):
            s = g.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    acts, probs = zip(*s.chance_outcomes(), strict=True)
                    s.apply_action(rng.choices(acts, probs)[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions(s.current_player())))
                    decisions += 1
        return decisions

    return _rate(batch, seconds)


def hearts_mid_game() -> Any:
    import pyspiel

    g = pyspiel.load_game("hearts")
    rng = random.Random(1)
    s = g.new_initial_state()
    steps = 0
    while steps < 30:
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions(s.current_player())))
            steps += 1
    return s


def main(seconds: float) -> None:
    try:
        import pyspiel  # noqa: F401

        have_hearts = True
    except ImportError:
        have_hearts = False
    for players in (2, 3):
        rate = space_race_decisions(seconds / 2, players)
        print(f"space-race {players}p:      {rate:>10,.0f} decisions/s")
    # Alternate short measurements of ours and the reference and keep the best of each, so
    # both see the same machine (other work on it makes any single measurement noisy).
    ours = theirs = our_clones = their_clones = 0.0
    ours_mid, hearts_mid = space_race_mid_game(), hearts_mid_game() if have_hearts else None
    for _ in range(5):
        ours = max(ours, space_race_decisions(seconds / 5))
        our_clones = max(our_clones, clones(ours_mid, seconds / 10))
        if have_hearts:
            theirs = max(theirs, hearts_decisions(seconds / 5))
            their_clones = max(their_clones, clones(hearts_mid, seconds / 10))
    print(f"space-race 4p:      {ours:>10,.0f} decisions/s")
    print(f"space-race 4p clone:{our_clones:>10,.0f} clones/s")
    if have_hearts:
        print(f"hearts (C++):       {theirs:>10,.0f} decisions/s")
        print(f"hearts clone:       {their_clones:>10,.0f} clones/s")
        print(f"ratio decisions:    {ours / theirs:.2f}x hearts (goal 1.5x, at least 1x)")
        print(f"ratio clones:       {our_clones / their_clones:.2f}x hearts (at least 0.5x)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 6.0)
