"""``dragonlair report``: one self-contained HTML page of a run or a comparison, its
sections and figures, and the skill matrix it is built on."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from dragonlair.cli import app
from dragonlair.sim.report import skill_matrix

runner = CliRunner()


def flat(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("runs")
    a, b = folder / "a.parquet", folder / "b.csv"
    base = ["simulate", "dragon-stripes", "--bots", "heuristic,random", "-n", "60", "-q"]
    for out, extra in ((a, []), (b, ["-o", "open_holdings=true"])):
        result = runner.invoke(app, [*base, *extra, "--out", str(out)])
        assert result.exit_code == 0, result.output
    return a, b


def test_the_report_is_one_self_contained_page(runs: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = runs
    page = tmp_path / "r.html"
    result = runner.invoke(app, ["report", str(a), "-o", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text()
    for heading in (
        "Seat and turn-order advantage",
        "By turn order",
        "Skill matrix",
        "Pacing",
        "Length",
        "Component attribution",
    ):
        assert heading in text
    assert "Dragon Stripes: 60 games" in text and "Wins spread evenly over seats? p =" in text
    images = re.findall(r'<img[^>]*src="([^"]*)"', text)
    assert len(images) >= 3 and all(src.startswith("data:image/png;base64,") for src in images)
    assert not re.search(r'(src|href)="(http|file|/)', text)  # nothing outside the page


def test_a_comparison_report_leads_with_the_differences(
    runs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, b = runs
    page = tmp_path / "c.html"
    result = runner.invoke(app, ["report", str(a), "--against", str(b), "-o", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert text.index("<h2>Comparison</h2>") < text.index("Seat and turn-order advantage")
    assert "winning margin" in text and "paired by index" in text


def test_bad_reports_are_refused(runs: tuple[Path, Path], tmp_path: Path) -> None:
    missing = runner.invoke(
        app, ["report", str(tmp_path / "none.csv"), "-o", str(tmp_path / "x.html")]
    )
    assert missing.exit_code != 0 and "there is no results file" in flat(missing.output)
    other = tmp_path / "o.csv"
    runner.invoke(app, ["simulate", "dragon-race", "-n", "2", "-q", "--out", str(other)])
    mixed = runner.invoke(
        app, ["report", str(runs[0]), "--against", str(other), "-o", str(tmp_path / "y.html")]
    )
    assert mixed.exit_code != 0 and "do not compare" in flat(mixed.output)
    assert not (tmp_path / "x.html").exists() and not (tmp_path / "y.html").exists()


def test_skill_matrix_counts_meetings_and_ties() -> None:
    frame = pd.DataFrame(
        {
            "bot_0": ["h", "r", "h"],
            "bot_1": ["r", "h", "r"],
            "rank_0": [1, 1, 1],
            "rank_1": [2, 2, 1],
        }
    )
    labels, m = skill_matrix(frame, 2)
    assert labels == ["h", "r"]
    assert m[0][1][0] == pytest.approx(1.5 / 3) and m[1][0][0] == pytest.approx(1.5 / 3)
    assert m[0][1][1] == 3 and m[1][0][1] == 3
