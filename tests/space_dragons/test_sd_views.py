"""Views, events and the hidden-state sampler: each seat sees exactly what it may."""

from __future__ import annotations

import json
import random

import dragonlair
from dragonlair.space_dragons.rules import SpaceDragonsState
from tests.space_dragons.sd_helpers import GAME, hunt, play_round

VIEW_KEYS = {
    # from the core
    "game",
    "players",
    "seat",
    "phase",
    "move",
    "to_act",
    "over",
    # Space Dragons
    "phase_name",
    "hand",
    "picks",
    "hand_sizes",
    "pick_counts",
    "pick",
    "round",
    "rounds_played",
    "starter",
    "this_round",
    "played",
    "shields",
    "damage",
    "claimed",
    "face_up",
    "lair",
    "pile",
    "start_cards",
    "scoring_cards",
    "symbols",
    "card_points",
}


def drafted(picks: int, seed: int = 3, players: int = 4) -> SpaceDragonsState:
    s = dragonlair.make(GAME, players=players).new_game(seed)
    assert isinstance(s, SpaceDragonsState)
    for _ in range(picks):
        for seat in s.to_act:
            s.apply(seat, s.legal_actions(seat)[0])
    return s


def test_a_view_holds_exactly_the_documented_fields() -> None:
    s = drafted(2)
    assert set(s.view(0)) - {"choosing"} == VIEW_KEYS
    assert s.view(0)["phase_name"] == "Hiring Crew"
    s.apply(1, s.legal_actions(1)[0])
    assert set(s.view(1)) == VIEW_KEYS | {"choosing", "my_choice"}
    assert set(s.view(0)) == VIEW_KEYS | {"choosing"}


def test_a_seat_sees_its_own_hand_and_picks_and_only_counts_of_the_others() -> None:
    s = drafted(2)
    v = s.view(0)
    assert v["hand"] == list(s.hands[0]) and v["picks"] == list(s.picks[0])
    assert v["hand_sizes"] == [7, 7, 7, 7] and v["pick_counts"] == [2, 2, 2, 2]
    spectator = s.view(None)
    assert spectator["hand"] is None and spectator["picks"] is None
    assert {k: x for k, x in spectator.items() if k not in ("hand", "picks", "seat")} == {
        k: x for k, x in v.items() if k not in ("hand", "picks", "seat")
    }


def test_a_view_shows_ships_dragons_and_counts_but_not_the_lair_or_the_pile() -> None:
    s = hunt(hands=[[17], [73], [49], [64]], shields=[0, 0, 0, 0])
    play_round(s, {0: 17, 1: 73, 2: 49, 3: 64})
    v = s.view(2)
    # 73 is highest: its own damage, then the two crosshairs of 49
    assert v["shields"] == [1, 0, 0, 0] and v["damage"] == [0, 3, 0, 0]
    assert v["played"] == [[17], [73], [49], [64]]
    assert v["claimed"][1] and v["face_up"] == s.face_up
    assert v["lair"] == 5 and isinstance(v["pile"], int)
    assert v["symbols"]["science"][2] == 1 and v["symbols"]["mood"][0] == 1
    assert v["card_points"][3] == -2  # card 64
    text = json.dumps(v)
    assert "ships" not in text and "box" not in text


def test_this_round_lists_the_cards_played_so_far_in_order() -> None:
    s = hunt(hands=[[17], [73], [49], [64]], lead=2)
    s.apply(2, "play 49")
    s.apply(3, "play 64")
    assert s.view(0)["this_round"] == [[2, 49], [3, 64]]
    assert s.view(0)["round"] == 1 and s.view(0)["starter"] == 2


def test_events_of_private_details_go_only_to_their_seat() -> None:
    s = drafted(1)
    dealt = [e for e in s.events_since(0, 1) if e["type"] == "dealt"]
    assert [e.get("redacted", False) for e in dealt] == [True, False, True, True]
    assert "cards" in dealt[1] and "cards" not in dealt[0]
    others = [e for e in s.events_since(0, 1) if e["type"] == "received" and e["seat"] != 1]
    assert others and all(e["redacted"] and "cards" not in e for e in others)
    (mine,) = [e for e in s.events_since(0, 1) if e["type"] == "received" and e["seat"] == 1]
    assert mine["cards"] == list(s.hands[1])
    public = [e for e in s.events_since(0, None) if e["type"] == "received"]
    assert public and all("cards" not in e for e in public)
    passed = [e for e in s.events_since(0, None) if e["type"] == "passed"]
    assert passed[0]["after"] == "after pick 1"


