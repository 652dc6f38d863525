"""The games as OpenSpiel games: OpenSpiel's own random simulation test for every game and
player count, its MCTS and ISMCTS bots playing whole games, and our choices (dynamics,
chance, information states, utility) checked through pyspiel."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import dragonlair
from dragonlair.core import BadOptions, IllegalAction
from dragonlair.rl import openspiel
from dragonlair.rl.openspiel import game_name
from tests.games import table_size
from tests.rl.rl_helpers import player_counts, rl_games

for _g in rl_games():
    openspiel.register(_g)

HERE = Path(__file__).parent


def _names(game_id: str) -> list[str]:
    return sorted({game_name(game_id), game_name(game_id, turn_based=True)})


@pytest.mark.slow
def test_every_game_at_every_player_count_passes_openspiels_random_simulation_test() -> None:
    jobs = [f"{name}:{n}" for g in rl_games() for name in _names(g) for n in player_counts(g)]
    run = subprocess.run(
        [sys.executable, str(HERE / "spiel_sim.py"), *jobs],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    passed = [line for line in run.stdout.splitlines() if line.startswith("ok ")]
    failed = [line for line in run.stdout.splitlines() if line.startswith("FAIL")]
    assert not failed, "\n".join(failed) + run.stderr[-2000:]
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(passed) == len(jobs)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", rl_games())
def test_mcts_and_ismcts_play_a_whole_game(game_id: str) -> None:
    players = dragonlair.spec(game_id).min_players
    game = openspiel.load_game(game_id, players=players, turn_based=True, seed=3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(1)),
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(2)),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(bots[player % 2].step(state))
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.engine_state.is_over


def test_game_type_and_info_follow_the_engine() -> None:
    game = openspiel.load_game("dragon-stripes", players=3)
    t = game.get_type()
    assert t.short_name == "python_dragon_stripes"
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (t.min_num_players, t.max_num_players) == (2, 6)
    assert t.provides_information_state_string and not t.provides_information_state_tensor
    engine = dragonlair.make("dragon-stripes", players=3)
    assert game.num_players() == 3
    assert game.num_distinct_actions() == engine.num_actions
    assert game.max_game_length() == engine.max_length
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.observation_tensor_shape() == [game.encoder.size]
    assert set(game.get_parameters()) == {"players", "seed", "data", "open_holdings"}


def test_a_simultaneous_game_is_registered_twice() -> None:
    sim = openspiel.load_game("pebble-auction", players=3)
    turns = openspiel.load_game("pebble-auction", players=3, turn_based=True)
    assert sim.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert turns.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert sim.num_distinct_actions() == turns.num_distinct_actions() + 1
    assert game_name("dragon-stripes", turn_based=True) == "python_dragon_stripes"


def test_options_and_bad_parameters() -> None:
    game = pyspiel.load_game("python_dragon_stripes(players=2,open_holdings=True)")
    view = json.loads(game.new_initial_state().observation_string(0))
    assert view["all_gems"] == [40, 40]
    with pytest.raises(BadOptions, match="Dragon Stripes is for 2 to 6 players, not 9"):
        pyspiel.load_game("python_dragon_stripes(players=9)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("python_dragon_stripes(colour=3)")


def test_new_states_are_new_deals_reproducible_from_the_seed() -> None:
    def deals(seed: int) -> list[int | None]:
        game = openspiel.load_game("dragon-stripes", players=2, seed=seed)
        return [game.new_initial_state().engine_state.seed for _ in range(3)]

    assert deals(5) == deals(5)
    assert len(set(deals(5))) == 3 and deals(5) != deals(6)


def _pebble_sim(players: int = 3) -> pyspiel.State:
    return openspiel.load_game("pebble-auction", players=players, seed=1).new_initial_state()


def test_a_simultaneous_node_takes_every_seats_choice_at_once() -> None:
    state = _pebble_sim()
    engine = state.engine_state
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    wait = state.get_game().num_distinct_actions() - 1
    assert state.action_to_string(0, wait) == "wait"
    state.apply_actions([state.legal_actions(p)[0] for p in range(3)])
    assert engine.move == 3
    assert any(e["type"] == "revealed" for e in engine.events_since(0, None))
    # every decision node is simultaneous, and a seat not asked there has the single
    # action wait: play on until only some seats still hold cards to bid
    rng = np.random.RandomState(3)
    idle_seen = 0
    while not engine.is_over:
        assert state.is_simultaneous_node()
        idle = [p for p in range(3) if p not in engine.to_act]
        idle_seen += len(idle)
        for p in idle:
            assert state.legal_actions(p) == [wait]
        for p in engine.to_act:
            assert wait not in state.legal_actions(p)
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
    assert idle_seen > 0
    assert state.is_terminal() and all(state.legal_actions(p) == [] for p in range(3))


def test_a_bad_joint_action_is_refused_and_changes_nothing() -> None:
    state = _pebble_sim()
    before = str(state)
    legal = [state.legal_actions(p)[0] for p in range(3)]
    bad = [legal[0], legal[1], 16]  # "take" is no bid
    with pytest.raises(IllegalAction, match="action 16 \\(take\\) is not legal for seat 2"):
        state.apply_actions(bad)
    with pytest.raises(ValueError, match="expected one action per seat \\(3\\), got 2"):
        state.apply_actions(legal[:2])
    assert str(state) == before


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = openspiel.load_game("dragon-stripes", players=2).new_initial_state()
    before = str(state)
    with pytest.raises(IllegalAction, match="hold is not legal for seat 0 now"):
        state.apply_action(1)
    assert str(state) == before and state.history() == []


def test_clones_are_independent_and_states_serialize_exactly() -> None:
    game = openspiel.load_game("pebble-auction", players=2, turn_based=True)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    copy = state.clone()
    text = state.serialize()
    again = game.deserialize_state(text)
    assert str(copy) == str(state) == str(again)
    assert again.engine_state.to_json() == state.engine_state.to_json()
    copy.apply_action(copy.legal_actions()[0])
    assert str(copy) != str(state)
    for s in (state, again):
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    assert str(state) == str(again)
    assert again.engine_state.to_json() == state.engine_state.to_json()
    assert again.information_state_string(0) == state.information_state_string(0)


def test_observation_strings_and_tensors_are_the_current_view() -> None:
    state = openspiel.load_game("dragon-stripes", players=3).new_initial_state()
    state.apply_action(0)
    engine = state.engine_state
    for p in range(3):
        assert json.loads(state.observation_string(p)) == engine.view(p)
        expected = state.get_game().encoder.encode(engine.seat_view(p))
        assert np.allclose(state.observation_tensor(p), expected)


def test_an_information_state_is_the_seats_memory_and_view() -> None:
    """Seat 0's sealed bid is its own: seat 1 cannot tell two bids apart, seat 0 can."""
    game = openspiel.load_game("pebble-auction", players=3, turn_based=True, seed=4)
    a, b = game.new_initial_state(), game.new_initial_state()
    # the same deal in both (the same seed), seat 0 bids differently
    b = a.clone()
    first, second = a.legal_actions()[:2]
    a.apply_action(first)
    b.apply_action(second)
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_string(2) == b.information_state_string(2)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert "> bid" in a.information_state_text(0)
    assert a.information_state_text(1) == b.information_state_text(1)
    assert a.observation_string(1) == b.observation_string(1)


