"""Positions, records from positions and undo, for every game that has a position format."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import dragonlair
from dragonlair.core.position import BadPosition, to_toml
from dragonlair.core.state import State

GAMES = ["dragon-stripes", "space-dragons", "space-race", "dragon-race"]


def _play(state: State, rng: random.Random, moves: int) -> State:
    for _ in range(moves):
        if state.is_over:
            break
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def _fields(state: State) -> dict[str, object]:
    return {k: v for k, v in state._snapshot().items() if not k.startswith("_") and k != "seed"}


def _tables() -> list[tuple[str, int]]:
    out = []
    for game_id in GAMES:
        spec = dragonlair.spec(game_id)
        out += [(game_id, p) for p in sorted({spec.min_players, spec.max_players})]
    return out


@pytest.mark.parametrize(("game_id", "players"), _tables())
def test_positions_round_trip_exactly(game_id: str, players: int) -> None:
    game = dragonlair.make(game_id, players=players)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = _play(game.new_game(seed=seed), rng, rng.randrange(60))
        if state.is_over:
            continue
        doc = state.to_position()
        for source in (doc, to_toml(doc), json.dumps(doc)):
            again = dragonlair.position(game_id, source, seed=seed + 1)
            assert again.to_position() == doc
            assert _fields(again) == _fields(state)
            assert again.to_act == state.to_act
            assert [str(a) for a in again.legal_actions(again.to_act[0])] == [
                str(a) for a in state.legal_actions(state.to_act[0])
            ]
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_from_a_position_replays_saves_and_resumes(game_id: str) -> None:
    rng = random.Random(3)
    start = _play(dragonlair.make(game_id).new_game(seed=9), rng, 15)
    state = dragonlair.position(game_id, start.to_position(), seed=21)
    _play(state, rng, 25)
    rec = state.record
    assert rec.position is not None and rec.seed == 21
    assert rec.to_dict()["format"] == "dragonlair.record/2"
    assert dragonlair.replay(rec.to_json()).to_json() == state.to_json()
    resumed = dragonlair.load(state.to_json())
    assert resumed.to_json() == state.to_json()
    if not resumed.is_over:
        seat = resumed.to_act[0]
        action = resumed.legal_actions(seat)[0]
        resumed.apply(seat, action)
        state.apply(seat, action)
        assert resumed.to_json() == state.to_json()


def test_old_records_still_load() -> None:
    state = _play(
        dragonlair.make("dragon-stripes", players=3).new_game(seed=4), random.Random(1), 9
    )
    old = state.record.to_dict()
    old["format"] = "dragonlair.record/1"
    assert dragonlair.replay(old).to_json() == state.to_json()
    doc = json.loads(state.to_json())
    del doc["state"]["_origin"]  # a game saved before positions existed
    assert dragonlair.load(json.dumps(doc)).to_json() == state.to_json()
    old["position"] = state.to_position()
    with pytest.raises(dragonlair.BadRecord, match="position"):
        dragonlair.replay(old)


def _stripes(**changes: object) -> dict[str, object]:
    doc = dragonlair.make("dragon-stripes", players=3).new_game(seed=2).to_position()
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("doc", "field", "message"),
    [
        (_stripes(drawn=["danger"], deck=["danger"] * 3), "deck", "a card twice"),
        (_stripes(drawn=["footprint 9"]), "drawn[0]", "not a component"),
        (_stripes(gems=[40, 40, 400]), "gems[2]", "ledger allows"),
        (_stripes(lair=0), "gems", "not conserved"),
        (_stripes(phase="flying"), "phase", "expected one of"),
        (_stripes(phase="offer"), "phase", "only after a draw"),
        (_stripes(starter=5), "starter", "expected 0..2"),
        (_stripes(wings=3), "wings", "not a field"),
        (_stripes(players=9), "players", "2 to 6 players"),
        (_stripes(game="space-race"), "game", "not 'dragon-stripes'"),
        (_stripes(format="chess/1"), "format", "expected"),
        (_stripes(drawn=["danger"] * 3, deck=[]), "drawn", "would be over"),
        (_stripes(ledger=[{"banked": -1}, {}, {}]), "ledger[0].banked", "expected at least 0"),
    ],
)
def test_bad_stripes_positions_name_the_field(
    doc: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(BadPosition, match=message) as e:
        dragonlair.position("dragon-stripes", doc, seed=1)
    assert e.value.field == field


def test_bad_text_is_refused() -> None:
    texts: list[str | bytes] = ["phase = ", "{", "[1, 2]", b"\xff"]
    for text in texts:
        with pytest.raises(BadPosition):
            dragonlair.position("dragon-stripes", text)


def test_omitted_hidden_parts_are_dealt_from_what_remains() -> None:
    doc = _stripes(drawn=["stop"], deck=["danger"])
    a = dragonlair.position("dragon-stripes", doc, seed=1)
    b = dragonlair.position("dragon-stripes", doc, seed=2)
    pa, pb = a.to_position(), b.to_position()
    assert pa["deck"][0] == pb["deck"][0] == "danger"
    assert sorted(pa["deck"]) == sorted(pb["deck"]) and pa["deck"] != pb["deck"]
    assert dragonlair.position("dragon-stripes", doc, seed=1).to_position() == pa


# ---------------------------------------------------------------------- undo


def _to_hold(seed: int) -> State:
    """A Dragon Stripes game at a moment where the knight's holder may hold."""
    state = dragonlair.make("dragon-stripes", players=3).new_game(seed=seed)
    while "hold" not in [str(a) for a in state.legal_actions(state.to_act[0])]:
        state.apply(state.to_act[0], "draw")
        assert not state.is_over
    return state


