"""What each seat may know, the events that narrate the game, and the hidden-state sampler."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import cast

import pytest

import dragonlair
from dragonlair.dragon_stripes import DragonStripes, DragonStripesState
from dragonlair.dragon_stripes.rules import holding_bounds
from tests.dragon_stripes.stripes_helpers import act, bank_from_lair, everyone_declines, new, stack


def _banked_then_stopped() -> dragonlair.State:
    """Seat 0 banks 9, then loses a quarter to a Stop on its next turn (49 -> 37)."""
    s = new()
    stack(s, 3, 3, "stop", "stop", "stop", "stop")
    act(s, 0, "draw", "draw", "hold")
    everyone_declines(s)
    for seat in (1, 2, 3, 0):
        act(s, seat, "draw")
    assert s.gems == [37, 30, 30, 30]
    return s


def test_holdings_are_secret_a_seat_sees_only_its_own_total() -> None:
    s = _banked_then_stopped()
    assert s.view(0)["gems"] == 37 and s.view(1)["gems"] == 30
    assert s.view(None)["gems"] is None
    for seat in [*range(4), None]:
        v = s.view(seat)
        assert "all_gems" not in v and "lair" not in v
    # what is public about each seat: its ledger of payments in the open
    assert s.view(2)["ledger"][0] == {
        "banked": 9,
        "received": 0,
        "paid": 0,
        "penalties": 1,
        "half_penalties": 0,
    }


def test_a_penalty_is_seen_paid_by_everyone_but_its_amount_only_by_its_payer() -> None:
    s = _banked_then_stopped()
    last = [e for e in s.events_since(0, 0) if e["type"] == "penalty"][-1]
    assert (last["seat"], last["gems"], last["fraction"]) == (0, 12, "1/4")
    for seat in (1, None):
        seen = [e for e in s.events_since(0, seat) if e["type"] == "penalty"][-1]
        assert seen == {
            "seq": last["seq"],
            "type": "penalty",
            "redacted": True,
            "seat": 0,
            "fraction": "1/4",
        }
        assert s.game.event_text(seen) == "0 pays a 1/4 penalty into the lair"


def test_payments_in_the_open_are_public_events() -> None:
    s = new()
    stack(s, 3, 1, 2)
    act(s, 0, "draw", "hold")
    act(s, 1, "take", "draw", "hold")
    everyone_declines(s)
    spectator = {e["type"]: e for e in s.events_since(0, None)}
    assert (spectator["took"]["price"], spectator["took"]["from_seat"]) == (1, 0)
    assert (spectator["banked"]["seat"], spectator["banked"]["pot"]) == (1, 7)
    assert spectator["held"]["price"] == 1
    assert not any(e.get("redacted") for e in s.events_since(0, None))


def test_every_event_reads_as_a_sentence() -> None:
    game = dragonlair.make("dragon-stripes", players=3)
    names = ["Ann", "Bo", "Cy"]
    kinds = set()
    for seed in range(40):
        s = game.new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            seat = s.to_act[0]
            s.apply(seat, rng.choice(s.legal_actions(seat)))
        for viewer in (0, None):
            for e in s.events_since(0, viewer):
                text = game.event_text(e, names)
                kinds.add(e["type"])
                assert " seq=" not in text, text  # the template filled in
    assert kinds == set(game.event_specs) - {"lair_short"}  # rare: read in its own test


def test_the_view_shows_the_public_state_for_players_and_spectators() -> None:
    s = new()
    stack(s, 2, "danger", 1)
    act(s, 0, "draw")
    v = s.view(3)
    assert json.loads(json.dumps(v)) == v
    assert v["stripes"] == list(range(1, 18)) and v["head"] == 18
    assert (v["knight"], v["pot"], v["price"], v["holder"], v["starter"], v["turn"]) == (
        2,
        2,
        1,
        0,
        0,
        1,
    )
    assert v["drawn"] == ["footprint 2"] and v["deck_size"] == 50
    assert v["deck_left"]["footprint 2"] == 10
    act(s, 0, "draw")
    v = s.view(None)
    assert v["drawn"] == ["footprint 2", "danger"] and v["deck_left"]["danger"] == 2
    assert (v["to_act"], v["phase"], v["must_draw"]) == ([1], "draw", True)


def test_open_holdings_shows_every_total_the_lair_and_every_penalty() -> None:
    s = new(open_holdings=True)
    stack(s, "stop")
    act(s, 0, "draw")
    v = s.view(2)
    assert v["all_gems"] == [30, 40, 40, 40] and v["lair"] == 350 - 150
    pen = next(e for e in s.events_since(0, 2) if e["type"] == "penalty")
    assert pen["gems"] == 10 and "redacted" not in pen


# ---------------------------------------------------------------- the sampler


def test_the_sampler_keeps_the_view_and_redraws_the_unseen_deck_and_secret_holdings() -> None:
    s = cast(DragonStripesState, _banked_then_stopped())
    stack(s, 2)
    act(s, 1, "draw")
    view = s.view(1)
    rng = random.Random(5)
    decks: set[tuple[int, ...]] = set()
    seat0: Counter[int] = Counter()
    for _ in range(60):
        t = cast(DragonStripesState, s.game.sample_state(view, rng))
        assert t.view(1) == view
        assert t.legal_actions(1) == s.legal_actions(1) and t.to_act == s.to_act
        t.check_invariants()
        assert t.deck[: t.top] == s.deck[: s.top]
        assert sorted(t.deck[t.top :]) == sorted(s.deck[s.top :])
        decks.add(t.deck[t.top :])
        assert t.gems[1] == 30  # its own
        assert sum(t.gems) + t.pot + t.lair == 350
        seat0[t.gems[0]] += 1
    assert len(decks) > 50
    # seat 0 banked 9 and paid one quarter: 37 to 39 fit its ledger (it holds 37)
    assert set(seat0) == {37, 38, 39}
    assert holding_bounds(40, 9, 0, 1, 0, (4, 2)) == (37, 39)


def test_the_sampler_for_a_spectator_redraws_every_seat() -> None:
    s = _banked_then_stopped()
    rng = random.Random(2)
    seen = {
        tuple(cast(DragonStripesState, s.game.sample_state(s.view(None), rng)).gems)
        for _ in range(40)
    }
    assert len(seen) > 1 and all(g[1:] == (30, 30, 30) for g in seen)


def test_the_sampler_keeps_a_known_empty_lair_empty() -> None:
    s = new(players=6)
    stack(s, "stop", "stop", 4, 4)
    act(s, 0, "draw")
    act(s, 1, "draw")
    bank_from_lair(s, 5, s.lair - 6)
    act(s, 2, "draw", "draw")
    assert s.lair == 0 and s.view(3)["lair_empty"]
    rng = random.Random(1)
    for seat in (3, None):
        for _ in range(30):
            t = cast(DragonStripesState, s.game.sample_state(s.view(seat), rng))
            assert t.lair == 0
            t.check_invariants()


def test_a_sampled_state_plays_on_to_the_end() -> None:
    s = _banked_then_stopped()
    t = s.game.sample_state(s.view(2), random.Random(3))
    assert t.seed is None
    rng = random.Random(4)
    while not t.is_over:
        seat = t.to_act[0]
        t.apply(seat, rng.choice(t.legal_actions(seat)))
        t.check_invariants()


@pytest.mark.parametrize(
    ("ledger", "bounds"),
    [
        ((40, 0, 0, 0, 0), (40, 40)),  # no penalty: exact
        ((40, 9, 10, 0, 0), (39, 39)),
        ((40, 0, 0, 1, 0), (30, 30)),  # a quarter of 40: exact too
        ((40, 0, 0, 0, 1), (20, 20)),
        ((40, 9, 0, 1, 0), (37, 39)),  # 49 -> 37, or 40 -> 30 and then + 9
        ((40, 0, 10, 1, 0), (20, 23)),  # pay then fine, or fine then pay
        ((40, 20, 30, 2, 1), (0, 23)),  # a bound, not always reachable
    ],
)
def test_holding_bounds_from_a_public_ledger(
    ledger: tuple[int, int, int, int, int], bounds: tuple[int, int]
) -> None:
    assert holding_bounds(*ledger, (4, 2)) == bounds


def test_the_undrawn_counts_match_the_rest_of_the_deck_whatever_was_asked_before() -> None:
    """``undrawn`` carries its counts on from the deck it was last asked about: asked in any
    order, of any deck, it must count exactly what is left."""
    from dragonlair.dragon_stripes.view import undrawn

    game = dragonlair.make("dragon-stripes", players=4)
    kinds = cast(DragonStripes, game).card_kinds
    decks = [cast(DragonStripesState, game.new_game(seed)).deck for seed in range(3)]
    rng = random.Random(4)
    tops = [0, 0, 1, 2, 5, 5, 4, 51, 30, 31, 50, 0, 17]
    for _ in range(200):
        tops.append(rng.randrange(len(decks[0]) + 1))
    for i, top in enumerate(tops):
        deck = decks[i % 2] if i % 7 == 0 else decks[2]
        rest = Counter(deck[top:])
        assert undrawn(deck, top, kinds) == tuple((c, rest[c]) for c in kinds), (i, top)
    # many decks in turn (the tables of a vector environment), more than are kept at once
    many = [cast(DragonStripesState, game.new_game(seed)).deck for seed in range(300)]
    for top in (0, 3, 3, 9, 2):
        for deck in many:
            rest = Counter(deck[top:])
            assert undrawn(deck, top, kinds) == tuple((c, rest[c]) for c in kinds), top
