"""The terminal in German: ``--lang de`` (or the locale) on watch, replay, play and
puzzles; a German game of each of the four games, played to the end, shows no English
sentence (a check over everything printed or drawn, see :mod:`tests.i18n.english`); what is
typed and saved is the same in both languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import dragonlair
from dragonlair.cli import app
from dragonlair.core.puzzles import puzzles
from tests.i18n.english import english_words

runner = CliRunner()
GAMES = ("space-dragons", "space-race", "dragon-stripes", "dragon-race")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_german_game_watched_to_the_end_reads_german(game_id: str) -> None:
    out = runner.invoke(
        app, ["watch", game_id, "--log", "--lang", "de", "--seed", "5", "--bots", "heuristic"]
    )
    assert out.exit_code == 0, out.output
    assert "Spieler" in out.output and "Punkt" in out.output
    assert english_words(out.output) == [], out.output


def test_the_locale_chooses_the_language_and_lang_overrides_it() -> None:
    args = ["watch", "dragon-stripes", "--log", "--seed", "2", "--bots", "random"]
    german = runner.invoke(app, args, env={"LANG": "de_DE.UTF-8", "LC_ALL": ""})
    assert "beginnt am Schwanz des Drachen" in german.output
    english = runner.invoke(app, [*args, "--lang", "en"], env={"LANG": "de_DE.UTF-8"})
    assert "starts from the dragon's tail" in english.output


def test_an_unknown_language_is_refused() -> None:
    out = runner.invoke(app, ["watch", "dragon-stripes", "--log", "--lang", "fr"])
    assert out.exit_code == 2
    assert "unknown language 'fr': choose one of en, de" in out.output


def test_a_record_replays_in_either_language_and_stays_the_same_file(tmp_path: Path) -> None:
    game = dragonlair.make("space-race", players=2)
    state = game.new_game(seed=4)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    path = tmp_path / "game.json"
    path.write_text(state.record.to_json())
    before = path.read_bytes()
    de = runner.invoke(app, ["replay", str(path), "--all", "--seat", "1", "--lang", "de"])
    en = runner.invoke(app, ["replay", str(path), "--all", "--seat", "1", "--lang", "en"])
    assert de.exit_code == en.exit_code == 0
    assert "Endwertung" in de.output and "Final scores" in en.output
    assert english_words(de.output) == [], de.output
    assert path.read_bytes() == before
    assert json.loads(before)["actions"] == json.loads(state.record.to_json())["actions"]


def test_the_puzzles_list_reads_german_with_lang_or_the_locale() -> None:
    wide = {"COLUMNS": "200"}
    german = runner.invoke(app, ["puzzles", "--lang", "de"], env=wide)
    assert german.exit_code == 0, german.output
    assert "Rätsel" in german.output and "Spieler 2" in german.output
    names = [p.name for p in puzzles()]  # typed (puzzle:<name>), the same in both
    assert english_words(german.output, names) == [], german.output
    by_locale = runner.invoke(app, ["puzzles"], env={**wide, "LANG": "de_DE.UTF-8", "LC_ALL": ""})
    assert by_locale.output == german.output
    english = runner.invoke(app, ["puzzles", "--lang", "en"], env=wide)
    assert "Puzzle" in english.output and "Player 2" in english.output
