"""How often the Space Dragons heuristic wins against random seats, with a 95% interval.

Not a test (pytest does not collect it). Run from the repository root:

    .venv/bin/python tests/space_dragons/eval_space_dragons_heuristic.py [games] [players]

One heuristic seat plays against random seats; its seat rotates round the table from game
to game. A shared win counts as 1/k of a win for k winners. The interval is the normal
approximation, p +- 1.96 * sqrt(p * (1 - p) / games).
"""

from __future__ import annotations

import math
import random
import sys

import dragonlair
from dragonlair.bots.base import RandomBot
from dragonlair.space_dragons import Heuristic


def win_share(players: int, games: int, options: dict[str, object] | None = None) -> float:
    game = dragonlair.make("space-dragons", players=players, options=options)
    wins = 0.0
    for i in range(games):
        seat = i % players
        bots = [RandomBot(game) for _ in range(players)]
        bots[seat] = Heuristic(game)
        rng = random.Random(i)
        s = game.new_game(seed=10_000 + i)
        while not s.is_over:
            actor = s.to_act[rng.randrange(len(s.to_act))]
            s.apply(actor, bots[actor].choose(s.view(actor), s.legal_actions(actor), rng))
        assert s.result is not None
        if seat in s.result.winners:
            wins += 1 / len(s.result.winners)
    return wins / games


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 400
    counts = [int(argv[1])] if len(argv) > 1 else [3, 4, 5]
    for players in counts:
        p = win_share(players, games)
        half = 1.96 * math.sqrt(p * (1 - p) / games)
        print(
            f"{players} players, {games} games: heuristic wins {p:.3f} "
            f"(95% CI {p - half:.3f} to {p + half:.3f}); a fair share is {1 / players:.3f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
