"""``dragonlair report``: one self-contained HTML page of a run or a comparison, its
sections and figures, and the skill matrix it is built on."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from dragonlair.cli import app
from dragonlair.sim.report import (
    benjamini_hochberg,
    skill_matrix,
    two_proportion_p,
    value_bins,
    win_share_by_value,
)

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
        "Headline",
        "Scores of winners and others",
        "Win share by value",
    ):
        assert heading in text
    assert text.index("Headline") < text.index("Seat and turn-order advantage")
    assert "<script>" in text and "download CSV" in text and "th.sort" in text
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


def test_win_share_by_value_shows_a_threshold_a_mean_hides() -> None:
    # seats ending on 4 win half the time, on 2 or 3 rarely, on 0 often: the winners' mean
    # count is the others' (2.04 against 1.99), the table is not
    values = np.array([0] * 100 + [1] * 100 + [2] * 100 + [3] * 100 + [4] * 100, dtype=float)
    wins = np.zeros(500)
    wins[0:40] = 1  # 40% at 0
    wins[100:125] = 1  # 25% at 1
    wins[200:210] = wins[300:310] = 1  # 10% at 2 and 3
    wins[400:450] = 1  # 50% at 4
    assert values[wins > 0].mean() == pytest.approx(values[wins == 0].mean(), abs=0.1)
    table = {label: (rate.value, n) for label, rate, n in win_share_by_value(values, wins)}
    assert table == {
        "0": (0.4, 100),
        "1": (0.25, 100),
        "2": (0.1, 100),
        "3": (0.1, 100),
        "4": (0.5, 100),
    }
    _, four, _ = win_share_by_value(values, wins)[-1]
    assert four.low < 0.5 < four.high


def test_many_values_are_binned_into_quantiles_covering_every_seat() -> None:
    values = np.arange(600, dtype=float)
    bins = value_bins(values)
    assert len(bins) == 6 and bins[0][0] == "0 to 99" and bins[-1][0] == "500 to 599"
    assert sum(int(mask.sum()) for _, mask in bins) == 600  # every seat in exactly one bin
    assert all(int(mask.sum()) == 100 for _, mask in bins)


def test_benjamini_hochberg_adjusts_as_the_procedure_says() -> None:
    p = [0.01, 0.04, 0.03, 0.005, 0.5]
    # sorted 0.005, 0.01, 0.03, 0.04, 0.5 -> p * m / rank, then the running minimum from the top
    expected = [0.025, 0.05, 0.05, 0.025, 0.5]
    assert benjamini_hochberg(p) == pytest.approx(expected)
    assert benjamini_hochberg([]) == []


def test_the_two_proportion_test_separates_a_real_difference_from_none() -> None:
    assert two_proportion_p(60, 100, 40, 100) < 0.01
    assert two_proportion_p(50, 100, 50, 100) == pytest.approx(1.0)
    assert two_proportion_p(0, 10, 0, 10) == 1.0  # nobody won: nothing to test
    assert two_proportion_p(3, 0, 5, 10) == 1.0


def test_a_card_table_keeps_every_id_and_folds_the_middle() -> None:
    from dragonlair.sim.report import TOP, _attribution

    # 40 ids over 2 seats: seat 0 holds ids 0-19 and wins, seat 1 ids 20-39
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(200):
        w = float(rng.random() < 0.5)
        rows.append(
            {
                "cards_0": " ".join(str(i) for i in rng.choice(20, 5, replace=False)),
                "cards_1": " ".join(str(20 + i) for i in rng.choice(20, 5, replace=False)),
                "win_0": w,
                "win_1": 1 - w,
            }
        )
    html = _attribution(pd.DataFrame(rows), 2, ["cards"], [])
    assert html.count("<tr class='fold'>") == 40 - 2 * TOP
    assert all(f"<td>{i}</td>" in html for i in range(40))  # every id, folded or not
    assert "show or fold the 16 ids between" in html and "q (BH)" in html


def test_the_win_model_finds_the_feature_that_matters_and_leaves_out_the_redundant() -> None:
    from dragonlair.sim.report import win_model

    rng = np.random.default_rng(5)
    rows = []
    for _ in range(400):
        skill = rng.normal(size=2)
        noise = rng.normal(size=2)
        winner = int(np.argmax(skill + 0.5 * rng.normal(size=2)))
        row: dict[str, float] = {}
        for s in range(2):
            row |= {
                f"skill_{s}": skill[s],
                f"noise_{s}": noise[s],
                f"twice_{s}": 2 * skill[s] + 1,  # determined by skill: left out
                f"same_{s}": 3.0,  # never varies: left out
                f"win_{s}": float(s == winner),
            }
        rows.append(row)
    frame = pd.DataFrame(rows)
    terms, r2, left_out = win_model(frame, 2, ["skill", "noise", "twice", "same"])
    by = {t.feature: t for t in terms}
    assert set(left_out) == {"twice", "same"} and set(by) == {"skill", "noise"}
    assert by["skill"].odds_ratio > 2 and by["skill"].low > 1 and by["skill"].p < 1e-6
    assert by["noise"].low < 1 < by["noise"].high
    assert 0 < r2 < 1


def test_card_ids_come_with_their_names_and_effects() -> None:
    from dragonlair.sim.report import _attribution, token_names

    race = token_names({"game": "space-race", "players": 4, "options": {"data": None}})
    assert len(race["cards"]) >= 72 and race["cards"]["1"] == (
        "Orange Scanner, 2 VP, peeks at the top Danger"
    )
    dragons = token_names({"game": "space-dragons", "players": 4, "options": {}})
    assert dragons["played"] == dragons["drafted"] and "crosshair" in " ".join(
        dragons["played"].values()
    )
    assert "Tornado!" in " ".join(
        token_names({"game": "dragon-race", "players": 3})["cards"].values()
    )
    assert token_names({"game": "dragon-stripes", "players": 4}) == {}  # no id lists
    moved = {"game": "space-race", "players": 4, "options": {"data": "/nowhere/cards.json"}}
    assert token_names(moved) == {}  # ids only, when the game cannot be made again
    frame = pd.DataFrame(
        [
            {"cards_0": "1 2", "cards_1": "3", "win_0": float(g % 2), "win_1": float(1 - g % 2)}
            for g in range(40)
        ]
    )
    html = _attribution(frame, 2, ["cards"], [], race)
    assert "<td>1 <span class='note'>Orange Scanner, 2 VP, peeks at the top Danger</span>" in html


def test_the_win_model_stops_early_on_a_feature_that_separates_winners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fit with a finite optimum converges in a few Newton steps; one chasing an optimum
    at infinity (a feature only winners have) is given up after MAX_NEWTON steps, not 200,
    and the report says it could not be fitted."""
    import statsmodels.discrete.discrete_model as dm

    from dragonlair.sim.report import MAX_NEWTON, win_model

    asked: list[int] = []
    fit = dm.Logit.fit

    def spy(self: dm.Logit, *args: object, **kwargs: object) -> object:
        asked.append(int(kwargs.get("maxiter", 0)))  # type: ignore[call-overload]
        return fit(self, *args, **kwargs)

    monkeypatch.setattr(dm.Logit, "fit", spy)
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(300):
        skill = rng.normal(size=2)
        winner = int(np.argmax(skill + rng.normal(size=2)))
        rows.append(
            {
                **{f"skill_{s}": skill[s] for s in range(2)},
                # nearly only winners reach it: separates them up to one loser
                **{f"head_{s}": float(s == winner) for s in range(2)},
                **{f"win_{s}": float(s == winner) for s in range(2)},
            }
        )
    rows[0]["head_0"] = rows[0]["head_1"] = 1.0
    frame = pd.DataFrame(rows)
    terms, _, _ = win_model(frame, 2, ["skill"])
    assert terms and asked[0] == MAX_NEWTON and MAX_NEWTON <= 50  # the model's own fit
    asked.clear()
    with pytest.raises(Exception, match="converge|[Ss]eparation"):
        win_model(frame, 2, ["skill", "head"])
    assert asked[0] == MAX_NEWTON
