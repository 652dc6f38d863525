"""Dragon Stripes rules, one scenario per rule of the rulebook, ruling and issue item.

Positions come from stacking the deck (same cards, chosen order) and playing actions
through the public surface. Seats are clockwise; seat 0 starts.
"""

from __future__ import annotations

import pytest

import dragonlair
from dragonlair import IllegalAction
from tests.dragon_stripes.stripes_helpers import (
    act,
    bank_from_lair,
    events,
    everyone_declines,
    new,
    set_pot,
    stack,
)

# ---------------------------------------------------------------- setup and the deck


@pytest.mark.parametrize("players", range(2, 7))
def test_setup_every_player_has_40_gems_and_the_lair_the_rest_of_350(players: int) -> None:
    s = new(players)
    assert s.gems == [40] * players
    assert s.lair == 350 - 40 * players
    assert s.pot == 0 and s.knight == 0
    v = s.view(players - 1)
    assert v["gems"] == 40 and v["total_gems"] == 350 and v["start_gems"] == 40
    assert s.events_since(0, None)[0] == {
        "seq": 0,
        "type": "setup",
        "players": players,
        "start_gems": 40,
        "lair": 350 - 40 * players,
    }


def test_the_deck_is_38_footprints_10_stops_3_dangers_shuffled_by_the_seed() -> None:
    s = new(seed=1)
    v = s.view(None)
    assert v["deck_size"] == 51 and v["drawn"] == []
    assert v["deck_left"] == {
        "footprint 1": 11,
        "footprint 2": 11,
        "footprint 3": 9,
        "footprint 4": 7,
        "stop": 10,
        "danger": 3,
    }
    assert new(seed=1).deck == s.deck and new(seed=2).deck != s.deck


def test_seat_0_starts_and_must_draw_before_it_may_hold() -> None:
    s = new()
    assert s.to_act == (0,) and s.phase == "draw"
    assert [str(a) for a in s.legal_actions(0)] == ["draw"]
    with pytest.raises(IllegalAction, match="hold is not legal for seat 0 now"):
        s.apply(0, "hold")
    stack(s, 2)
    act(s, 0, "draw")
    assert [str(a) for a in s.legal_actions(0)] == ["draw", "hold"]


# ---------------------------------------------------------------- footprints


def test_a_footprint_moves_the_knight_and_the_stripes_gems_go_from_the_lair_to_the_pot() -> None:
    s = new()
    lair = s.lair
    stack(s, 3, 2, 4)
    act(s, 0, "draw")
    assert (s.knight, s.pot) == (3, 3)
    act(s, 0, "draw", "draw")
    assert (s.knight, s.pot, s.lair) == (9, 3 + 5 + 9, lair - 17)
    assert s.view(2)["knight"] == 9 and s.view(2)["pot"] == 17
    moved = [e for e in s.events_since(0, 3) if e["type"] == "moved"]
    assert [(e["steps"], e["stripe"], e["gems"], e["pot"]) for e in moved] == [
        (3, 3, 3, 3),
        (2, 5, 5, 8),
        (4, 9, 9, 17),
    ]


def test_a_move_past_stripe_17_reaches_the_head_holder_takes_pot_and_whole_lair() -> None:
    s = new()
    stack(s, 4, 4, 4, 4, 2)  # stripes 4, 8, 12, 16, then past 17
    act(s, 0, "draw", "draw", "draw", "draw")
    assert s.pot == 4 + 8 + 12 + 16 and s.lair == 190 - 40
    act(s, 0, "draw")
    assert s.is_over and s.knight == 18
    assert s.gems == [40 + 40 + 150, 40, 40, 40] and s.lair == 0 and s.pot == 0
    r = s.result
    assert (
        r is not None and r.winners == (0,) and r.reason == "the knight reached the dragon's head"
    )
    assert r.breakdown[0]["dragon's head"] == 190
    assert sum(r.breakdown[0].values()) == r.points[0]
    head = [e for e in s.events_since(0, None) if e["type"] == "head"]
    assert head == [
        {"seq": head[0]["seq"], "type": "head", "seat": 0, "steps": 2, "pot": 40, "lair": 150}
    ]


def test_any_move_past_the_last_stripe_reaches_the_head_no_exact_count_needed() -> None:
    s = new()
    stack(s, 4, 4, 4, 4, 4)  # from 16, four steps would be stripe 20
    act(s, 0, "draw", "draw", "draw", "draw", "draw")
    assert s.is_over and s.result is not None and s.result.winners == (0,)


