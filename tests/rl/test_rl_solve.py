"""The small Dragon Stripes with explicit chance: it deals as the engine does, OpenSpiel's
tabular tools run on it, CFR+ gets closer to an equilibrium than the bots, and bad input is
refused."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel", reason="the rl extra (OpenSpiel) is not installed")


from dragonlair.core import BadDataFile
from dragonlair.core.bot import RandomBot
from dragonlair.dragon_stripes.chance import draw_outcomes, put_on_top
from dragonlair.dragon_stripes.kinds import DRAW
from dragonlair.dragon_stripes.rules import DragonStripes, DragonStripesState
from dragonlair.rl import solve

# A tiny deck keeps the whole tree a few thousand nodes: four stripes, five cards.
TINY = {
    "note": "test",
    "stripes": [1, 2, 3, 4],
    "footprint_cards": [{"steps": 1, "count": 1}, {"steps": 2, "count": 1}],
    "stop_cards": 0,
    "danger_cards": 3,
    "gems": [{"value": 1, "count": 24}],
    "start_gems": 6,
    "takeover_prices": [{"from": 1, "to": 2, "price": 1}, {"from": 3, "to": None, "price": 2}],
}


def _deal(engine: DragonStripes, seed: int) -> DragonStripesState:
    state = engine.new_game(seed)
    assert isinstance(state, DragonStripesState)
    return state


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("solve") / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return str(path)


def test_the_draw_outcomes_are_the_hidden_rest_of_the_deck() -> None:
    state = _deal(DragonStripes(players=2, options={"data": solve.small_deck_path()}), 3)
    kinds = state.game.card_kinds  # footprints 1 and 2, Stop, Danger
    outcomes = dict(draw_outcomes(state))
    assert outcomes == {0: 2 / 7, 1: 1 / 7, 2: 1 / 7, 3: 3 / 7}
    put_on_top(state, 3)
    assert state.deck[state.top] == kinds[3]
    assert sorted(state.deck) == sorted(state.game.deck)
    state.apply_id(0, DRAW)  # the first Danger, as put on top
    assert dict(draw_outcomes(state))[3] == pytest.approx(2 / 6)
    with pytest.raises(ValueError, match="no card kind number 9"):
        put_on_top(state, 9)


def test_a_chance_node_offers_only_cards_left_and_refuses_others(tiny: str) -> None:
    game = solve.load(2, tiny)
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == [DRAW]  # the first draw is forced
    with pytest.raises(ValueError, match="not a legal action"):
        state.apply_action(1)
    state.apply_action(DRAW)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert [a for a, _ in outcomes] == [0, 1, 3]  # no Stop card in this deck
    with pytest.raises(ValueError, match="not a card kind left"):
        state.apply_action(2)
    state.apply_action(1)  # the footprint 2
    assert state.engine_state.knight == 2
    assert not state.is_chance_node()


def _exact(state: Any, reach: float, out: dict[str, float]) -> None:
    """Add up, over every end of the game below ``state`` with two random players, the
    chance of each way the game ends and of each seat's win and gems."""
    if state.is_terminal():
        s = state.engine_state
        assert s.result is not None
        out[s.result.termination] = out.get(s.result.termination, 0.0) + reach
        for seat, share in enumerate(s.result.win_shares()):
            out[f"win{seat}"] = out.get(f"win{seat}", 0.0) + reach * share
            out[f"gems{seat}"] = out.get(f"gems{seat}", 0.0) + reach * s.gems[seat]
        return
    if state.is_chance_node():
        moves = state.chance_outcomes()
    else:
        legal = state.legal_actions()
        moves = [(a, 1 / len(legal)) for a in legal]
    for action, p in moves:
        _exact(state.child(action), reach * p, out)


