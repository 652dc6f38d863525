"""The results' pacing checkpoints (``snap25_s`` ... ``snap90_s``, ``leader25`` ...
``leader90``) on constructed games: where in the game each is taken and what score it
reads, in Space Dragons' draft too."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import dragonlair
from dragonlair.bots import parse_bots
from dragonlair.core import Action, Game, State
from dragonlair.sim import Job
from dragonlair.sim.features import SNAPSHOTS, game_data, hooks, sole_leader
from dragonlair.sim.runner import play_game
from dragonlair.space_dragons.rules import SpaceDragonsState
from tests.space_dragons.sd_helpers import plain_data, write

PLAYERS = 4
SEAT = 2  # the seat that hires the one card with points
BONUS = 5  # its points


def _drafting_game(tmp_path: Path) -> tuple[Game, int]:
    """A Space Dragons game on blank cards (no points, dragons worth 10) in which one card,
    the highest of seat SEAT's first hand, is worth BONUS points; and that card."""
    game = dragonlair.make("space-dragons", PLAYERS, {"data": write(tmp_path, plain_data())})
    s = game.new_game(5)
    card = max(s.hands[SEAT])  # type: ignore[attr-defined]
    data = plain_data(crew={card: {"points": BONUS}})
    return dragonlair.make("space-dragons", PLAYERS, {"data": write(tmp_path, data)}), card


def _play(game: Game) -> tuple[State, list[tuple[int, Action]]]:
    """Every seat hires its highest card and plays its lowest."""
    s = game.new_game(5)
    actions: list[tuple[int, Action]] = []
    while not s.is_over:
        seat = s.to_act[0]
        legal = s.legal_actions(seat)
        hiring = s.phase == "hire"
        pick = max if hiring else min
        action = pick(legal, key=lambda a: int(a.args[0]))
        s.apply(seat, action)
        actions.append((seat, action))
    return s, actions


def _by_hand(game: Game, actions: list[tuple[int, Action]], move: int, card: int) -> list[float]:
    """The score at ``move``, worked out apart from the game's own: in the draft the points
    of the cards hired (BONUS for whoever holds ``card`` among its picks), in the hunt 10 per
    dragon claimed and BONUS for whoever has played ``card``."""
    s = game.new_game(5)
    for seat, action in actions[:move]:
        s.apply(seat, action)
    st: SpaceDragonsState = s  # type: ignore[assignment]
    if st.phase == "hire":
        return [float(BONUS if card in p else 0) for p in st.picks]
    return [
        10.0 * len(c) + (BONUS if card in p else 0)
        for p, c in zip(st.played, st.claimed, strict=True)
    ]


@pytest.mark.timeout(60)
def test_checkpoints_inside_the_draft_have_the_seat_whose_hires_score_most(
    tmp_path: Path,
) -> None:
    game, card = _drafting_game(tmp_path)
    state, actions = _play(game)
    total = len(actions)
    assert total == 64  # 9 picks and 7 plays by each of 4 seats
    data = game_data(game, state, actions, *hooks(game))
    # 25% and 50% are after 16 and 32 decisions: picks 4 and 8 of the draft
    for p in (25, 50):
        assert [data[f"snap{p}_{s}"] for s in range(PLAYERS)] == [0, 0, BONUS, 0]
        assert data[f"leader{p}"] == SEAT
    # 75% and 90% are in the hunt (48 and 58 decisions), read as the public score
    assert SNAPSHOTS == (25, 50, 75, 90)
    for p in (25, 50, 75, 90):
        move = round(total * p / 100)
        expected = _by_hand(game, actions, move, card)
        assert [data[f"snap{p}_{s}"] for s in range(PLAYERS)] == expected
        assert data[f"leader{p}"] == sole_leader(expected)
    assert round(total * 90 / 100) == 58 and round(total * 75 / 100) == 48


@pytest.mark.timeout(60)
def test_a_draft_where_nobody_hires_points_has_no_sole_leader(tmp_path: Path) -> None:
    game = dragonlair.make("space-dragons", PLAYERS, {"data": write(tmp_path, plain_data())})
    state, actions = _play(game)
    data = game_data(game, state, actions, *hooks(game))
    assert data["leader25"] == data["leader50"] == -1
    assert [data[f"snap50_{s}"] for s in range(PLAYERS)] == [0.0] * PLAYERS


