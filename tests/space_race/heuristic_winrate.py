"""How often one heuristic seat wins against random seats, with a 95% confidence interval.

    .venv/bin/python tests/space_race/heuristic_winrate.py [games] [players]

The heuristic's seat rotates through every seat; a shared win counts as 1/k of a win for
each of the k winners. Fair share is 1/players. Not a test (the seeded test in
test_heuristic.py is the quick version).
"""

from __future__ import annotations

import math
import random
import sys

import dragonlair
from dragonlair.bots.base import RandomBot
from dragonlair.space_race import Heuristic


def play(game: dragonlair.Game, seed: int, hero: int) -> float:
    """The heuristic's share of the win in one seeded game, the heuristic at ``hero``."""
    bots = [Heuristic(game) if s == hero else RandomBot(game) for s in range(game.players)]
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    while not state.is_over:
        for seat in state.to_act:
            legal = state.legal_actions(seat)
            state.apply(seat, bots[seat].choose(state.view(seat), legal, rng))
    result = state.result
    assert result is not None
    return 1 / len(result.winners) if hero in result.winners else 0.0


def main(games: int, players: int) -> None:
    game = dragonlair.make("space-race", players=players)
    wins = [play(game, seed, seed % players) for seed in range(games)]
    p = sum(wins) / games
    half = 1.96 * math.sqrt(p * (1 - p) / games)
    print(
        f"{players}p: heuristic won {sum(wins):.1f} of {games} games: {p:.3f} "
        f"(95% CI {p - half:.3f}..{p + half:.3f}; fair share {1 / players:.3f})"
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 200, int(args[1]) if len(args) > 1 else 4)