def test_the_chance_game_deals_as_the_engine_shuffles(tiny: str) -> None:
    """Two random players: how the game ends, who wins and the gems each ends with, exactly
    in the chance game and over the engine's own shuffled games. A wrong chance, a wrong
    card put on top or a rule the adapter plays differently moves them apart."""
    exact: dict[str, float] = {}
    _exact(solve.load(2, tiny).new_initial_state(), 1.0, exact)
    assert sum(exact[t] for t in ("head", "woke") if t in exact) == pytest.approx(1.0)
    engine = DragonStripes(players=2, options={"data": tiny})
    bot = RandomBot(engine)
    rng = random.Random(7)
    n = 6000
    seen: dict[str, list[float]] = {k: [] for k in exact}
    for seed in range(n):
        s = _deal(engine, seed)
        while not s.is_over:
            seat = s.to_act[0]
            s.apply(seat, bot.choose({}, s.legal_actions(seat), rng))
        assert s.result is not None
        values = {t: float(s.result.termination == t) for t in ("head", "woke")}
        for seat, share in enumerate(s.result.win_shares()):
            values[f"win{seat}"] = share
            values[f"gems{seat}"] = float(s.gems[seat])
        for k, xs in seen.items():
            xs.append(values[k])
    for k, xs in seen.items():
        mean = sum(xs) / n
        sd = (sum((x - mean) ** 2 for x in xs) / (n - 1)) ** 0.5
        assert abs(mean - exact[k]) < 4.5 * sd / n**0.5 + 1e-9, (k, mean, exact[k])


def test_information_states_have_perfect_recall_and_hide_the_deck(tiny: str) -> None:
    game = solve.load(2, tiny)
    a = game.new_initial_state()
    a.apply_action(DRAW)
    b = a.clone()
    a.apply_action(0)  # footprint 1
    b.apply_action(1)  # footprint 2
    # what was drawn is public: both seats tell the two apart
    for seat in range(2):
        assert a.information_state_string(seat) != b.information_state_string(seat)
    # two states that differ only in the hidden rest of the deck are one information state
    c = game.new_initial_state()
    d = game.new_initial_state()
    c.engine_state.deck = tuple(reversed(c.engine_state.deck))
    assert c.information_state_string(0) == d.information_state_string(0)
    # the string of a child extends its parent's
    parent = a.information_state_string(0)
    a.apply_action(1)  # hold
    assert a.information_state_string(0).startswith(parent)


@pytest.mark.timeout(300)
def test_cfr_gets_closer_to_an_equilibrium_than_the_bots(tiny: str) -> None:
    rows, curve = solve.run(
        iterations=8, bots=("random", "heuristic"), data=tiny, checkpoints=(1, 8)
    )
    by = {r.policy.split(" ")[0]: r.exploitability for r in rows}
    assert 0 < by["cfr+"] < by["heuristic"] and by["cfr+"] < by["random"]
    assert curve[-1][1] < curve[0][1]  # more iterations, less to exploit
    assert all(0 <= r.exploitability <= 0.5 for r in rows)


def test_a_bot_policy_is_the_bots_choice_at_each_information_state(tiny: str) -> None:
    game = solve.load(2, tiny)
    pol = solve.bot_policy(game, "heuristic")
    state = game.new_initial_state()
    assert pol.action_probabilities(state) == {DRAW: 1.0}
    state.apply_action(DRAW)
    state.apply_action(0)
    probs = pol.action_probabilities(state)
    assert len(probs) == 1 and next(iter(probs)) in state.legal_actions()
    with pytest.raises(ValueError, match="random bot takes no parameters"):
        solve.bot_policy(game, "random", iterations=3)


def test_bad_input_is_refused(
    tiny: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**TINY, "stripes": "five"}), encoding="utf-8")
    with pytest.raises(BadDataFile, match="stripes"):
        solve.load(2, str(bad))
    assert solve.main(["--bots", "grandmaster"]) == 2
    assert "unknown bot level grandmaster" in capsys.readouterr().err
    assert solve.main(["--iterations", "0"]) == 2
    assert solve.main(["--curve", "ten"]) == 2


@pytest.mark.timeout(300)
def test_the_command_prints_and_writes_the_table(
    tiny: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.json"
    code = solve.main(["--data", tiny, "--iterations", "2", "--bots", "random", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "cfr+ (2 iterations)" in text and "random" in text
    rows = json.loads(out.read_text())["rows"]
    assert [r["policy"] for r in rows] == ["random", "cfr+ (2 iterations)"]