def test_landing_exactly_on_stripe_17_does_not_end_the_game() -> None:
    s = new()
    stack(s, 4, 4, 4, 4, 1, 1)
    act(s, 0, "draw", "draw", "draw", "draw", "draw")
    assert s.knight == 17 and not s.is_over
    assert s.pot == 4 + 8 + 12 + 16 + 17
    assert [str(a) for a in s.legal_actions(0)] == ["draw", "hold"]
    act(s, 0, "draw")
    assert s.is_over and s.knight == 18


# ---------------------------------------------------------------- Stop and Danger


def test_a_stop_returns_the_pot_and_costs_a_quarter_of_the_players_gems_rounded_down() -> None:
    s = new()
    bank_from_lair(s, 0, 3)  # 43 gems: a quarter is 10.75
    lair = s.lair
    stack(s, 2, "stop")
    act(s, 0, "draw", "draw")
    assert s.gems[0] == 43 - 10
    assert s.lair == lair + 10 and s.pot == 0 and s.knight == 0
    assert s.to_act == (1,) and s.turn == 2
    assert events(s, 0)[-3:] == ["stop", "penalty", "turn"]


def test_the_first_danger_is_a_stop() -> None:
    s = new()
    bank_from_lair(s, 0, 3)
    stack(s, 1, "danger")
    act(s, 0, "draw", "draw")
    assert s.gems[0] == 33 and s.pot == 0 and s.knight == 0 and s.to_act == (1,)
    v = s.view(0)
    assert (v["dangers"], v["dragon"], v["reward_multiplier"], v["penalty"]) == (
        1,
        "stirring",
        1,
        "1/4",
    )


def test_the_second_danger_costs_half_rounded_down_and_wakes_the_dragon_half() -> None:
    s = new()
    bank_from_lair(s, 1, 5)  # 45 gems: half is 22.5
    stack(s, "danger", "danger")
    act(s, 0, "draw")
    assert s.gems[0] == 30
    act(s, 1, "draw")
    assert s.gems[1] == 45 - 22
    v = s.view(None)
    assert (v["dangers"], v["dragon"], v["reward_multiplier"], v["penalty"]) == (
        2,
        "half awake",
        2,
        "1/2",
    )
    pen = [e for e in s.events_since(0, 1) if e["type"] == "penalty"]
    assert [(e["seat"], e["fraction"]) for e in pen] == [(0, "1/4"), (1, "1/2")]
    assert pen[1]["gems"] == 22 and "gems" not in pen[0]  # seat 1 sees only its own amount


def test_rewards_double_after_the_second_danger() -> None:
    s = new()
    stack(s, "danger", "danger", 3, 4)
    act(s, 0, "draw")
    act(s, 1, "draw")
    act(s, 2, "draw")
    assert s.pot == 6
    act(s, 2, "draw")
    assert (s.knight, s.pot) == (7, 6 + 14)
    moved = [e for e in s.events_since(0, None) if e["type"] == "moved"]
    assert [e["gems"] for e in moved] == [6, 14]


def test_a_stop_after_the_second_danger_costs_half_rounded_down() -> None:
    s = new()
    bank_from_lair(s, 2, 7)  # 47: half is 23.5
    stack(s, "danger", "danger", 2, "stop")
    act(s, 0, "draw")
    act(s, 1, "draw")
    lair = s.lair
    act(s, 2, "draw", "draw")
    assert s.gems[2] == 47 - 23 and s.lair == lair + 23 and s.to_act == (3,)


def test_the_third_danger_ends_the_game_and_its_drawer_loses_all_gems() -> None:
    s = new()
    stack(s, "danger", "danger", 2, "danger")
    act(s, 0, "draw")  # Danger 1: 40 -> 30
    act(s, 1, "draw")  # Danger 2: 40 -> 20
    act(s, 2, "draw")  # pot 4 (doubled)
    assert s.pot == 4
    act(s, 2, "draw")  # Danger 3
    assert s.is_over and s.phase == "over" and s.to_act == ()
    assert s.gems == [30, 20, 0, 40] and s.pot == 0
    assert sum(s.gems) + s.lair == 350
    r = s.result
    assert r is not None
    assert r.winners == (3,) and r.reason == "the third Danger woke the dragon"
    assert r.breakdown[2]["woke the dragon"] == -40
    assert [sum(b.values()) for b in r.breakdown] == list(r.points)
    woke = [e for e in s.events_since(0, 0) if e["type"] == "woke"]
    assert (woke[0]["seat"], woke[0]["lost"], woke[0]["pot"]) == (2, 40, 4)
    assert s.view(0)["dragon"] == "awake"


