"""docs/rl.md matches the code, and the training example still runs."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

from dragonlair.rl import docs
from tests.games import OWN_GAMES
from tests.rl.rl_helpers import rl_games

ROOT = Path(__file__).parents[2]


def test_the_layout_tables_in_the_docs_match_the_code() -> None:
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    # the page documents dragonlair's own games (not an outside game installed beside it)
    stale = [g for g in docs.stale(text) if g in OWN_GAMES]
    assert stale == [], "run: python -m dragonlair.rl.docs --write docs/rl.md"
    for gid in rl_games():
        if gid in OWN_GAMES:
            assert f"<!-- layout:{gid} -->" in text


def test_a_stale_or_missing_table_is_reported_and_rewritten(tmp_path: Path) -> None:
    old = "<!-- layout:dragon-stripes -->\n| old |\n<!-- /layout -->\n"
    assert "dragon-stripes" in docs.stale(old)
    assert "`knight`" in docs.refresh(old)
    page = tmp_path / "rl.md"
    page.write_text(old)
    assert docs.main([str(page)]) == 1  # stale, and the other games' tables are missing
    page.write_text("".join(f"<!-- layout:{g} -->\n<!-- /layout -->\n" for g in rl_games()))
    assert docs.main(["--write", str(page)]) == 0
    assert "`knight`" in page.read_text()
    assert docs.main([str(tmp_path / "missing.md")]) == 2


def _example(name: str) -> Any:
    path = ROOT / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_example_runs() -> None:
    """A smoke test: a few hundred steps of training and evaluation."""
    figures = _example("train_dragon_stripes").main(["--episodes", "15", "--eval", "10"])
    assert 0.0 <= figures["baseline"] <= 1.0 and 0.0 <= figures["trained"] <= 1.0
    assert figures["states"] > 0


def test_the_speed_example_runs() -> None:
    rates = _example("rl_speed").main(["--seconds", "0.01", "--game", "dragon-stripes"])
    assert set(rates["dragon-stripes"]) == {
        "encode_per_s",
        "gymnasium_steps_per_s",
        "pettingzoo_steps_per_s",
        "openspiel_steps_per_s",
    }


def test_the_vector_training_loop_in_the_docs_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    found = re.search(
        r"<!-- example:vector -->\n```python\n(.*?)```\n<!-- /example -->", text, re.S
    )
    assert found is not None
    exec(compile(found.group(1), "docs/rl.md", "exec"), {"STEPS": 150})
    assert re.fullmatch(r"\d+ games, mean share of the win [01]\.\d{3}\n", capsys.readouterr().out)
