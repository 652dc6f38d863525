"""The data file: the built-in components, a user's own file, and precise refusals."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import dragonlair
from dragonlair import BadDataFile
from dragonlair.dragon_race.board import load_data
from tests.dragon_race.race_helpers import act, pass_window, table

BUILTIN = Path(dragonlair.__file__).parent / "dragon_race" / "data" / "great_dragon_race.json"


def builtin() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BUILTIN.read_text())
    return data


def write(tmp_path: Path, data: object, name: str = "mine.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_builtin_components_match_the_proposal() -> None:
    d = load_data()
    b = d.board
    assert (b.start, b.finish) == (0, 76)
    assert b.watering_holes == (12, 25, 38, 51, 64)
    assert (b.entry_arrow, b.exit_arrow) == (29, 35)
    assert b.crossing == (57, 58)
    assert b.ballista_bolts == (7, 21, 44, 70) and b.flaming_balls == (17, 32, 57, 73)
    assert len(d.cards) == 56
    kinds = [c.kind for c in d.cards]
    assert kinds.count("number") == 36 and kinds.count("halt") == 8
    for special in ("bolts", "balls", "updraft", "downdraft", "passing_wind", "tornado"):
        assert kinds.count(special) == 2
    for v in range(1, 7):
        numbers = [c for c in d.cards if c.kind == "number" and c.value == v]
        assert sorted(c.insignia or "-" for c in numbers) == ["-", "-", "A", "B", "C", "D"]
    assert sorted(c.value for c in d.cards if c.kind == "halt") == [1, 1, 2, 2, 3, 3, 4, 4]
    assert [c.insignia for c in d.characters] == ["A", "B", "C", "D"]


def test_a_users_own_board_and_deck_are_played(tmp_path: Path) -> None:
    data = builtin()
    data["board"] = {
        "start": 0,
        "finish": 50,
        "watering_holes": [10, 20, 30, 40],
        "shortcut": {"entry_arrow": 15, "exit_arrow": 19},
        "crossing": None,
        "ballista_bolts": [5],
        "flaming_balls": [25, 45],
    }
    data["characters"] = [{"insignia": "R", "name": "Ruby"}, {"insignia": "S", "name": "Sable"}]
    for card in data["cards"]:
        if card.get("insignia") in ("A", "B"):
            card["insignia"] = {"A": "R", "B": "S"}[card["insignia"]]
        elif card.get("insignia") in ("C", "D"):
            card["insignia"] = None
    path = write(tmp_path, data)
    game = dragonlair.make("dragon-race", players=2, options={"data": path})
    assert game.board.finish == 50  # type: ignore[attr-defined]
    assert game.describe_card(1).endswith("Ruby plays again")  # type: ignore[attr-defined]
    s = table(players=2, hands=[[15], []], pawns=[12, 0], options={"data": path})
    act(s, "play 15")  # a 3 from 12 lands on the entry arrow 15
    pass_window(s)
    assert s.pawns[0] == 15
    rng = random.Random(1)
    state = game.new_game(3)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.result is not None and max(state.result.points) <= 50
    assert dragonlair.replay(state.record).to_json() == state.to_json()


def test_a_user_file_without_shortcut_or_crossing(tmp_path: Path) -> None:
    data = builtin()
    data["board"]["shortcut"] = None
    data["board"]["crossing"] = None
    del data["schema"], data["status"]
    path = write(tmp_path, data)
    s = table(hands=[[13, 5]], pawns=[26, 0, 0, 0], options={"data": path})
    act(s, "play 13")
    pass_window(s)
    assert s.pawns[0] == 29 and s.bonus
    act(s, "play 5")
    assert s.pawns[0] == 30
    s2 = table(hands=[[17]], pawns=[29, 0, 0, 0], options={"data": path})
    act(s2, "play 17")
    assert s2.pawns[0] == 32  # no shortcut on this board


def test_three_halt_cards_of_one_number_are_no_three_of_a_kind(tmp_path: Path) -> None:
    data = builtin()
    data["cards"][38]["value"] = 1  # the first HALT! 2 becomes a third HALT! 1
    path = write(tmp_path, data)
    game = dragonlair.make("dragon-race", options={"data": path})
    triples = {tuple(a.args) for a in game.actions if a.kind == "triple"}
    assert (37, 38, 39) not in triples
    assert (1, 37, 38) in triples and (1, 38, 39) in triples


def _broken(where: str, value: object) -> dict[str, Any]:
    """The built-in data with one entry changed: ``where`` is a dotted path ("board.finish",
    "cards.5.id"); the value "DELETE" removes the entry, "FIRST:n" keeps a list's first n."""
    data = builtin()
    *parents, last = where.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    key: Any = int(last) if isinstance(node, list) else last
    if value == "DELETE":
        del node[key]
    elif isinstance(value, str) and value.startswith("FIRST:"):
        node[key] = node[key][: int(value[6:])]
    else:
        node[key] = value
    return data


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("extra", 1, "mine.json: the file: unknown key 'extra'"),
        ("schema", "v2", "schema: expected 'dragonlair.dragon-race.data/1', got 'v2'"),
        ("cards", "DELETE", "mine.json: the file: missing 'cards'"),
        ("characters", "FIRST:1", "characters: expected a list of at least 2"),
        ("characters.1.insignia", "A", "characters[1].insignia: expected a non-empty insignia"),
        ("characters.2.name", "DELETE", "characters[2]: missing 'name'"),
        ("board.start", 1, "board.start: expected an integer from 0 to 0, got 1"),
        ("board.finish", "far", "board.finish: expected an integer from 2 to 1000, got 'far'"),
        (
            "board.watering_holes.2",
            20,
            "board.watering_holes[2]: expected a spot after 25 (in increasing order), got 20",
        ),
        (
            "board.watering_holes.4",
            76,
            "board.watering_holes[4]: expected an integer from 1 to 75, got 76",
        ),
        ("board.watering_holes", [], "board.watering_holes: expected at least one watering hole"),
        (
            "board.shortcut.exit_arrow",
            28,
            "board.shortcut.exit_arrow: expected an integer from 31 to 75, got 28",
        ),
        (
            "board.shortcut.entry_arrow",
            25,
            "board.shortcut.entry_arrow: expected a spot that is not a watering hole, got 25",
        ),
        (
            "board.shortcut.skipped",
            [30, 31],
            "board.shortcut.skipped: expected the spots between the arrows, [30, 31, 32, 33, 34]",
        ),
        ("board.shortcut.one_way", False, "board.shortcut.one_way: expected true"),
        (
            "board.crossing.between_spots",
            [57, 59],
            "between_spots[1]: expected 58, the spot after 57, got 59",
        ),
        ("board.crossing.rule_effect", "swap", "board.crossing.rule_effect: expected null"),
        (
            "board.ballista_bolts.1",
            12,
            "board.ballista_bolts[1]: expected a spot that is not a watering hole, got 12",
        ),
        (
            "board.flaming_balls.0",
            7,
            "board.flaming_balls[0]: expected a spot without a Ballista Bolt, got 7",
        ),
        (
            "board.flaming_balls.3",
            80,
            "board.flaming_balls[3]: expected an integer from 1 to 75, got 80",
        ),
        (
            "cards.5.id",
            7,
            "cards[5].id: expected 6 (cards are numbered 1, 2, 3, ... in order), got 7",
        ),
        (
            "cards.0.kind",
            "joker",
            "cards[0].kind: expected one of number, halt, bolts, balls, updraft, downdraft, "
            "passing_wind, tornado, got 'joker'",
        ),
        ("cards.0.value", 0, "cards[0].value: expected an integer from 1 to 20, got 0"),
        ("cards.0.insignia", "E", "cards[0].insignia: expected one of A, B, C, D, got 'E'"),
        (
            "cards.36.insignia",
            "A",
            "cards[36].insignia: expected null (HALT! cards carry no insignia), got 'A'",
        ),
        (
            "cards.44.value",
            5,
            "cards[44].value: expected nothing (a bolts card has no value), got 5",
        ),
        ("cards.3.colour", "red", "cards[3]: unknown key 'colour'"),
        ("cards", "FIRST:23", "cards: expected a deck of at least 24 cards, got '23 cards'"),
    ],
)
def test_malformed_files_are_refused_precisely(
    tmp_path: Path, where: str, value: object, message: str
) -> None:
    path = write(tmp_path, _broken(where, value))
    with pytest.raises(BadDataFile, match=re.escape(message)):
        dragonlair.make("dragon-race", players=2, options={"data": path})


