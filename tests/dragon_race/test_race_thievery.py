"""Thievery, and the hazards that are paid before it (Ballista Bolts on 7, 21, 44, 70;
Flaming Balls on 17, 32, 57, 73)."""

from __future__ import annotations

import random

import pytest

from dragonlair import IllegalAction
from tests.dragon_race.race_helpers import act, events, halt, kinds, legal, num, pass_window, table

# ---------------------------------------------------------------------- stealing


def test_landing_on_a_rival_steals_a_card_the_thief_must_play() -> None:
    s = table(hands=[[num(5)], [num(2)], [], []], pawns=[5, 10, 0, 0])
    act(s, f"play {num(5)}")
    pass_window(s)
    assert s.phase == "halt-steal" and s.hands[1] == ()
    assert s.view(0)["stolen"] == num(2) and s.view(1)["stolen"] == num(2)
    assert s.view(2)["stolen"] is None and s.view(None)["stolen"] is None
    pass_window(s)
    assert s.view(None)["phase"] == "stolen" and s.to_act == (0,)
    assert legal(s) == [f"play {num(2)}"]
    n = s.event_count
    act(s, f"play {num(2)}")
    assert s.pawns[0] == 12
    assert kinds(s, n)[0] == "played_stolen"
    pass_window(s)
    assert s.active == 1  # on a watering hole nobody is robbed


def test_which_card_was_stolen_is_seen_by_thief_and_victim_only() -> None:
    s = table(hands=[[num(5)], [num(2)], [], []], pawns=[5, 10, 0, 0])
    act(s, f"play {num(5)}")
    n = s.event_count
    pass_window(s)
    for seat in (0, 1):
        robbed = [e for e in events(s, n, seat) if e["type"] == "robbed"]
        assert robbed == [
            {
                "seq": robbed[0]["seq"],
                "type": "robbed",
                "seat": 0,
                "victim": 1,
                "card": 11,
                "name": "2",
            }
        ]
    for other in (2, 3, None):
        (seen,) = [e for e in events(s, n, other) if e["type"] == "robbed"]
        assert seen.get("redacted") and "card" not in seen and "name" not in seen


def test_the_victim_draws_an_extra_card_at_their_next_turn() -> None:
    s = table(
        hands=[[num(5)], [num(2), num(4), num(6)], [], []],
        pawns=[5, 10, 0, 0],
        draw=list(range(45, 57)),
    )
    act(s, f"play {num(5)}")
    pass_window(s)  # the play
    pass_window(s)  # the steal
    assert s.view(3)["extra_draw"] == [False, True, False, False]
    act(s, legal(s)[0])
    pass_window(s)
    assert s.active == 1
    assert len(s.hands[1]) == 6  # two left after the theft, drew up to five plus one
    assert s.extra == (False, False, False, False)


def test_robbed_twice_still_draws_one_extra_card() -> None:
    s = table(
        hands=[
            [num(5)],
            [num(1), num(3), num(4), num(5, second=True), 45],
            [num(6), num(6, "D")],
            [],
        ],
        pawns=[5, 9, 10, 0],
        draw=list(range(46, 57)),
    )
    act(s, f"play {num(5)}")
    pass_window(s)
    pass_window(s)
    act(s, legal(s)[0])  # plays the 6 it stole
    pass_window(s)
    assert s.active == 1
    act(s, f"play {num(1)}")  # onto seat 2 at 10
    pass_window(s)
    pass_window(s)
    assert s.extra == (False, False, True, False)
    act(s, legal(s)[0])
    pass_window(s)
    assert s.active == 2
    assert len(s.hands[2]) == 6  # robbed twice: empty, then five plus one


def test_thief_chooses_among_several_rivals() -> None:
    s = table(hands=[[num(4)], [num(1)], [num(2)], []], pawns=[6, 10, 10, 0])
    act(s, f"play {num(4)}")
    pass_window(s)
    assert s.phase == "victim" and legal(s) == ["steal 1", "steal 2"]
    act(s, "steal 2")
    assert s.view(2)["stolen"] == num(2) and s.view(1)["stolen"] is None


