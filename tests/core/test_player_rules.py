"""The rules for players that ship with each game: present, in players' words, and Markdown
that renders as headings and lists."""

from __future__ import annotations

import re
from importlib import resources

import pytest

PACKAGES = ["space_dragons", "space_race", "dragon_stripes", "dragon_race"]

# Words that belong to the developers' pages, never to a player's: file names and
# formats, seat numbers, citations, and the text of actions as typed.
DEVELOPER_WORDS = [
    r"\bseat\b",
    r"\bseats\b",
    r"\.json\b",
    r"\.md\b",
    r"\.py\b",
    r"RULINGS",
    r"\bruling",
    r"rulebook",
    r"\bp\.\s*\d",
    r"`",
    r"\bdragonlair\b",
    r"\boption\b",
    r"\bdata file\b",
    r"\bstate\b",
    r"\bview\b",
    r"\b(hire|play|bid|up|fuel|cockpit|engine|draw|hold|take|decline|blow|triple|steal) <",
]


def player_rules(package: str) -> str:
    return (resources.files(f"dragonlair.{package}") / "data" / "player_rules.md").read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize("package", PACKAGES)
def test_player_rules_ship_with_the_game(package: str) -> None:
    text = player_rules(package)
    assert len(text) > 1000
    lines = text.splitlines()
    assert lines[0].startswith("# "), "the rules open with the game's name as a heading"
    assert sum(1 for line in lines if line.startswith("## ")) >= 4
    assert "## Choices at the table" in lines
    assert sum(1 for line in lines if re.match(r"\s*(-|\d+\.) \S", line)) >= 10
    # Choices at the table is a list of the game's options, one item each.
    choices = text.split("## Choices at the table", 1)[1]
    assert re.search(r"^- \*\*", choices, re.MULTILINE)


@pytest.mark.parametrize("package", PACKAGES)
def test_player_rules_speak_to_players(package: str) -> None:
    text = player_rules(package)
    for word in DEVELOPER_WORDS:
        found = re.search(word, text, re.IGNORECASE)
        assert found is None, f"{package}: {found.group(0)!r} is not a word for players"


def test_a_list_item_renders_as_a_list() -> None:
    # A list needs a blank line (or another list item, or a heading) before it in Markdown;
    # otherwise it joins the paragraph above.
    for package in PACKAGES:
        lines = player_rules(package).splitlines()
        for i, line in enumerate(lines):
            if re.match(r"(-|\d+\.) \S", line) and i > 0:
                before = lines[i - 1]
                assert (
                    before == ""
                    or re.match(r"\s*(-|\d+\.) ", before)
                    or before.startswith("  ")
                    or before.startswith("#")
                ), f"{package} line {i + 1}: a list item glued to a paragraph"
