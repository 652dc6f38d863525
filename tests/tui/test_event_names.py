"""Every text a player reads names a card the way its face does: no log line, in the
terminal or in the engine's own sentences (which the browser's catalog repeats), depends
on a card's or a dragon's internal id."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import dragonlair
from dragonlair.core import Game, State
from dragonlair.tui.words import Words
from tests.games import OWN_GAMES

GAMES = [g for g in dragonlair.games() if g != "pebble-auction"]  # a test-only game

# Fields of events that hold internal ids of components, by built-in game (an installed
# outside game's events are checked for the id patterns below). Space Dragons' crew
# cards carry their id as their printed number (checked below), so their fields are not
# listed; its dragons' ids are printed nowhere.
ID_FIELDS: dict[str, tuple[str, ...]] = {
    "dragon-race": ("card", "cards"),
    "space-race": ("card", "cards"),
    "space-dragons": ("dragon",),
    "dragon-stripes": (),
}


def _moved(value: Any) -> Any:
    """Another id for the same component: the text must not change."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value + 1000
    if isinstance(value, list):
        return [_moved(v) for v in value]
    return value


def _whole_game(game: Game, seed: int) -> State:
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_every_game_lists_its_id_fields() -> None:
    assert set(ID_FIELDS) == set(OWN_GAMES)


def test_space_dragons_crew_cards_print_their_id() -> None:
    game: Any = dragonlair.make("space-dragons", players=3)
    for number in range(1, len(game.tables.card_labels)):
        assert game.components.card(number).number == number


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game_id", GAMES)
def test_no_log_line_names_an_internal_id(game_id: str) -> None:
    spec = dragonlair.spec(game_id)
    fields = ID_FIELDS.get(game_id, ())
    for players in (spec.min_players, spec.max_players):
        game = dragonlair.make(game_id, players=players)
        names = ["You"] + [f"Heuristic {i + 1}" for i in range(1, players)]
        for seed in (1, 2):
            state = _whole_game(game, seed)
            for seat in (None, *range(players)):
                words = Words(game, names, seat)
                for event in state.events_since(0, seat):
                    moved = {k: _moved(v) if k in fields else v for k, v in event.items()}
                    for line, again in (
                        (words.event(event), words.event(moved)),
                        (game.event_text(event, names), game.event_text(moved, names)),
                    ):
                        assert again == line, f"{line!r} shows an id of {fields}"
                        assert not re.search(r"#\d|\(cards? \d|\bdragon \d", line), line
