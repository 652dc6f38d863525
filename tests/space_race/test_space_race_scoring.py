"""End scoring with hand-built ships, played to the end through the public surface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from dragonlair.space_race.scoring import CATEGORIES
from tests.space_race.space_race_helpers import finish

# Card ids in the shipped data: orange, green, purple of each coloured type.
SCANNER = {"orange": [1, 2, 3], "green": [4, 5, 6], "purple": [7, 8, 9]}
HEAD = {"orange": 10, "green": 13, "purple": 16}
BODY = {"orange": 11, "green": 14, "purple": 17}
LEGS = {"orange": 12, "green": 15, "purple": 18}
CRYSTAL = {"orange": [19, 20, 21], "green": [22, 23, 24], "purple": [25, 26, 27]}
POWER = {"orange": [28, 29, 30], "green": [31, 32, 33], "purple": [34, 35, 36]}
DRONES = list(range(37, 46))
LOOT = list(range(46, 55))
CREW = list(range(55, 73))
FIRE, INVASION, BREACH = [1, 2], [15, 16], [22, 23]


def scores(
    players: int, ships: Mapping[int, Mapping[str, Sequence[int]]], **options: object
) -> list[dict[str, int]]:
    s = finish(players, ships, options)
    assert s.result is not None
    for b in s.result.breakdown:
        assert list(b) == list(CATEGORIES)
    assert list(s.result.points) == [sum(b.values()) for b in s.result.breakdown]
    return [dict(b) for b in s.result.breakdown]


def test_scanners_score_two_each() -> None:
    b = scores(2, {0: {"scanners": SCANNER["orange"][:2]}})
    assert b[0]["scanners"] == 4 and b[1]["scanners"] == 0


def test_robot_parts_score_two_each_and_three_per_complete_robot_of_any_colours() -> None:
    b = scores(
        3,
        {
            0: {"robot_parts": [HEAD["orange"], BODY["green"], LEGS["purple"]]},
            1: {
                "robot_parts": [
                    HEAD["green"],
                    BODY["purple"],
                    LEGS["orange"],
                    HEAD["purple"],
                    BODY["orange"],
                ]
            },
            2: {"robot_parts": [LEGS["green"]]},
        },
    )
    assert (b[0]["robot parts"], b[0]["complete robots"]) == (6, 3)
    assert (b[1]["robot parts"], b[1]["complete robots"]) == (10, 3)  # min(2, 2, 1) = 1
    assert (b[2]["robot parts"], b[2]["complete robots"]) == (2, 0)


def test_two_complete_robots() -> None:
    parts = [HEAD["orange"], BODY["orange"], LEGS["orange"], HEAD["green"], BODY["green"]]
    b = scores(2, {0: {"robot_parts": [*parts, LEGS["green"]]}})
    assert b[0]["complete robots"] == 6


def test_crystals_score_one_each_and_nine_per_set_of_four() -> None:
    every = CRYSTAL["orange"] + CRYSTAL["green"] + CRYSTAL["purple"]
    b = scores(3, {0: {"crystals": every[:3]}, 1: {"crystals": every[3:7]}, 2: {"crystals": []}})
    assert (b[0]["crystals"], b[0]["crystal sets"]) == (3, 0)
    assert (b[1]["crystals"], b[1]["crystal sets"]) == (4, 9)
    b = scores(2, {0: {"crystals": every[:8]}, 1: {"crystals": [every[8]]}})
    assert (b[0]["crystals"], b[0]["crystal sets"]) == (8, 18)


def test_power_source_bonus_counts_matching_tops_of_each_stack() -> None:
    ship = {
        "scanners": [SCANNER["green"][0], SCANNER["orange"][0]],  # top: orange
        "robot_parts": [HEAD["orange"]],  # top: orange
        "crystals": [CRYSTAL["orange"][0], CRYSTAL["purple"][0]],  # top: purple
        "power_cockpit": [POWER["purple"][0], POWER["orange"][0]],  # top: orange -> 2 tops
        "power_engine": [POWER["green"][0]],  # top: green -> no top
    }
    b = scores(2, {0: ship})
    assert b[0]["power sources"] == 3
    assert b[0]["colour bonus"] == 2 * 2
    assert b[0]["scanners"] == 4 and b[0]["crystals"] == 2  # covered cards keep their VP


def test_option_every_power_source_scores_its_colour_bonus() -> None:
    ship = {
        "scanners": [SCANNER["orange"][0]],
        "crystals": [CRYSTAL["purple"][0]],
        "power_cockpit": [POWER["purple"][0], POWER["orange"][0]],
        "power_engine": [POWER["orange"][1]],
    }
    tops = scores(2, {0: ship})[0]["colour bonus"]
    every = scores(2, {0: ship}, every_power_source=True)[0]["colour bonus"]
    assert tops == 2 + 2  # two orange tops, each matching the orange top scanner
    assert every == 2 + 2 + 2  # the covered purple one matches the purple crystal too


def test_no_power_source_or_no_matching_top_scores_no_bonus() -> None:
    b = scores(
        2,
        {
            0: {"scanners": [SCANNER["orange"][0]]},
            1: {"power_engine": [POWER["green"][0]], "crystals": [CRYSTAL["orange"][0]]},
        },
    )
    assert b[0]["colour bonus"] == 0 and b[1]["colour bonus"] == 0


def test_loot_carriers_most_six_second_two_dense_and_ties() -> None:
    b = scores(
        4,
        {
            0: {"loot_carriers": LOOT[:3]},
            1: {"loot_carriers": LOOT[3:6]},
            2: {"loot_carriers": LOOT[6:7]},
            3: {},
        },
    )
    assert [x["loot carriers"] for x in b] == [6, 6, 2, 0]  # tie for most; next is second
    b = scores(3, {0: {"loot_carriers": LOOT[:2]}, 1: {"loot_carriers": LOOT[2:3]}, 2: {}})
    assert [x["loot carriers"] for x in b] == [6, 2, 0]  # none wins no majority
    b = scores(3, {0: {"loot_carriers": LOOT[:1]}})
    assert [x["loot carriers"] for x in b] == [6, 0, 0]
    b = scores(2, {})
    assert [x["loot carriers"] for x in b] == [0, 0]


def test_drones_score_three_per_player_with_strictly_fewer() -> None:
    b = scores(
        4,
        {
            0: {"alien_drones": DRONES[:3]},
            1: {"alien_drones": DRONES[3:4]},
            2: {"alien_drones": DRONES[4:5]},
            3: {},
        },
    )
    assert [x["alien drones"] for x in b] == [9, 3, 3, 0]


def test_most_fuel_and_most_crew_score_five_ties_all_and_none_wins_nothing() -> None:
    # every seat plays its last card as Fuel: one more than given here
    b = scores(
        3,
        {
            0: {"fuel": LOOT[:2], "crew": CREW[:2]},
            1: {"fuel": LOOT[2:4], "crew": CREW[2:3]},
            2: {"crew": CREW[3:5]},
        },
    )
    assert [x["fuel"] for x in b] == [5, 5, 0]
    assert [x["crew"] for x in b] == [5, 0, 5]
    b = scores(2, {})
    assert [x["crew"] for x in b] == [0, 0]  # nobody has Crew: no majority


def test_damage_scores_its_negative_vp() -> None:
    b = scores(2, {0: {"damage": [FIRE[0], INVASION[0], BREACH[0]]}, 1: {"damage": [FIRE[1]]}})
    assert [x["damage"] for x in b] == [-6, -1]


def test_most_points_wins_and_ties_share_the_win() -> None:
    s = finish(3, {0: {"scanners": [1]}, 1: {"scanners": [4]}, 2: {"crystals": [19]}})
    assert s.result is not None
    assert s.result.winners == (0, 1) and s.result.ranks == (1, 1, 3)
    s = finish(2, {0: {"scanners": [1]}, 1: {"damage": [FIRE[0]]}})
    assert s.result is not None and s.result.winners == (0,)


def test_the_view_shows_the_running_score() -> None:
    s = finish(2, {0: {"scanners": [1], "crystals": CRYSTAL["green"] + [19]}})
    assert s.result is not None
    assert s.view(1)["score"] == list(s.result.points)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_worked_example_adds_up(players: int) -> None:
    """A full ship: every category at once."""
    ship = {
        "scanners": [SCANNER["purple"][0], SCANNER["green"][0]],  # 4, top green
        "robot_parts": [HEAD["orange"], BODY["orange"], LEGS["green"]],  # 6 + 3, top green
        "crystals": CRYSTAL["orange"] + [CRYSTAL["green"][0]],  # 4 + 9, top green
        "power_cockpit": [POWER["green"][0]],  # 1, green: 3 matching tops = 6
        "alien_drones": DRONES[:2],  # 3 per player with fewer
        "loot_carriers": LOOT[:1],  # most: 6
        "crew": CREW[:3],  # most: 5
        "damage": [INVASION[0]],  # -2
    }
    b = scores(players, {0: ship})[0]
    assert b == {
        "scanners": 4,
        "robot parts": 6,
        "complete robots": 3,
        "crystals": 4,
        "crystal sets": 9,
        "power sources": 1,
        "colour bonus": 6,
        "loot carriers": 6,
        "alien drones": 3 * (players - 1),
        "fuel": 5,  # tied with everyone (each has the one last card as Fuel)
        "crew": 5,
        "damage": -2,
    }
