"""The public surface of the core, through the example game."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dragonlair
from dragonlair import (
    Action,
    BadOptions,
    BadRecord,
    BadSeat,
    IllegalAction,
    UnknownAction,
    UnknownGame,
)
from dragonlair.core import Record, Rng, derive_seed
from dragonlair.core.result import competition_ranks, dense_ranks, make_result
from dragonlair.core.rng import GOLDEN, MASK64, mix64, shuffle_plan
from dragonlair.core.spec import OptionSpec

GAME = "pebble-auction"


def new(seed: int = 1, players: int = 3, **options: object) -> dragonlair.State:
    return dragonlair.make(GAME, players=players, options=options).new_game(seed=seed)


def test_registry_lists_and_makes() -> None:
    assert GAME in dragonlair.games()
    game = dragonlair.make(GAME, players=2)
    assert game.players == 2 and game.options == {"start_points": 1}
    assert dragonlair.make(GAME).players == 4  # default: 4 where allowed
    assert dragonlair.spec(GAME).name == "Pebble Auction"


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(UnknownGame, match="no game 'chess'.*pebble-auction"):
        dragonlair.make("chess")


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, "for 2 to 4 players, not 1"),
        (5, {}, "for 2 to 4 players, not 5"),
        ("3", {}, "whole number"),
        (True, {}, "whole number"),
        (3, {"colour": "red"}, "no option 'colour'; its options are: start_points"),
        (3, {"start_points": 9}, r"start_points=9 is not allowed: expected an integer from 0 to 5"),
        (3, {"start_points": "x"}, "start_points='x'"),
        (3, {"start_points": 1.5}, "start_points=1.5"),
        (3, ["start_points"], "mapping"),
    ],
)
def test_bad_players_and_options(players: object, options: object, message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        dragonlair.make(GAME, players=players, options=options)  # type: ignore[arg-type]


def test_option_values_given_as_text_are_converted() -> None:
    assert dragonlair.make(GAME, 2, {"start_points": "3"}).options["start_points"] == 3


def test_option_spec_kinds() -> None:
    b = OptionSpec("fast", False, "go fast", kind="bool")
    assert b.validate("yes") is True and b.validate(False) is False
    with pytest.raises(BadOptions, match="true or false"):
        b.validate("maybe")
    c = OptionSpec("side", "a", "side", choices=("a", "b"))
    assert c.validate("b") == "b"
    with pytest.raises(BadOptions, match="one of a, b"):
        c.validate("c")
    f = OptionSpec("value", 1.0, "v", kind="float", min=0, max=2)
    assert f.validate("1.5") == 1.5
    with pytest.raises(BadOptions):
        f.validate("nan")
    p = OptionSpec("data", None, "file", kind="path")
    assert p.validate("") is None and p.validate("x.json") == "x.json"


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "7", True])
def test_bad_seeds(seed: object) -> None:
    with pytest.raises(ValueError, match="seed must be"):
        dragonlair.make(GAME, 2).new_game(seed=seed)


def test_a_game_without_a_seed_gets_one_and_records_it() -> None:
    s = dragonlair.make(GAME, 2).new_game()
    assert isinstance(s.seed, int)
    assert dragonlair.replay(s.record).to_json() == s.to_json()


def test_simultaneous_bids_are_hidden_until_revealed() -> None:
    s = new(players=3)
    assert s.to_act == (0, 1, 2)
    assert s.phase == "bid"
    card = s.legal_actions(1)[0]
    s.apply(1, card)
    assert list(s.to_act) == [0, 2]
    mine, theirs, spectator = s.view(1), s.view(0), s.view(None)
    assert mine["my_choice"] == str(card)
    assert "my_choice" not in theirs and "my_choice" not in spectator
    assert theirs["choosing"] == [0, 1, 2]
    assert s.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="seat 1 is not asked to act now \\(bid\\); waiting"):
        s.apply(1, card)
    bid_events = [e for e in s.events_since(0, 0) if e["type"] == "bid"]
    assert bid_events == [{"seq": bid_events[0]["seq"], "type": "bid", "redacted": True, "seat": 1}]
    own = [e for e in s.events_since(0, 1) if e["type"] == "bid"]
    assert own[0]["card"] == int(str(card).split()[1])


def test_events_since_counts_and_filters() -> None:
    s = new(players=2)
    n = s.event_count
    for seat in s.to_act:
        s.apply(seat, s.legal_actions(seat)[0])
    later = s.events_since(n, None)
    assert all(e["seq"] >= n for e in later)
    assert [e["type"] for e in later][:2] == ["bid", "bid"]
    assert all("card" not in e for e in later if e["type"] == "bid")
    assert any(e["type"] == "revealed" for e in later)
    text = s.game.event_text(later[-1], names=["Ann", "Bob"])
    assert isinstance(text, str) and text
    with pytest.raises(ValueError, match="event number"):
        s.events_since(-1, 0)


def _to_window(seed: int) -> dragonlair.State:
    """Play bids until a claim; take; return the state in the objection window."""
    for k in range(200):
        s = new(seed=seed + k, players=3)
        while not s.is_over and s.phase != "claim":
            for seat in s.to_act:
                s.apply(seat, s.legal_actions(seat)[-1])
        if s.phase == "claim":
            s.apply(s.to_act[0], "take")
            return s
    raise AssertionError("no claim found")


def test_window_asks_in_order_and_has_a_default() -> None:
    s = _to_window(3)
    first = s.to_act[0]
    assert s.phase == "objections"
    assert s.default_action(first) == Action("allow")
    assert s.view(None)["window"]["default"] == "allow"
    assert s.default_action((first + 1) % 3) is None
    s.apply(first, s.default_action(first))
    assert s.to_act != (first,)


def test_refusals_leave_the_state_unchanged_and_say_why() -> None:
    s = new(players=3)
    before = s.to_json()
    with pytest.raises(UnknownAction, match="unknown word 'jump'; expected one of: bid <card>"):
        s.apply(0, "jump 3")
    # the game's name reads in a sentence whatever article it carries ("The Great Dragon
    # Race"): "not an action of X", never "not a X action"
    with pytest.raises(UnknownAction, match="'jump 3' is not an action of Pebble Auction"):
        s.apply(0, "jump 3")
    with pytest.raises(UnknownAction, match="expected bid <card>"):
        s.apply(0, "bid 99")
    with pytest.raises(IllegalAction, match="is not legal for seat 0 now \\(bid\\); legal: bid"):
        s.apply(0, next(a for a in s.game.actions if a not in s.legal_actions(0)))
    with pytest.raises(IllegalAction, match="is not an action of Pebble Auction"):
        s.apply(0, Action("fly", 3))
    with pytest.raises(BadSeat, match="seat 7 is not at this table: expected 0..2"):
        s.apply(7, "take")
    with pytest.raises(BadSeat):
        s.legal_actions(-1)
    with pytest.raises(BadSeat, match="or None for a spectator"):
        s.view(3)
    with pytest.raises(UnknownAction):
        s.apply(0, 12)
    with pytest.raises(IllegalAction, match="out of range"):
        s.apply_id(0, 999)
    assert s.to_json() == before


def test_actions_are_frozen_values_with_text_and_ids() -> None:
    game = dragonlair.make(GAME, 2)
    a = game.parse_action("  BID   7 ")
    assert a == Action("bid", 7) and str(a) == "bid 7" and repr(a) == "Action('bid', 7)"
    assert hash(a) == hash(Action("bid", 7))
    assert game.action_from_id(game.action_id(a)) is a
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.kind = "take"
    with pytest.raises(ValueError, match="lower-case"):
        Action("Bid", 1)
    with pytest.raises(TypeError):
        Action("bid", 1.5)  # type: ignore[arg-type]
    assert game.num_actions == 20 and len(game.actions) == 20


def test_apply_takes_any_equal_action_and_refuses_another_games() -> None:
    """apply recognises its table's own objects by the id they carry; an equal action made
    anew, one of another game's table (another object, perhaps at the same id) and one not
    legal now all take the checked path, with the same outcome or error as ever."""
    s, t = new(seed=4), new(seed=4)
    legal = s.legal_actions(0)
    t.legal_actions(0)
    own = legal[-1]
    fresh = Action(own.kind, *own.args)
    assert fresh == own and fresh is not own
    s.apply(0, own)
    t.apply(0, fresh)  # the same move: found by equality instead of identity
    assert s.to_json() == t.to_json()
    u = new(seed=4)
    mine = u.legal_actions(0)[0]
    other = dragonlair.make(GAME, 3).action_from_id(u.game.action_id(mine))
    assert other == mine and other is not mine
    u.apply(0, other)  # another table's object: equal, so the same action
    assert u.move == 1
    w = new(seed=4)
    w.legal_actions(0)
    before = w.to_json()
    illegal = next(a for a in w.game.actions if a not in w.legal_actions(0))
    with pytest.raises(IllegalAction, match="is not legal for seat 0"):
        w.apply(0, illegal)
    assert w.to_json() == before


def test_record_replay_and_json_round_trip() -> None:
    s = new(seed=11, players=4, start_points=2)
    rng = Rng(5)
    for _ in range(9):
        seat = s.to_act[0]
        legal = s.legal_actions(seat)
        s.apply(seat, legal[rng.randbelow(len(legal))])
    rec = s.record
    assert rec.game == GAME and rec.players == 4 and rec.seed == 11
    assert rec.options == {"start_points": 2} and len(rec.actions) == 9
    assert Record.from_json(rec.to_json()) == rec
    assert dragonlair.replay(rec).to_json() == s.to_json()
    assert dragonlair.replay(rec.to_dict()).to_json() == s.to_json()
    assert dragonlair.load(rec.to_json()).to_json() == s.to_json()
    assert dragonlair.load(s.to_json()).to_json() == s.to_json()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(game="chess"), "unknown game"),
        (lambda d: d.update(rules_version=99), "rules version 99"),
        (lambda d: d.update(players=9), "players or options are not valid"),
        (lambda d: d["actions"].append([0, "take"]), "cannot be replayed"),
        (lambda d: d["actions"].append([0, "fly"]), "cannot be replayed"),
        (lambda d: d["actions"].append("bid 1"), "should be \\[seat"),
        (lambda d: d.pop("seed"), "no 'seed'"),
        (lambda d: d.update(format="other/9"), "unknown record format"),
    ],
)
def test_bad_records_are_refused(mutate: object, message: str) -> None:
    d = new(seed=2).record.to_dict()
    mutate(d)  # type: ignore[operator]
    with pytest.raises(BadRecord, match=message):
        dragonlair.replay(d)


def test_tampered_saved_state_is_refused() -> None:
    s = new(seed=4)
    doc = json.loads(s.to_json())
    doc["state"]["pot"] = 99
    with pytest.raises(BadRecord, match="does not match a replay.*pot"):
        dragonlair.load(json.dumps(doc))
    for bad in ["", "[]", "{", '{"format": "dragonlair.state/1"}']:
        with pytest.raises(BadRecord):
            dragonlair.load(bad)


def test_sampled_states_have_no_record_but_round_trip() -> None:
    s = new(seed=8)
    sampled = s.game.sample_state(s.view(0), Rng(1))
    assert sampled.seed is None
    with pytest.raises(dragonlair.DragonlairError, match="no record"):
        sampled.record
    assert dragonlair.load(sampled.to_json()).to_json() == sampled.to_json()


def test_derived_seeds_mix_every_path_integer_alike() -> None:
    """The steps of small path integers are worked out once; every integer, small,
    negative or large, steps the same way, and derive_seeds shares a path's work."""
    from dragonlair.core.rng import GOLDEN, MASK64, derive_seeds, mix64

    def by_the_formula(seed: int, *path: int) -> int:
        z = mix64((seed + GOLDEN) & MASK64)
        for p in path:
            z = mix64(((z ^ mix64((p + GOLDEN) & MASK64)) + GOLDEN) & MASK64)
        return z >> 1

    for path in [(), (0,), (255,), (256,), (-1,), (3, 1), (10**12, 7919, 2, 255), (-5, 300)]:
        assert derive_seed(7, *path) == by_the_formula(7, *path)
    ends = [0, 1, 4, 255, 256, -3, 10**9]
    assert derive_seeds(11, (5, 2), ends) == [derive_seed(11, 5, 2, e) for e in ends]
    assert derive_seeds(11, (), ends) == [derive_seed(11, e) for e in ends]


