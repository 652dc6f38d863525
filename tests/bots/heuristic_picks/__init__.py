"""A fixed sample of positions per game and the move each game's heuristic picks there,
so that making a heuristic faster cannot change how it plays unnoticed.

Each ``<game>.json`` holds seeded games, every one as its seed, player count and actions
(heuristic seats mixed with random ones, so the positions are both sensible and varied),
and the decisions picked from it: after how many actions, for which seat, the seed of the
bot's generator and the action the heuristic chose (for The Great Dragon Race also
``evaluate``'s figures, which its search uses). ``test_heuristic_picks`` replays each
game to each position and asks the heuristic again.

The files were written by ``python -m tests.bots.heuristic_picks`` from the heuristics as
they played then; write them again only when a heuristic is meant to play differently.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import dragonlair
from dragonlair.bots import make_bot
from dragonlair.core import Game, State

HERE = Path(__file__).parent
GAMES = ("space-dragons", "space-race", "dragon-stripes", "dragon-race")
TABLES = 50  # games per file
PER_TABLE = 4  # decisions picked from each game: 200 positions per game


def path(game_id: str) -> Path:
    return HERE / f"{game_id}.json"


def load(game_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path(game_id).read_text())
    return data


def replay(game: Game, table: dict[str, Any], upto: int) -> State:
    """The state of ``table`` (played by ``game``) after its first ``upto`` actions."""
    state = game.new_game(seed=table["seed"])
    for seat, text in table["actions"][:upto]:
        state.apply(seat, game.parse_action(text))
    return state


def record(game_id: str) -> dict[str, Any]:
    spec = dragonlair.spec(game_id)
    tables = []
    for i in range(TABLES):
        players = spec.min_players + i % (spec.max_players - spec.min_players + 1)
        rng = random.Random(f"{game_id} {i}")
        game = dragonlair.make(game_id, players=players)
        heuristic = make_bot("heuristic", game)
        random_bot = make_bot("random", game)
        bots = [heuristic if rng.random() < 0.75 else random_bot for _ in range(players)]
        bot_rngs = [random.Random(rng.getrandbits(32)) for _ in range(players)]
        state = game.new_game(seed=1000 + i)
        actions: list[list[Any]] = []
        choices: list[tuple[int, int]] = []  # (actions before it, seat)
        while not state.is_over:
            seat = state.to_act[rng.randrange(len(state.to_act))]
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                choices.append((len(actions), seat))
            action = bots[seat].choose(state.view(seat), legal, bot_rngs[seat])
            state.apply(seat, action)
            actions.append([seat, str(action)])
        picks = []
        for upto, seat in sorted(rng.sample(choices, min(PER_TABLE, len(choices)))):
            at = replay(game, {"players": players, "seed": 1000 + i, "actions": actions}, upto)
            bot_seed = rng.getrandbits(32)
            view = at.view(seat)
            pick: dict[str, Any] = {
                "upto": upto,
                "seat": seat,
                "bot_seed": bot_seed,
                "choice": str(
                    heuristic.choose(view, at.legal_actions(seat), random.Random(bot_seed))
                ),
            }
            evaluate = getattr(heuristic, "evaluate", None)
            if evaluate is not None:
                pick["evaluate"] = [round(x, 9) for x in evaluate(view)]
            picks.append(pick)
        tables.append({"players": players, "seed": 1000 + i, "actions": actions, "picks": picks})
    return {"game": game_id, "tables": tables}


def main(argv: list[str]) -> None:
    for game_id in argv or GAMES:
        data = record(game_id)
        path(game_id).write_text(json.dumps(data, separators=(",", ":")) + "\n")
        n = sum(len(t["picks"]) for t in data["tables"])
        print(f"{game_id}: {n} positions in {path(game_id).name}")
