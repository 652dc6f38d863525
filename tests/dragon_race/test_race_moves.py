"""Movement: number cards, the shortcut, backward moves, threes of a kind, insignias."""

from __future__ import annotations

import pytest

import dragonlair
from dragonlair import IllegalAction
from tests.dragon_race.race_helpers import act, halt, kinds, legal, num, pass_window, table

# ---------------------------------------------------------------------- number cards


def test_number_card_moves_ahead_that_many_spots() -> None:
    s = table(hands=[[num(3), num(5)]], pawns=[4, 0, 0, 0])
    act(s, f"play {num(3)}")
    assert s.pawns == [7, 0, 0, 0]
    assert s.phase == "halt-play"
    pass_window(s)
    assert s.active == 1 and s.view(None)["phase"] == "play"


def test_halt_card_may_be_played_as_its_number() -> None:
    s = table(hands=[[halt(3), num(1)]], pawns=[4, 0, 0, 0])
    assert f"play {halt(3)}" in legal(s)
    act(s, f"play {halt(3)}")
    assert s.pawns[0] == 7
    assert halt(3) in s.discards


def test_play_ends_the_turn_and_play_moves_clockwise() -> None:
    s = table(hands=[[num(2)], [num(2, second=True)], [], []])
    act(s, f"play {num(2)}")
    assert pass_window(s) == [1, 2, 3]
    assert s.active == 1 and s.to_act == (1,)


def test_finish_reached_with_a_greater_number_wins() -> None:
    s = table(hands=[[num(6)]], pawns=[73, 10, 10, 10])
    act(s, f"play {num(6)}")
    assert s.pawns[0] == 76 and not s.is_over  # its HALT! window comes first
    pass_window(s)
    assert s.is_over
    r = s.result
    assert r is not None and r.winners == (0,)
    assert r.points == (76, 10, 10, 10)
    assert r.breakdown[0] == {"spot reached": 76}


def test_finish_reached_exactly_wins() -> None:
    s = table(players=2, hands=[[num(3)], []], pawns=[73, 50])
    act(s, f"play {num(3)}")
    pass_window(s)
    assert s.result is not None and s.result.winners == (0,)
    assert "won" in kinds(s, 0)


# ---------------------------------------------------------------------- the shortcut


def test_shortcut_exact_landing_then_next_move_counts_from_exit_arrow() -> None:
    s = table(hands=[[num(3)], [], [], []], pawns=[26, 0, 0, 0])
    act(s, f"play {num(3)}")
    pass_window(s)
    assert s.pawns[0] == 29
    s = table(hands=[[num(2)]], pawns=[29, 0, 0, 0])
    n = s.event_count
    act(s, f"play {num(2)}")
    assert s.pawns[0] == 36  # 34 + 2: the first spot counted is the exit arrow, 35
    assert "shortcut" in kinds(s, n)


def test_shortcut_applies_to_the_bonus_play_of_the_same_turn() -> None:
    s = table(hands=[[num(3, "A"), num(2)]], pawns=[26, 0, 0, 0])
    act(s, f"play {num(3, 'A')}")
    pass_window(s)
    assert s.pawns[0] == 29 and s.bonus
    act(s, f"play {num(2)}")
    assert s.pawns[0] == 36


def test_shortcut_from_the_entry_arrow_however_the_pawn_came_to_rest_there() -> None:
    s = table(hands=[[45], [num(2)], [], []], pawns=[10, 34, 0, 0])
    act(s, "play 45")  # Bolts! send seat 1 back along the long path onto the arrow
    pass_window(s)
    assert s.pawns[1] == 29 and s.active == 1
    act(s, f"play {num(2)}")
    assert s.pawns[1] == 36


def test_shortcut_missed_when_passing_over_the_entry_arrow() -> None:
    s = table(hands=[[num(4)]], pawns=[27, 0, 0, 0])
    act(s, f"play {num(4)}")
    assert s.pawns[0] == 31  # the long path


def test_tornado_ahead_from_the_entry_arrow_takes_the_shortcut() -> None:
    s = table(hands=[[55]], pawns=[29, 0, 0, 0])
    act(s, "play 55")
    assert s.pawns[0] == 40


def test_backward_moves_take_the_long_path_past_the_shortcut() -> None:
    s = table(hands=[[], [45], [], []], pawns=[36, 0, 0, 0], active=1)
    act(s, "play 45")
    assert s.pawns[0] == 31  # 36 - 5 along the long path, not back through the hoops


def test_nothing_moves_below_the_start() -> None:
    s = table(hands=[[45]], pawns=[3, 2, 0, 9])
    act(s, "play 45")
    assert s.pawns == [0, 0, 0, 4]


# ---------------------------------------------------------------------- three of a kind


def test_three_of_a_kind_flies_to_the_next_watering_hole() -> None:
    s = table(hands=[[num(3), num(3, second=True), halt(3), num(1)]], pawns=[3, 0, 0, 0])
    trio = f"triple {num(3)} {num(3, second=True)} {halt(3)}"
    assert trio in legal(s)  # a HALT! counts by its number
    act(s, trio)
    assert s.pawns[0] == 12
    assert s.phase == "halt-play"  # not from a watering hole: it can be halted
    pass_window(s)
    assert s.hands[0] == (num(1),)


