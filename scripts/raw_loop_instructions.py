"""Play N seeded random games of one game at 4 players through ``legal_action_ids`` and
``apply_id`` (the raw loop), and print the number of decisions played. Run under
``valgrind --tool=callgrind --callgrind-out-file=/dev/null`` with N and with 0: the
difference of the two instruction counts over the decisions is the engine's cost per
decision, which the machine's load does not move (docs/engine.md, "Speed").

    python scripts/raw_loop_instructions.py space-race 20
"""

from __future__ import annotations

import random
import sys

import dragonlair


def main(game_id: str, games: int) -> int:
    game = dragonlair.make(game_id, players=4)
    game.new_game(seed=999)  # the first game made loads its tables: not counted apart
    decisions = 0
    for seed in range(games):
        state = game.new_game(seed=seed)
        draw = random.Random(seed).random
        while not state.is_over:
            seat = state.to_act[0]
            ids = state.legal_action_ids(seat)
            state.apply_id(seat, ids[int(draw() * len(ids))])
            decisions += 1
    return decisions


if __name__ == "__main__":
    print(main(sys.argv[1], int(sys.argv[2])))
