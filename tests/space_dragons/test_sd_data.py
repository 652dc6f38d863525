"""The component data file and the options: good files and values work, bad ones are
refused with messages that name the file, the entry and what was expected."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import dragonlair
from dragonlair import BadDataFile, BadOptions
from dragonlair.i18n import using
from dragonlair.space_dragons.cards import load_components
from tests.space_dragons.sd_helpers import BUILTIN, GAME, builtin_data, plain_data, write


def test_the_built_in_file_loads_into_frozen_components() -> None:
    comp = load_components()
    assert len(comp.crew) == 80 and len(comp.dragons) == 20
    card = comp.card(3)
    assert card.effects == ("shield", "tool", "tool") and card.points == 2
    assert card.symbols == (0, 1, 0)
    assert comp.dragon(17).points == 12 and comp.dragon(17).symbols == (0, 0, 2)
    science = comp.scoring[0]
    assert science.symbol == "science"
    assert [(a.rank, a.points) for a in science.sides[0]] == [("most", 10), ("fewest", 5)]
    with pytest.raises(AttributeError):
        card.points = 5  # type: ignore[misc]


def test_a_users_file_of_printed_values_is_used(tmp_path: Path) -> None:
    data = builtin_data()
    data["crew"][16]["effects"] = ["shield", "shield"]  # card 17
    data["dragons"][0]["points"] = 12
    path = write(tmp_path, data)
    game = dragonlair.make(GAME, options={"data": path})
    assert game.options["data"] == path
    assert game.components.card(17).effects == ("shield", "shield")  # type: ignore[attr-defined]
    assert game.components.dragon(1).points == 12  # type: ignore[attr-defined]
    assert "17 (shield, shield;" in game.describe_action(game.parse_action("play 17"))
    s = game.new_game(3)
    assert dragonlair.replay(s.record).to_json() == s.to_json()


def test_a_file_may_give_a_card_its_own_effect_order(tmp_path: Path) -> None:
    data = plain_data(crew={5: {"effects": ["damage", "tool", "shield"]}})
    game = dragonlair.make(GAME, options={"data": write(tmp_path, data)})
    assert game.components.card(5).effects == ("damage", "tool", "shield")  # type: ignore[attr-defined]


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A mutation that sets the entry at a dotted path (list indices as numbers)."""

    def mutate(d: dict[str, Any]) -> None:
        keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
        target: Any = d
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value

    return mutate


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def mutate(d: dict[str, Any]) -> None:
        keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
        target: Any = d
        for k in keys[:-1]:
            target = target[k]
        del target[keys[-1]]

    return mutate


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            _set("crew.12.effects.0", "two"),
            r"crew\[12\].effects\[0\]: expected one of shield, tool, damage, crosshair, got 'two'",
        ),
        (_set("crew.3.effects", ["shield"] * 4), r"crew\[3\].effects: expected at most 3 effects"),
        (_set("crew.3.effects", "shield"), r"crew\[3\].effects: expected a list, got 'shield'"),
        (_set("crew.7.points", 9), r"crew\[7\].points: expected an integer from -5 to 5, got 9"),
        (_set("crew.7.points", 1.5), r"crew\[7\].points: expected an integer from -5 to 5"),
        (
            _set("crew.7.number", 9),
            r"crew\[7\].number: expected 8 \(crew cards are listed in order",
        ),
        (
            _set("crew.0.symbols.mood", -1),
            r"crew\[0\].symbols.mood: expected an integer from 0 to 3",
        ),
        (_drop("crew.0.symbols.crime"), r"crew\[0\].symbols: missing 'crime'"),
        (_set("crew.0.symbols.luck", 1), r"crew\[0\].symbols: unknown key 'luck'"),
        (_set("crew.2.effect", []), r"crew\[2\]: unknown key 'effect'"),
        (_drop("crew.79"), r"crew: expected a list of 80 entries, got '79 entries'"),
        (_set("crew.5", 6), r"crew\[5\]: expected an object, got 6"),
        (_set("dragons.4.points", 13), r"dragons\[4\].points: expected an integer from 8 to 12"),
        (_set("dragons.4.id", 1), r"dragons\[4\].id: expected 5 \(dragons are listed in order"),
        (_drop("dragons"), r"top level: missing 'dragons'"),
        (_drop("scoring.mood"), r"scoring: missing 'mood'"),
        (_set("scoring.mood.c", []), r"scoring.mood: unknown key 'c'"),
        (_set("scoring.crime.b", []), r"scoring.crime.b: expected a list of 1 to 4 awards"),
        (_set("scoring.crime.b.0.rank", "least"), r"scoring.crime.b\[0\].rank: expected one of"),
        (
            _set("scoring.crime.b.1.rank", "most"),
            r"scoring.crime.b\[1\].rank: expected a rank "
            "not already listed",
        ),
        (
            _set("scoring.science.a.0.points", -10),
            r"scoring.science.a\[0\].points: expected an "
            "integer from 0 to 50",
        ),
        (_set("about", 3), r"about: expected a string, got 3"),
        (_set("extra", 3), r"top level: unknown key 'extra'"),
    ],
)
def test_malformed_files_are_refused_precisely(
    tmp_path: Path, mutate: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = builtin_data()
    mutate(data)
    path = write(tmp_path, data, "printed.json")
    with pytest.raises(BadDataFile, match=r"printed.json: " + message):
        dragonlair.make(GAME, options={"data": path})


def test_unreadable_and_non_json_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BadDataFile, match="cannot read data file .*missing.json"):
        dragonlair.make(GAME, options={"data": str(tmp_path / "missing.json")})
    bad = tmp_path / "bad.json"
    bad.write_text("{crew: 1")
    with pytest.raises(BadDataFile, match="bad.json: not valid JSON"):
        dragonlair.make(GAME, options={"data": str(bad)})
    top = write(tmp_path, [1, 2], "list.json")
    with pytest.raises(BadDataFile, match=re.escape("list.json: top level: expected an object")):
        dragonlair.make(GAME, options={"data": top})


