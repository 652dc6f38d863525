"""HALT!: the reaction window after every play and steal, and the undo of the whole turn."""

from __future__ import annotations

import pytest

from dragonlair import IllegalAction
from tests.dragon_race.race_helpers import act, events, halt, kinds, legal, num, pass_window, table


def test_every_other_player_is_asked_in_turn_from_the_players_left() -> None:
    s = table(hands=[[], [], [num(1)], []], pawns=[0, 0, 0, 0], active=2)
    act(s, f"play {num(1)}")
    assert pass_window(s) == [3, 0, 1]


def test_players_without_a_halt_card_are_asked_too() -> None:
    s = table(hands=[[num(3)], [num(1)], [halt(2)], []])
    act(s, f"play {num(3)}")
    assert s.to_act == (1,) and legal(s) == ["pass"]
    act(s, "pass")
    assert s.to_act == (2,) and legal(s) == ["pass", f"halt {halt(2)}"]
    act(s, "pass")
    assert s.to_act == (3,) and legal(s) == ["pass"]
    assert s.default_action(3) is not None and str(s.default_action(3)) == "pass"


def test_halt_against_a_number_card_cancels_the_turn() -> None:
    s = table(hands=[[num(3), num(1)], [halt(1)], [], []], pawns=[4, 0, 0, 0])
    act(s, f"play {num(3)}")
    n = s.event_count
    act(s, f"halt {halt(1)}")
    assert s.pawns == [4, 0, 0, 0]
    assert s.active == 1 and s.phase == "play"  # the turn is over, no window for the halt
    assert num(3) in s.discards and halt(1) in s.discards  # spent cards stay spent
    assert s.hands[0] == (num(1),)
    assert kinds(s, n)[:2] == ["halted", "returned"]


def test_halt_against_a_special_puts_every_pawn_back() -> None:
    s = table(hands=[[45], [], [], [halt(4)]], pawns=[30, 20, 12, 8])
    act(s, "play 45")
    assert s.pawns == [25, 15, 12, 3]
    act(s, "pass")
    act(s, "pass")
    act(s, f"halt {halt(4)}")
    assert s.pawns == [30, 20, 12, 8]
    assert 45 in s.discards


def test_halt_against_a_tornado_on_a_rival_puts_the_rival_back() -> None:
    s = table(hands=[[55], [halt(1)], [], []], pawns=[5, 30, 0, 0])
    act(s, "blow 55 1")
    assert s.pawns[1] == 25
    act(s, f"halt {halt(1)}")
    assert s.pawns == [5, 30, 0, 0]


def test_halt_against_a_three_of_a_kind_off_a_watering_hole() -> None:
    hand = [num(6), num(6, second=True), num(6, "B")]
    s = table(hands=[hand, [halt(3)], [], []], pawns=[40, 0, 0, 0])
    act(s, f"triple {num(6, 'B')} {num(6)} {num(6, second=True)}")
    assert s.pawns[0] == 51
    act(s, f"halt {halt(3)}")
    assert s.pawns[0] == 40 and set(hand) <= set(s.discards)


def test_halt_against_a_steal_gives_the_card_back() -> None:
    s = table(hands=[[num(5)], [num(2)], [halt(2)], []], pawns=[5, 10, 0, 0])
    act(s, f"play {num(5)}")
    pass_window(s)
    assert s.phase == "halt-steal" and s.to_act == (1,)
    act(s, "pass")  # the victim has no HALT!; another player may still call it
    n = s.event_count
    act(s, f"halt {halt(2)}")
    assert s.pawns == [5, 10, 0, 0]
    assert s.active == 1 and s.extra == (False, False, False, False)
    assert num(2) in s.hands[1]
    assert "given_back" in kinds(s, n)
    (back,) = [e for e in events(s, n, 2) if e["type"] == "given_back"]
    assert back.get("redacted") and "card" not in back


def test_halt_undoes_every_play_of_the_turn() -> None:
    s = table(hands=[[num(2, "A"), num(4)], [halt(1)], [], []], pawns=[3, 0, 0, 0])
    act(s, f"play {num(2, 'A')}")
    pass_window(s)
    act(s, f"play {num(4)}")
    assert s.pawns[0] == 9
    act(s, f"halt {halt(1)}")
    assert s.pawns[0] == 3
    assert {num(2, "A"), num(4)} <= set(s.discards)


def test_halt_after_a_stolen_card_is_played() -> None:
    s = table(hands=[[num(5)], [num(2)], [halt(1)], []], pawns=[5, 10, 0, 0])
    act(s, f"play {num(5)}")
    pass_window(s)
    pass_window(s)
    act(s, f"play {num(2)}")
    assert s.pawns[0] == 12
    act(s, "pass")
    act(s, f"halt {halt(1)}")
    assert s.pawns == [5, 10, 0, 0]
    assert num(2) in s.discards  # the stolen card was spent
    assert s.active == 1 and len(s.hands[1]) == 6  # its victim draws the extra card


def test_a_halted_move_pays_no_hazard() -> None:
    s = table(hands=[[num(3), num(6)], [halt(1)], [], []], pawns=[18, 0, 0, 0])
    act(s, f"play {num(3)}")
    act(s, f"halt {halt(1)}")
    assert "hazard" not in kinds(s, 0)
    assert s.hands[0] == (num(6),)


def test_a_halted_winning_move_does_not_win() -> None:
    s = table(hands=[[num(6)], [halt(4)], [], []], pawns=[73, 0, 0, 0])
    act(s, f"play {num(6)}")
    assert s.pawns[0] == 76
    act(s, f"halt {halt(4)}")
    assert not s.is_over and s.pawns[0] == 73 and s.active == 1


def test_a_halt_cannot_be_halted() -> None:
    s = table(hands=[[num(3)], [halt(1)], [halt(2)], [halt(3)]])
    act(s, f"play {num(3)}")
    act(s, f"halt {halt(1)}")
    assert s.phase == "play" and s.active == 1
    with pytest.raises(IllegalAction):
        s.apply(2, f"halt {halt(2)}")


def test_halt_only_with_a_halt_card_in_hand() -> None:
    s = table(hands=[[num(3)], [halt(1)], [], []])
    act(s, f"play {num(3)}")
    with pytest.raises(IllegalAction):
        act(s, f"halt {halt(2)}")


def test_the_player_is_not_asked_about_their_own_play() -> None:
    s = table(hands=[[num(3), halt(1)], [], [], []])
    act(s, f"play {num(3)}")
    assert 0 not in pass_window(s)