def test_too_few_characters_for_the_players(tmp_path: Path) -> None:
    data = builtin()
    data["characters"] = data["characters"][:3]
    for card in data["cards"]:
        if card.get("insignia") == "D":
            card["insignia"] = None
    path = write(tmp_path, data)
    assert dragonlair.make("dragon-race", players=3, options={"data": path}).players == 3
    with pytest.raises(
        BadDataFile, match="characters: expected at least 4 characters for 4 players, got 3"
    ):
        dragonlair.make("dragon-race", players=4, options={"data": path})


def test_unreadable_and_invalid_json_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BadDataFile, match="cannot read data file .*missing.json"):
        dragonlair.make("dragon-race", options={"data": str(tmp_path / "missing.json")})
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BadDataFile, match="bad.json: not valid JSON"):
        dragonlair.make("dragon-race", options={"data": str(bad)})
    with pytest.raises(BadDataFile, match="the file: expected an object"):
        dragonlair.make("dragon-race", options={"data": write(tmp_path, [1, 2])})


def test_a_refused_file_changes_nothing(tmp_path: Path) -> None:
    before = dragonlair.make("dragon-race", players=3).new_game(9).to_json()
    data = builtin()
    original = copy.deepcopy(data)
    data["board"]["finish"] = 1
    path = write(tmp_path, data)
    with pytest.raises(BadDataFile):
        dragonlair.make("dragon-race", players=3, options={"data": path})
    assert dragonlair.make("dragon-race", players=3).new_game(9).to_json() == before
    good = write(tmp_path, original, "good.json")
    assert dragonlair.make("dragon-race", players=3, options={"data": good}).board.finish == 76  # type: ignore[attr-defined]
