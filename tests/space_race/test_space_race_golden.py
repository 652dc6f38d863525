"""Golden transcripts of seeded games: any change in behaviour shows up as a diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from dragonlair.core.transcript import regenerate

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_transcript(path: Path) -> None:
    assert regenerate(path) == path.read_text(), (
        f"{path.name} changed; if intended, run python scripts/regen_golden.py and review"
    )


def test_there_is_a_transcript_per_player_count() -> None:
    assert [p.name for p in GOLDEN] == ["2p.txt", "3p.txt", "4p.txt"]