def test_no_thievery_on_a_watering_hole() -> None:
    s = table(hands=[[num(2)], [num(1)], [], []], pawns=[10, 12, 0, 0])
    act(s, f"play {num(2)}")
    pass_window(s)
    assert s.active == 1 and num(1) in s.hands[1] and "robbed" not in kinds(s, 0)


def test_no_thievery_on_the_start() -> None:
    s = table(hands=[[51], [num(1)], [num(2)], [num(3)]], pawns=[0, 0, 0, 0])
    act(s, "play 51")
    pass_window(s)
    assert s.active == 1 and "robbed" not in kinds(s, 0)


def test_thievery_where_the_turn_ends_even_without_moving() -> None:
    s = table(hands=[[51], [num(1)], [], []], pawns=[10, 10, 5, 5])
    act(s, "play 51")  # the player shares the lead: no effect
    pass_window(s)
    assert s.phase == "halt-steal" and s.victims == (1,)


def test_a_rival_with_no_cards_cannot_be_robbed() -> None:
    s = table(hands=[[num(5)], [], [], []], pawns=[5, 10, 0, 0])
    act(s, f"play {num(5)}")
    pass_window(s)
    assert s.active == 1


def test_stolen_card_may_lead_to_another_steal_from_a_different_player() -> None:
    # Past the last watering hole a stolen Passing Wind! cannot move the thief: it is
    # played for nothing, and the thief, still on the spot, robs the other rival there.
    s = table(hands=[[num(4)], [53], [num(1)], []], pawns=[62, 66, 66, 0])
    act(s, f"play {num(4)}")
    pass_window(s)
    act(s, "steal 1")
    pass_window(s)
    assert legal(s) == ["play 53"]
    n = s.event_count
    act(s, "play 53")
    assert s.pawns[0] == 66 and "no_effect" in kinds(s, n)
    pass_window(s)
    assert s.phase == "halt-steal" and s.victims == (1, 2)  # seat 1 is not robbed again
    pass_window(s)
    act(s, f"play {num(1)}")
    pass_window(s)
    assert s.pawns[0] == 67 and s.active == 1
    assert s.extra == (False, False, True, False)  # seat 1 has drawn its extra card
    assert len(s.hands[1]) == 6
    assert 53 in s.discards


def test_stolen_chain_moving_onto_another_rival() -> None:
    s = table(hands=[[num(2)], [num(3)], [num(1)], []], pawns=[11, 13, 16, 0])
    act(s, f"play {num(2)}")
    pass_window(s)
    pass_window(s)
    act(s, f"play {num(3)}")  # stolen from seat 1: 13 -> 16, onto seat 2
    pass_window(s)
    assert s.phase == "halt-steal" and s.victims == (1, 2)


def test_stolen_own_insignia_card_grants_another_play() -> None:
    s = table(hands=[[num(5), num(1)], [num(2, "A")], [], []], pawns=[5, 10, 0, 0])
    act(s, f"play {num(5)}")
    pass_window(s)
    pass_window(s)
    act(s, f"play {num(2, 'A')}")
    pass_window(s)
    assert s.phase == "play" and s.active == 0 and s.bonus
    assert legal(s) == [f"play {num(1)}", "stop"]


def test_stolen_halt_card_is_played_as_a_number() -> None:
    s = table(hands=[[num(5)], [halt(4)], [], []], pawns=[5, 10, 0, 0])
    act(s, f"play {num(5)}")
    pass_window(s)
    pass_window(s)
    assert legal(s) == [f"play {halt(4)}"]
    act(s, f"play {halt(4)}")
    assert s.pawns[0] == 14


@pytest.mark.parametrize("card", [49, 51])
def test_stolen_updraft_or_downdraft_moves_the_tied_leader_two_ahead(card: int) -> None:
    s = table(hands=[[num(3)], [card], [], []], pawns=[37, 40, 10, 20])
    act(s, f"play {num(3)}")
    pass_window(s)
    pass_window(s)
    assert legal(s) == [f"play {card}"]
    act(s, f"play {card}")
    assert s.pawns == [42, 40, 10, 20]