def _sampled_states(game_id: str, players: int, seed: int) -> list[openspiel.SpielState]:
    """The states of a seeded random game, and beside them states the seat to act cannot
    tell from them (resampled from its information state), each played on with the same
    actions where they stay legal; a few steps of each, so some pairs part ways."""
    game = openspiel.load_game(game_id, players=players, turn_based=True, seed=seed)
    rng = np.random.RandomState(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        out.append(state.clone())
        if rng.random_sample() < 0.15:
            twin = state.resample_from_infostate(state.current_player(), sampler)
            for _ in range(4):
                out.append(twin.clone())
                if twin.is_terminal():
                    break
                legal = twin.legal_actions()
                twin.apply_action(legal[rng.randint(len(legal))])
        state.apply_action(rng.choice(state.legal_actions()))
    out.append(state)
    return out


@pytest.mark.parametrize("game_id", rl_games())
def test_compact_information_states_tell_apart_exactly_what_the_full_memory_does(
    game_id: str,
) -> None:
    """On sampled states, for every seat: two states get the same compact string exactly
    when they get the same full memory and view, and the string stays short."""
    players = table_size(game_id, dragonlair.spec(game_id).min_players + 1)
    states = [s for seed in (1, 2) for s in _sampled_states(game_id, players, seed)]
    seed = 3
    while len(states) < 60:  # a short game: more games, so some states are resampled
        states += _sampled_states(game_id, players, seed)
        seed += 1
    same_somewhere = False
    for seat in range(players):
        pairs = {(s.information_state_text(seat), s.information_state_string(seat)) for s in states}
        full = {f for f, _ in pairs}
        compact = {c for _, c in pairs}
        assert len(full) == len(compact) == len(pairs)
        assert all(len(c) <= 48 for c in compact)
        same_somewhere |= len(full) < len(states)
    assert same_somewhere  # some sampled pairs were indistinguishable to a seat


def test_information_state_strings_are_made_once_per_state_and_clones_share_memory() -> None:
    game = openspiel.load_game("dragon-stripes", players=3, seed=5)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    first = state.information_state(0)
    assert state.information_state(0) is first  # made once, then kept
    assert state.information_state_string(0) == first
    copy = state.clone()
    assert copy.information_state(0) is first  # the same state until one of them acts
    copy.apply_action(copy.legal_actions()[0])
    assert copy.information_state(0) != first
    assert state.information_state(0) is first
    assert copy._core.chains is not state._core.chains  # a write does not reach the other


def test_resampling_keeps_the_information_state_and_redraws_the_rest() -> None:
    game = openspiel.load_game("dragon-stripes", players=3, turn_based=True, seed=2)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decks = set()
    for _ in range(5):
        sampled = state.resample_from_infostate(player, sampler)
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.legal_actions() == state.legal_actions()
        decks.add(sampled.engine_state.deck)
        while not sampled.is_terminal():
            sampled.apply_action(sampled.legal_actions()[-1])
    assert len(decks) > 1
    with pytest.raises(ValueError, match="player must be a seat from 0 to 2"):
        state.resample_from_infostate(7, sampler)


def test_public_observers_see_the_spectators_view() -> None:
    game = openspiel.load_game("dragon-stripes", players=2)
    state = game.new_initial_state()
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    assert json.loads(observer.string_from(state, 0)) == state.engine_state.view(None)
    everyone = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="every seat's private information is not offered"):
        game.make_py_observer(everyone)
    with pytest.raises(ValueError, match="observers take no parameters"):
        game.make_py_observer(public, {"x": 1})


def test_returns_are_a_share_of_the_win() -> None:
    game = openspiel.load_game("dragon-stripes", players=4, seed=9)
    rng = np.random.RandomState(0)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.returns() == [0.0] * 4
            state.apply_action(rng.choice(state.legal_actions()))
        winners = state.engine_state.result.winners
        assert state.returns() == [1 / len(winners) if s in winners else 0.0 for s in range(4)]
