"""How often one heuristic seat wins among random seats, seats rotated, with a 95% interval.

    .venv/bin/python tests/dragon_stripes/stripes_winrate.py [games] [players...]

Not a test (pytest does not collect it); the test suite runs a small seeded version. A
shared win counts as 1/k of a win for each of the k tied winners.
"""

from __future__ import annotations

import math
import random
import sys

import dragonlair
from dragonlair.bots import Bot, RandomBot
from dragonlair.dragon_stripes import Heuristic


def win_share(players: int, games: int, seed: int = 0) -> float:
    """The heuristic's share of the wins over ``games`` games, its seat rotating."""
    game = dragonlair.make("dragon-stripes", players=players)
    heuristic, rand = Heuristic(game), RandomBot(game)
    rng = random.Random(seed)
    won = 0.0
    for i in range(games):
        mine = i % players
        s = game.new_game(seed=seed * 1_000_003 + i)
        while not s.is_over:
            seat = s.to_act[0]
            bot: Bot = heuristic if seat == mine else rand
            s.apply(seat, bot.choose(s.view(seat), s.legal_actions(seat), rng))
        assert s.result is not None
        if mine in s.result.winners:
            won += 1 / len(s.result.winners)
    return won / games


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 1000
    counts = [int(a) for a in argv[1:]] or [2, 3, 4, 5, 6]
    for players in counts:
        p = win_share(players, games, seed=1)
        half = 1.96 * math.sqrt(p * (1 - p) / games)
        print(
            f"{players}p, {games} games: heuristic wins {p:.3f} "
            f"(95% CI {p - half:.3f} to {p + half:.3f}); fair share {1 / players:.3f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
