"""What the RL tests share. They run on every game whose manifest declares a layout: the
installed games and the core's example game (its manifest is registered for every test)."""

from __future__ import annotations

import dragonlair
from dragonlair.rl import layout_ids


def rl_games() -> list[str]:
    """The games whose manifest declares a layout, the example game included."""
    return layout_ids()


# Options that change what a view shows or how the game scores, per game.
OPTION_SETS: dict[str, list[dict[str, object]]] = {
    "dragon-stripes": [{"open_holdings": True}],
    "space-dragons": [
        {"variant": True},
        {"science": "b", "mood": "random", "b_sides": "bonus", "shield": -5, "damage": 5},
    ],
    "dragon-race": [{"bonus_play": "must", "turn_cap": 30}],
    "space-race": [{"every_power_source": True, "scanner": "always"}],
}


def player_counts(game_id: str) -> list[int]:
    s = dragonlair.spec(game_id)
    return list(range(s.min_players, s.max_players + 1))


def random_playout(game: dragonlair.Game, seed: int) -> list[dragonlair.State]:
    """The states of one seeded random game, from the first to the last."""
    import random

    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    states = [state.clone()]
    while not state.is_over:
        seat = rng.choice(state.to_act)
        state.apply_id(seat, rng.choice(state.legal_action_ids(seat)))
        states.append(state.clone())
    return states