def test_a_refused_file_changes_nothing(tmp_path: Path) -> None:
    good = dragonlair.make(GAME, players=3)
    before = good.new_game(5).to_json()
    data = builtin_data()
    data["crew"][0]["points"] = 99
    path = write(tmp_path, data)
    text = Path(path).read_text()
    with pytest.raises(BadDataFile):
        dragonlair.make(GAME, players=3, options={"data": path})
    assert Path(path).read_text() == text
    assert dragonlair.make(GAME, players=3).new_game(5).to_json() == before
    assert good.components.card(1).points == 3  # type: ignore[attr-defined]


def test_the_built_in_file_is_the_one_documented_in_the_package() -> None:
    raw = json.loads(BUILTIN.read_text())
    assert set(raw) == {"about", "hand_size", "rounds", "crew", "dragons", "scoring"}


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (2, {}, "for 3 to 5 players, not 2"),
        (6, {}, "for 3 to 5 players, not 6"),
        (4, {"science": "c"}, "science='c' is not allowed: expected one of a, b, random"),
        (4, {"mood": 1}, "mood=1 is not allowed"),
        (4, {"b_sides": "plus"}, "b_sides='plus' is not allowed: expected one of penalty, bonus"),
        (4, {"shield": 9}, "shield=9 is not allowed: expected an integer from -5 to 5"),
        (4, {"damage": "x"}, "damage='x' is not allowed"),
        (4, {"variant": "maybe"}, "variant='maybe' is not allowed: expected true or false"),
        (4, {"data": 5}, "data=5 is not allowed: expected a path"),
        (4, {"draft": False}, "no option 'draft'; its options are: science, mood, crime"),
    ],
)
def test_bad_options_are_refused(players: int, options: dict[str, object], message: str) -> None:
    with pytest.raises(BadOptions, match=re.escape(message)):
        dragonlair.make(GAME, players=players, options=options)


def test_options_given_as_text_are_converted() -> None:
    game = dragonlair.make(GAME, options={"shield": "2", "damage": "-3", "variant": "yes"})
    assert game.options["shield"] == 2 and game.options["damage"] == -3
    assert game.options["variant"] is True
    assert game.max_length == 7 * 4
    assert dragonlair.make(GAME, players=5).max_length == 16 * 5


def _texts(tmp_path: Path, hand: int, rounds: int, variant: bool, seat: int | None) -> list[str]:
    """Every line of the log of a random game played with a data file that deals ``hand``
    cards and hunts ``rounds`` dragons, as ``seat`` reads it."""
    data = builtin_data()
    data["hand_size"], data["rounds"] = hand, rounds
    game = dragonlair.make(GAME, options={"data": write(tmp_path, data), "variant": variant})
    s = game.new_game(5)
    rng = random.Random(5)
    while not s.is_over:
        who = s.to_act[0]
        s.apply(who, rng.choice(s.legal_actions(who)))
    names = ["Ann", "Bea", "Cec", "Dora"]
    return [game.event_text(e, names) for e in s.events_since(0, seat)]


@pytest.mark.parametrize(
    ("hand", "rounds", "variant"),
    [(9, 7, False), (6, 4, False), (12, 10, False), (5, 5, False), (8, 3, True), (1, 1, False)],
)
def test_the_log_says_the_data_files_hand_size_and_rounds(
    tmp_path: Path, hand: int, rounds: int, variant: bool
) -> None:
    cards = "card" if hand == 1 else "cards"
    public = _texts(tmp_path, hand, rounds, variant, None)
    assert public[0].startswith(f"setup: {hand} crew {cards} each, a dragon's lair of {rounds},")
    assert public[1] == f"Ann is dealt {hand} {cards}"
    picks = [t for t in public if t.startswith("hiring is over")]
    assert picks == (
        []
        if variant
        else [
            f"hiring is over: everyone takes their {hand} pick{'' if hand == 1 else 's'} into hand"
        ]
    )
    assert sum(t.startswith("round ") for t in public) == rounds
    left = hand - rounds
    aside = [t for t in public if t.startswith("the hunt is over")]
    assert aside == (
        []
        if left == 0
        else [
            f"the hunt is over: the {left} unplayed card{'' if left == 1 else 's'} of each "
            f"hand {'is' if left == 1 else 'are'} set aside"
        ]
    )
    if (hand, rounds) != (9, 7):
        assert not any(
            re.search(r"\b(9 (cards|picks)|lair of 7|two unplayed)\b", t) for t in public
        )
    with using("de"):
        german = _texts(tmp_path, hand, rounds, variant, 0)
    assert german[0].startswith(f"Aufbau: je {hand} Crewkarte")
    assert f"Drachenhort aus {rounds}," in german[0]
    assert german[2] == f"Bea bekommt {hand} Karte{'' if hand == 1 else 'n'}"
