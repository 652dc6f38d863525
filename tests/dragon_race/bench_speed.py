"""Speed of The Great Dragon Race against OpenSpiel's C++ hearts, measured in one process.

    .venv/bin/python tests/dragon_race/bench_speed.py [games] [players] [rounds]

Random playouts through the public surface (the project's benchmark loop) and the same
loop driving ``pyspiel`` hearts (chance outcomes sampled by their probabilities), in
interleaved rounds, then clones per second of a mid-game state of each. Needs
``pip install open_spiel`` in the virtualenv (not a project dependency). Not a test:
timings are noisy on a shared machine, so only ratios measured in the same run mean much;
we time CPU time (``time.process_time``), which other processes disturb less than the
wall clock.
"""

from __future__ import annotations

import random
import sys
import time

import dragonlair


def ours(games: int, players: int) -> tuple[int, float]:
    game = dragonlair.make("dragon-race", players=players)
    rng = random.Random(0)
    decisions = 0
    t = time.process_time()
    for i in range(games):
        s = game.new_game(seed=i)
        while not s.is_over:
            to_act = s.to_act
            seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            legal = s.legal_actions(seat)
            s.apply(seat, rng.choice(legal))
            decisions += 1
    return decisions, time.process_time() - t


def hearts(games: int) -> tuple[int, float]:
    import pyspiel

    g = pyspiel.load_game("hearts")
    rng = random.Random(0)
    decisions = 0
    t = time.process_time()
    for _ in range(games):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(acts, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions(s.current_player())))
                decisions += 1
    return decisions, time.process_time() - t


def our_clones(n: int, players: int) -> float:
    game = dragonlair.make("dragon-race", players=players)
    rng = random.Random(1)
    s = game.new_game(seed=1)
    for _ in range(150):  # well into the race
        seat = s.to_act[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    t = time.process_time()
    for _ in range(n):
        s.clone()
    return n / (time.process_time() - t)


def hearts_clones(n: int) -> float:
    import pyspiel

    g = pyspiel.load_game("hearts")
    rng = random.Random(1)
    s = g.new_initial_state()
    steps = 0
    while steps < 30:  # the pass, then a few tricks into the play
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions(s.current_player())))
            steps += 1
    t = time.process_time()
    for _ in range(n):
        s.clone()
    return n / (time.process_time() - t)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    # The machine is shared: interleave short rounds of both and compare the best round of
    # each (the least disturbed) and the median of the per-round ratios.
    ours_rates, hearts_rates = [], []
    for _ in range(rounds):
        d, t = ours(games, players)
        ours_rates.append(d / t)
        hd, ht = hearts(max(1, games // 4))
        hearts_rates.append(hd / ht)
    ratios = sorted(o / h for o, h in zip(ours_rates, hearts_rates, strict=True))
    best, hbest = max(ours_rates), max(hearts_rates)
    median = ratios[len(ratios) // 2]
    print(
        f"dragon-race {players}p: best {best:,.0f} decisions/s ({rounds} rounds of {games} games)"
    )
    print(f"hearts:         best {hbest:,.0f} decisions/s")
    print(f"ratio of the bests {best / hbest:.2f}x; median of the round ratios {median:.2f}x")
    c = max(our_clones(100_000, players) for _ in range(rounds))
    hc = max(hearts_clones(100_000) for _ in range(rounds))
    print(f"clones/s: dragon-race {c:,.0f}, hearts {hc:,.0f}, ratio {c / hc:.2f}x")


if __name__ == "__main__":
    main()