def test_every_event_reads_as_a_line_of_the_game_log() -> None:
    s = hunt(hands=[[74], [19], [49], [2]])
    n = s.event_count
    play_round(s, {0: 74, 1: 19, 2: 49, 3: 2})
    names = ["Ann", "Bea", "Cec", "Dora"]
    lines = [s.game.event_text(e, names) for e in s.events_since(n, None)]
    assert lines[0] == "Ann plays 74 (damage, crosshair; crime 1; -1 pts)"
    assert "Ann has no shield against damage" in lines[1]
    assert any("Dora tucks a draw-pile card under their ship as a shield" in x for x in lines)
    assert any(
        "Ann has the highest card: the others' crosshairs hit it 3 times" in x for x in lines
    )
    assert any(x.startswith("Ann wins the round with 74 and claims dragon") for x in lines)
    assert lines[-1] == "round 2: Ann starts"


def test_actions_read_naturally_and_are_described() -> None:
    game = dragonlair.make(GAME)
    assert game.num_actions == 160
    a = game.parse_action("Play 57")
    assert str(a) == "play 57" and game.action_from_id(game.action_id(a)) == a
    assert game.describe_action(a) == "play 57 (crosshair, crosshair; crime 1; -1 pts)"
    assert (
        game.describe_action(game.parse_action("hire 36"))
        == "hire 36 (no effect; science 1; 0 pts)"
    )


def _others(s: dragonlair.State, seat: int) -> tuple[object, ...]:
    assert isinstance(s, SpaceDragonsState)
    return (
        tuple(h for i, h in enumerate(s.hands) if i != seat),
        tuple(p for i, p in enumerate(s.picks) if i != seat),
        s.pile,
        s.lair,
        s.ships,
    )


def test_the_sampler_keeps_what_the_seat_sees_and_redraws_the_rest() -> None:
    s = drafted(3)
    s.apply(2, s.legal_actions(2)[1])  # a pick seat 0 cannot see yet
    v = s.view(0)
    rng = random.Random(4)
    hidden = set()
    for _ in range(20):
        sample = s.game.sample_state(v, rng)
        assert sample.view(0) == v
        assert sample.legal_actions(0) == s.legal_actions(0)
        sample.check_invariants()
        hidden.add(_others(sample, 0))
        assert isinstance(sample, SpaceDragonsState)
        assert sample.hands[0] == s.hands[0] and sample.picks[0] == s.picks[0]
        assert sample._choices is not None
        pick = sample._choices[2]
        assert pick is not None and pick + 1 in sample.hands[2]
    assert len(hidden) == 20  # other hands, picks, the pile and the lair really vary


def test_the_sampler_in_the_hunt_keeps_the_table_and_varies_hands_and_lair() -> None:
    s = drafted(9)
    for _ in range(6):
        (seat,) = s.to_act
        s.apply(seat, s.legal_actions(seat)[-1])
    v = s.view(1)
    rng = random.Random(9)
    lairs, hands = set(), set()
    for _ in range(15):
        sample = s.game.sample_state(v, rng)
        assert sample.view(1) == v
        assert isinstance(sample, SpaceDragonsState)
        lairs.add(sample.lair)
        hands.add(sample.hands[0])
        assert sample.played == s.played and sample.claimed == s.claimed
        assert sample.shields == s.shields and sample.damage == s.damage
        assert sample.face_up == s.face_up and sample.taken == s.taken
    assert len(lairs) > 1 and len(hands) > 1


def test_the_sampler_works_on_a_finished_game() -> None:
    s = drafted(9)
    while not s.is_over:
        (seat,) = s.to_act
        s.apply(seat, s.legal_actions(seat)[0])
    for viewer in (0, None):
        v = s.view(viewer)
        sample = s.game.sample_state(v, random.Random(2))
        assert sample.view(viewer) == v and sample.is_over
        sample.check_invariants()


def test_a_sampled_state_plays_on_to_the_end() -> None:
    s = drafted(5)
    sample = s.game.sample_state(s.view(None), random.Random(1))
    while not sample.is_over:
        seat = sample.to_act[0]
        sample.apply(seat, sample.legal_actions(seat)[0])
    assert sample.result is not None
