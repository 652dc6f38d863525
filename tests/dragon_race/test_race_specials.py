"""Special cards, on and off watering holes (watering holes: 12, 25, 38, 51, 64)."""

from __future__ import annotations

import pytest

from dragonlair import IllegalAction
from tests.dragon_race.race_helpers import act, kinds, legal, num, pass_window, table

# ---------------------------------------------------------------------- Bolts! and Balls!


def test_bolts_send_every_pawn_back_five_including_the_player() -> None:
    s = table(hands=[[45]], pawns=[30, 12, 20, 3])
    act(s, "play 45")
    assert s.pawns == [25, 12, 15, 0]  # seat 1 is safe on a watering hole


def test_balls_send_every_pawn_back_three_including_the_player() -> None:
    s = table(hands=[[47]], pawns=[30, 40, 51, 2])
    act(s, "play 47")
    assert s.pawns == [27, 37, 51, 0]


def test_bolts_from_a_watering_hole_spare_the_player() -> None:
    s = table(hands=[[46]], pawns=[25, 30, 38, 10])
    act(s, "play 46")
    assert s.pawns == [25, 25, 38, 5]


def test_balls_from_a_watering_hole_spare_the_player() -> None:
    s = table(hands=[[48]], pawns=[38, 30, 40, 10])
    act(s, "play 48")
    assert s.pawns == [38, 27, 37, 7]


# ---------------------------------------------------------------------- Updraft!


def test_updraft_passes_the_nearest_pawn_ahead() -> None:
    s = table(hands=[[49]], pawns=[10, 14, 20, 8])
    act(s, "play 49")
    assert s.pawns == [15, 14, 20, 8]


def test_updraft_from_a_watering_hole_moves_the_player() -> None:
    s = table(hands=[[50]], pawns=[12, 19, 30, 0])
    act(s, "play 50")
    assert s.pawns[0] == 20


def test_updraft_can_reach_the_finish() -> None:
    s = table(players=2, hands=[[49], []], pawns=[60, 75])
    act(s, "play 49")
    pass_window(s)
    assert s.result is not None and s.result.winners == (0,)


def test_updraft_with_nobody_ahead_does_nothing() -> None:
    s = table(hands=[[49]], pawns=[30, 14, 30, 8])
    n = s.event_count
    act(s, "play 49")
    assert s.pawns == [30, 14, 30, 8]
    assert "no_effect" in kinds(s, n)


# ---------------------------------------------------------------------- Downdraft!


def test_downdraft_blows_the_leader_to_the_spot_behind_the_player() -> None:
    s = table(hands=[[51]], pawns=[10, 30, 20, 5])
    assert legal(s) == ["blow 51 1"]
    act(s, "blow 51 1")
    assert s.pawns == [10, 9, 20, 5]


def test_downdraft_player_picks_among_tied_leaders() -> None:
    s = table(hands=[[52]], pawns=[10, 30, 30, 5])
    assert legal(s) == ["blow 52 1", "blow 52 2"]
    with pytest.raises(IllegalAction):
        act(s, "play 52")
    act(s, "blow 52 2")
    assert s.pawns == [10, 30, 9, 5]


def test_downdraft_does_nothing_if_the_player_leads() -> None:
    for pawns in ([30, 10, 20, 5], [30, 30, 20, 5]):
        s = table(hands=[[51]], pawns=pawns)
        assert legal(s) == ["play 51"]
        act(s, "play 51")
        assert s.pawns == pawns


def test_downdraft_spares_a_leader_on_a_watering_hole() -> None:
    s = table(hands=[[51]], pawns=[10, 38, 20, 5])
    assert legal(s) == ["play 51"]
    act(s, "play 51")
    assert s.pawns == [10, 38, 20, 5]


def test_downdraft_from_a_watering_hole_works() -> None:
    s = table(hands=[[51]], pawns=[25, 30, 20, 5])
    act(s, "blow 51 1")
    assert s.pawns == [25, 24, 20, 5]


def test_downdraft_from_the_start_blows_the_leader_to_the_start() -> None:
    s = table(hands=[[51]], pawns=[0, 30, 20, 5])
    act(s, "blow 51 1")
    assert s.pawns == [0, 0, 20, 5]


# ---------------------------------------------------------------------- Passing Wind!


def test_passing_wind_flies_to_the_next_watering_hole() -> None:
    s = table(hands=[[53]], pawns=[13, 0, 0, 0])
    act(s, "play 53")
    assert s.pawns[0] == 25


def test_passing_wind_from_a_watering_hole_flies_to_the_next() -> None:
    s = table(hands=[[53]], pawns=[12, 0, 0, 0])
    act(s, "play 53")
    assert s.pawns[0] == 25


def test_passing_wind_cannot_be_played_without_a_watering_hole_ahead() -> None:
    for spot in (64, 65, 75):
        s = table(hands=[[53, num(1)]], pawns=[spot, 0, 0, 0])
        assert "play 53" not in legal(s)
    s = table(hands=[[53, num(1)]], pawns=[63, 0, 0, 0])
    act(s, "play 53")
    assert s.pawns[0] == 64  # never to the Finish


# ---------------------------------------------------------------------- Tornado!


def test_tornado_moves_the_player_ahead_six() -> None:
    s = table(hands=[[55]], pawns=[12, 0, 0, 0])
    act(s, "play 55")
    assert s.pawns[0] == 18


def test_tornado_sends_a_rival_back_to_the_watering_hole_behind_them() -> None:
    s = table(hands=[[56]], pawns=[5, 30, 10, 38])
    # seat 3 is safe on a watering hole; seat 1 goes back to 25, seat 2 to the Start
    assert legal(s) == ["play 56", "blow 56 1", "blow 56 2"]
    act(s, "blow 56 1")
    assert s.pawns == [5, 25, 10, 38]


def test_tornado_with_no_watering_hole_behind_sends_to_the_start() -> None:
    s = table(hands=[[56]], pawns=[5, 30, 10, 38])
    act(s, "blow 56 2")
    assert s.pawns == [5, 30, 0, 38]


def test_tornado_cannot_target_the_player_or_a_pawn_on_the_start() -> None:
    s = table(hands=[[55]], pawns=[20, 0, 0, 0])
    assert legal(s) == ["play 55"]


def test_tornado_from_a_watering_hole_works_both_ways() -> None:
    s = table(hands=[[55]], pawns=[25, 30, 0, 0])
    assert legal(s) == ["play 55", "blow 55 1"]
    act(s, "blow 55 1")
    assert s.pawns[:2] == [25, 25]