@pytest.mark.timeout(120)
def test_heuristic_games_have_sole_leaders_inside_the_draft() -> None:
    """Through the simulation's own game loop with the built-in cards: the draft's
    checkpoints name a sole leader in most games (with the public score, in none)."""
    job = Job("space-dragons", PLAYERS, tuple(parse_bots("heuristic", PLAYERS)), n=12, seed=3)
    game = job.make_game()
    bots = [spec.make(game) for spec in job.bots]
    rows = [play_game(job, game, bots, i).data for i in range(job.n)]
    assert sum(r["leader25"] >= 0 for r in rows) >= 6
    assert sum(r["leader50"] >= 0 for r in rows) >= 6
    for r in rows:
        snap = [r[f"snap50_{s}"] for s in range(PLAYERS)]
        assert r["leader50"] == sole_leader(snap)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "game_id", ["space-dragons", "dragon-stripes", "dragon-race", "space-race"]
)
def test_standings_taken_along_the_way_give_the_checkpoints_of_a_replay(game_id: str) -> None:
    """The simulation takes a game's own ``standing`` after every decision instead of
    replaying the game: the same columns. Where the game also has a public ``position``,
    its standing is that score at every move of the game."""
    job = Job(game_id, PLAYERS, tuple(parse_bots("heuristic,random", PLAYERS)), n=6, seed=2)
    game = job.make_game()
    bots = [spec.make(game) for spec in job.bots]
    module, position = hooks(game)
    assert module is not None and position is not None
    for i in range(job.n):
        along = play_game(job, game, bots, i).data
        s = game.new_game(job.game_seed(i))
        actions: list[tuple[int, Action]] = []
        rng = random.Random(i)
        while not s.is_over:
            seat = s.to_act[0]
            if game_id != "space-dragons" or s.phase != "hire":
                public = position(s.seat_view(None))
                assert module.standing(s) == [public[f"score_{k}"] for k in range(PLAYERS)]
            legal = s.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            s.apply(seat, action)
            actions.append((seat, action))
        replayed = game_data(game, s, actions, module, position)
        s2 = game.new_game(job.game_seed(i))
        standings = [module.standing(s2)]
        stages = [module.stage(s2)]
        for seat, action in actions:
            s2.apply(seat, action)
            standings.append(module.standing(s2))
            stages.append(module.stage(s2))
        assert game_data(game, s, actions, module, position, standings, stages) == replayed
        assert "stage50" in replayed
        assert set(along) == set(replayed)


@pytest.mark.parametrize(
    ("game_id", "pattern"),
    [
        ("space-dragons", r"(pick [1-9] of 9|round [1-7] of 7)"),
        ("space-race", r"round [1-3] of 3, pick [1-6] of 6"),
        ("dragon-stripes", r"turn \d+"),
        ("dragon-race", r"turn \d+"),
    ],
)
def test_each_snapshot_names_the_stage_the_game_was_at(game_id: str, pattern: str) -> None:
    """``stage25`` ... ``stage90`` say where each snapshot fell in the game's own terms,
    read from the game as it was after that snapshot's decision."""
    job = Job(game_id, PLAYERS, tuple(parse_bots("heuristic", PLAYERS)), n=2, seed=4)
    game = job.make_game()
    bots = [spec.make(game) for spec in job.bots]
    module, _ = hooks(game)
    assert module is not None
    for i in range(job.n):
        o = play_game(job, game, bots, i)
        names = [o.data[f"stage{p}"] for p in SNAPSHOTS]
        assert all(re.fullmatch(pattern, name) for name in names), names
        # the same stage as a replay of the game's record to that snapshot's decision
        job_r = Job(game_id, PLAYERS, job.bots, n=job.n, seed=job.seed, records=True)
        record = play_game(job_r, game, bots, i).record
        assert record is not None
        actions = json.loads(record)["actions"]
        for p in SNAPSHOTS:
            again = game.new_game(o.seed)
            for seat, action in actions[: round(o.length * p / 100)]:
                again.apply(seat, action)
            assert o.data[f"stage{p}"] == module.stage_name(game, module.stage(again))


def test_space_dragons_snapshots_fall_in_the_draft_and_the_hunt() -> None:
    """Space Dragons' 64 decisions (four players): a quarter in is the fifth pick of the
    draft, three quarters in the fourth round of the hunt."""
    job = Job("space-dragons", PLAYERS, tuple(parse_bots("heuristic", PLAYERS)), n=1, seed=1)
    game = job.make_game()
    o = play_game(job, game, [spec.make(game) for spec in job.bots], 0)
    assert o.length == 64
    assert (o.data["stage25"], o.data["stage75"]) == ("pick 5 of 9", "round 4 of 7")
