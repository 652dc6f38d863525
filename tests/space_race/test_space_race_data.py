"""Component data: the shipped file, a user's own file, and precise refusals of bad ones."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import dragonlair
from dragonlair import BadDataFile, BadOptions
from dragonlair.space_race import SpaceRace

SHIPPED: dict[str, Any] = json.loads(
    resources.files("dragonlair.space_race").joinpath("data", "space_race.json").read_text()
)


def write(tmp_path: Path, doc: object, name: str = "mine.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_the_shipped_data_has_the_rulebook_component_counts() -> None:
    game = dragonlair.make("space-race")
    assert isinstance(game, SpaceRace)
    data = game.components
    assert Counter(c.type for c in data.space) == {
        "alien_drone": 9,
        "loot_carrier": 9,
        "crystal": 9,
        "scanner": 9,
        "robot_part": 9,
        "crew": 18,
        "power_source": 9,
    }
    assert Counter(d.kind for d in data.danger) == {"flight": 4, "fight": 4}
    assert Counter(d.name for d in data.damage) == {
        "Alien Invasion": 7,
        "Fire Onboard": 14,
        "Hull Breach": 7,
    }
    assert [e.faction for e in data.cockpits] == ["Wolves", "Vultures", "Jackals", "Ravens"]
    assert [e.faction for e in data.engines] == ["Wolves", "Vultures", "Jackals", "Ravens"]
    assert sorted(data.coin) == ["left", "right"]
    # the rulebook's bidding example card: 2 wrenches, 1 damage, 2 damage, 3 damage
    assert [str(r) for r in data.danger[0].ranks] == [
        "2 wrenches",
        "1 damage",
        "2 damage",
        "3 damage",
    ]
    # one robot part per colour and kind
    parts = {(c.color, c.part) for c in data.space if c.type == "robot_part"}
    assert len(parts) == 9


def test_the_data_is_loaded_once_per_game_object() -> None:
    game = dragonlair.make("space-race", players=3)
    first = game.new_game(seed=1)
    second = game.new_game(seed=2)
    assert first.game.components is second.game.components  # type: ignore[attr-defined]


def test_a_user_file_with_the_same_schema_is_used(tmp_path: Path) -> None:
    doc = copy.deepcopy(SHIPPED)
    for card in doc["damage_cards"]:
        if card["name"] == "Hull Breach":
            card["vp"] = -4
    for card in doc["space_cards"]:
        if card["type"] == "crew":
            card["corner_vp"] = 1
    game = dragonlair.make("space-race", players=2, options={"data": write(tmp_path, doc)})
    assert isinstance(game, SpaceRace)
    assert {d.vp for d in game.components.damage if d.name == "Hull Breach"} == {-4}
    assert game.components.source.endswith("mine.json")
    s = game.new_game(seed=3)
    while not s.is_over:
        s.apply(s.to_act[0], s.legal_actions(s.to_act[0])[0])
    assert s.result is not None
    # the record keeps the option, so a replay reads the same file
    assert dragonlair.replay(s.record).to_json() == s.to_json()


def test_a_user_file_may_hold_more_cards_and_fewer_for_fewer_players(tmp_path: Path) -> None:
    doc = copy.deepcopy(SHIPPED)
    doc["space_cards"] = doc["space_cards"][:36]
    game = dragonlair.make("space-race", players=2, options={"data": write(tmp_path, doc)})
    assert game.num_actions < dragonlair.make("space-race", players=2).num_actions
    with pytest.raises(BadDataFile, match=r"space_cards: expected at least 54 cards"):
        dragonlair.make("space-race", players=3, options={"data": write(tmp_path, doc)})


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A mutation that sets the entry at a dotted path (list indices as numbers)."""

    def mutate(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        if value is _DELETE:
            del node[int(last) if last.isdigit() else last]
        else:
            node[int(last) if last.isdigit() else last] = value

    return mutate


_DELETE = object()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (_set("space_cards.3.type", "laser"), r"space_cards\[3\]\.type: expected one of scanner,"),
        (
            _set("space_cards.0.color", None),
            r"space_cards\[0\]\.color: expected one of orange, green, purple for a scanner",
        ),
        (_set("space_cards.0.color", "red"), r"space_cards\[0\]\.color: expected one of orange"),
        (
            _set("space_cards.9.part", _DELETE),
            r"space_cards\[9\]\.part: expected one of head, body, legs for a robot_part",
        ),
        (
            _set("space_cards.18.part", "head"),
            r"space_cards\[18\]\.part: expected no part for a crystal",
        ),
        (
            _set("space_cards.5.id", 7),
            r"space_cards\[5\]\.id: expected an integer from 6 to 6, got 7",
        ),
        (
            _set("space_cards.5.corner_vp", "two"),
            r"space_cards\[5\]\.corner_vp: expected an integer",
        ),
        (
            _set("space_cards.5.corner_vp", True),
            r"space_cards\[5\]\.corner_vp: expected an integer",
        ),
        (
            _set("space_cards.0.on_play", "explode"),
            r"space_cards\[0\]\.on_play: expected one of peek_top_danger",
        ),
        (_set("space_cards.0.colour", "orange"), r"space_cards\[0\]: unknown key 'colour'"),
        (_set("space_cards.40", "drone"), r"space_cards\[40\]: expected an object, got 'drone'"),
        (
            _set("danger_cards.0.kind", "flee"),
            r"danger_cards\[0\]\.kind: expected one of flight, fight",
        ),
        (
            _set("danger_cards.0.ranks.3", _DELETE),
            r"danger_cards\[0\]\.ranks: expected a list of 4 entries",
        ),
        (
            _set("danger_cards.2.ranks.0.icon", "bomb"),
            r"danger_cards\[2\]\.ranks\[0\]\.icon: expected one of x, wrench, damage",
        ),
        (
            _set("danger_cards.2.ranks.0.n", 1),
            r"danger_cards\[2\]\.ranks\[0\]\.n: expected an integer from 0 to 0, got 1",
        ),
        (
            _set("danger_cards.0.ranks.0.n", 0),
            r"danger_cards\[0\]\.ranks\[0\]\.n: expected an integer from 1 to 9, got 0",
        ),
        (_set("danger_cards", []), r"danger_cards: expected at least 3 cards \(one per round\)"),
        (
            _set("damage_cards.0.vp", 1),
            r"damage_cards\[0\]\.vp: expected an integer from -99 to 0, got 1",
        ),
        (_set("damage_cards.0.name", 3), r"damage_cards\[0\]\.name: expected a string, got 3"),
        (_set("damage_cards", {}), r"damage_cards: expected a list, got \{\}"),
        (_set("cockpits.1.ability", "shield"), r"cockpits\[1\]\.ability: expected null"),
        (_set("engines.1.vp", 2), r"engines\[1\]\.vp: expected 0"),
        (
            _set("engines", [{"faction": "Wolves"}]),
            r"engines: expected at least 4 \(one per player\)",
        ),
        (_set("navigation_coin", ["left", "left"]), r"navigation_coin: expected one face 'left'"),
        (_set("navigation_coin", ["left"]), r"navigation_coin: expected a list of 2 entries"),
        (_set("navigation_coin.1", "up"), r"navigation_coin\[1\]: expected one of left, right"),
        (_set("space_cards", _DELETE), r"the file: missing 'space_cards'"),
        (_set("extra", 1), r"the file: unknown key 'extra'"),
        (_set("space_cards", list(range(3))), r"space_cards: expected at least 72 cards"),
    ],
)
def test_malformed_user_files_are_refused_precisely(
    tmp_path: Path, mutate: Callable[[dict[str, Any]], None], message: str
) -> None:
    doc = copy.deepcopy(SHIPPED)
    mutate(doc)
    path = write(tmp_path, doc)
    before = dragonlair.make("space-race").new_game(seed=1).to_json()
    with pytest.raises(BadDataFile, match=message) as e:
        dragonlair.make("space-race", players=4, options={"data": path})
    assert str(e.value).startswith(path + ": ")
    # a refused file changes nothing: the next game is made from the shipped data as before
    assert dragonlair.make("space-race").new_game(seed=1).to_json() == before


