"""Setup, drawing, the end of the race, the turn cap, views, events and the sampler."""

from __future__ import annotations

import json
import random

import pytest

import dragonlair
from dragonlair import BadOptions, UnknownAction
from dragonlair.dragon_race.rules import DragonRace, DragonRaceState
from tests.dragon_race.race_helpers import act, events, kinds, legal, num, pass_window, table


def new(players: int = 4, seed: int = 0, **options: object) -> DragonRaceState:
    s = dragonlair.make("dragon-race", players=players, options=options).new_game(seed)
    assert isinstance(s, DragonRaceState)
    return s


# ---------------------------------------------------------------------- setup and drawing


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_four_and_seat_0_begins_by_drawing_to_five(players: int) -> None:
    s = new(players)
    assert s.active == 0 and s.to_act == (0,) and s.phase == "play" and s.turn == 1
    assert [len(h) for h in s.hands] == [5] + [4] * (players - 1)
    assert s.pawns == [0] * players
    assert len(s.draw) == 56 - 4 * players - 1
    assert kinds(s, 0) == ["dealt"] * players + ["turn", "drew"]


def test_turn_start_draws_up_to_five() -> None:
    s = table(hands=[[num(1)], [num(2), num(3)], [], []])
    act(s, f"play {num(1)}")
    pass_window(s)
    assert len(s.hands[1]) == 5


def test_empty_draw_pile_is_refilled_by_shuffling_the_discards() -> None:
    s = table(hands=[[num(1)], [num(2)], [], []], draw=[num(3)], discards=[])
    # every other card is now in the discard pile
    act(s, f"play {num(1)}")
    n = s.event_count
    pass_window(s)
    assert len(s.hands[1]) == 5
    assert "reshuffled" in kinds(s, n)
    s.check_invariants()
    assert len(s.discards) == 0 and len(s.draw) == 56 - 5


def test_a_deck_of_24_always_lets_the_player_draw() -> None:
    # With the built-in hands, other hands hold at most six cards each, so with at least
    # 24 cards the draw pile and the discards together always hold enough: "both empty"
    # cannot happen (a data file's larger hands can; the hand then stays short).
    from dragonlair.dragon_race.board import MIN_DECK

    game = dragonlair.make("dragon-race", players=4)
    assert isinstance(game, DragonRace)
    assert 4 * game.max_hand <= MIN_DECK


# ---------------------------------------------------------------------- the end


def test_turn_cap_ends_the_race_and_the_pawn_furthest_ahead_wins() -> None:
    s = table(hands=[[num(1)], [num(2)], [], []], pawns=[10, 30, 30, 5], options={"turn_cap": 1})
    act(s, f"play {num(1)}")
    pass_window(s)
    assert s.is_over
    r = s.result
    assert r is not None
    assert r.winners == (1, 2)  # tied pawns share the win
    assert r.points == (11, 30, 30, 5) and r.ranks == (3, 1, 1, 4)
    assert r.reason.startswith("turn cap")
    assert kinds(s, 0)[-1] == "capped"


