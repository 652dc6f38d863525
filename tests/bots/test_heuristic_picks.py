"""Each game's heuristic picks what it picked when the sample was recorded, at every one
of 200 fixed positions (see ``tests/bots/heuristic_picks``): a faster heuristic must play
the same game."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.bots import Bot, make_bot
from dragonlair.core import Game

from .heuristic_picks import GAMES, load, replay


@pytest.mark.parametrize("game_id", GAMES)
def test_the_heuristic_picks_as_recorded(game_id: str) -> None:
    data = load(game_id)
    assert data["game"] == game_id
    checked = 0
    differ = []
    games: dict[int, tuple[Game, Bot]] = {}
    for table in data["tables"]:
        players = table["players"]
        if players not in games:
            game = dragonlair.make(game_id, players=players)
            games[players] = game, make_bot("heuristic", game)
        game, bot = games[players]
        for pick in table["picks"]:
            state = replay(game, table, pick["upto"])
            seat = pick["seat"]
            view = state.view(seat)
            legal = state.legal_actions(seat)
            where = f"seed {table['seed']}, {table['players']}p, after {pick['upto']} actions"
            # from the JSON view, and from the typed view bots are handed
            for given in (view, state.seat_view(seat)):
                choice = str(bot.choose(given, legal, random.Random(pick["bot_seed"])))
                if choice != pick["choice"]:
                    differ.append(f"{where}: {choice}, recorded {pick['choice']}")
            if "evaluate" in pick:
                got = [round(x, 9) for x in bot.evaluate(view)]  # type: ignore[attr-defined]
                assert got == pytest.approx(pick["evaluate"], abs=1e-8), where
            checked += 1
    assert not differ, "\n".join(differ)
    assert checked == 200
