"""Archetype bots: each game's heuristic with declared weights, selectable wherever bots
are. The defaults are the heuristic's own, so the plain heuristic chooses exactly as it
did before it had weights."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from dataclasses import dataclass

import pytest
from typer.testing import CliRunner

import dragonlair
from dragonlair.bots import UnknownBot, archetypes, levels, make_bot, parse_bot, parse_bots
from dragonlair.cli import app
from dragonlair.cli.play import _seats
from dragonlair.core import derive_seed, manifest
from dragonlair.core.manifest import Archetype, BadManifest, check_manifest
from dragonlair.sim import Job, run

GAMES = ("space-race", "space-dragons", "dragon-stripes", "dragon-race")
runner = CliRunner()

# The choices of the heuristic in every seat, games with seeds 1 to 12, hashed: computed
# with the heuristics as they were before they took weights. A change of the default
# weights (or of what the heuristic does with them) shows up here.
DEFAULT_CHOICES = {
    ("space-race", 3): "11961909c89373ea",
    ("space-race", 4): "24806b3401fcda3f",
    ("space-dragons", 3): "5ac005c690b98158",
    ("space-dragons", 4): "335c2ba9eefb0844",
    ("dragon-stripes", 3): "92741259ddcf626c",
    ("dragon-stripes", 4): "78bd0abf51ca28e2",
    ("dragon-race", 3): "eadfa9edd7f0579d",
    ("dragon-race", 4): "df50fa8053fd6fc4",
}


def choices(game_id: str, players: int, level: str = "heuristic", seeds: int = 12) -> str:
    """A hash of every choice ``level`` makes in every seat of seeded games."""
    game = dragonlair.make(game_id, players=players)
    bots = [make_bot(level, game) for _ in range(players)]
    h = hashlib.sha256()
    for seed in range(1, seeds + 1):
        state = game.new_game(seed=seed)
        rngs = [random.Random(derive_seed(seed, 1 + s)) for s in range(players)]
        while not state.is_over:
            seat = state.to_act[0]
            action = bots[seat].choose(state.view(seat), state.legal_actions(seat), rngs[seat])
            h.update(f"{seat}:{action};".encode())
            state.apply(seat, action)
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("game_id", "players"), sorted(DEFAULT_CHOICES))
def test_the_default_weights_choose_exactly_as_the_heuristic_did(
    game_id: str, players: int
) -> None:
    assert choices(game_id, players) == DEFAULT_CHOICES[(game_id, players)]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_declares_archetypes_that_play_differently(game_id: str) -> None:
    styles = archetypes(game_id)
    assert 2 <= len(styles) <= 3
    assert levels(game_id) == ("random", "heuristic", "ismcts", *styles, "trained")
    game = dragonlair.make(game_id)
    default = type(next(iter(styles.values())).weights)()
    assert make_bot("heuristic", game).weights == default  # type: ignore[attr-defined]
    base = choices(game_id, 4, seeds=4)
    for name, style in styles.items():
        assert style.changed(), f"{name} has the heuristic's weights"
        bot = make_bot(name, game)
        assert type(bot) is manifest(game_id).heuristic
        assert bot.weights == style.weights
        assert choices(game_id, 4, name, seeds=4) != base, f"{name} plays like the heuristic"
    check_manifest(game_id)


def test_weights_are_parameters_of_the_heuristic_and_its_archetypes() -> None:
    game = dragonlair.make("space-race")
    bot = parse_bot("fuel-heavy:set_progress=3", "space-race").make(game)
    w = bot.weights  # type: ignore[attr-defined]
    assert w.set_progress == 3 and w.fuel_per_danger == 2.0  # the archetype's, one replaced
    assert make_bot("heuristic", game, robot_progress=2).weights.robot_progress == 2  # type: ignore[attr-defined]
    with pytest.raises(UnknownBot, match="does not take 'depth'; its weights are: set_progress"):
        make_bot("fuel-heavy", game, depth=2)
    with pytest.raises(UnknownBot, match="weight set_progress is a number, not 'lots'"):
        make_bot("heuristic", game, set_progress="lots")
    with pytest.raises(UnknownBot, match="is a number, not True"):
        make_bot("heuristic", game, set_progress=True)


def test_archetypes_are_levels_of_their_own_game_only() -> None:
    specs = parse_bots("fuel-heavy,heuristic", 4, "space-race")
    assert [s.text for s in specs] == ["fuel-heavy", "heuristic", "heuristic", "heuristic"]
    with pytest.raises(UnknownBot, match="no bot level 'fuel-heavy'; the levels are: .*daring"):
        parse_bots("fuel-heavy", 4, "dragon-stripes")
    with pytest.raises(UnknownBot, match="no bot level 'fuel-heavy'"):
        parse_bots("fuel-heavy", 4)  # without a game, the generic levels only
    with pytest.raises(UnknownBot, match="the levels are: random, heuristic, ismcts, daring"):
        make_bot("fuel-heavy", dragonlair.make("dragon-stripes"))


def test_simulate_tournament_and_compare_take_archetypes() -> None:
    sim = runner.invoke(
        app,
        ["simulate", "space-race", "--bots", "fuel-heavy,heuristic", "-n", "12", "--json"],
    )
    assert sim.exit_code == 0, sim.output
    bots = {b["label"]: b for b in json.loads(sim.stdout)["bots"]}
    assert set(bots) == {"fuel-heavy", "heuristic"} and bots["heuristic"]["seats"] == 3
    tour = runner.invoke(
        app, ["tournament", "dragon-stripes", "--bots", "daring,cautious", "-n", "8", "--json"]
    )
    assert tour.exit_code == 0, tour.output
    assert {b["label"] for b in json.loads(tour.stdout)["bots"]} == {"daring", "cautious"}
    cmp = runner.invoke(
        app,
        ["compare", "dragon-stripes", "--bots", "raider", "-n", "10", "-B", "open_holdings=true"],
    )
    assert cmp.exit_code == 0, cmp.output
    bad = runner.invoke(app, ["simulate", "space-race", "--bots", "daring", "-n", "2"])
    assert bad.exit_code != 0 and "no bot level 'daring'" in bad.output


@pytest.mark.parametrize(
    ("style", "feature"),
    [("fuel-heavy", "fuel_picks"), ("robot-heavy", "robot_parts"), ("crystal-heavy", "crystals")],
)
def test_an_archetype_plays_its_style(style: str, feature: str) -> None:
    """At a table of two, each Space Race archetype ends with more of what it goes for
    than the heuristic facing it (20 games, seats rotated)."""
    specs = tuple(parse_bots(f"{style},heuristic", 2, "space-race"))
    job = Job("space-race", 2, specs, n=20, seed=1, rotate=True)
    got = dict.fromkeys((style, "heuristic"), 0)
    for o in run(job).outcomes:
        for seat, entry in enumerate(o.lineup):
            got[job.bots[entry].text] += o.data[f"{feature}_{seat}"]
    assert got[style] > got["heuristic"], got


def test_watch_and_play_take_archetypes() -> None:
    args = ["watch", "dragon-race", "-n", "2", "--bots", "racer,spoiler", "--seed", "3", "--log"]
    watched = runner.invoke(app, args)
    assert watched.exit_code == 0, watched.output
    assert "Racer 1" in watched.output and "Spoiler 2" in watched.output
    seats = _seats(3, "halt-keeper", False, 1, [], "dragon-race")
    assert [s.bot for s in seats] == [None, "halt-keeper", "halt-keeper"]
    with pytest.raises(UnknownBot, match="no bot level 'daring'"):
        _seats(3, "daring", False, 1, [], "dragon-race")
    with pytest.raises(UnknownBot, match="without parameters"):
        _seats(3, "racer:card=1", False, 1, [], "dragon-race")


def test_games_lists_each_games_archetypes() -> None:
    listed = runner.invoke(app, ["games", "--json"])
    assert listed.exit_code == 0
    by_id = {g["id"]: g for g in json.loads(listed.stdout)}
    race = by_id["space-race"]["archetypes"]
    assert [a["name"] for a in race] == ["fuel-heavy", "robot-heavy", "crystal-heavy"]
    assert race[1]["weights"] == {"robot_progress": 6.0}
    assert by_id["pebble-auction"]["archetypes"] == []
    table = runner.invoke(app, ["games"], terminal_width=200)
    assert "fuel-heavy" in table.output and "dragon-hunter" in table.output


@dataclass(frozen=True)
class _Frozen:
    x: float = 1.0


@dataclass
class _Loose:
    x: float = 1.0


def test_malformed_archetypes_are_refused() -> None:
    with pytest.raises(BadManifest, match="lower-case words joined by hyphens"):
        Archetype("Fuel Heavy", "", _Frozen())
    with pytest.raises(BadManifest, match="weights must be a dataclass instance"):
        Archetype("fuel", "", {"x": 1.0})
    with pytest.raises(BadManifest, match="weights must be a frozen dataclass"):
        Archetype("fuel", "", _Loose())
    base = manifest("space-race")
    with pytest.raises(BadManifest, match="there is none"):
        dataclasses.replace(base, heuristic=None)
    twice = (Archetype("a", "", _Frozen()), Archetype("a", "", _Frozen(2.0)))
    with pytest.raises(BadManifest, match="two archetypes share a name"):
        dataclasses.replace(base, archetypes=twice)
    with pytest.raises(BadManifest, match="must be a tuple of Archetype"):
        dataclasses.replace(base, archetypes=["fuel-heavy"])  # type: ignore[arg-type]