def test_undo_is_offered_exactly_when_nothing_hidden_was_revealed() -> None:
    state = _to_hold(3)
    seat = state.to_act[0]
    assert not state.can_undo(seat)  # its last decision was a draw: a card was turned over
    state.apply(seat, "hold")
    assert state.can_undo(seat)
    other = state.to_act[0]
    assert not state.can_undo(other)  # none yet, or a draw that turned a card over
    state.apply(other, "decline")
    assert state.can_undo(other) and state.can_undo(seat)
    state.undo(seat)
    assert state.to_act == (seat,) and state.phase == "draw"
    assert state.record.actions[-3:] == ((seat, "hold"), (other, "decline"), (seat, "undo"))
    assert state.events_since(state.event_count - 1, None)[0]["type"] == "undo"
    assert dragonlair.replay(state.record).to_json() == state.to_json()
    assert dragonlair.load(state.to_json()).to_json() == state.to_json()
    with pytest.raises(dragonlair.IllegalAction, match="cannot take back"):
        state.undo(seat)  # its previous decision was a draw


def test_undo_is_refused_after_a_private_reveal_and_changes_nothing() -> None:
    state = _to_hold(5)
    seat = state.to_act[0]
    state.apply(seat, "draw")
    before = state.to_json()
    assert not state.can_undo(seat)
    with pytest.raises(dragonlair.IllegalAction):
        state.undo(seat)
    assert state.to_json() == before


# ---------------------------------------------------------------------- puzzles and commands


def test_every_puzzle_loads_round_trips_and_asks_a_seat_to_act() -> None:
    from dragonlair.core.puzzles import puzzles

    found = puzzles()
    for game_id in GAMES:
        assert len([p for p in found if p.game == game_id]) >= 3, game_id
    for p in found:
        state = p.state(seed=1)
        assert p.title and p.source and p.question
        assert p.seat is not None and p.seat in state.to_act, p.name
        again = dragonlair.position(p.game, state.to_position(), seed=2)
        assert again.to_position() == state.to_position()


def test_puzzles_speak_to_the_player_in_the_projects_own_words() -> None:
    """A puzzle's texts are read by players: no seat numbered from 0 (players count from
    1, and a puzzle says "the player on your right" rather than a number), no file of the
    project's sources cited; every one has its German words."""
    import re

    from dragonlair.core.puzzles import puzzles
    from dragonlair.i18n import translations

    german = translations("de")._catalog  # type: ignore[attr-defined]
    for p in puzzles():
        for text in (p.title, p.source, p.notes, p.question):
            assert not re.search(r"\bseat\s*\d", text, re.IGNORECASE), (p.name, text)
            assert not re.search(r"\w+\.(md|txt|json|toml)\b|RULINGS", text), (p.name, text)
            if text:
                assert german.get(text), (p.name, text)  # "HALT!" is German too


