"""The players' ``--help`` follows the locale: German under a German ``LANG``, English
under ``C`` (run as a fresh process, since the help is built when the CLI is imported)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _help(args: list[str], lang: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG=lang, COLUMNS="200", NO_COLOR="1", TERM="dumb")
    done = subprocess.run(
        [sys.executable, "-m", "dragonlair", *args, "--help"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())


def test_play_help_is_german_under_a_german_locale() -> None:
    out = _help(["play"], "de_DE.UTF-8")
    assert "Ein Spiel im Terminal spielen" in out
    assert "Anzahl der Spieler" in out and "Ein gespeichertes Spiel fortsetzen" in out
    assert "Sprache der Anzeige" in out
    assert "Play a game at the terminal" not in out
    assert "Continue a saved game." not in out


def test_play_help_is_english_under_c() -> None:
    out = _help(["play"], "C")
    assert "Play a game at the terminal: against bots, or hotseat with friends." in out
    assert "Continue a saved game." in out
    assert "Spieler" not in out


@pytest.mark.parametrize(
    ("args", "german", "english"),
    [
        ([], "Vier Brettspiele", "Four tabletop games"),
        (["watch"], "Sekunden zwischen den Zügen", "Seconds between moves"),
        (["replay"], "Bei diesem Zug beginnen", "Start at this move"),
        (["puzzles"], "Nur die Rätsel dieses Spiels", "Only this game's puzzles"),
    ],
)
def test_the_players_commands_help_follows_the_locale(
    args: list[str], german: str, english: str
) -> None:
    de = _help(args, "de_DE.UTF-8")
    assert german in de and english not in de
    en = _help(args, "C")
    assert english in en and german not in en
