"""Data files are read with errors that name the file, the entry and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from dragonlair.core.data import Checker, read_json
from dragonlair.core.errors import BadDataFile


def test_user_file_errors_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(BadDataFile, match="cannot read data file .*nope.json"):
        read_json("dragonlair", "x.json", str(missing))
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(BadDataFile, match="bad.json: not valid JSON"):
        read_json("dragonlair", "x.json", str(bad))
    good = tmp_path / "good.json"
    good.write_text('{"a": [1, 2]}')
    assert read_json("dragonlair", "x.json", str(good)) == ({"a": [1, 2]}, str(good))


def test_checker_names_the_entry() -> None:
    c = Checker("deck.json")
    with pytest.raises(
        BadDataFile, match=r"deck.json: cards\[3\].value: expected an integer from 1 to 6, got 9"
    ):
        c.integer(9, "cards[3].value", 1, 6)
    with pytest.raises(BadDataFile, match="expected an integer >= 0, got True"):
        c.integer(True, "x", 0)
    with pytest.raises(BadDataFile, match="missing 'kind'"):
        c.key({}, "kind", "cards[0]")
    with pytest.raises(BadDataFile, match="expected one of a, b, got 'c'"):
        c.text("c", "side", ["a", "b"])
    with pytest.raises(BadDataFile, match="a list of 2 entries, got '3 entries'"):
        c.items([1, 2, 3], "pair", 2)
    assert c.optional_text(None, "x") is None
    assert c.obj({"k": 1}, "root") == {"k": 1}
