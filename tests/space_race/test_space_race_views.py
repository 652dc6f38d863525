"""Views show each seat exactly what it may know; the sampler redraws exactly the rest."""

from __future__ import annotations

import json
import random

import pytest

import dragonlair
from dragonlair.space_race.rules import SpaceRaceState
from tests.space_race.space_race_helpers import build, play


def mid_game(players: int = 4, seed: int = 11, moves: int = 40) -> SpaceRaceState:
    """A seeded random game after ``moves`` decisions (round 2 at 4 players)."""
    s = dragonlair.make("space-race", players=players).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = rng.choice(s.to_act)
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert isinstance(s, SpaceRaceState)
    return s


def test_views_are_plain_json_with_the_whole_table() -> None:
    s = mid_game()
    for seat in (0, 1, 2, 3, None):
        v = s.view(seat)
        assert json.loads(json.dumps(v)) == v
        for key in (
            "round",
            "pick",
            "direction",
            "hand",
            "hand_sizes",
            "ships",
            "space_deck",
            "danger",
            "danger_top",
            "danger_deck",
            "danger_discard",
            "damage_deck",
            "damage_removed",
            "last_bids",
            "score",
        ):
            assert key in v
        assert [sh["cockpit"] for sh in v["ships"]] == ["Wolves", "Vultures", "Jackals", "Ravens"]


def test_a_seat_sees_its_own_hand_and_fuel_only() -> None:
    s = mid_game()
    for seat in range(4):
        v = s.view(seat)
        assert v["hand"] == list(s.hands[seat])
        for other, shown in enumerate(v["ships"]):
            assert shown["fuel"] == len(s.ships[other * 10 + 8])
            if other == seat:
                assert shown["fuel_cards"] == list(s.ships[other * 10 + 8])
            else:
                assert shown["fuel_cards"] is None and shown["spent_fuel_cards"] is None
    spectator = s.view(None)
    assert spectator["hand"] is None and spectator["danger_top"] is None
    assert all(sh["fuel_cards"] is None for sh in spectator["ships"])


def test_no_view_shows_any_deck_order() -> None:
    s = mid_game()
    for seat in (0, 1, None):
        v = s.view(seat)
        assert v["space_deck"] == len(s.space_deck)
        assert v["danger_deck"] == len(s.danger_deck)
        assert v["damage_deck"] == len(s.damage_deck)


def test_the_sampler_keeps_what_the_seat_sees_and_varies_the_rest() -> None:
    s = mid_game()
    game = s.game
    rng = random.Random(1)
    view = s.view(0)
    other_hands, other_fuel, decks, dangers = set(), set(), set(), set()
    for _ in range(40):
        x = game.sample_state(view, rng)
        assert isinstance(x, SpaceRaceState)
        assert x.view(0) == view
        x.check_invariants()
        other_hands.add(x.hands[1])
        other_fuel.add(tuple(x.ships[1 * 10 + 8]))
        decks.add(tuple(x.space_deck))
        dangers.add(tuple(x.danger_deck))
    assert len(other_hands) > 30 and len(decks) > 30 and len(dangers) > 5
    if s.view(None)["ships"][1]["fuel"]:
        assert len(other_fuel) > 5


def test_the_spectator_sampler_redraws_every_hand() -> None:
    s = mid_game(3, moves=25)
    rng = random.Random(2)
    hands = {s.game.sample_state(s.view(None), rng).hands[0] for _ in range(20)}  # type: ignore[attr-defined]
    assert len(hands) > 10


def test_the_sampler_fills_hidden_picks_with_legal_ones() -> None:
    s = build(3)
    play(s, (1, str(s.legal_actions(1)[0])), (2, str(s.legal_actions(2)[0])))
    rng = random.Random(3)
    for _ in range(10):
        x = s.game.sample_state(s.view(0), rng)
        x.check_invariants()
        assert x.to_act == (0,)
        x.apply(0, s.legal_actions(0)[0])  # everyone's hidden pick is revealed and legal
        assert x.phase == "upgrade" and x.pick == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_states_play_on_to_the_end(players: int) -> None:
    s = mid_game(players, seed=players)
    rng = random.Random(5)
    for seat in (*range(players), None):
        x = s.game.sample_state(s.view(seat), rng)
        while not x.is_over:
            actor = rng.choice(x.to_act)
            x.apply(actor, rng.choice(x.legal_actions(actor)))
        assert x.result is not None


def test_events_narrate_privately_and_publicly() -> None:
    s = mid_game(2, moves=14)
    mine = s.events_since(0, 0)
    theirs = s.events_since(0, 1)
    spectator = s.events_since(0, None)
    dealt_mine = [e for e in mine if e["type"] == "dealt" and e["seat"] == 0]
    dealt_theirs = [e for e in theirs if e["type"] == "dealt" and e["seat"] == 0]
    assert "cards" in dealt_mine[0] and "cards" not in dealt_theirs[0]
    assert all(e.get("redacted") for e in spectator if e["type"] in ("dealt", "chose"))
    names = ["Ann", "Bob"]
    lines = [s.game.event_text(e, names) for e in spectator]
    assert any(line.startswith("the Navigation Coin shows") for line in lines)
    assert any(line.startswith("Ann chose a card") for line in lines)


def test_the_catalog_describes_every_card_a_view_can_show() -> None:
    game = dragonlair.make("space-race", players=2)
    catalog = game.catalog()  # type: ignore[attr-defined]
    assert json.loads(json.dumps(catalog)) == catalog
    assert [c["id"] for c in catalog["space"]] == list(range(1, 73))
    assert catalog["space"][11] == {
        "id": 12,
        "name": "Orange Robot Legs",
        "type": "robot_part",
        "color": "orange",
        "part": "legs",
        "corner_vp": 2,
        "on_play": None,
    }
    assert catalog["danger"][0]["ranks"][0] == {"icon": "wrench", "n": 2}
    assert catalog["damage"][-1] == {"id": 28, "name": "Hull Breach", "vp": -3}


@pytest.mark.parametrize("options", [{}, {"every_power_source": True}])
def test_the_running_scores_remembered_for_a_row_are_those_of_its_ships_now(
    options: dict[str, bool],
) -> None:
    """The view's running scores are remembered per row of stacks (json_view): a view
    shows the scores of its state's ships as they are, for every seat, along games, after
    a change to the row in place, in a clone, and in a pickled copy."""
    import pickle

    from dragonlair.space_race import json_view
    from dragonlair.space_race.scoring import totals

    game = dragonlair.make("space-race", players=4, options=options)
    t, eps = game.tables, game.every_power_source  # type: ignore[attr-defined]

    def now(state: SpaceRaceState) -> list[int]:
        return totals(state.ship_stacks(), t, eps)

    rng = random.Random(2)
    for seed in range(3):
        state = game.new_game(seed=seed)
        assert isinstance(state, SpaceRaceState)
        while not state.is_over:
            want = now(state)
            for seat in (*range(4), None):
                shown = state.view(seat)["score"]
                assert shown == want
                shown.append(99)  # the view's list is its own
            copy = state.clone()
            assert isinstance(copy, SpaceRaceState)
            assert copy.view(0)["score"] == want
            copy.ships[2] = (*copy.ships[2], t.space_ids[0])  # one more card, in place
            assert copy.view(0)["score"] == now(copy)
            assert state.view(1)["score"] == want
            assert pickle.loads(pickle.dumps(state)).view(2)["score"] == want
            seat = state.to_act[0]
            ids = state.legal_action_ids(seat)
            state.apply_id(seat, ids[rng.randrange(len(ids))])
    assert len(json_view._scored) <= json_view.SCORES_REMEMBERED