def test_commands_open_positions_and_their_records(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dragonlair.cli import app

    runner = CliRunner()
    listed = runner.invoke(app, ["puzzles"])
    assert listed.exit_code == 0 and "dragon-stripes/near-the-head" in listed.output
    state = _to_hold(3)
    doc = state.to_position()
    pos = tmp_path / "pos.toml"
    pos.write_text(to_toml(doc))
    started = dragonlair.position("dragon-stripes", pos.read_text(), seed=4)
    seat = started.to_act[0]
    started.apply(seat, "hold")
    started.apply(started.to_act[0], "decline")
    started.undo(seat)
    rec = tmp_path / "game.json"
    rec.write_text(started.record.to_json())
    shown = runner.invoke(app, ["replay", str(rec), "--all"])
    assert shown.exit_code == 0, shown.output
    assert "takes back their last decision" in shown.output
    played = runner.invoke(app, ["play", "--from", str(pos), "--fast"], input="")
    assert "needs a terminal" in played.output  # the position was read; a screen is next
    at = runner.invoke(
        app, ["position", str(rec), "--move", "0", "--out", str(tmp_path / "p.toml")]
    )
    assert at.exit_code == 0, at.output
    assert (
        dragonlair.position("dragon-stripes", (tmp_path / "p.toml").read_text()).to_position()
        == doc
    )
    shown_json = runner.invoke(app, ["position", "puzzle:near-the-head", "--json"])
    assert json.loads(shown_json.output)["knight"] == 15
    too_far = runner.invoke(app, ["position", str(rec), "--move", "99"])
    assert too_far.exit_code != 0 and "record entries" in too_far.output
    bad = tmp_path / "bad.toml"
    bad.write_text(to_toml({**doc, "phase": "nap"}))
    refused = runner.invoke(app, ["play", "--from", str(bad)])
    assert refused.exit_code != 0 and "phase" in refused.output


def _dragons(**changes: object) -> dict[str, object]:
    state = dragonlair.make("space-dragons", players=3).new_game(seed=2)
    doc = state.to_position()
    doc.update(changes)
    return doc


_SD = dragonlair.make("space-dragons", players=3).new_game(seed=2).to_position()


@pytest.mark.parametrize(
    ("doc", "field", "message"),
    [
        (_dragons(start_cards=[_SD["hands"][0][0], *_SD["start_cards"][1:]]), "hands[0]", "twice"),
        (_dragons(hands=[_SD["hands"][0][:3], 9, 9]), "hands[0]", "expected 9"),
        (_dragons(face_up=99), "face_up", "expected 1..20"),
        (_dragons(round=2), "round", "before the first round"),
        (_dragons(phase="nap"), "phase", "expected one of"),
        (
            _dragons(chosen={"0": "hire 80" if 80 not in _SD["hands"][0] else "hire 1"}),
            "chosen.0",
            "not a legal",
        ),
        (_dragons(chosen={"7": "hire 1"}), "chosen.7", "not choosing"),
        (_dragons(box=[]), "box", "nowhere"),
        (_dragons(sides={"science": "b"}), "sides.science", "this table plays"),
    ],
)
def test_bad_space_dragons_positions_name_the_field(
    doc: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(BadPosition, match=message) as e:
        dragonlair.position("space-dragons", doc, seed=1)
    assert e.value.field == field


def test_a_choice_under_way_round_trips() -> None:
    state = dragonlair.make("space-dragons", players=3).new_game(seed=5)
    state.apply(1, state.legal_actions(1)[2])
    doc = state.to_position()
    assert list(doc["chosen"]) == ["1"]
    again = dragonlair.position("space-dragons", to_toml(doc), seed=3)
    assert again.to_act == (0, 2) and again.to_position() == doc
    assert again.view(1)["my_choice"] == state.view(1)["my_choice"]
    assert "my_choice" not in again.view(0)


def test_a_secret_pick_can_be_taken_back_until_the_picks_are_revealed() -> None:
    state = dragonlair.make("space-dragons", players=3).new_game(seed=5)
    first = state.legal_actions(1)[2]
    state.apply(1, first)
    state.apply(0, state.legal_actions(0)[0])
    assert state.can_undo(1) and state.can_undo(0) and not state.can_undo(2)
    state.undo(1)
    # seat 0's pick came after it, so it is taken back too
    assert state.to_act == (0, 1, 2) and "my_choice" not in state.view(1)
    for seat in (0, 1, 2):
        state.apply(seat, state.legal_actions(seat)[0])
    assert not any(state.can_undo(seat) for seat in (0, 1, 2))  # the hands were passed
    assert dragonlair.replay(state.record).to_json() == state.to_json()


_SR = dragonlair.make("space-race", players=3).new_game(seed=2).to_position()


def _race(**changes: object) -> dict[str, object]:
    doc: dict[str, object] = json.loads(json.dumps(_SR))
    doc.update(changes)
    return doc


def _race_ship(seat: int, **stacks: object) -> list[dict[str, object]]:
    ships: list[dict[str, object]] = json.loads(json.dumps(_SR["ships"]))
    ships[seat].update(stacks)
    return ships


@pytest.mark.parametrize(
    ("doc", "field", "message"),
    [
        (_race(crew_discard=[_SR["hands"][1][0]]), "hands[1]", "twice"),
        (_race(hands=[_SR["hands"][0][:2], 6, 6]), "hands[0]", "expected 6"),
        (_race(pick=9), "pick", "expected 1..6"),
        (_race(direction="up"), "direction", "expected one of"),
        (_race(phase="danger", hands=[[], [], []]), "danger", "needs the Danger card"),
        (_race(danger_discard=[1]), "danger_discard", "0 Dangers are used"),
        (_race(seen_top=[0], danger_deck=[]), "seen_top", "write it in danger_deck"),
        (_race(ships=_race_ship(0, fuel=99)), "ships[0].fuel", "only"),
        (_race(bids=[1]), "bids", "one bid per seat"),
    ],
)
def test_bad_space_race_positions_name_the_field(
    doc: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(BadPosition, match=message) as e:
        dragonlair.position("space-race", doc, seed=1)
    assert e.value.field == field


_DR = dragonlair.make("dragon-race", players=3).new_game(seed=2).to_position()


def _race_doc(**changes: object) -> dict[str, object]:
    doc: dict[str, object] = json.loads(json.dumps(_DR))
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("doc", "field", "message"),
    [
        (_race_doc(discards=[_DR["hands"][2][0]]), "hands[2]", "twice"),
        (_race_doc(hands=[[1, 2, 3, 4, 5, 6, 7], 4, 4]), "hands[0]", "at most 6"),
        (_race_doc(pawns=[0, 0, 999]), "pawns[2]", "expected"),
        (_race_doc(phase="halt-play"), "last", "name it"),
        (_race_doc(phase="halt-play", last="stop", asked=[0]), "asked", "last seats"),
        (_race_doc(phase="stolen"), "stolen", "missing"),
        (_race_doc(robbed=[0]), "robbed", "rob themselves"),
        (_race_doc(phase="victim"), "phase", "two or more"),
        (_race_doc(last="fly"), "last", "fly"),
    ],
)
def test_bad_dragon_race_positions_name_the_field(
    doc: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(BadPosition, match=message) as e:
        dragonlair.position("dragon-race", doc, seed=1)
    assert e.value.field == field


def test_a_halt_window_round_trips_and_the_answer_cannot_be_undone_after_a_halt() -> None:
    from dragonlair.core.puzzles import puzzle

    p = puzzle("dragon-race/halt")
    state = p.state(seed=4)
    assert state.phase == "halt-play" and state.to_act == (p.seat,)
    again = dragonlair.position("dragon-race", state.to_position(), seed=9)
    assert again.to_position() == state.to_position()
    seat = state.to_act[0]
    state.apply(seat, "pass")
    assert state.phase == "halt-play" and state.can_undo(seat)  # the next seat is asked
    halts = [a for a in state.legal_actions(state.to_act[0]) if a.kind == "halt"]
    assert halts  # this seed deals the next seat a HALT!
    state.apply(state.to_act[0], halts[0])  # the turn is undone and the next one begins
    assert not state.can_undo(seat)  # the next player drew their cards


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_pages_example_position_sets_up(game_id: str) -> None:
    page = (Path(__file__).parents[2] / "docs" / "rules" / f"{game_id}.md").read_text()
    section = page.split("## Positions", 1)[1]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    state = dragonlair.position(game_id, example, seed=1)
    assert state.to_act and not state.is_over


def test_undo_follows_what_each_kind_of_decision_reveals_over_many_games() -> None:
    """Dragon Stripes: a draw always turns a card over (never undoable); a hold or a
    decline that leaves the offer open reveals nothing (always undoable)."""
    game = dragonlair.make("dragon-stripes", players=3)
    seen = {"draw": 0, "hold": 0, "decline": 0}
    for seed in range(8):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.move < 40:
            seat = state.to_act[0]
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            if state.is_over:
                break
            if action.kind == "draw":
                assert not state.can_undo(seat), (seed, state.move)
                seen["draw"] += 1
            elif state.phase == "offer":  # a hold, or a decline with someone left to ask
                assert state.can_undo(seat), (seed, state.move)
                seen[action.kind] += 1
    assert all(seen.values()), seen


def test_space_race_picks_are_undoable_until_revealed() -> None:
    game = dragonlair.make("space-race", players=3)
    for seed in range(4):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            if state.is_over:
                break
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            if state._choices is not None and seat not in state.to_act and state.to_act:
                assert state.can_undo(seat), (seed, state.move)  # still sealed
            else:
                assert not state.can_undo(seat), (seed, state.move)  # revealed or dealt