def test_stolen_updraft_behind_the_lead_passes_the_pawn_ahead() -> None:
    s = table(hands=[[num(3)], [49], [50], []], pawns=[37, 40, 45, 0])
    act(s, f"play {num(3)}")
    pass_window(s)
    pass_window(s)
    act(s, "play 49")
    assert s.pawns[0] == 46


def test_stolen_downdraft_behind_the_lead_blows_the_leader_back() -> None:
    s = table(hands=[[num(3)], [52], [], []], pawns=[37, 40, 45, 0])
    act(s, f"play {num(3)}")
    pass_window(s)
    pass_window(s)
    assert legal(s) == ["blow 52 2"]
    act(s, "blow 52 2")
    assert s.pawns == [40, 40, 39, 0]


def test_stolen_tornado_offers_both_choices() -> None:
    s = table(hands=[[num(3)], [55], [], []], pawns=[37, 40, 45, 0])
    act(s, f"play {num(3)}")
    pass_window(s)
    pass_window(s)
    assert legal(s) == ["play 55", "blow 55 1", "blow 55 2"]
    with pytest.raises(IllegalAction):
        act(s, "stop")


# ---------------------------------------------------------------------- hazards


@pytest.mark.parametrize(("spot", "hazard"), [(21, "ballista bolt"), (17, "flaming ball")])
def test_landing_on_a_hazard_discards_a_random_card(spot: int, hazard: str) -> None:
    s = table(hands=[[num(3), num(6), 45]], pawns=[spot - 3, 0, 0, 0])
    act(s, f"play {num(3)}")
    assert len(s.hands[0]) == 2  # not before the HALT! window has passed
    n = s.event_count
    pass_window(s)
    (e,) = [e for e in events(s, n) if e["type"] == "hazard"]
    assert e["seat"] == 0 and e["hazard"] == hazard
    assert len(s.hands[0]) == 1 and e["card"] in s.discards


def test_hazard_discard_is_random() -> None:
    lost = set()
    for seed in range(30):
        s = table(hands=[[num(3), num(6), 45, 46]], pawns=[18, 0, 0, 0], seed=seed)
        act(s, f"play {num(3)}")
        pass_window(s)
        lost.add(s.discards[-1])
    assert lost == {num(6), 45, 46}


def test_pawns_pushed_onto_a_hazard_discard_too() -> None:
    s = table(hands=[[45, num(1)], [num(2)], [num(3)], []], pawns=[30, 26, 12, 0])
    act(s, "play 45")  # seat 1: 26 -> 21, a Ballista Bolt; seat 0: 30 -> 25, a watering hole
    n = s.event_count
    pass_window(s)
    hazards = [(e["seat"], e["card"]) for e in events(s, n) if e["type"] == "hazard"]
    assert hazards == [(1, num(2))]
    assert s.hands[0] == (num(1),)


def test_hazard_is_paid_before_thievery() -> None:
    s = table(hands=[[num(3), num(6)], [num(1)], [], []], pawns=[18, 21, 0, 0])
    act(s, f"play {num(3)}")
    n = s.event_count
    pass_window(s)
    order = [k for k in kinds(s, n) if k in ("hazard", "robbed")]
    assert order == ["hazard", "robbed"]
    assert num(6) in s.discards  # the thief's only other card went to the hazard


def test_hazard_with_an_empty_hand_costs_nothing() -> None:
    s = table(hands=[[num(3)]], pawns=[18, 0, 0, 0])
    act(s, f"play {num(3)}")
    pass_window(s)
    assert s.active == 1


def test_random_choices_follow_the_seed_only() -> None:
    outcomes = set()
    for _ in range(3):
        random.seed()
        s = table(hands=[[num(5)], [num(1), num(2), num(3)], [], []], pawns=[5, 10, 0, 0], seed=4)
        act(s, f"play {num(5)}")
        pass_window(s)
        outcomes.add(s.stolen)
    assert len(outcomes) == 1