def test_turn_cap_counts_turns_begun() -> None:
    s = new(4, seed=3, turn_cap=5)
    rng = random.Random(0)
    while not s.is_over:
        seat = s.to_act[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert s.turn <= 5
    assert s.result is not None
    if s.result.reason:
        assert s.turn == 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_game_ends_within_max_length(players: int) -> None:
    game = dragonlair.make("dragon-race", players=players, options={"turn_cap": 30})
    rng = random.Random(players)
    for seed in range(20):
        s = game.new_game(seed)
        steps = 0
        while not s.is_over:
            seat = s.to_act[0]
            s.apply(seat, rng.choice(s.legal_actions(seat)))
            steps += 1
        assert steps <= game.max_length


def test_result_points_are_spots_reached() -> None:
    s = table(hands=[[num(4)]], pawns=[72, 40, 5, 64])
    act(s, f"play {num(4)}")
    pass_window(s)
    r = s.result
    assert r is not None
    assert r.points == (76, 40, 5, 64) and r.ranks == (1, 3, 4, 2) and r.winners == (0,)
    assert [b["spot reached"] for b in r.breakdown] == [76, 40, 5, 64]
    assert s.legal_actions(0) == [] and s.phase == "over"


# ---------------------------------------------------------------------- views


def test_a_seat_sees_its_hand_all_pawns_discards_and_sizes_only() -> None:
    s = new(4, seed=5)
    v = s.view(1)
    assert v["hand"] == list(s.hands[1])
    assert v["hand_sizes"] == [len(h) for h in s.hands]
    assert v["pawns"] == s.pawns and v["discards"] == list(s.discards)
    assert v["draw_size"] == len(s.draw)
    text = json.dumps(v)
    for other in (0, 2, 3):
        for c in s.hands[other]:
            if c not in s.hands[1]:
                assert f"{c}" not in json.dumps(v["hand"])
    assert "draw" not in v and "hands" not in v
    assert json.loads(text) == v
    spectator = s.view(None)
    assert spectator["hand"] is None and spectator["stolen"] is None


def test_sampler_keeps_what_the_seat_sees_and_redraws_the_rest() -> None:
    s = table(
        hands=[[num(5)], [num(2), num(3), num(4)], [45, 46, 47], [49, 50]], pawns=[5, 10, 0, 0]
    )
    act(s, f"play {num(5)}")
    pass_window(s)
    assert s.phase == "halt-steal"
    game = s.game
    for seat in (0, 1, 2, None):
        view = s.view(seat)
        others = set()
        stolen = set()
        for k in range(40):
            t = game.sample_state(view, random.Random(k))
            assert isinstance(t, DragonRaceState)
            assert t.view(seat) == view
            t.check_invariants()
            others.add(t.hands[3])
            stolen.add(t.stolen)
            if seat is not None:
                assert t.hands[seat] == s.hands[seat]
        assert len(others) > 10  # what the seat cannot see really varies
        if seat in (0, 1):
            assert stolen == {s.stolen}  # thief and victim saw the card
        else:
            assert len(stolen) > 5


def test_events_keep_drawn_cards_private() -> None:
    s = new(3, seed=2)
    (mine,) = [e for e in events(s, 0, 0) if e["type"] == "drew"]
    (theirs,) = [e for e in events(s, 0, 1) if e["type"] == "drew"]
    assert mine["cards"] and mine["count"] == 1
    assert theirs.get("redacted") and "cards" not in theirs and theirs["count"] == 1
    dealt = [e for e in events(s, 0, 2) if e["type"] == "dealt"]
    assert [("cards" in e) for e in dealt] == [False, False, True]


# ---------------------------------------------------------------------- actions and options


def test_action_text_reads_naturally_and_parses_back() -> None:
    game = dragonlair.make("dragon-race", players=3)
    for text in ("play 12", "blow 55 2", "triple 13 14 15", "halt 37", "steal 1", "stop", "pass"):
        a = game.parse_action(text)
        assert str(a) == text
        assert game.action_from_id(game.action_id(a)) == a
        assert game.describe_action(a)
    assert game.describe_action(game.parse_action("play 13")).startswith("play 3 (A): move ahead 3")
    assert "Tornado!" in game.describe_action(game.parse_action("blow 56 1"))
    with pytest.raises(UnknownAction):
        game.parse_action("blow 55 3")  # no seat 3 at three players
    with pytest.raises(UnknownAction):
        game.parse_action("triple 1 7 13")  # not three of a kind


def test_describe_card_names_what_a_card_does() -> None:
    game = dragonlair.make("dragon-race")
    assert isinstance(game, DragonRace)
    assert (
        game.describe_card(num(3, "B")) == "3 (B): move ahead 3; insignia B: Dragon B plays again"
    )
    assert "cancel" in game.describe_card(38)
    assert game.describe_card(45).startswith("Bolts!")


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (5, {}, "2 to 4 players"),
        (1, {}, "2 to 4 players"),
        (4, {"turn_cap": 0}, "turn_cap"),
        (4, {"turn_cap": "many"}, "turn_cap"),
        (4, {"bonus_play": "sometimes"}, "bonus_play"),
        (4, {"speed": 3}, "no option 'speed'"),
    ],
)
def test_bad_options_are_refused(players: int, options: dict[str, object], message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        dragonlair.make("dragon-race", players=players, options=options)


def test_spectator_and_stolen_phase_views_are_consistent() -> None:
    s = table(hands=[[num(5)], [num(2)], [], []], pawns=[5, 10, 0, 0])
    act(s, f"play {num(5)}")
    pass_window(s)
    pass_window(s)
    assert s.view(0)["stolen"] == num(2) and s.view(2)["stolen"] is None
    assert legal(s) == [f"play {num(2)}"]
