"""The heuristic bot against random players, seats rotated, with a 95% confidence interval.

    .venv/bin/python tests/dragon_race/eval_heuristic.py [games] [players...]

One heuristic seat among random seats; the heuristic's seat rotates game by game, so each
seat is played equally often. A shared win counts as 1/k of a win. Not a test (it takes a
while); the seeded test in test_race_heuristic.py is the quick check.
"""

from __future__ import annotations

import math
import random
import sys

import dragonlair
from dragonlair.bots.base import RandomBot
from dragonlair.dragon_race import Heuristic


def win_rate(players: int, games: int, seed: int = 2024) -> tuple[float, float, float]:
    """The heuristic's share of wins, with a 95% Wilson score interval."""
    game = dragonlair.make("dragon-race", players=players)
    heuristic, rand = Heuristic(game), RandomBot(game)
    wins = 0.0
    for i in range(games):
        me = i % players
        rng = random.Random(seed + i)
        s = game.new_game(seed + i)
        while not s.is_over:
            (seat,) = s.to_act
            bot = heuristic if seat == me else rand
            s.apply(seat, bot.choose(s.view(seat), s.legal_actions(seat), rng))
        assert s.result is not None
        if me in s.result.winners:
            wins += 1 / len(s.result.winners)
    p = wins / games
    z = 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return p, centre - half, centre + half


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    counts = [int(a) for a in sys.argv[2:]] or [2, 3, 4]
    for n in counts:
        p, lo, hi = win_rate(n, games)
        print(
            f"{n} players, {games} games: heuristic wins {p:.3f} (95% CI {lo:.3f}-{hi:.3f}); "
            f"fair share {1 / n:.3f}"
        )


if __name__ == "__main__":
    main()
