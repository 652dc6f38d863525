"""Making bots by level, their parameters, and the bot specs the command line takes."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.bots import (
    LEVELS,
    Bot,
    BotSpec,
    RandomBot,
    UnknownBot,
    heuristic_class,
    make_bot,
    parse_bot,
    parse_bots,
)
from dragonlair.bots.ismcts import ISMCTSBot
from tests.core.pebble_auction.heuristic import PebbleHeuristic
from tests.core.pebble_auction.manifest import heuristic

GAME = "pebble-auction"


def test_every_level_makes_a_bot_that_plays() -> None:
    game = dragonlair.make(GAME, players=3)
    state = game.new_game(seed=1)
    seat = state.to_act[0]
    for level in LEVELS:
        params = {"iterations": 10} if level == "ismcts" else {}
        bot = make_bot(level, game, **params)
        assert isinstance(bot, Bot) and bot.level == level
        action = bot.choose(state.view(seat), state.legal_actions(seat), random.Random(1))
        assert action in state.legal_actions(seat)
    assert isinstance(make_bot("random", game), RandomBot)
    assert isinstance(make_bot("ismcts", game), ISMCTSBot)


def test_heuristics_are_found_through_the_manifest() -> None:
    game = dragonlair.make(GAME)
    assert heuristic_class(game) is PebbleHeuristic
    with (
        heuristic(GAME, None),
        pytest.raises(UnknownBot, match="Pebble Auction has no heuristic bot"),
    ):
        make_bot("heuristic", game)


def test_unknown_levels_and_parameters_are_refused() -> None:
    game = dragonlair.make(GAME)
    with pytest.raises(UnknownBot, match="no bot level 'genius'; the levels are: random"):
        make_bot("genius", game)
    with pytest.raises(UnknownBot, match="the random bot takes no parameters, not time=1"):
        make_bot("random", game, time=1)
    with pytest.raises(UnknownBot, match="the heuristic bot does not take depth=2"):
        make_bot("heuristic", game, depth=2)


def test_bot_specs_parse_levels_and_typed_parameters() -> None:
    spec = parse_bot("ismcts:time=0.1:iterations=50:rollout=random")
    assert spec == BotSpec("ismcts", {"time": 0.1, "iterations": 50, "rollout": "random"})
    assert spec.text == "ismcts:time=0.1:iterations=50:rollout=random"
    assert str(parse_bot(" heuristic ")) == "heuristic"
    assert parse_bot("ismcts:paired=true").params == {"paired": True}
    assert parse_bot("ismcts:paired=true").text == "ismcts:paired=true"
    assert parse_bot("ismcts:iterations=5").make(dragonlair.make(GAME)).iterations == 5  # type: ignore[attr-defined]
    specs = parse_bots("ismcts:iterations=5,heuristic", 4)
    assert [s.text for s in specs] == ["ismcts:iterations=5", "heuristic", "heuristic", "heuristic"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("genius", "no bot level 'genius'"),
        ("ismcts:time", "key=value after the level, as in ismcts:time=0.1; 'time'"),
        ("ismcts:=3", "key=value"),
        ("ismcts:time=", "key=value"),
        ("ismcts:time=1:time=2", "'time' is given twice"),
        ("random,,random", "comma-separated levels"),
        ("", "comma-separated levels"),
        ("random,random,random,random,random", "5 bots given for 4 seats"),
    ],
)
def test_bad_bot_specs_are_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(UnknownBot, match=message):
        parse_bots(text, 4)
