"""The server's bot budgets (dragonlair.web.bots): iterations by default, the wall-clock
limit only as a ceiling."""

from __future__ import annotations

import json

from dragonlair.bots.ismcts import DEFAULT_ITERATIONS
from dragonlair.web.bots import _bot


def _ismcts(budget: dict[str, object], limit: float = 5.0) -> tuple[object, object]:
    bot = _bot("pebble-auction", 2, "{}", "ismcts", json.dumps(budget), limit)
    return bot.iterations, bot.time  # type: ignore[attr-defined]


def test_a_bot_without_a_budget_searches_its_default_iterations_under_the_limit() -> None:
    # the limit alone used to be its time, so it thought the full limit at every decision
    assert _ismcts({}) == (DEFAULT_ITERATIONS, 5.0)


def test_a_budget_a_table_names_is_kept_and_capped() -> None:
    assert _ismcts({"iterations": 50}) == (50, 5.0)
    assert _ismcts({"time": 1.0}) == (None, 1.0)
    assert _ismcts({"time": 9.0}) == (None, 5.0)
    assert _ismcts({"iterations": 80, "time": 2.0}) == (80, 2.0)


def test_quick_bots_take_no_budget() -> None:
    bot = _bot("pebble-auction", 2, "{}", "random", "{}", 5.0)  # takes no parameters at all
    assert bot.game.spec.id == "pebble-auction"