def test_the_deck_cannot_run_out_the_third_danger_comes_with_the_last_card_at_the_latest() -> None:
    s = new(players=2)
    footprints = [c for c in s.deck if c > 0]
    stack(s, *footprints, *["stop"] * 10, "danger", "danger", "danger")
    while not s.is_over:  # draw once, hold, nobody takes: every turn banks one footprint
        seat = s.to_act[0]
        legal = [str(a) for a in s.legal_actions(seat)]
        s.apply(seat, "hold" if "hold" in legal else legal[-1])
    assert s.top == 51 and s.view(None)["deck_size"] == 0
    assert s.result is not None and s.result.reason == "the third Danger woke the dragon"


# ---------------------------------------------------------------- hold and hand-over


def test_hold_offers_the_knight_one_at_a_time_clockwise_from_the_holders_left() -> None:
    s = new()
    stack(s, 1, 1)
    act(s, 0, "draw", "hold")
    assert s.phase == "offer"
    asked = []
    while s.phase == "offer":
        asked.append(s.to_act[0])
        assert s.view(None)["window"]["next"] == [1, 2, 3][len(asked) :]
        assert s.default_action(s.to_act[0]) == dragonlair.Action("decline")
        act(s, s.to_act[0], "decline" if len(asked) < 2 else "take")
    assert asked == [1, 2] and s.holder == 2
    act(s, 2, "draw", "hold")
    asked = []
    while s.phase == "offer":
        asked.append(s.to_act[0])
        act(s, s.to_act[0], "decline")
    assert asked == [3, 0, 1]


@pytest.mark.parametrize(
    ("pot", "price"),
    [(1, 1), (10, 1), (11, 10), (20, 10), (21, 20), (40, 20), (41, 40), (120, 40)],
)
def test_the_takeover_price_follows_the_table_at_every_edge(pot: int, price: int) -> None:
    s = new()
    stack(s, 1)
    act(s, 0, "draw")
    set_pot(s, pot)
    assert s.view(3)["price"] == price
    act(s, 0, "hold")
    held = s.events_since(0, None)[-1]
    assert (held["type"], held["pot"], held["price"]) == ("held", pot, price)
    act(s, 1, "take")
    assert s.gems[:2] == [40 + price, 40 - price]
    led = s.view(None)["ledger"]
    assert (led[0]["received"], led[1]["paid"]) == (price, price)
    assert (s.holder, s.pot, s.knight) == (1, pot, 1)


def test_the_takeover_price_uses_the_pots_actual_value_after_doubling() -> None:
    s = new()
    stack(s, "danger", "danger", 4, 2)
    act(s, 0, "draw")
    act(s, 1, "draw")
    act(s, 2, "draw", "draw")  # stripes 4 and 6, doubled: pot 20
    assert s.pot == 20 and s.view(2)["price"] == 10


def test_an_empty_pot_costs_the_first_bands_price() -> None:
    s = new()
    stack(s, 1)
    act(s, 0, "draw")
    set_pot(s, 0)
    assert s.view(0)["price"] == 1


def test_the_taker_pays_the_holder_takes_knight_and_pot_and_must_draw_before_holding() -> None:
    s = new()
    stack(s, 3, 1)
    act(s, 0, "draw", "hold")
    act(s, 1, "take")
    assert (s.holder, s.knight, s.pot) == (1, 3, 3)
    assert s.gems == [41, 39, 40, 40]
    assert s.to_act == (1,) and [str(a) for a in s.legal_actions(1)] == ["draw"]
    took = s.events_since(0, 3)[-1]
    assert took == {
        "seq": took["seq"],
        "type": "took",
        "seat": 1,
        "from_seat": 0,
        "price": 1,
        "pot": 3,
    }
    act(s, 1, "draw")
    assert (s.knight, s.pot) == (4, 7)
    assert [str(a) for a in s.legal_actions(1)] == ["draw", "hold"]


def test_a_player_who_cannot_pay_is_still_asked_but_may_only_decline() -> None:
    s = new()
    stack(s, "stop", 4, 4, 4, 4, 1)
    act(s, 0, "draw")  # seat 0: 40 -> 30 gems
    act(s, 1, "draw", "draw", "draw", "draw", "draw")
    assert s.pot == 57
    act(s, 1, "hold")
    assert s.view(1)["price"] == 40
    assert [str(a) for a in s.legal_actions(2)] == ["take", "decline"]
    act(s, 2, "decline")
    act(s, 3, "decline")
    assert s.to_act == (0,)  # asked like everyone else
    assert [str(a) for a in s.legal_actions(0)] == ["decline"]
    with pytest.raises(IllegalAction, match="take is not legal for seat 0"):
        s.apply(0, "take")
    act(s, 0, "decline")
    assert s.gems[1] == 40 + 57 and s.to_act == (2,)