def test_three_of_a_kind_from_a_watering_hole_cannot_be_halted() -> None:
    s = table(
        hands=[[num(2, "B"), num(2, "C"), num(2)], [halt(1)], [halt(2)], [halt(3)]],
        pawns=[25, 0, 0, 0],
    )
    act(s, f"triple {num(2, 'B')} {num(2, 'C')} {num(2)}")
    assert s.pawns[0] == 38
    assert s.active == 1 and s.phase == "play"  # no window; the turn is over


def test_three_of_a_kind_cannot_reach_the_finish() -> None:
    hand = [num(4), num(4, second=True), num(4, "D")]
    for spot in (64, 70):
        s = table(hands=[hand], pawns=[spot, 0, 0, 0])
        assert not [a for a in legal(s) if a.startswith("triple")]
        with pytest.raises(IllegalAction):
            act(s, f"triple {num(4, 'D')} {num(4)} {num(4, second=True)}")
    s = table(hands=[hand], pawns=[63, 0, 0, 0])
    assert f"triple {num(4, 'D')} {num(4)} {num(4, second=True)}" in legal(s)


def test_insignia_in_a_three_of_a_kind_grants_no_play() -> None:
    s = table(hands=[[num(1, "A"), num(1), num(1, second=True), num(5)]], pawns=[14, 0, 0, 0])
    act(s, f"triple {num(1, 'A')} {num(1)} {num(1, second=True)}")
    pass_window(s)
    assert s.pawns[0] == 25 and s.active == 1


def test_three_halt_cards_are_not_a_three_of_a_kind() -> None:
    # The built-in deck has two HALT! cards per number, so no triple can be all HALT!s...
    game = dragonlair.make("dragon-race")
    for a in game.actions:
        if a.kind == "triple":
            assert not all(37 <= int(c) <= 44 for c in a.args)
    # ...and no three of a kind mixes numbers.
    values = {
        tuple(sorted({game.card_value[int(c)] for c in a.args}))  # type: ignore[attr-defined]
        for a in game.actions
        if a.kind == "triple"
    }
    assert all(len(v) == 1 for v in values)


def test_three_tornados_or_three_of_one_insignia_are_not_a_three_of_a_kind() -> None:
    game = dragonlair.make("dragon-race")
    kind = game.card_kind  # type: ignore[attr-defined]
    for a in game.actions:
        if a.kind == "triple":
            assert all(kind[int(c)] in (0, 1) for c in a.args)  # numbers and HALT!s only
    s = table(hands=[[num(1, "A"), num(2, "A"), num(3, "A"), 55, 56]], pawns=[3, 0, 0, 0])
    assert not [a for a in legal(s) if a.startswith("triple")]


def test_two_of_a_kind_is_not_a_play() -> None:
    s = table(hands=[[num(3), num(3, second=True), num(4)]], pawns=[3, 0, 0, 0])
    assert not [a for a in legal(s) if a.startswith("triple")]


# ---------------------------------------------------------------------- insignias


def test_own_insignia_grants_another_play_and_chains() -> None:
    s = table(hands=[[num(1, "A"), num(2, "A"), num(3), num(4)]], pawns=[0, 0, 0, 0])
    act(s, f"play {num(1, 'A')}")
    pass_window(s)
    assert s.active == 0 and s.bonus and "bonus" in kinds(s, 0)
    assert "stop" in legal(s)
    act(s, f"play {num(2, 'A')}")
    pass_window(s)
    assert s.active == 0 and s.bonus
    act(s, f"play {num(3)}")
    pass_window(s)
    assert s.pawns[0] == 6 and s.active == 1


def test_another_players_insignia_grants_nothing() -> None:
    s = table(hands=[[num(2, "B"), num(3)]], pawns=[0, 0, 0, 0])
    act(s, f"play {num(2, 'B')}")
    pass_window(s)
    assert s.active == 1


def test_bonus_play_may_be_declined_with_stop() -> None:
    s = table(hands=[[num(1, "A"), num(6)]])
    act(s, f"play {num(1, 'A')}")
    pass_window(s)
    n = s.event_count
    act(s, "stop")
    assert s.active == 1 and s.pawns[0] == 1
    assert "stopped" in kinds(s, n)


def test_bonus_play_option_must_refuses_stop() -> None:
    s = table(hands=[[num(1, "A"), num(6)]], options={"bonus_play": "must"})
    act(s, f"play {num(1, 'A')}")
    pass_window(s)
    assert "stop" not in legal(s)
    assert legal(s) == [f"play {num(6)}"]


def test_bonus_play_may_be_any_kind_of_play() -> None:
    hand = [num(1, "A"), num(5), num(5, second=True), num(5, "C"), 45]
    s = table(hands=[hand], pawns=[3, 0, 0, 0])
    act(s, f"play {num(1, 'A')}")
    pass_window(s)
    options = legal(s)
    assert f"triple {num(5, 'C')} {num(5)} {num(5, second=True)}" in options
    assert "play 45" in options


def test_bonus_with_an_empty_hand_ends_the_turn() -> None:
    s = table(hands=[[num(1, "A")]])
    act(s, f"play {num(1, 'A')}")
    pass_window(s)
    assert s.active == 1


def test_a_player_who_cannot_play_may_only_stop() -> None:
    s = table(hands=[[53, 54]], pawns=[66, 0, 0, 0])  # Passing Wind!, no watering hole ahead
    assert legal(s) == ["stop"]
    act(s, "stop")
    assert s.active == 1 and s.hands[0] == (53, 54)
