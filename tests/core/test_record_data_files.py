"""A record of a game played with a data file keeps the file's SHA-256, and replay refuses
the record once the file has changed."""

from __future__ import annotations

import hashlib
import json
import random
from importlib import resources
from pathlib import Path

import pytest

import dragonlair
from dragonlair.core import BadRecord, Record


def played(data: Path | None) -> dragonlair.State:
    options = {} if data is None else {"data": str(data)}
    state = dragonlair.make("space-dragons", players=3, options=options).new_game(seed=4)
    rng = random.Random(1)
    for _ in range(12):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_a_changed_data_file_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "cards.json"
    text = resources.files("dragonlair.space_dragons").joinpath("data", "space_dragons.json")
    data.write_text(text.read_text(encoding="utf-8"), encoding="utf-8")
    state = played(data)
    doc = json.loads(state.record.to_json())
    assert doc["data_files"] == {"data": hashlib.sha256(data.read_bytes()).hexdigest()}
    again = dragonlair.replay(state.record.to_json())
    assert again.view(None) == state.view(None)
    data.write_text(data.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # one byte more
    with pytest.raises(BadRecord, match="it has changed"):
        dragonlair.replay(doc)
    data.unlink()
    with pytest.raises(BadRecord):
        dragonlair.replay(doc)


def test_records_without_data_files_are_unchanged() -> None:
    doc = json.loads(played(None).record.to_json())
    assert "data_files" not in doc
    assert dragonlair.replay(doc).move == 12


@pytest.mark.parametrize("files", [{"data": "abc"}, ["x"], {"data": 3}])
def test_malformed_digests_are_refused(files: object) -> None:
    doc = json.loads(played(None).record.to_json())
    doc["data_files"] = files
    with pytest.raises(BadRecord, match="data_files"):
        Record.from_dict(doc)