def test_unreadable_and_invalid_json_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BadDataFile, match=r"cannot read data file .*nope\.json"):
        dragonlair.make("space-race", options={"data": str(tmp_path / "nope.json")})
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(BadDataFile, match=r"bad\.json: not valid JSON"):
        dragonlair.make("space-race", options={"data": str(bad)})
    top = write(tmp_path, [1, 2])
    with pytest.raises(BadDataFile, match=r"the file: expected an object, got \[1, 2\]"):
        dragonlair.make("space-race", options={"data": top})


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, "for 2 to 4 players, not 1"),
        (5, {}, "for 2 to 4 players, not 5"),
        (4, {"every_power_source": "maybe"}, r"every_power_source='maybe' is not allowed"),
        (
            4,
            {"scanner": "sometimes"},
            r"scanner='sometimes' is not allowed: expected one of on-play, always",
        ),
        (4, {"data": 5}, r"data=5 is not allowed: expected a path"),
        (
            4,
            {"colour": "red"},
            r"no option 'colour'; its options are: every_power_source, scanner, data",
        ),
    ],
)
def test_bad_players_and_options_are_refused(
    players: int, options: dict[str, object], message: str
) -> None:
    with pytest.raises(BadOptions, match=message):
        dragonlair.make("space-race", players=players, options=options)


def test_option_defaults_and_text_values() -> None:
    game = dragonlair.make(
        "space-race", players=3, options={"every_power_source": "yes", "scanner": "always"}
    )
    assert game.options == {"every_power_source": True, "scanner": "always", "data": None}
    assert dragonlair.make("space-race").options == {
        "every_power_source": False,
        "scanner": "on-play",
        "data": None,
    }


def test_the_stack_numbers_are_the_places_in_stacks() -> None:
    """cards.py writes each stack's number out (a constant in the compiled build): each
    must be its stack's place in STACKS, and NSTACK their count."""
    from dragonlair.space_race import cards

    number = {
        "scanners": cards.S_SCANNER,
        "robot_parts": cards.S_ROBOT,
        "crystals": cards.S_CRYSTAL,
        "power_cockpit": cards.S_POWER_COCKPIT,
        "power_engine": cards.S_POWER_ENGINE,
        "alien_drones": cards.S_DRONE,
        "loot_carriers": cards.S_LOOT,
        "crew": cards.S_CREW,
        "fuel": cards.S_FUEL,
        "damage": cards.S_DAMAGE,
    }
    assert [number[name] for name in cards.STACKS] == list(range(len(cards.STACKS)))
    assert cards.NSTACK == len(cards.STACKS) == len(number)
