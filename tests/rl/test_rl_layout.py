"""Observation layouts: tensors made from views only, observer first, in [0, 1], one shape
per game, and precise errors."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

import dragonlair
from dragonlair.rl import (
    Feature,
    Layout,
    LayoutError,
    NoLayout,
    encoder_for,
    layout_for,
    layout_ids,
)
from dragonlair.rl.layout import Context
from tests.core.pebble_auction.manifest import replaced
from tests.games import table_size
from tests.rl import tensor_digests
from tests.rl.rl_helpers import OPTION_SETS, player_counts, random_playout, rl_games


@pytest.mark.parametrize("game_id", rl_games())
def test_every_value_lies_in_0_1_and_the_shape_is_the_same_for_every_player_count(
    game_id: str,
) -> None:
    sizes = set()
    for n in player_counts(game_id):
        game = dragonlair.make(game_id, players=n)
        enc = encoder_for(game)
        sizes.add(enc.size)
        for state in random_playout(game, seed=n)[::3]:
            for seat in range(n):
                x = enc.encode(state.seat_view(seat))
                assert x.dtype == np.float32 and x.shape == (enc.size,)
                assert np.all(x >= 0.0) and np.all(x <= 1.0), (game_id, n, seat, state.move)
    assert len(sizes) == 1


@pytest.mark.parametrize("game_id", rl_games())
def test_a_row_written_into_a_batch_is_the_tensor_and_leaves_the_other_rows_alone(
    game_id: str,
) -> None:
    game = dragonlair.make(game_id)
    enc = encoder_for(game)
    batch = enc.batch(3)
    assert batch.shape == (3, enc.size) and batch.dtype == np.float32 and not batch.any()
    batch[0] = batch[2] = 0.5
    one = np.full(enc.size, 0.25, dtype=np.float32)
    rows, single = enc.writable(batch), enc.writable(one)
    for state in random_playout(game, seed=4)[::5]:
        for seat in range(game.players):
            view = state.seat_view(seat)
            enc.encode_row(view, seat, rows, 1)
            enc.encode_row(view, seat, single, 0)
            want = enc.encode(view)
            assert np.array_equal(batch[1], want) and np.array_equal(one, want)
            assert np.all(batch[0] == 0.5) and np.all(batch[2] == 0.5)


@pytest.mark.parametrize(
    ("game_id", "options"), [(g, o) for g in rl_games() for o in OPTION_SETS.get(g, [])]
)
def test_options_keep_the_shape_and_the_range(game_id: str, options: dict[str, object]) -> None:
    n = dragonlair.spec(game_id).max_players
    plain = encoder_for(dragonlair.make(game_id, players=n))
    game = dragonlair.make(game_id, players=n, options=options)
    enc = encoder_for(game)
    assert enc.size == plain.size
    for state in random_playout(game, seed=2)[::2]:
        for seat in range(n):
            x = enc.encode(state.seat_view(seat))
            assert np.all(x >= 0.0) and np.all(x <= 1.0), (options, seat, state.move)


@pytest.mark.parametrize("game_id", rl_games())
def test_a_tensor_does_not_change_when_what_its_seat_cannot_see_is_redrawn(game_id: str) -> None:
    """The leak test, for tensors: they are made from the view, so resampling everything
    hidden from a seat (its view unchanged) leaves its tensor unchanged too."""
    n = dragonlair.spec(game_id).max_players
    game = dragonlair.make(game_id, players=n)
    enc = encoder_for(game)
    rng = random.Random(5)
    for state in random_playout(game, seed=11)[::4]:
        for seat in range(n):
            view = state.view(seat)
            sampled = game.sample_state(json.loads(json.dumps(view)), rng)
            want = enc.encode(state.seat_view(seat))
            assert np.array_equal(enc.encode(sampled.seat_view(seat)), want)


@pytest.mark.parametrize("game_id", rl_games())
def test_seats_are_encoded_observer_first(game_id: str) -> None:
    """Every seat sees the seat to act at its own relative position."""
    players = table_size(game_id)
    game = dragonlair.make(game_id, players=players)
    enc = encoder_for(game)
    sl = enc.slices()["to_act"]
    state = random_playout(game, seed=3)[5]
    for seat in range(players):
        row = enc.encode(state.seat_view(seat))[sl]
        assert [k for k in range(len(row)) if row[k]] == sorted(
            (s - seat) % players for s in state.to_act
        )


@pytest.mark.parametrize("game_id", rl_games())
def test_a_feature_that_writes_its_values_writes_only_inside_its_own_block(game_id: str) -> None:
    """A ``write`` feature is handed the whole tensor's memory; over seeded games, in every
    player count, it leaves every number outside its block untouched (and its block
    within [0, 1])."""
    for n in player_counts(game_id):
        game = dragonlair.make(game_id, players=n)
        enc = encoder_for(game)
        writers = [
            (f.write, r) for f, r in zip(enc.layout.features, enc.rows, strict=True) if f.write
        ]
        tensor = np.zeros(enc.size, dtype=np.float32)
        out = enc.writable(tensor)
        for state in random_playout(game, seed=n)[::2]:
            for seat in range(n):
                view, ctx = state.seat_view(seat), Context(game, seat)
                for write, r in writers:
                    tensor[:] = 0.0
                    write(view, ctx, out, r.offset)
                    block = tensor[r.offset : r.offset + r.size].copy()
                    tensor[r.offset : r.offset + r.size] = 0.0
                    assert not tensor.any(), (game_id, n, r.name, "wrote outside its block")
                    assert np.all(block >= 0.0) and np.all(block <= 1.0), (r.name, block)


def test_a_feature_has_exactly_one_way_to_compute_its_values() -> None:
    with pytest.raises(LayoutError, match="'x' needs exactly one of encode"):
        Feature("x", 1, "x")
    with pytest.raises(LayoutError, match="'x' needs exactly one of encode"):
        Feature("x", 1, "x", lambda v, c: [0.0], write=lambda v, c, out, at: None)


def test_the_table_has_one_row_per_feature_and_covers_the_tensor() -> None:
    enc = encoder_for(dragonlair.make("dragon-stripes", players=2))
    rows = enc.rows
    assert rows[0].offset == 0
    for a, b in itertools.pairwise(rows):
        assert b.offset == a.offset + a.size
    assert rows[-1].offset + rows[-1].size == enc.size
    assert enc.markdown().count("\n") == len(rows) + 2


def test_a_spectator_view_or_another_game_is_refused() -> None:
    game = dragonlair.make("dragon-stripes", players=2)
    enc = encoder_for(game)
    state = game.new_game(seed=1)
    with pytest.raises(LayoutError, match="seat's view; got a view for seat None"):
        enc.encode(state.seat_view(None))
    other = dragonlair.make("pebble-auction", players=2).new_game(seed=1)
    typed_only = "observations of Dragon Stripes are made from its typed view"
    with pytest.raises(LayoutError, match=typed_only + r".*; got a dict"):
        enc.encode(other.seat_view(0))
    with pytest.raises(LayoutError, match=typed_only):
        enc.encode(state.view(0))  # its JSON form: the features read the typed attributes
    with pytest.raises(LayoutError, match=r"output array has shape \(3,\)"):
        enc.encode(state.seat_view(0), out=np.zeros(3, dtype=np.float32))
    auction = encoder_for(other.game)  # a game without a typed view: its JSON view
    assert auction.encode(other.seat_view(0)).any()
    with pytest.raises(LayoutError, match="not a view of Pebble Auction"):
        auction.encode(state.seat_view(0))
    with pytest.raises(LayoutError, match="C-contiguous float32"):
        enc.writable(np.zeros((2, enc.size), dtype=np.float64))


def test_a_game_without_a_layout_names_those_that_have_one() -> None:
    with pytest.raises(
        NoLayout, match="no observation layout for 'no-such-game'; .*dragon-stripes"
    ):
        layout_for("no-such-game")


def test_malformed_layouts_are_refused_with_the_feature_named() -> None:
    one = Feature("x", 1, "x", lambda v, c: [0.0])
    with pytest.raises(LayoutError, match=r"names a feature twice: \['x'\]"):
        Layout("pebble-auction", [one, one])
    with pytest.raises(LayoutError, match="has no features"):
        Layout("pebble-auction", [])
    bad = Layout("pebble-auction", [Feature("two", 2, "two values", lambda v, c: [0.0])])
    game = dragonlair.make("pebble-auction", players=2)
    with pytest.raises(LayoutError, match="feature 'two' gave 1 values; its declared size is 2"):
        bad.bind(game).encode(game.new_game(seed=0).view(0))
    zero = Layout("pebble-auction", [Feature("none", 0, "nothing", lambda v, c: [])])
    with pytest.raises(LayoutError, match="feature 'none' has size 0"):
        zero.bind(game)
    with pytest.raises(LayoutError, match="cannot encode 'dragon-stripes'"):
        bad.bind(dragonlair.make("dragon-stripes"))
    with (
        replaced("pebble-auction", layout="tests.core.pebble_auction.layout:ALL_POINTS"),
        pytest.raises(
            LayoutError, match="manifest layout tests.core.pebble_auction.layout:ALL_POINTS is not"
        ),
    ):
        layout_for("pebble-auction")


def test_a_game_whose_manifest_opts_out_has_no_layout() -> None:
    with replaced("pebble-auction", layout=None):
        assert "pebble-auction" not in layout_ids()
        with pytest.raises(NoLayout, match="no observation layout for 'pebble-auction'"):
            layout_for("pebble-auction")
    assert "pebble-auction" in layout_ids()


def test_an_unknown_phase_is_reported() -> None:
    from dragonlair.rl.layout import phase_feature

    layout = Layout("pebble-auction", [phase_feature(["claim", "over"])])
    game = dragonlair.make("pebble-auction", players=2)
    with pytest.raises(LayoutError, match="unknown phase 'bid'; the layout knows"):
        layout.bind(game).encode(game.new_game(seed=0).view(0))


def test_tensors_are_the_same_numbers_as_the_recorded_ones() -> None:
    """Every seat at every step of seeded games, in every game, player count and option
    set, gives the tensors recorded in data/tensor_digests.json (made by the encoders
    before they were sped up; ``python -m tests.rl.tensor_digests --write`` after a
    deliberate change to a layout)."""
    recorded = json.loads(tensor_digests.FILE.read_text(encoding="utf-8"))
    assert tensor_digests.digests() == recorded