def test_several_hand_overs_in_one_turn_and_an_earlier_holder_may_take_it_back() -> None:
    s = new()
    stack(s, 2, 2, 2, 3)
    act(s, 0, "draw", "hold")
    act(s, 1, "take", "draw", "hold")  # pot 2 + 4
    act(s, 2, "decline")
    act(s, 3, "decline")
    act(s, 0, "take", "draw", "hold")  # seat 0 takes it back; pot 6 + 6 = 12
    assert s.pot == 12 and s.view(0)["price"] == 10
    act(s, 1, "take", "draw")  # knight 9
    assert (s.holder, s.knight, s.pot, s.turn, s.starter) == (1, 9, 21, 1, 0)
    led = s.view(None)["ledger"]
    assert [(e["received"], e["paid"]) for e in led] == [(1 + 10, 1), (1, 1 + 10), (0, 0), (0, 0)]
    assert s.gems == [40 + 11 - 1, 40 + 1 - 11, 40, 40]


def test_nobody_taking_the_knight_banks_the_pot_and_ends_the_turn() -> None:
    s = new()
    stack(s, 3, 3)
    act(s, 0, "draw", "draw", "hold")
    everyone_declines(s)
    assert s.gems[0] == 49 and s.view(None)["ledger"][0]["banked"] == 9
    assert (s.pot, s.knight, s.to_act, s.turn) == (0, 0, (1,), 2)
    assert events(s)[-5:] == ["declined", "declined", "declined", "banked", "turn"]


def test_the_next_turn_goes_clockwise_from_the_seat_that_started_the_turn() -> None:
    s = new()
    stack(s, 1, 1, 1, "stop")
    act(s, 0, "draw", "hold")
    act(s, 1, "decline")
    act(s, 2, "take", "draw", "hold")
    everyone_declines(s)  # seat 2 banks
    assert s.starter == 1 and s.to_act == (1,)  # not seat 3, left of the last holder
    act(s, 1, "draw", "hold")
    act(s, 2, "decline")
    act(s, 3, "take", "draw")  # a Stop: seat 3 pays, the turn passes to seat 2
    assert s.starter == 2 and s.to_act == (2,) and s.turn == 3


# ---------------------------------------------------------------- the lair


def test_the_lair_pays_what_it_has_when_it_runs_short() -> None:
    s = new(players=6)
    bank_from_lair(s, 5, 105)  # the lair keeps 5 of its 110
    stack(s, 4, 3, 1, "stop")
    act(s, 0, "draw")
    assert (s.pot, s.lair) == (4, 1) and not s.view(0)["lair_empty"]
    act(s, 0, "draw")  # stripe 7 shows 7, the lair has 1
    assert (s.pot, s.lair) == (5, 0)
    short = s.events_since(0, None)[-1]
    assert (short["type"], short["stripe"], short["shown"], short["paid"]) == (
        "lair_short",
        7,
        7,
        1,
    )
    assert s.game.event_text(short) == "the lair runs short: it pays 1 of the 7 gems for stripe 7"
    assert all(s.view(seat)["lair_empty"] for seat in [*range(6), None])
    act(s, 0, "draw")  # nothing left to pay
    assert (s.knight, s.pot, s.lair) == (8, 5, 0)
    act(s, 0, "draw")  # a Stop refills the lair; how much is no longer public
    assert s.lair == 5 + 10 and not s.view(1)["lair_empty"]


# ---------------------------------------------------------------- the end


def test_the_richest_player_wins_and_tied_players_share_the_win() -> None:
    s = new()
    stack(s, "stop", "stop", "danger", "danger", "danger")
    for seat in (0, 1, 2, 3, 0):
        act(s, seat, "draw")
    r = s.result
    assert r is not None
    assert r.points == (0, 30, 30, 20)
    assert r.winners == (1, 2) and r.ranks == (4, 1, 1, 3)
    over = s.events_since(0, 3)[-1]
    assert over["type"] == "game_over" and over["winners"] == [1, 2]


def test_gems_are_conserved_through_a_whole_game() -> None:
    s = new(players=5, seed=9)
    while not s.is_over:
        seat = s.to_act[0]
        s.apply(seat, s.legal_actions(seat)[0] if s.pot < 30 else s.legal_actions(seat)[-1])
        assert sum(s.gems) + s.pot + s.lair == 350
        s.check_invariants()


def test_max_length_bounds_every_game_one_draw_per_card_and_one_offer_per_draw() -> None:
    for players in range(2, 7):
        game = dragonlair.make("dragon-stripes", players=players)
        assert game.max_length == 51 * (1 + players)
