"""Scenario tests for the Space Dragons rules, the rulebook's examples and our rulings.

Each test is named after the rule it checks. Positions are reached by playing chosen
actions through the public surface, or set up with ``sd_helpers.hunt`` (which re-checks
the state's invariants). Card facts used below are those of the built-in deck:
2 = three shields, 9 = two tools, 14 = two tools, 17 = one shield, 19 = one crosshair,
49 = two crosshairs, 59 = one tool, 73/75 = one damage, 74 = damage + crosshair,
80 = two damage; 32, 36, 40, 44, 48, 52, 56, 60, 62, 64 have no effect.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import dragonlair
from dragonlair.space_dragons.rules import SpaceDragonsState
from tests.space_dragons.sd_helpers import GAME, hunt, kinds, plain_data, play_round, symbols, write


def new(players: int = 4, seed: int = 1, **options: Any) -> SpaceDragonsState:
    s = dragonlair.make(GAME, players=players, options=options).new_game(seed)
    assert isinstance(s, SpaceDragonsState)
    return s


def draft_through(s: dragonlair.State) -> None:
    """Everyone hires their lowest card until the Dragon Hunt begins."""
    while s.phase == "hire":
        for seat in s.to_act:
            s.apply(seat, s.legal_actions(seat)[0])


def test_the_built_in_deck_has_the_published_facts() -> None:
    comp = dragonlair.make(GAME).components  # type: ignore[attr-defined]
    assert [c.number for c in comp.crew] == list(range(1, 81))
    for n in range(73, 80):
        assert comp.card(n).effects.count("damage") == 1
    assert comp.card(80).effects.count("damage") == 2
    assert len(comp.dragons) == 20
    assert sorted({d.points for d in comp.dragons}) == [8, 9, 10, 11, 12]


# ---------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_deals_nine_makes_a_lair_of_seven_and_gives_each_a_ship(players: int) -> None:
    s = new(players)
    v = s.view(0)
    assert len(v["hand"]) == 9 and v["hand_sizes"] == [9] * players
    assert v["lair"] == 6 and v["face_up"] is not None  # 7 dragons, the top one revealed
    assert len(s.ships) == players and len(s.box) == 20 - 7 - players
    assert v["pile"] == 80 - 9 * players - players  # the start-player draw left the game
    assert v["shields"] == [0] * players and v["damage"] == [0] * players
    assert v["scoring_cards"] == {"science": "a", "mood": "a", "crime": "a"}  # first game
    assert s.phase == "hire" and s.to_act == tuple(range(players))


def test_start_player_draw_highest_starts_and_the_cards_leave_the_game() -> None:
    for seed in range(5):
        s = new(seed=seed)
        v = s.view(None)
        start = v["start_cards"]
        assert len(start) == 4 and v["starter"] == start.index(max(start))
        in_play = {c for h in s.hands for c in h} | set(s.pile)
        assert not in_play & set(start)
        (event,) = [e for e in s.events_since(0, None) if e["type"] == "start_draw"]
        assert event["cards"] == start and event["start_seat"] == v["starter"]
        draft_through(s)
        assert s.to_act == (v["starter"],)  # the start player leads round 1


# ---------------------------------------------------------------------------- Hiring Crew


def test_hiring_crew_picks_are_simultaneous_and_secret() -> None:
    s = new()
    card = s.legal_actions(1)[3]
    s.apply(1, card)
    assert s.to_act == (0, 2, 3)
    assert s.view(1)["my_choice"] == str(card)
    assert "my_choice" not in s.view(0) and "my_choice" not in s.view(None)
    assert s.view(0)["pick_counts"] == [0, 0, 0, 0]  # nothing is revealed before all pick
    hired = [e for e in s.events_since(0, 0) if e["type"] == "hired"]
    assert hired == [{"seq": hired[0]["seq"], "type": "hired", "redacted": True, "seat": 1}]
    assert [e["card"] for e in s.events_since(0, 1) if e["type"] == "hired"] == [card.args[0]]


def test_hiring_crew_passes_the_rest_of_each_hand_to_the_left() -> None:
    s = new()
    before = [list(h) for h in s.hands]
    picks = {}
    for seat in range(4):
        picks[seat] = s.legal_actions(seat)[seat].args[0]
        s.apply(seat, f"hire {picks[seat]}")
    for seat in range(4):
        left = (seat + 1) % 4
        assert s.view(left)["hand"] == [c for c in before[seat] if c != picks[seat]]
        assert s.view(seat)["picks"] == [picks[seat]]
    assert s.view(0)["pick_counts"] == [1, 1, 1, 1] and s.view(0)["pick"] == 2


def test_a_player_sees_their_own_picks_and_nobody_elses() -> None:
    s = new()
    for _ in range(3):
        for seat in s.to_act:
            s.apply(seat, s.legal_actions(seat)[-1])
    assert len(s.view(2)["picks"]) == 3
    assert s.view(None)["picks"] is None
    mine = set(s.view(2)["picks"])
    for seat in (0, 1, 3):
        v = s.view(seat)
        assert not mine & set(v["picks"]) and not mine & set(v["hand"])


def test_after_nine_picks_the_picks_are_the_crew_in_hand() -> None:
    s = new()
    picked: list[list[int]] = [[], [], [], []]
    while s.phase == "hire":
        for seat in s.to_act:
            a = s.legal_actions(seat)[0]
            picked[seat].append(a.args[0])  # type: ignore[arg-type]
            s.apply(seat, a)
    assert s.phase == "hunt"
    for seat in range(4):
        assert s.view(seat)["hand"] == sorted(picked[seat])
        assert s.view(seat)["picks"] == []
    assert "crew_hired" in kinds(s)


# ---------------------------------------------------------------------------- Dragon Hunt


def test_the_round_starter_plays_first_then_clockwise() -> None:
    s = hunt(hands=[[32, 1], [36, 9], [40, 14], [44, 18]], lead=2)
    order = []
    while s.round == 0:
        (seat,) = s.to_act
        order.append(seat)
        s.apply(seat, s.legal_actions(seat)[0])
    assert order == [2, 3, 0, 1]


def test_the_highest_card_takes_the_dragon_reveals_the_next_and_starts() -> None:
    s = hunt(hands=[[32, 1], [64, 9], [40, 14], [44, 18]], lead=0)
    dragon, next_dragon = s.face_up, s.lair[0]
    play_round(s, {0: 32, 1: 64, 2: 40, 3: 44})
    v = s.view(None)
    assert v["claimed"][1] == [dragon]
    assert v["face_up"] == next_dragon and v["lair"] == 5
    assert s.to_act == (1,) and v["starter"] == 1 and v["round"] == 2


def test_shield_tucks_a_card_from_the_draw_pile() -> None:
    s = hunt(hands=[[17], [32], [36], [40]])
    pile = s.view(0)["pile"]
    s.apply(0, "play 17")
    v = s.view(1)
    assert v["shields"][0] == 1 and v["pile"] == pile - 1
    s2 = hunt(hands=[[2], [32], [36], [40]])
    s2.apply(0, "play 2")
    assert s2.view(0)["shields"][0] == 3  # one card per shield symbol


def test_damage_removes_a_shield_first() -> None:
    s = hunt(hands=[[73], [32], [36], [40]], shields=[2, 0, 0, 0])
    pile = s.view(0)["pile"]
    s.apply(0, "play 73")
    v = s.view(0)
    assert v["shields"][0] == 1 and v["damage"][0] == 0 and v["pile"] == pile


def test_damage_without_shields_tucks_a_card_as_damage() -> None:
    s = hunt(hands=[[73], [32], [36], [40]])
    pile = s.view(0)["pile"]
    s.apply(0, "play 73")
    v = s.view(0)
    assert v["damage"][0] == 1 and v["pile"] == pile - 1


def test_card_80_deals_two_damage_shield_first_then_the_ship() -> None:
    s = hunt(hands=[[80], [32], [36], [40]], shields=[1, 0, 0, 0])
    s.apply(0, "play 80")
    assert s.view(0)["shields"][0] == 0 and s.view(0)["damage"][0] == 1


def test_tool_removes_damage() -> None:
    s = hunt(hands=[[14], [32], [36], [40]], damage=[3, 0, 0, 0])
    s.apply(0, "play 14")
    assert s.view(0)["damage"][0] == 1
    assert [e["type"] for e in s.events_since(0, None)][-2:] == ["repaired", "repaired"]


def test_tool_without_damage_has_no_effect() -> None:
    s = hunt(hands=[[9], [32], [36], [40]], damage=[0, 1, 0, 0], shields=[1, 0, 0, 0])
    n = s.event_count
    s.apply(0, "play 9")
    v = s.view(0)
    assert v["damage"] == [0, 1, 0, 0] and v["shields"] == [1, 0, 0, 0]
    assert kinds(s, n) == ["played", "tool_idle", "tool_idle"]


def test_a_tool_cannot_repair_this_rounds_crosshair_hits() -> None:
    # seat 3 wins with 59 (a tool): the tool resolves at once (no damage yet), the
    # crosshairs only at the end of the round, so the hits stay.
    s = hunt(hands=[[19], [11], [49], [59]])
    play_round(s, {0: 19, 1: 11, 2: 49, 3: 59})
    assert s.view(None)["damage"] == [0, 0, 0, 4]


def test_crosshairs_hit_the_winner_from_the_other_players_cards_only() -> None:
    s = hunt(hands=[[74], [19], [49], [32]])
    play_round(s, {0: 74, 1: 19, 2: 49, 3: 32})
    v = s.view(None)
    # 74's own damage hits its ship; its own crosshair does not count; 19 and 49: 3 hits
    assert v["damage"] == [4, 0, 0, 0] and v["shields"] == [0, 0, 0, 0]
    hit = [e for e in s.events_since(0, None) if e["type"] == "crosshairs"]
    assert [(e["winner"], e["hits"]) for e in hit] == [(0, 3)]


def test_crosshairs_take_shields_before_damaging_the_ship() -> None:
    s = hunt(hands=[[64], [19], [49], [32]], shields=[2, 1, 0, 0])
    play_round(s, {0: 64, 1: 19, 2: 49, 3: 32})
    v = s.view(None)
    assert v["shields"] == [0, 1, 0, 0] and v["damage"] == [1, 0, 0, 0]


def test_crosshairs_of_a_round_the_winner_shoots_alone_do_nothing() -> None:
    s = hunt(hands=[[49], [32], [36], [40]])
    play_round(s, {0: 49, 1: 32, 2: 36, 3: 40})
    assert s.view(None)["damage"] == [0, 0, 0, 0]
    assert "crosshairs" not in kinds(s)


def test_immediate_effects_resolve_in_the_order_the_card_lists_them(tmp_path: Path) -> None:
    deck = plain_data(
        crew={
            10: {"effects": ["shield", "damage"]},  # shield, then the damage takes it
            11: {"effects": ["damage", "shield"]},  # damage to the ship, then a shield
            12: {"effects": ["shield", "tool", "damage"]},
        }
    )
    options = {"data": write(tmp_path, deck)}
    s = hunt(options=options, hands=[[10], [11], [12], [40]], damage=[0, 0, 1, 0])
    play_round(s, {0: 10, 1: 11, 2: 12, 3: 40})
    v = s.view(None)
    assert v["shields"] == [0, 1, 0, 0] and v["damage"] == [0, 1, 0, 0]


def test_empty_draw_pile_makes_shields_and_damage_counters() -> None:
    s = hunt(hands=[[2], [73], [36], [40]], pile_left=0)
    s.apply(0, "play 2")
    s.apply(1, "play 73")
    v = s.view(None)
    assert v["pile"] == 0 and v["shields"][0] == 3 and v["damage"][1] == 1
    texts = [e["what"] for e in s.events_since(0, None) if e["type"] in ("shield", "damaged")]
    assert texts and all("counter" in t for t in texts)
    s.check_invariants()


def test_the_hunt_lasts_seven_rounds_and_the_two_unplayed_cards_score_nothing(
    tmp_path: Path,
) -> None:
    deck = plain_data(crew={c: {"points": 5} for c in range(71, 81)})  # never played
    s = new(data=write(tmp_path, deck))
    draft_through(s)
    while not s.is_over:
        (seat,) = s.to_act
        hand = s.view(seat)["hand"]
        low = [c for c in hand if c < 71] or hand
        s.apply(seat, f"play {low[0]}")
    v = s.view(0)
    assert [len(p) for p in v["played"]] == [7] * 4 and v["hand_sizes"] == [2] * 4
    assert sum(len(c) for c in v["claimed"]) == 7 and v["lair"] == 0 and v["face_up"] is None
    assert "set_aside" in kinds(s)
    assert any(c >= 71 for h in s.hands for c in h)  # some 5-point cards were left unplayed
    result = s.result
    assert result is not None
    for seat in range(4):
        played_points = sum(5 for c in v["played"][seat] if c >= 71)
        assert result.breakdown[seat]["crew points"] == played_points


# ---------------------------------------------------------------------------- scoring


def last_round(
    tmp_path: Path,
    counts: dict[str, list[int]] | None = None,
    points: list[int] | None = None,
    claimed: list[list[int]] | None = None,
    winner: int = 0,
    ship_shields: list[int] | None = None,
    ship_damage: list[int] | None = None,
    **options: Any,
) -> dragonlair.Result:
    """Play the last round of a 4-player game on a blank deck where seat s's six earlier
    cards carry ``counts[symbol][s]`` symbols and ``points[s]`` plus/minus points, and
    return the result. ``winner`` plays the highest card of the last round."""
    n = 4
    played = [list(range(1 + 6 * s, 7 + 6 * s)) for s in range(n)]
    crew: dict[int, dict[str, Any]] = {}
    for seat in range(n):
        tallies = {k: v[seat] for k, v in (counts or {}).items()}
        left = points[seat] if points else 0
        for card in played[seat]:
            sym = {k: min(3, v) for k, v in tallies.items()}
            tallies = {k: v - sym[k] for k, v in tallies.items()}
            step = max(-5, min(5, left))
            left -= step
            crew[card] = {"symbols": symbols(**sym), "points": step}
        assert not any(tallies.values()) and left == 0
    hands = [[30 + i, 40 + i, 50 + i] for i in range(n)]
    hands[winner][0] = 70
    data = write(tmp_path, plain_data(crew=crew))
    s = hunt(
        options={"data": data, **options},
        hands=hands,
        played=played,
        claimed=claimed or [[1, 2], [3], [4], [5, 6]],
        shields=ship_shields,
        damage=ship_damage,
    )
    play_round(s, {seat: hands[seat][0] for seat in range(n)})
    assert s.result is not None
    return s.result


def test_rulebook_example_1_science_side_a(tmp_path: Path) -> None:
    # Anna 4 science, Bernadette 2, Cecilia 1, Dora none: Anna 10 (most), Dora 5 (fewest)
    r = last_round(tmp_path, {"science": [4, 2, 1, 0]}, science="a")
    assert [b["science"] for b in r.breakdown] == [10, 0, 0, 5]


def test_rulebook_example_2_mood_side_a(tmp_path: Path) -> None:
    # Anna 4 mood, Bernadette none, Cecilia and Dora 2: Anna 10, Cecilia and Dora 5 each
    r = last_round(tmp_path, {"mood": [4, 0, 2, 2]}, mood="a")
    assert [b["mood"] for b in r.breakdown] == [10, 0, 5, 5]


def test_rulebook_example_3_crime_side_b_is_a_penalty(tmp_path: Path) -> None:
    # Anna and Bernadette 7 crime, Cecilia 3, Dora 1; side B: "Dora ... does not get any
    # minus points"
    r = last_round(tmp_path, {"crime": [7, 7, 3, 1]}, crime="b")
    assert [b["crime"] for b in r.breakdown] == [-10, -10, -5, 0]


def test_rulebook_example_3_with_b_sides_as_bonuses(tmp_path: Path) -> None:
    r = last_round(tmp_path, {"crime": [7, 7, 3, 1]}, crime="b", b_sides="bonus")
    assert [b["crime"] for b in r.breakdown] == [10, 10, 5, 0]


@pytest.mark.parametrize(
    ("symbol", "side", "counts", "awards"),
    [
        # A sides
        ("science", "a", [3, 2, 2, 1], [10, 0, 0, 5]),
        ("mood", "a", [3, 2, 2, 1], [10, 5, 5, 0]),
        ("crime", "a", [3, 2, 2, 1], [0, 5, 5, 10]),
        # B sides, penalties by default
        ("science", "b", [3, 2, 2, 1], [-5, 0, 0, -10]),
        ("mood", "b", [3, 2, 2, 1], [0, -5, -5, -10]),
        ("crime", "b", [3, 2, 2, 1], [-10, -5, -5, 0]),
    ],
)
def test_scoring_card_sides(
    tmp_path: Path, symbol: str, side: str, counts: list[int], awards: list[int]
) -> None:
    options: dict[str, Any] = {symbol: side}
    r = last_round(tmp_path, {symbol: counts}, **options)
    assert [b[symbol] for b in r.breakdown] == awards


def test_scoring_uses_dense_ranking_after_a_tie_for_most(tmp_path: Path) -> None:
    # two tied for most: the next distinct count is "second most"
    r = last_round(tmp_path, {"mood": [5, 5, 2, 0]})
    assert [b["mood"] for b in r.breakdown] == [10, 10, 5, 0]


def test_scoring_zero_counts_take_part_in_fewest(tmp_path: Path) -> None:
    r = last_round(tmp_path, {"crime": [0, 0, 1, 4]})
    assert [b["crime"] for b in r.breakdown] == [10, 10, 5, 0]


def test_scoring_a_player_qualifying_for_both_awards_takes_only_the_larger(
    tmp_path: Path,
) -> None:
    # everyone tied: each is both "most" and "fewest" science
    r = last_round(tmp_path, {"science": [2, 2, 2, 2]})
    assert [b["science"] for b in r.breakdown] == [10, 10, 10, 10]
    r = last_round(tmp_path, {"science": [2, 2, 2, 2]}, science="b")
    assert [b["science"] for b in r.breakdown] == [-10, -10, -10, -10]
    # only two distinct counts: nobody is "second most" and "second fewest" at once twice
    r = last_round(tmp_path, {"mood": [1, 1, 0, 0]}, mood="b")
    assert [b["mood"] for b in r.breakdown] == [-5, -5, -10, -10]


def test_dragon_symbols_count_for_the_scoring_cards(tmp_path: Path) -> None:
    deck = plain_data(dragons={1: {"symbols": symbols(science=2)}})
    s = hunt(
        options={"data": write(tmp_path, deck)},
        hands=[[70, 1], [31, 2], [32, 3], [33, 4]],
        face_up=1,
    )
    play_round(s, {0: 70, 1: 31, 2: 32, 3: 33})
    assert s.view(None)["symbols"]["science"] == [2, 0, 0, 0]


def test_end_scoring_adds_crew_points_dragons_shields_and_damage(tmp_path: Path) -> None:
    r = last_round(
        tmp_path,
        points=[3, -4, 0, 7],
        claimed=[[1, 2], [3], [4], [5, 6]],
        winner=2,
        ship_shields=[2, 0, 1, 0],
        ship_damage=[0, 3, 0, 1],
    )
    first = r.breakdown[0]
    assert list(first) == [
        "crew points",
        "dragons",
        "shields",
        "damage",
        "science",
        "mood",
        "crime",
    ]
    assert [b["crew points"] for b in r.breakdown] == [3, -4, 0, 7]
    assert [b["dragons"] for b in r.breakdown] == [20, 10, 20, 20]  # seat 2 won the last
    assert [b["shields"] for b in r.breakdown] == [2, 0, 1, 0]
    assert [b["damage"] for b in r.breakdown] == [0, -6, 0, -2]
    assert list(r.points) == [sum(b.values()) for b in r.breakdown]


def test_shield_and_damage_values_are_options(tmp_path: Path) -> None:
    r = last_round(
        tmp_path, ship_shields=[2, 0, 0, 0], ship_damage=[0, 3, 0, 0], shield=2, damage=0
    )
    assert r.breakdown[0]["shields"] == 4 and r.breakdown[1]["damage"] == 0


def test_most_points_wins(tmp_path: Path) -> None:
    r = last_round(tmp_path, points=[5, 0, 0, 0], claimed=[[1, 2], [3, 4], [5], [6]], winner=2)
    assert list(r.points) == [55, 50, 50, 40]  # 30 from the tied scoring cards each
    assert (
        r.winners == (0,)
        and r.ranks == (1, 2, 2, 4)
        and r.reason == ""
        and r.termination == "points"
    )


def test_tie_on_points_goes_to_the_most_dragons(tmp_path: Path) -> None:
    # seat 0: 2 dragons and no crew points; seat 1: 1 dragon and +10; seat 2 wins the
    # last round (2 dragons) with -1; seat 3: 2 dragons and -1
    r = last_round(
        tmp_path,
        points=[0, 10, -1, -1],
        claimed=[[1, 2], [3], [4], [5, 6]],
        winner=2,
    )
    assert r.points[0] == r.points[1] == max(r.points)
    assert r.winners == (0,) and r.ranks == (1, 2, 3, 3)
    assert r.reason == "tied on points: the most dragons wins" and r.termination == "dragons"


def test_tie_on_points_and_dragons_is_a_shared_win(tmp_path: Path) -> None:
    r = last_round(
        tmp_path,
        points=[0, 10, -1, 0],
        claimed=[[1, 2], [3], [4], [5, 6]],
        winner=2,
    )
    assert r.winners == (0, 3) and r.ranks == (1, 3, 4, 1)
    assert "shared" in r.reason


# ---------------------------------------------------------------------------- variant


def test_designers_variant_skips_hiring_and_passes_hands_left_after_each_round() -> None:
    s = new(variant=True)
    assert s.phase == "hunt" and len(s.to_act) == 1
    assert s.view(None)["pick"] is None
    dealt = [list(h) for h in s.hands]
    played = {}
    for _ in range(4):
        (seat,) = s.to_act
        played[seat] = s.legal_actions(seat)[0].args[0]
        s.apply(seat, f"play {played[seat]}")
    for seat in range(4):
        assert s.view((seat + 1) % 4)["hand"] == [c for c in dealt[seat] if c != played[seat]]
    passes = 1
    while not s.is_over:
        n = s.event_count
        (seat,) = s.to_act
        s.apply(seat, s.legal_actions(seat)[0])
        passes += "passed" in kinds(s, n)
    assert passes == 6  # after rounds 1 to 6; after round 7 the hands are set aside
    assert s.move == 28


def test_scoring_card_sides_can_be_random() -> None:
    seen = set()
    for seed in range(12):
        v = new(seed=seed, science="random", mood="random", crime="b").view(None)
        seen.add(v["scoring_cards"]["science"])
        assert v["scoring_cards"]["crime"] == "b"
    assert seen == {"a", "b"}