def test_rng_is_pinned() -> None:
    """The generator is part of every record's meaning: its numbers must never change."""
    r = Rng(42)
    assert [r.randbelow(1000) for _ in range(5)] == PINNED_DRAWS
    assert derive_seed(7, 3) == PINNED_DERIVED
    items = list(range(10))
    Rng(1).shuffle(items)
    assert sorted(items) == list(range(10))
    with pytest.raises(ValueError):
        r.randrange(5, 5)


PINNED_DRAWS = [596, 160, 166, 48, 980]
PINNED_DERIVED = 6179520404392507713


@pytest.mark.parametrize("size", [0, 1, 2, 3, 13, 20, 80, 112, 150])
def test_state_shuffle_is_fisher_yates_by_its_plan(size: int) -> None:
    """A state's shuffle draws one number per step of ``shuffle_plan`` and takes the swap
    positions for i, i - 1, ... as its digits in bases i + 1, i, ...: the order records
    depend on, written out here step by step."""
    s = new(seed=3)
    rng = s._rng
    items = list(range(size))
    s._shuffle(items)
    expected = list(range(size))
    i = size - 1
    for radix, count in shuffle_plan(size):
        rng = (rng + GOLDEN) & MASK64
        r = (mix64(rng) * radix) >> 64
        for _ in range(count):
            r, j = divmod(r, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
            i -= 1
    assert i <= 0
    assert items == expected and s._rng == rng


def test_ranking_helpers() -> None:
    assert dense_ranks([7, 7, 3, 1]) == (1, 1, 2, 3)
    assert dense_ranks([0, 2, 2, 5], highest_first=False) == (1, 2, 2, 3)
    assert competition_ranks([5, 9, 5, 1]) == (2, 1, 2, 4)
    r = make_result([10, 12, 12], tiebreak=[0, 1, 2])
    assert r.winners == (2,) and r.ranks == (3, 2, 1)
    shared = make_result([5, 5])
    assert shared.winners == (0, 1)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    players=st.integers(2, 4),
    picks=st.lists(st.integers(0, 1000), max_size=60),
)
def test_any_seeded_line_of_play_replays(seed: int, players: int, picks: list[int]) -> None:
    s = new(seed=seed, players=players)
    for p in picks:
        if s.is_over:
            break
        seat = s.to_act[p % len(s.to_act)]
        legal = s.legal_actions(seat)
        s.apply(seat, legal[p % len(legal)])
    assert dragonlair.replay(s.record).to_json() == s.to_json()
    assert dragonlair.load(s.to_json()).to_json() == s.to_json()
