"""Scenario tests of Space Race's rules, the rulings and the rulebook examples."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import pytest

import dragonlair
from dragonlair import IllegalAction, UnknownAction
from tests.space_race.space_race_helpers import build, events, play, ship

# Card ids in the shipped data (src/dragonlair/space_race/data/space_race.json).
SCANNER = 1  # orange
ROBOT_HEAD, ROBOT_BODY, ROBOT_LEGS = 10, 11, 12  # orange
CRYSTAL = 19  # orange
POWER = 30  # orange Power Source
DRONES = list(range(37, 46))
LOOT = list(range(46, 55))
CREW = list(range(55, 73))
FIRE, INVASION, BREACH = 1, 15, 22  # Damage cards worth -1, -2, -3
FLIGHT_A, FLIGHT_XX, FIGHT_A = 1, 3, 5  # Danger cards (see the data file)


def test_setup_deals_six_and_flips_the_coin_for_every_player_count() -> None:
    for players in (2, 3, 4):
        s = dragonlair.make("space-race", players=players).new_game(seed=3)
        v = s.view(None)
        assert v["phase"] == "upgrade" and v["round"] == 1 and v["pick"] == 1
        assert v["hand_sizes"] == [6] * players
        assert v["space_deck"] == 72 - 6 * players
        assert s.to_act == tuple(range(players))
        assert len(events(s, "coin")) == 1


def test_fewer_than_four_players_leave_the_rest_of_the_deck_unused() -> None:
    game = dragonlair.make("space-race", players=2)
    s = game.new_game(seed=5)
    while not s.is_over:
        seat = s.to_act[0]
        play(s, (seat, str(s.legal_actions(seat)[-1])))
    assert s.view(None)["space_deck"] == 72 - 18 * 2


def test_the_game_lasts_three_rounds_of_six_picks_and_a_danger() -> None:
    s = dragonlair.make("space-race", players=3).new_game(seed=8)
    picks = bids = 0
    while not s.is_over:
        seat = s.to_act[0]
        action = s.legal_actions(seat)[0]
        picks += action.kind != "bid"
        bids += action.kind == "bid"
        s.apply(seat, action)
    assert picks == 3 * 6 * 3
    assert [e["round"] for e in events(s, "danger")] == [1, 2, 3]
    assert len(events(s, "coin")) == 3


def test_a_pick_names_the_card_and_how_it_is_kept() -> None:
    s = build(4, hands={0: [SCANNER, ROBOT_HEAD, CRYSTAL, POWER, DRONES[0], CREW[0]]})
    legal = {str(a) for a in s.legal_actions(0)}
    assert {"up 1", "fuel 1", "up 10", "fuel 10", "cockpit 30", "engine 30", "fuel 30"} <= legal
    assert "up 30" not in legal  # a Power Source must name its stack
    with pytest.raises(UnknownAction, match="expected up <card>"):
        s.apply(0, "up 30")
    with pytest.raises(IllegalAction):
        s.apply(0, "up 11")  # not in hand
    assert s.game.describe_action(s.game.parse_action("engine 30")).startswith(
        "play Orange Power Source (#30) on the Engine"
    )
    assert "Fuel" in s.game.describe_action(s.game.parse_action("fuel 1"))


def test_picks_are_secret_until_everyone_has_picked_then_revealed_together() -> None:
    s = build(3, hands={0: [SCANNER, *CREW[:5]]})
    play(s, (0, "up 1"))
    assert s.view(0)["my_choice"] == "up 1"
    assert "my_choice" not in s.view(1)
    assert ship(s, 0, viewer=1)["scanners"] == []  # nothing is played before the reveal
    assert events(s, "chose", 1)[0].get("redacted") is True
    play(s, (1, str(s.legal_actions(1)[0])))
    assert ship(s, 0, viewer=1)["scanners"] == []
    play(s, (2, str(s.legal_actions(2)[0])))
    assert ship(s, 0, viewer=1)["scanners"] == [SCANNER]
    assert s.view(0)["hand_sizes"] == [5, 5, 5]


def test_fuel_is_face_down_others_see_only_the_count() -> None:
    s = build(2, hands={0: [SCANNER, *CREW[:5]]})
    play(s, (0, "fuel 1"), (1, str(s.legal_actions(1)[0])))
    assert ship(s, 0)["fuel_cards"] == [SCANNER] and ship(s, 0)["fuel"] == 1
    assert ship(s, 0, viewer=1)["fuel_cards"] is None and ship(s, 0, viewer=1)["fuel"] == 1
    assert ship(s, 0)["scanners"] == []  # text on a face-down card is ignored: no peek
    assert s.view(0)["danger_top"] is None
    placed = [e for e in events(s, "placed", 1) if e["seat"] == 0]
    how = "face down as Fuel"
    assert placed == [
        {"seq": placed[0]["seq"], "type": "placed", "redacted": True, "seat": 0, "how": how}
    ]
    assert [e["card"] for e in events(s, "placed", 0) if e["seat"] == 0] == [SCANNER]


def test_same_type_components_stack_and_the_last_placed_is_on_top() -> None:
    s = build(
        2,
        pick=5,
        hands={0: [CRYSTAL, DRONES[0]], 1: [CRYSTAL + 3, DRONES[1]]},
        ships={0: {"crystals": [25]}},
    )
    play(s, (0, f"up {CRYSTAL}"), (1, f"up {DRONES[1]}"))  # then the hands swap
    play(s, (0, f"up {CRYSTAL + 3}"), (1, f"up {DRONES[0]}"))
    assert ship(s, 0)["crystals"] == [25, CRYSTAL, CRYSTAL + 3]


@pytest.mark.parametrize(("face", "direction"), [("left", 1), ("right", -1)])
def test_the_navigation_coin_sets_the_pass_direction(face: str, direction: int) -> None:
    game = dragonlair.make("space-race", players=4)
    for seed in range(50):
        s = game.new_game(seed=seed)
        if events(s, "coin")[0]["face"] == face:
            break
    assert s.view(None)["direction"] == face
    before = [s.view(seat)["hand"] for seat in range(4)]
    chosen = []
    for seat in range(4):
        action = s.legal_actions(seat)[0]
        chosen.append(action.args[0])
        s.apply(seat, action)
    for seat in range(4):
        giver = (seat - direction) % 4  # left = clockwise: seat s passes to s + 1
        assert s.view(seat)["hand"] == [c for c in before[giver] if c != chosen[giver]]
        (received,) = [e for e in events(s, "received", seat) if "cards" in e]
        assert received["from_seat"] == giver and received["seat"] == seat
    assert events(s, "passed")[-1]["direction"].startswith(face)


def test_each_round_flips_the_coin_again_with_the_game_generator() -> None:
    faces = set()
    game = dragonlair.make("space-race", players=2)
    for seed in range(20):
        s = game.new_game(seed=seed)
        while not s.is_over:
            s.apply(s.to_act[0], s.legal_actions(s.to_act[0])[0])
        faces.add(tuple(e["face"] for e in events(s, "coin")))
    assert len(faces) > 3  # the three flips vary from game to game


NO_SCANNERS = {0: [SCANNER, *CREW[:5]], 1: DRONES[:6], 2: LOOT[:6]}


def test_a_face_up_scanner_privately_shows_its_owner_the_top_danger_card() -> None:
    s = build(3, hands=NO_SCANNERS, danger_top=FIGHT_A)
    play(s, (0, "up 1"), (1, str(s.legal_actions(1)[0])), (2, str(s.legal_actions(2)[0])))
    assert s.view(0)["danger_top"] == FIGHT_A
    assert s.view(1)["danger_top"] is None and s.view(None)["danger_top"] is None
    assert s.view(1)["seen_top_danger"] == [0]  # everyone saw the Scanner played
    mine = events(s, "scanned", 0)
    theirs = events(s, "scanned", 1)
    assert mine[0]["card"] == FIGHT_A and "card" not in theirs[0]
    # still known while it stays on top, then revealed to everyone
    for _ in range(5):
        for seat in range(3):
            play(s, (seat, str(s.legal_actions(seat)[0])))
    assert s.phase == "danger" and s.view(1)["danger"] == FIGHT_A
    assert s.view(0)["danger_top"] is None and s.view(0)["seen_top_danger"] == []


def test_the_sampler_keeps_the_top_danger_card_a_scanner_showed() -> None:
    s = build(3, hands=NO_SCANNERS, danger_top=FIGHT_A)
    play(s, (0, "up 1"), (1, str(s.legal_actions(1)[0])), (2, str(s.legal_actions(2)[0])))
    rng = random.Random(4)
    tops_for_owner = set()
    tops_for_other = set()
    for _ in range(30):
        tops_for_owner.add(s.game.sample_state(s.view(0), rng).danger_deck[-1])  # type: ignore[attr-defined]
        tops_for_other.add(s.game.sample_state(s.view(1), rng).danger_deck[-1])  # type: ignore[attr-defined]
    assert tops_for_owner == {FIGHT_A}
    assert len(tops_for_other) > 1


def test_scanner_option_always_keeps_showing_the_new_top_card() -> None:
    for option, expected in (("on-play", None), ("always", FLIGHT_XX)):
        s = build(
            2,
            pick=6,
            hands={0: [CREW[0]], 1: [CREW[1]]},
            ships={0: {"scanners": [SCANNER]}},
            danger_top=FIGHT_A,
            options={"scanner": option},
        )
        s.danger_deck.remove(FLIGHT_XX)
        s.danger_deck.insert(-1, FLIGHT_XX)
        play(s, (0, f"up {CREW[0]}"), (1, f"up {CREW[1]}"))
        assert s.view(None)["danger"] == FIGHT_A
        assert s.view(0)["danger_top"] == expected
        assert s.view(1)["danger_top"] is None


def test_rulebook_bidding_example_dense_ranks_wrenches_and_damage() -> None:
    """P1 bids most and removes 2 damage; P2 and P3 tie for 2nd and take 1 each; P4 is
    3rd and takes 2 (Danger card: 2 wrenches, 1 damage, 2 damage, 3 damage)."""
    fuel = {0: DRONES[:5], 1: DRONES[5:8], 2: LOOT[:3], 3: LOOT[3:4]}
    s = build(
        4,
        pick=6,
        hands={seat: [CREW[seat]] for seat in range(4)},
        ships={
            0: {"fuel": fuel[0], "damage": [FIRE, BREACH, INVASION]},
            1: {"fuel": fuel[1]},
            2: {"fuel": fuel[2]},
            3: {"fuel": fuel[3]},
        },
        danger_top=FLIGHT_A,
    )
    play(s, *((seat, f"up {CREW[seat]}") for seat in range(4)))
    assert s.phase == "danger" and s.view(0)["bidding"] == "fuel"
    assert [str(a) for a in s.legal_actions(3)] == ["bid 0", "bid 1"]
    play(s, (0, "bid 5"), (1, "bid 3"), (2, "bid 3"), (3, "bid 1"))
    revealed = events(s, "bids")[-1]
    assert revealed["bids"] == [5, 3, 3, 1] and revealed["ranks"] == [1, 2, 2, 3]
    damage = [ship(s, seat)["damage"] for seat in range(4)]
    assert damage[0] == [FIRE]  # the two most negative were removed
    assert [len(d) for d in damage[1:]] == [1, 1, 2]
    assert s.view(None)["damage_removed"] == [BREACH, INVASION]
    assert [ship(s, seat)["fuel"] for seat in range(4)] == [0, 0, 0, 0]
    assert ship(s, 0)["spent_fuel_cards"] == fuel[0]
    assert s.view(None)["last_bids"] == [5, 3, 3, 1]


def test_bids_are_secret_until_revealed() -> None:
    s = build(
        2,
        pick=6,
        hands={0: [CREW[0]], 1: [CREW[1]]},
        ships={0: {"fuel": DRONES[:2]}, 1: {"fuel": DRONES[2:4]}},
        danger_top=FLIGHT_A,
    )
    play(s, (0, f"up {CREW[0]}"), (1, f"up {CREW[1]}"), (0, "bid 2"))
    assert s.view(0)["my_choice"] == "bid 2"
    assert "my_choice" not in s.view(1) and s.view(1)["last_bids"] is None
    assert "amount" not in events(s, "bid_chosen", 1)[0]
    play(s, (1, "bid 0"))
    assert s.view(1)["last_bids"] == [2, 0]


def test_a_player_without_fuel_or_crew_bids_zero_without_being_asked() -> None:
    s = build(
        3,
        pick=6,
        hands={seat: [DRONES[seat]] for seat in range(3)},
        ships={1: {"crew": CREW[:2]}},
        danger_top=FIGHT_A,
    )
    play(s, *((seat, f"up {DRONES[seat]}") for seat in range(3)))
    assert s.phase == "danger" and s.to_act == (1,)
    assert s.view(0)["choosing"] == [1]
    play(s, (1, "bid 1"))
    assert events(s, "bids")[-1]["bids"] == [0, 1, 0]
    assert ship(s, 1)["crew"] == [CREW[1]] and s.view(0)["crew_discard"] == [CREW[0]]


def test_ties_share_a_rank_and_everyone_tied_takes_the_first_icon() -> None:
    s = build(
        3,
        pick=6,
        hands={seat: [DRONES[seat]] for seat in range(3)},
        ships={seat: {"damage": [BREACH + seat]} for seat in range(3)},
        danger_top=FLIGHT_A,
    )
    play(s, *((seat, f"up {DRONES[seat]}") for seat in range(3)))
    assert s.phase == "upgrade" and s.round == 2  # nobody had Fuel: all bid 0, all rank 1
    assert [ship(s, seat)["damage"] for seat in range(3)] == [[], [], []]
    assert events(s, "bids")[-1]["ranks"] == [1, 1, 1]


def test_wrenches_remove_what_there_is_and_no_more() -> None:
    s = build(
        2,
        pick=6,
        hands={0: [DRONES[0]], 1: [DRONES[1]]},
        ships={0: {"fuel": LOOT[:1], "damage": [FIRE]}},
        danger_top=FLIGHT_A,
    )
    play(s, (0, f"up {DRONES[0]}"), (1, f"up {DRONES[1]}"), (0, "bid 1"))
    assert ship(s, 0)["damage"] == []
    assert events(s, "repaired")[-1]["count"] == 1


def test_an_empty_damage_deck_is_refilled_from_removed_damage() -> None:
    s = build(
        2,
        pick=6,
        hands={0: [DRONES[0]], 1: [DRONES[1]]},
        ships={0: {"fuel": LOOT[:1], "damage": [BREACH, INVASION]}},
        danger_top=FLIGHT_A,
        damage_deck=[],  # every other Damage card has been removed earlier
    )
    play(s, (0, f"up {DRONES[0]}"), (1, f"up {DRONES[1]}"), (0, "bid 1"))
    # seat 0 ranks first and removes two first; seat 1 then draws one from the refilled deck
    assert ship(s, 0)["damage"] == []
    assert len(ship(s, 1)["damage"]) == 1
    assert events(s, "refilled")[-1]["count"] == 26 + 2
    s.check_invariants()


def test_no_damage_is_drawn_when_none_is_left_anywhere() -> None:
    every = list(range(1, 29))
    s = build(
        2,
        pick=6,
        hands={0: [DRONES[0]], 1: [DRONES[1]]},
        ships={0: {"fuel": LOOT[:1], "damage": every[:20]}, 1: {"damage": every[20:]}},
        danger_top=FLIGHT_A,
        damage_deck=[],
    )
    play(s, (0, f"up {DRONES[0]}"), (1, f"up {DRONES[1]}"))
    play(s, (0, "bid 1"))
    # seat 0 removes two (they refill the deck for seat 1's one card); make seat 0 tie next
    assert len(ship(s, 1)["damage"]) == 9
    s2 = build(
        2,
        pick=6,
        hands={0: [DRONES[0]], 1: [DRONES[1]]},
        ships={0: {"damage": every[:20]}, 1: {"fuel": LOOT[:1], "damage": every[20:]}},
        danger_top=FLIGHT_XX,  # x, x, 1 damage, 2 damage: ranks 1 and 2 are both safe
        damage_deck=[],
    )
    play(s2, (0, f"up {DRONES[0]}"), (1, f"up {DRONES[1]}"), (1, "bid 1"))
    assert events(s2, "no_damage_left") == []  # nobody had to draw
    s3 = build(
        4,
        pick=6,
        hands={seat: [DRONES[seat]] for seat in range(4)},
        ships={
            0: {"damage": every[:20]},
            1: {"fuel": LOOT[:2], "damage": every[20:]},
            2: {"fuel": LOOT[2:3]},
        },
        danger_top=FLIGHT_XX,  # seat 3 (bids 0 with seat 0) ranks 3rd: 1 damage
        damage_deck=[],
    )
    play(s3, *((seat, f"up {DRONES[seat]}") for seat in range(4)))
    play(s3, (1, "bid 2"), (2, "bid 1"))
    assert [e["seat"] for e in events(s3, "no_damage_left")] == [0, 3]
    assert [len(ship(s3, seat)["damage"]) for seat in range(4)] == [20, 8, 0, 0]
    s3.check_invariants()


def test_wrench_removes_the_most_negative_damage_first() -> None:
    s = build(
        2,
        pick=6,
        hands={0: [DRONES[0]], 1: [DRONES[1]]},
        ships={0: {"fuel": LOOT[:1], "damage": [FIRE, INVASION, FIRE + 1, BREACH]}},
        danger_top=FLIGHT_A,
    )
    play(s, (0, f"up {DRONES[0]}"), (1, f"up {DRONES[1]}"), (0, "bid 1"))
    assert ship(s, 0)["damage"] == [FIRE, FIRE + 1]


def test_bid_fuel_is_spent_oldest_first_and_crew_is_discarded_face_up() -> None:
    s = build(
        2,
        pick=6,
        hands={0: [DRONES[0]], 1: [DRONES[1]]},
        ships={0: {"fuel": [LOOT[2], LOOT[0], LOOT[1]]}, 1: {"crew": CREW[:3]}},
        danger_top=FLIGHT_A,
    )
    play(s, (0, f"up {DRONES[0]}"), (1, f"up {DRONES[1]}"), (0, "bid 2"))
    assert ship(s, 0)["fuel_cards"] == [LOOT[1]]
    assert ship(s, 0)["spent_fuel_cards"] == [LOOT[2], LOOT[0]]
    assert ship(s, 0, viewer=1)["spent_fuel"] == 2
    assert ship(s, 0, viewer=1)["spent_fuel_cards"] is None
    spent = events(s, "spent", 1)[-1]
    assert spent["redacted"] is True and spent["count"] == 2 and "cards" not in spent


def test_fight_bids_crew_and_flight_bids_fuel() -> None:
    s = build(
        2,
        pick=6,
        hands={0: [DRONES[0]], 1: [DRONES[1]]},
        ships={0: {"fuel": LOOT[:3]}, 1: {"crew": CREW[:1]}},
        danger_top=FIGHT_A,
    )
    play(s, (0, f"up {DRONES[0]}"), (1, f"up {DRONES[1]}"))
    assert s.to_act == (1,) and s.view(1)["bidding"] == "crew"
    assert [str(a) for a in s.legal_actions(1)] == ["bid 0", "bid 1"]


def test_cockpits_and_engines_are_cosmetic(tmp_path: Path) -> None:
    """Ruling: a faction's Cockpit and Engine change nothing but their names."""
    doc = json.loads(
        resources.files("dragonlair.space_race").joinpath("data", "space_race.json").read_text()
    )
    doc["cockpits"] = [{"faction": f"Cockpit {i}"} for i in range(4)]
    doc["engines"] = list(reversed(doc["engines"]))
    path = tmp_path / "factions.json"
    path.write_text(json.dumps(doc))
    shipped = dragonlair.make("space-race", players=3).new_game(seed=4)
    renamed = dragonlair.make("space-race", players=3, options={"data": str(path)}).new_game(4)
    assert [sh["cockpit"] for sh in shipped.view(None)["ships"]] == [
        "Wolves",
        "Vultures",
        "Jackals",
    ]
    assert [sh["engine"] for sh in renamed.view(None)["ships"]] == [
        "Ravens",
        "Jackals",
        "Vultures",
    ]
    while not shipped.is_over:
        seat = shipped.to_act[0]
        action = shipped.legal_actions(seat)[-1]
        shipped.apply(seat, action)
        renamed.apply(seat, action)
    assert shipped.result == renamed.result
