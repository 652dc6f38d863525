"""Component data: the built-in file, a user's own file, and precise refusals."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import dragonlair
from dragonlair import BadDataFile, BadOptions
from dragonlair.dragon_stripes.cards import load_components


def builtin() -> dict[str, Any]:
    text = resources.files("dragonlair.dragon_stripes").joinpath("data", "dragon_stripes.json")
    data: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: object, name: str = "mine.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_the_built_in_components() -> None:
    c = load_components()
    assert c.stripes == tuple(range(1, 18))
    assert [(f.steps, f.count) for f in c.footprints] == [(1, 11), (2, 11), (3, 9), (4, 7)]
    assert (c.stop_cards, c.danger_cards, c.start_gems) == (10, 3, 40)
    assert [(g.value, g.count) for g in c.gems] == [(1, 50), (5, 20), (10, 20)]
    assert c.total_gems == 350 and len(c.deck()) == 51
    assert [(b.low, b.high, b.price) for b in c.takeover] == [
        (1, 10, 1),
        (11, 20, 10),
        (21, 40, 20),
        (41, None, 40),
    ]


def test_a_users_file_of_printed_values_is_used(tmp_path: Path) -> None:
    data = builtin()
    data["stripes"] = [1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 12]
    data["footprint_cards"] = [{"steps": 1, "count": 20}, {"steps": 5, "count": 2}]
    data["start_gems"] = 30
    data["takeover_prices"] = [
        {"from": 1, "to": 5, "price": 2},
        {"from": 6, "to": None, "price": 6},
    ]
    path = write(tmp_path, data)
    game = dragonlair.make("dragon-stripes", players=3, options={"data": path})
    s = game.new_game(seed=4)
    v = s.view(0)
    assert v["stripes"] == data["stripes"] and v["head"] == 13 and v["gems"] == 30
    assert v["deck_left"] == {"footprint 1": 20, "footprint 5": 2, "stop": 10, "danger": 3}
    assert game.max_length == 35 * 4
    assert s.lair == 350 - 90  # type: ignore[attr-defined]
    assert dragonlair.replay(s.record).to_json() == s.to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("stripes"), r"mine.json: the file: missing 'stripes'"),
        (lambda d: d.update(stripe=[1]), r"mine.json: key 'stripe': expected one of note, "),
        (
            lambda d: d["stripes"].__setitem__(3, "four"),
            r"mine.json: stripes\[3\]: expected an integer from 0 to 1000, got 'four'",
        ),
        (lambda d: d.update(stripes=[]), r"stripes: expected a list of 1 to 100 stripe values"),
        (lambda d: d.update(stripes={"1": 1}), r"stripes: expected a list, got \{'1': 1\}"),
        (
            lambda d: d["footprint_cards"][1].update(steps=0),
            r"footprint_cards\[1\].steps: expected an integer from 1 to 100, got 0",
        ),
        (
            lambda d: d["footprint_cards"][2].update(steps=1),
            r"footprint_cards\[2\].steps: expected a step value not listed before, got 1",
        ),
        (
            lambda d: d["footprint_cards"][0].pop("count"),
            r"footprint_cards\[0\]: missing 'count'",
        ),
        (
            lambda d: d["footprint_cards"][0].update(colour="red"),
            r"footprint_cards\[0\]: key 'colour': expected one of steps, count, got 'colour'",
        ),
        (lambda d: d.update(stop_cards=-1), r"stop_cards: expected an integer from 0 to 500"),
        (
            lambda d: d.update(danger_cards=2),
            r"danger_cards: expected 3 \(the rules have a first, second and third Danger\), "
            r"got 2",
        ),
        (lambda d: d.update(gems=[]), r"gems: expected at least one kind of gem"),
        (
            lambda d: d["gems"][1].update(value=True),
            r"gems\[1\].value: expected an integer from 1 to 1000, got True",
        ),
        (lambda d: d.update(start_gems=1.5), r"start_gems: expected an integer >= 0, got 1.5"),
        (
            lambda d: d["takeover_prices"][0].update({"from": 0}),
            r"takeover_prices\[0\].from: expected 1 \(the first band starts at 1\), got 0",
        ),
        (
            lambda d: d["takeover_prices"][1].update({"from": 12}),
            r"takeover_prices\[1\].from: expected 11 \(bands follow on without gaps\), got 12",
        ),
        (
            lambda d: d["takeover_prices"][3].update({"to": 99}),
            r"takeover_prices\[3\].to: expected null \(the last band has no upper end\), got 99",
        ),
        (
            lambda d: d["takeover_prices"][1].update({"to": 5}),
            r"takeover_prices\[1\].to: expected an integer >= 11, got 5",
        ),
        (
            lambda d: d["takeover_prices"][2].update(price=-3),
            r"takeover_prices\[2\].price: expected an integer >= 0, got -3",
        ),
        (lambda d: d.update(takeover_prices=[]), r"takeover_prices: expected at least one"),
        (
            lambda d: d.update(start_gems=100),
            r"mine.json: start_gems: expected at most 87 so that 4 players can each start with "
            r"it \(the gems are worth 350 in all\), got 100",
        ),
    ],
)
def test_a_malformed_file_is_refused_naming_the_entry(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], message: str
) -> None:
    data = copy.deepcopy(builtin())
    change(data)
    path = write(tmp_path, data)
    with pytest.raises(BadDataFile, match=message):
        dragonlair.make("dragon-stripes", players=4, options={"data": path})


def test_unreadable_or_invalid_json_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BadDataFile, match="cannot read data file .*nothing.json"):
        dragonlair.make("dragon-stripes", options={"data": str(tmp_path / "nothing.json")})
    with pytest.raises(BadDataFile, match="broken.json: not valid JSON"):
        dragonlair.make("dragon-stripes", options={"data": write(tmp_path, "{", "broken.json")})
    with pytest.raises(BadDataFile, match="list.json: the file: expected an object"):
        dragonlair.make("dragon-stripes", options={"data": write(tmp_path, [], "list.json")})


def test_a_refused_file_changes_nothing(tmp_path: Path) -> None:
    before = dragonlair.make("dragon-stripes", players=3).new_game(seed=5).to_json()
    data = builtin()
    data["danger_cards"] = 4
    with pytest.raises(BadDataFile):
        dragonlair.make("dragon-stripes", players=3, options={"data": write(tmp_path, data)})
    assert dragonlair.make("dragon-stripes", players=3).new_game(seed=5).to_json() == before


def test_start_gems_must_fit_the_player_count(tmp_path: Path) -> None:
    data = builtin()
    data["start_gems"] = 60  # 5 x 60 fits in 350, 6 x 60 does not
    path = write(tmp_path, data)
    assert dragonlair.make("dragon-stripes", players=5, options={"data": path}).start_gems == 60  # type: ignore[attr-defined]
    with pytest.raises(BadDataFile, match="expected at most 58 so that 6 players"):
        dragonlair.make("dragon-stripes", players=6, options={"data": path})


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, "Dragon Stripes is for 2 to 6 players, not 1"),
        (7, {}, "Dragon Stripes is for 2 to 6 players, not 7"),
        (4, {"colour": "red"}, "no option 'colour'; its options are: data, open_holdings"),
        (4, {"open_holdings": "maybe"}, "open_holdings='maybe' is not allowed: expected true"),
        (4, {"data": 3}, "data=3 is not allowed: expected a path"),
    ],
)
def test_bad_player_counts_and_options_are_refused(
    players: int, options: dict[str, object], message: str
) -> None:
    with pytest.raises(BadOptions, match=message):
        dragonlair.make("dragon-stripes", players=players, options=options)


def test_the_spec_and_the_actions() -> None:
    game = dragonlair.make("dragon-stripes")
    assert game.players == 4 and game.spec.rules_version == 1
    assert [str(a) for a in game.actions] == ["draw", "hold", "take", "decline"]
    assert game.num_actions == 4
    assert game.parse_action("  HOLD ") == dragonlair.Action("hold")
    assert game.action_from_id(game.action_id(dragonlair.Action("take"))) == dragonlair.Action(
        "take"
    )
    assert "takeover price" in game.describe_action(dragonlair.Action("take"))
    with pytest.raises(dragonlair.UnknownAction, match="expected one of: draw, hold, take"):
        game.parse_action("pass")
