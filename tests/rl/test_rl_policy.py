"""Trained policies as bots: an ONNX policy plays from a seat's view and legal actions
through ONNX Runtime, as the ``trained`` level everywhere a bot level is; the evaluation
harness; dragonlair's bots as OpenSpiel bots."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from open_spiel.python.algorithms import evaluate_bots

import dragonlair
from dragonlair.bots import TRAINED, UnknownBot, levels, make_bot, parse_bots
from dragonlair.core.bot import view_for
from dragonlair.rl import openspiel
from dragonlair.rl.common import TRAINING_SEEDS
from dragonlair.rl.evaluate import evaluate, evaluation_seed, main
from dragonlair.rl.layout import encoder_for
from dragonlair.rl.openspiel_bots import SpielBot, spiel_bot
from dragonlair.rl.policy import (
    META_PLAYERS,
    Policy,
    PolicyBot,
    PolicyError,
    _session,
    shipped_games,
    shipped_policy,
)

torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")


def _favourite(game: dragonlair.Game, path: Path, prefer_high: bool = True) -> Path:
    """A policy whose scores ignore the view and rank the action ids: highest id first
    (or lowest), so the move it must make is known."""
    from dragonlair.rl.export import export_module

    size = encoder_for(game).size
    layer = torch.nn.Linear(size, game.num_actions)
    with torch.no_grad():
        layer.weight.zero_()
        ranks = torch.arange(game.num_actions, dtype=torch.float32)
        layer.bias.copy_(ranks if prefer_high else -ranks)
    return export_module(layer, game, path, "a fixed ranking of the ids, for the tests")


@pytest.fixture(scope="module")
def high(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = dragonlair.make("space-race", players=2)
    return _favourite(game, tmp_path_factory.mktemp("policies") / "high.onnx")


def test_a_policy_plays_its_best_legal_action_from_the_view(high: Path) -> None:
    game = dragonlair.make("space-race", players=3)  # any player count: one layout
    bot = make_bot(TRAINED, game, policy=str(high))
    assert isinstance(bot, PolicyBot)
    rng = random.Random(0)
    state = game.new_game(seed=4)
    moves = 0
    while not state.is_over and moves < 60:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        action = bot.choose(view_for(bot, state, seat), legal, rng)
        assert game.action_id(action) == max(game.action_id(a) for a in legal)
        state.apply(seat, action)
        moves += 1
    # the terminal and the server hand bots the JSON form of the view: the same choice
    state = game.new_game(seed=9)
    for _ in range(30):
        if state.is_over:
            break
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        typed = bot.choose(state.seat_view(seat), legal, rng)
        assert bot.choose(json.loads(json.dumps(state.view(seat))), legal, rng) == typed
        # what the policy was fed from the JSON view is the seat's tensor exactly
        assert np.array_equal(bot._obs[0], encoder_for(game).encode(state.seat_view(seat)))
        state.apply(seat, typed)
    # batches: the best legal id of each row
    policy = Policy(high, game)
    obs = np.zeros((2, policy.encoder.size), dtype=np.float32)
    masks = np.zeros((2, game.num_actions), dtype=np.int8)
    masks[0, [0, 3]] = 1
    masks[1, [1]] = 1
    assert policy.act(obs, masks).tolist() == [3, 1]


def test_a_sampling_policy_draws_among_the_legal_actions(high: Path) -> None:
    game = dragonlair.make("space-race", players=2)
    bot = make_bot(TRAINED, game, policy=str(high), sample=True)
    state = game.new_game(seed=1)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    assert len(legal) > 1
    picks = {bot.choose(view_for(bot, state, seat), legal, random.Random(i)) for i in range(60)}
    assert picks <= set(legal) and len(picks) > 1


def test_a_policy_for_another_game_or_no_policy_is_refused(high: Path, tmp_path: Path) -> None:
    stripes = dragonlair.make("dragon-stripes", players=2)
    with pytest.raises(UnknownBot, match="made for dragonlair.game='space-race'"):
        make_bot(TRAINED, stripes, policy=str(high))
    with pytest.raises(UnknownBot, match="no policy file"):
        make_bot(TRAINED, stripes, policy=str(tmp_path / "none.onnx"))
    junk = tmp_path / "junk.onnx"
    junk.write_text("not a network")
    with pytest.raises(UnknownBot, match="is not an ONNX model"):
        make_bot(TRAINED, stripes, policy=str(junk))
    with pytest.raises(UnknownBot, match="does not take"):
        make_bot(TRAINED, stripes, depth=3)
    with pytest.raises(PolicyError):
        PolicyBot(stripes, policy="")
    if shipped_policy("pebble-auction") is None:
        pebble = dragonlair.make("pebble-auction", players=2)
        with pytest.raises(UnknownBot, match="no trained policy is shipped for"):
            make_bot(TRAINED, pebble)


def _trained_players(game_id: str) -> int:
    """The player count a shipped policy was trained at (its metadata)."""
    path = shipped_policy(game_id)
    assert path is not None
    return int(_session(str(path.resolve()))[1][META_PLAYERS])


def test_trained_is_a_level_of_every_game_and_plays_where_a_policy_is_shipped() -> None:
    shipped = shipped_games()
    assert set(shipped) == {"dragon-race", "dragon-stripes", "space-dragons", "space-race"}
    for game_id in dragonlair.games():
        assert TRAINED in levels(game_id)
        if game_id in shipped:
            game = dragonlair.make(game_id, players=_trained_players(game_id))
            assert isinstance(make_bot(TRAINED, game), PolicyBot)
        else:
            with pytest.raises(UnknownBot):
                make_bot(TRAINED, dragonlair.make(game_id))
    # the Dragon Race's action table depends on the player count: its policy, trained at
    # two players, is refused at four, saying why
    with pytest.raises(UnknownBot, match="made for dragonlair.layout="):
        make_bot(TRAINED, dragonlair.make("dragon-race", players=4))
    assert [s.level for s in parse_bots("trained,heuristic", 3, "space-race")] == [
        TRAINED,
        "heuristic",
        "heuristic",
    ]


def test_the_server_lobby_offers_trained_where_a_shipped_policy_plays() -> None:
    from dragonlair.web.routes.games import game_info

    offered = {g for g in dragonlair.games() if TRAINED in game_info(g).bots}
    # at each game's default player count (four): the Dragon Race's policy is for two
    assert offered == {"dragon-stripes", "space-dragons", "space-race"}


def test_simulate_plays_a_trained_bot(high: Path) -> None:
    from typer.testing import CliRunner

    from dragonlair.cli import app

    args = ["simulate", "space-race", "-p", "2", "--games", "6", "--seed", "3", "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--bots", f"trained:policy={high},random"])
    assert result.exit_code == 0, result.output
    assert "trained:policy=" in result.output


def test_evaluate_rotates_seats_on_seeds_no_environment_deals(high: Path) -> None:
    ev = evaluate(str(high), "space-race", "random", games=6, seed=2, players=3)
    assert ev.players == 3 and ev.games == 6 and ev.opponents == ("random", "random")
    assert 0.0 <= ev.win_share.low <= ev.win_share.mean <= ev.win_share.high <= 1.0
    assert ev.points.low <= ev.points.mean <= ev.points.high
    assert ev.chance == pytest.approx(1 / 3)
    assert all(evaluation_seed(s, i) >= TRAINING_SEEDS for s in (0, 5) for i in range(50))
    assert evaluation_seed(2, 1) < 2**63
    again = evaluate(str(high), "space-race", "random", games=6, seed=2, players=3)
    assert again == ev
    # the same bot on both sides of a two-player game, seats rotated: exactly fair
    mirror = evaluate("random", "dragon-stripes", "random", games=2, seed=0, players=2)
    assert mirror.games == 2
    with pytest.raises(ValueError, match="games must be a positive number"):
        evaluate("random", "space-race", games=0)
    with pytest.raises(ValueError, match="opponents: one bot for all or 1"):
        evaluate("random", "space-race", ["random", "random"], players=2)
    with pytest.raises(UnknownBot, match="no bot level 'genius'"):
        evaluate("genius", "space-race")


def test_the_evaluate_command_prints_intervals_and_json(
    high: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(high), "space-race", "--players", "2", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "win share" in out and "(chance: 0.500)" in out and " to " in out
    assert (
        main(
            [
                str(high),
                "space-race",
                "--games",
                "2",
                "--opponents",
                "random,heuristic",
                "--players",
                "3",
                "--json",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["opponents"] == ["random", "heuristic"] and doc["games"] == 2
    assert main(["random", "space-race", "--players", "9"]) == 2
    assert "Space Race is for 2 to 4 players" in capsys.readouterr().err


@pytest.mark.parametrize("turn_based", [False, True])
def test_our_bots_play_through_openspiels_evaluate_bots(high: Path, turn_based: bool) -> None:
    game = openspiel.load_game("space-race", players=4, turn_based=turn_based, seed=5)
    bots = [
        spiel_bot(game, 0, f"trained:policy={high}"),
        spiel_bot(game, 1, "heuristic", seed=1),
        spiel_bot(game, 2, "fuel-heavy", seed=2),
        spiel_bot(game, 3, "ismcts:iterations=10", seed=3),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random)
    assert sum(returns) == pytest.approx(1.0)
    random_bots = [spiel_bot(game, p, "random", seed=p) for p in range(4)]
    assert sum(evaluate_bots.evaluate_bots(game.new_initial_state(), random_bots, np.random)) == (
        pytest.approx(1.0)
    )
    with pytest.raises(ValueError, match="player must be a seat from 0 to 3"):
        spiel_bot(game, 4, "random")
    assert isinstance(bots[0], SpielBot) and bots[0].player_id() == 0
