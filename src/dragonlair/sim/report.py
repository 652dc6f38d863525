"""One self-contained HTML page that explains a run (or a comparison) to a designer.

Built from a results file (and its metadata), with every chart embedded as a PNG, so the
page can be mailed or opened anywhere without the files it came from. Sections:

- **the run**: game, rules version, options, bots, games, seed, data files and their
  SHA-256;
- **seat and turn-order advantage**: win share per seat and per position after the start
  player with 95% Wilson intervals, a verdict per row against the fair share 1/N, and
  Pearson's chi-squared test (SciPy) that wins are spread evenly;
- **skill matrix** (a run with several bots): for each pair of bots, how often the first
  finished above the second when both played the same game (ties count half), with the
  number of meetings;
- **pacing**: how often the seat leading alone at 25, 50 and 75% of the game goes on to
  win, lead changes per game, winning margins;
- **length**: in decisions and in the game's own units;
- **component attribution**: for each card (or other id a game lists per seat, such as
  cards played or drafted), the win share of seats that had it against those that did
  not, with intervals and counts, a warning below :data:`THIN` seats, and each
  difference's two-proportion z-test with its Benjamini-Hochberg adjusted q-value (many
  cards are tested at once, so some raw p-values pass 0.05 by chance); for each numeric
  per-seat feature, its mean among winners and among the others, and the **win share by
  value** (binned into quantiles where a feature takes many values), with intervals and
  counts, which shows thresholds a mean hides (a set completed at 4);
- **scores of winners and others**: each line of the scoring breakdown, its mean among
  the seats that won and the others;
- **comparison** (with a second file): the table of paired differences and its chart.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .compare import Comparison
from .stats import Line, Rate, Summary, wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

THIN = 30  # fewer seats than this behind a figure: the report says the data is thin
TOP = 12  # components shown at each end of the attribution table
DISTINCT = 12  # a feature with more values than this is binned for its win share by value
BINS = 6  # quantile bins of such a feature

_CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; color: #222;
       line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { margin-top: 2em; border-bottom: 2px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.93em; }
th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #e5e5e5; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
.above { color: #1a7f37; font-weight: 600; } .below { color: #c62828; font-weight: 600; }
.note { color: #555; font-size: 0.92em; }
.warn { background: #fff4e5; border-left: 4px solid #f0a020; padding: 0.5em 0.8em;
        margin: 0.8em 0; }
img { max-width: 100%; } .meta td { text-align: left; }
th.sort { cursor: pointer; } th.sort::after { content: " \\2195"; color: #999; }
a.csv { font-size: 0.8em; margin-left: 0.3em; }
.headline { background: #eef5ff; border-left: 4px solid #4c78a8; padding: 0.4em 1em; }
.headline h2 { margin-top: 0.3em; }
tr.fold { display: none; } table.all tr.fold { display: table-row; }
.meta td { overflow-wrap: anywhere; }
"""

# Every table but the run's: headings sort its rows (numbers by value, "12.5%" and
# "+3.0 pt" too; a second click reverses), and a link downloads it as CSV, all of its
# rows. Plain DOM code, in the page, so the report stays one file that needs no network.
_JS = """
function cellValue(td) {
  const t = td.innerText.trim();
  const m = t.match(/^[+-]?\\d+(\\.\\d+)?(e[+-]?\\d+)?/i);
  return m ? parseFloat(m[0]) : t.toLowerCase();
}
document.querySelectorAll("table:not(.meta)").forEach((table, k) => {
  const rows = () => Array.from(table.querySelectorAll("tr")).slice(1);
  table.querySelectorAll("tr:first-child th").forEach((th, col) => {
    th.classList.add("sort");
    th.title = "sort by this column";
    th.addEventListener("click", () => {
      const up = th.dataset.dir !== "up";
      th.dataset.dir = up ? "up" : "down";
      const sorted = rows().sort((a, b) => {
        const x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
        const c = typeof x !== typeof y ? (typeof x === "number" ? -1 : 1)
          : x < y ? -1 : x > y ? 1 : 0;
        return up ? c : -c;
      });
      sorted.forEach((r) => table.appendChild(r));
    });
  });
  const link = document.createElement("a");
  link.className = "csv";
  link.textContent = "download CSV";
  link.href = "#";
  link.addEventListener("click", (e) => {
    e.preventDefault();
    const quote = (t) => '"' + t.replace(/"/g, '""') + '"';
    const lines = Array.from(table.querySelectorAll("tr")).map((r) =>
      Array.from(r.cells).map((c) => quote(c.innerText.trim())).join(","));
    const blob = new Blob([lines.join("\\n") + "\\n"], {type: "text/csv"});
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "table-" + (k + 1) + ".csv";
    a.click();
  });
  table.parentNode.insertBefore(link, table);
});
"""


def figure_png(fig: Figure) -> str:
    """A figure as an embedded PNG ``<img>``."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img alt="chart" src="data:image/png;base64,{data}">'


def _e(x: object) -> str:
    return html.escape(str(x))


def _table(
    head: Sequence[str],
    rows: Sequence[Sequence[object]],
    raw: bool = False,
    folded: set[int] | frozenset[int] = frozenset(),
) -> str:
    """An HTML table; the rows at the positions ``folded`` are hidden until the table gets
    the class ``all`` (they stay in its CSV download)."""
    out = ["<table><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr>"]
    for i, r in enumerate(rows):
        cells = (str(c) if raw else _e(c) for c in r)
        tr = "<tr class='fold'>" if i in folded else "<tr>"
        out.append(tr + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _verdict(line: Line, fair: float) -> str:
    v = line.verdict(fair)
    css = {"above": "above", "below": "below"}.get(v, "")
    return f'<span class="{css}">{_e(v)}</span>'


def _rate_rows(lines: Sequence[Line], fair: float) -> list[list[object]]:
    return [
        [
            _e(line.label),
            f"{line.win.value:.1%}",
            f"{line.win.low:.1%} to {line.win.high:.1%}",
            _verdict(line, fair),
            f"{line.points_mean:.2f}",
            f"{line.rank_mean:.2f}",
            line.games,
        ]
        for line in lines
    ]


def _p(p: float | None) -> str:
    return "not available" if p is None else f"{p:.3g}"


def _advantage(summary: Summary, features: bool = True) -> str:
    fair = summary.fair_share
    head = ["", "win share", "95% CI", "verdict", "points", "mean rank", "games"]
    parts = ["<h2>Seat and turn-order advantage</h2>"]
    parts.append(
        f'<p class="note">Fair share 1/{summary.players} = {fair:.1%}. A verdict is '
        "<i>above</i> or <i>below</i> when the whole 95% interval lies on that side of it. "
        "The overall test is Pearson's chi-squared test that wins are spread evenly.</p>"
    )
    parts.append(_table(["seat", *head[1:]], _rate_rows(summary.seats, fair), raw=True))
    parts.append(f"<p>Wins spread evenly over seats? p = {_p(summary.seat_test)}.</p>")
    if summary.positions:
        parts.append("<h3>By turn order (place after the start player)</h3>")
        parts.append(_table(["position", *head[1:]], _rate_rows(summary.positions, fair), raw=True))
        p = summary.position_test
        parts.append(f"<p>Wins spread evenly over turn order? p = {_p(p)}.")
        if p is not None and p < 0.05:
            best = max(summary.positions, key=lambda line: line.win.value)
            worst = min(summary.positions, key=lambda line: line.win.value)
            parts.append(
                f" <b>Turn order matters</b>: {_e(best.label)} wins {best.win.value:.1%} of "
                f"the time, {_e(worst.label)} {worst.win.value:.1%}."
            )
        parts.append("</p>")
    elif not features:
        parts.append(
            '<p class="note">The run was made without the per-game data '
            "(<code>--no-features</code>): it shows no turn order, pacing or components. "
            "Run it again without that flag to see them.</p>"
        )
    else:
        parts.append(
            '<p class="note">This game has no start player, so there is no turn order to show.</p>'
        )
    return "".join(parts)


def _rates_figure(summary: Summary) -> Figure:
    from matplotlib.figure import Figure

    groups = [("per seat", summary.seats)] + (
        [("per position after the start player", summary.positions)] if summary.positions else []
    )
    fig = Figure(figsize=(11, 3.6), layout="constrained")
    axes = fig.subplots(1, len(groups), squeeze=False)[0]
    for ax, (name, lines) in zip(axes, groups, strict=True):
        x = list(range(len(lines)))
        v = [line.win.value for line in lines]
        err = [
            [max(0.0, line.win.value - line.win.low) for line in lines],
            [max(0.0, line.win.high - line.win.value) for line in lines],
        ]
        ax.bar(x, v, yerr=err, capsize=4, color="#4c78a8")
        ax.axhline(summary.fair_share, linestyle="--", color="#d62728")
        ax.set_xticks(x, [line.label.split(":")[0] for line in lines], rotation=12)
        ax.yaxis.set_major_formatter(lambda val, _pos: f"{val:.0%}")
        ax.set_title(f"win share {name} (95% CI)")
    return fig


def skill_matrix(frame: Any, players: int) -> tuple[list[str], list[list[tuple[float, int]]]]:
    """For each pair of bot labels (i, j): the share of meetings in which i finished above
    j (ties half) and the number of meetings (seat pairs in the same game)."""
    labels: list[str] = []
    for s in range(players):
        for b in frame[f"bot_{s}"].unique():
            if b not in labels:
                labels.append(str(b))
    k = len(labels)
    score = [[0.0] * k for _ in range(k)]
    meet = [[0] * k for _ in range(k)]
    index = {b: i for i, b in enumerate(labels)}
    bots = [frame[f"bot_{s}"].map(index).to_numpy() for s in range(players)]
    ranks = [frame[f"rank_{s}"].to_numpy() for s in range(players)]
    for s in range(players):
        for t in range(players):
            if s == t:
                continue
            for bs, bt, rs, rt in zip(bots[s], bots[t], ranks[s], ranks[t], strict=True):
                if bs == bt:
                    continue
                meet[bs][bt] += 1
                score[bs][bt] += 1.0 if rs < rt else 0.5 if rs == rt else 0.0
    return labels, [
        [(score[i][j] / meet[i][j] if meet[i][j] else float("nan"), meet[i][j]) for j in range(k)]
        for i in range(k)
    ]


def _skill(frame: Any, players: int) -> str:
    labels, m = skill_matrix(frame, players)
    if len(labels) < 2:
        return ""
    rows = []
    for i, b in enumerate(labels):
        cells: list[object] = [_e(b)]
        for j in range(len(labels)):
            share, meetings = m[i][j]
            cells.append(
                "&mdash;"
                if i == j or not meetings
                else f"{share:.1%} <span class='note'>({meetings})</span>"
            )
        rows.append(cells)
    return (
        "<h2>Skill matrix</h2><p class='note'>Row bot finishing above column bot when both "
        "played the same game (ties count half); in brackets, how many times they met.</p>"
        + _table(["", *labels], rows, raw=True)
    )


def _where(frame: Any, pct: int) -> str:
    """A checkpoint as the pacing table names it: ``25%``, and where the game has stages,
    the one most games were at then (``25%: pick 5 of 9``; ``25%: turn 13 (41% of
    games)`` when they were not all at the same)."""
    column = f"stage{pct}"
    if column not in frame.columns or not len(frame):
        return f"{pct}%"
    counts = frame[column].value_counts()
    share = counts.iloc[0] / len(frame)
    text = f"{pct}%: {counts.index[0]}"
    return text if share == 1 else f"{text} ({share:.0%} of games)"


def _pacing(frame: Any, players: int) -> tuple[str, Figure | None]:
    import numpy as np

    from .features import SNAPSHOTS

    if "leader75" not in frame.columns:
        return "", None
    rows = []
    for pct in (p for p in SNAPSHOTS if f"leader{p}" in frame.columns):
        at = _where(frame, pct)
        leader = frame[f"leader{pct}"].to_numpy(int)
        sole = leader >= 0
        if not sole.any():
            rows.append([at, "no sole leader in any game (no score yet: a draft?)", "", 0])
            continue
        wins = np.array([frame[f"win_{s}"].to_numpy(float) for s in range(players)]).T[
            np.arange(len(frame))[sole], leader[sole]
        ]
        rate = wilson(float(wins.sum()), int(sole.sum()))
        rows.append(
            [at, f"{rate.value:.1%}", f"{rate.low:.1%} to {rate.high:.1%}", int(sole.sum())]
        )
    pts = np.sort(
        np.array([frame[f"points_{s}"].to_numpy(float) for s in range(players)]).T, axis=1
    )
    margin = pts[:, -1] - pts[:, -2]
    changes = frame["lead_changes"].to_numpy(float)
    text = (
        "<h2>Pacing</h2><p class='note'>How often the seat leading alone at a point of the "
        "game (by the tracked score: the game's <code>position</code> of the spectator's "
        "view, such as the points on the cards played so far, or its own "
        "<code>standing</code>, such as the points on the cards hired in Space Dragons' "
        "draft, as docs/simulate.md describes) goes on to win; games with a tie "
        "for the lead there are left out. A point is a share of the game's decisions; "
        "where the game has rounds, picks or turns, the stage most games were at then "
        "follows it, with the share of games that were.</p>"
        + _table(["leader at", "wins", "95% CI", "games with a sole leader"], rows)
        + f"<p>Lead changes per game: mean {changes.mean():.2f}, median {np.median(changes):.0f}; "
        f"winning margin: mean {margin.mean():.2f} points, median {np.median(margin):.1f}; "
        f"{(margin == 0).mean():.1%} of games tied at the top.</p>"
    )
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 3.4), layout="constrained")
    a, b = fig.subplots(1, 2)
    a.hist(changes, bins=np.arange(changes.max() + 2) - 0.5, color="#72b7b2")
    a.set_title("lead changes per game")
    b.hist(margin, bins=30, color="#f58518")
    b.set_title("winning margin (points)")
    return text, fig


def _length(frame: Any) -> tuple[str, Figure | None]:
    from matplotlib.figure import Figure

    cols = ["length", *(c for c in frame.columns if c.startswith("len_"))]
    fig = Figure(figsize=(11, 3.2), layout="constrained")
    axes = fig.subplots(1, len(cols), squeeze=False)[0]
    rows = []
    for ax, c in zip(axes, cols, strict=True):
        v = frame[c].to_numpy(float)
        name = "decisions" if c == "length" else c[4:]
        rows.append(
            [
                name,
                f"{v.mean():.1f}",
                f"{v.std(ddof=1) if len(v) > 1 else 0:.1f}",
                f"{v.min():.0f}",
                f"{v.max():.0f}",
            ]
        )
        ax.hist(v, bins="auto", color="#54a24b")
        ax.set_title(f"length in {name}")
    varies = any(frame[c].nunique() > 1 for c in cols)
    text = "<h2>Length</h2>" + _table(["unit", "mean", "sd", "shortest", "longest"], rows)
    return text, fig if varies else None


def token_names(meta: dict[str, Any]) -> dict[str, dict[str, str]]:
    """What the ids of each id-list column are (column -> id -> name and effect), from the
    game's ``features.token_names(game)`` on the game the results were played with; empty
    when the game has none or cannot be made again (a data file that moved)."""
    from ..core import DragonlairError, make
    from .features import features_module

    try:
        module = features_module(str(meta["game"]))
        if module is None or not hasattr(module, "token_names"):
            return {}
        options = {k: v for k, v in dict(meta.get("options") or {}).items() if v is not None}
        game = make(str(meta["game"]), players=int(meta["players"]), options=options)
    except (DragonlairError, KeyError, ValueError):
        return {}
    names: dict[str, dict[str, str]] = module.token_names(game)
    return names


def _attribution(
    frame: Any,
    players: int,
    token_columns: Sequence[str],
    numeric: Sequence[str],
    names: dict[str, dict[str, str]] | None = None,
) -> str:
    """The report's component attribution: a section per token column, then the
    per-seat features' means, their win shares by value and the model of the win."""
    import numpy as np

    parts = ["<h2>Component attribution</h2>"]
    if not token_columns and not numeric:
        return ""
    wins = np.concatenate([frame[f"win_{s}"].to_numpy(float) for s in range(players)])
    for col in token_columns:
        parts.extend(_token_attribution(frame, players, wins, col, (names or {}).get(col, {})))
    if numeric:
        parts.append(_feature_means(frame, players, wins, numeric))
        parts.append(_by_value(frame, players, wins, numeric))
        parts.append(_model(frame, players, numeric))
    return "".join(parts)


def _token_attribution(
    frame: Any, players: int, wins: Any, col: str, named: dict[str, str]
) -> list[str]:
    """The section of one token column: the win share of seats whose column holds each
    id against those whose does not, with its interval, p- and q-value (the ids between
    the ``TOP`` largest and smallest differences folded away), and a warning for the
    rows that rest on fewer than ``THIN`` seats; ``named``: the ids' names."""
    parts: list[str] = []
    base = wins.mean()
    rows = _token_rows(frame, players, wins, col)
    seats = len(wins)
    pvalues = [
        two_proportion_p(w_in.value * count, count, w_out.value * (seats - count), seats - count)
        for _, _, w_in, w_out, count in rows
    ]
    qvalues = benjamini_hochberg(pvalues)
    # every id is in the table (and its CSV); between the TOP largest and the TOP
    # smallest differences the rows are folded away until "show all" is clicked
    shown_at = list(range(len(rows)))
    folded = set(shown_at[TOP:-TOP]) if len(rows) > 2 * TOP else set()
    shown = [rows[i] for i in shown_at if i not in folded]
    thin = [r for r in shown if r[4] < THIN]
    body = [
        [
            _e(rows[i][1])
            + (
                f" <span class='note'>{_e(named[rows[i][1]])}</span>" if rows[i][1] in named else ""
            ),
            f"{rows[i][2].value:.1%} ({rows[i][2].low:.1%} to {rows[i][2].high:.1%})",
            f"{rows[i][3].value:.1%}",
            f"{100 * rows[i][0]:+.1f} pt",
            f"{pvalues[i]:.2g}",
            f"{qvalues[i]:.2g}" + (" <b>*</b>" if qvalues[i] < 0.05 else ""),
            f"{rows[i][4]}" + (" <b>thin</b>" if rows[i][4] < THIN else ""),
        ]
        for i in shown_at
    ]
    passed = sum(1 for q in qvalues if q < 0.05)
    parts.append(
        f"<h3>{_e(col)}</h3><p class='note'>Win share of seats whose <i>{_e(col)}</i> "
        f"included the id, against seats whose did not (overall {base:.1%}); "
        + (
            f"the {TOP} ids with the largest and the {TOP} with the smallest difference "
            "(the button below the table shows the others; the CSV has every id)."
            if len(rows) > 2 * TOP
            else "every id."
        )
        + " A difference is an association, not a cause: strong players may simply pick "
        "the card. <i>p</i>: the two-proportion z-test of the difference (statsmodels); "
        f"<i>q</i>: the p-value adjusted for testing all {len(rows)} ids at once "
        "(Benjamini-Hochberg, the expected share of false findings among those with "
        f"q &lt; 0.05 is at most 5%); * q &lt; 0.05: {passed} of {len(rows)} ids.</p>"
    )
    if thin:
        parts.append(
            f"<div class='warn'>{len(thin)} of these rows rest on fewer than {THIN} seats: "
            "their intervals are wide and their differences may be chance.</div>"
        )
    head = ["id", "win share with it (95% CI)", "without", "difference", "p", "q (BH)"]
    table = _table([*head, "seats"], body, raw=True, folded=folded)
    if folded:
        table += (
            "<button class='more' onclick=\"this.previousElementSibling.classList."
            f"toggle('all')\">show or fold the {len(folded)} ids between</button>"
        )
    parts.append(table)
    return parts


def _token_rows(
    frame: Any, players: int, wins: Any, col: str
) -> list[tuple[float, str, Rate, Rate, int]]:
    """Each id of a token column: the difference of the win shares of the seats whose
    column holds it and of the others, the id, both shares and how many seats held it;
    the largest difference first."""
    import numpy as np

    lists = np.concatenate([frame[f"{col}_{s}"].astype(str).to_numpy() for s in range(players)])
    tokens: dict[str, list[int]] = {}
    for i, text in enumerate(lists):
        for tok in set(text.split()):
            tokens.setdefault(tok, []).append(i)
    rows = []
    for tok, where in tokens.items():
        have = np.zeros(len(wins), dtype=bool)
        have[where] = True
        w_in = wilson(float(wins[have].sum()), int(have.sum()))
        w_out = wilson(float(wins[~have].sum()), int((~have).sum()))
        rows.append((w_in.value - w_out.value, tok, w_in, w_out, int(have.sum())))
    rows.sort(key=lambda r: r[0], reverse=True)
    return rows


def _feature_means(frame: Any, players: int, wins: Any, numeric: Sequence[str]) -> str:
    """Each per-seat feature's mean among the seats that won and among the others."""
    import numpy as np

    rows = []
    won = wins > 0
    for col in numeric:
        v = np.concatenate([frame[f"{col}_{s}"].to_numpy(float) for s in range(players)])
        rows.append(
            [
                col,
                f"{v[won].mean():.2f}",
                f"{v[~won].mean():.2f}",
                f"{v[won].mean() - v[~won].mean():+.2f}",
            ]
        )
    return (
        "<h3>Per-seat features</h3><p class='note'>Mean of each feature among seats that "
        "won (alone or shared) and among the others.</p>"
        + _table(["feature", "winners", "others", "difference"], rows)
    )


@dataclass(frozen=True)
class Term:
    """One feature of the logistic model: its odds ratio per standard deviation of the
    feature, with the 95% interval and p-value."""

    feature: str
    odds_ratio: float
    low: float
    high: float
    p: float


# Newton's method fits a logistic regression that has a finite optimum in well under 20
# steps (it converges quadratically near it); one still moving after this many is chasing
# an optimum at infinity, a feature that (nearly) separates winners from the others, and
# each further step over every seat of a large run costs a fraction of a second.
MAX_NEWTON = 35


def win_model(
    frame: Any, players: int, numeric: Sequence[str]
) -> tuple[list[Term], float, list[str]]:
    """A logistic regression (statsmodels' ``Logit``) of whether a seat won (alone or
    shared) on its numeric features, each standardised, with standard errors clustered by
    game (the seats of a game are not independent: one of them wins). Features that do not
    vary, or that the others already determine (a linear combination of them), are left
    out and named. Returns the terms, McFadden's pseudo R² and the features left out."""
    import warnings

    import numpy as np
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import ConvergenceWarning

    wins = np.concatenate([frame[f"win_{s}"].to_numpy(float) for s in range(players)]) > 0
    games = np.tile(np.arange(len(frame)), players)
    kept: list[str] = []
    left_out: list[str] = []
    columns: list[Any] = []
    for col in numeric:
        v = np.concatenate([frame[f"{col}_{s}"].to_numpy(float) for s in range(players)])
        sd = v.std()
        if not np.isfinite(sd) or sd == 0.0:
            left_out.append(col)
            continue
        z = (v - v.mean()) / sd
        trial = np.column_stack([np.ones(len(z)), *columns, z])
        if np.linalg.matrix_rank(trial) < trial.shape[1]:
            left_out.append(col)
            continue
        columns.append(z)
        kept.append(col)
    if not kept or wins.all() or not wins.any():
        return [], 0.0, left_out
    x = np.column_stack([np.ones(len(wins)), *columns])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = sm.Logit(wins.astype(float), x).fit(
            disp=0, cov_type="cluster", cov_kwds={"groups": games}, maxiter=MAX_NEWTON
        )
    if not fit.mle_retvals.get("converged", True):
        raise ValueError(
            "the fit did not converge: too few games, or a feature that (nearly) separates "
            "winners from the others"
        )
    ci = fit.conf_int(0.05)
    terms = [
        Term(
            col,
            float(np.exp(fit.params[k + 1])),
            float(np.exp(ci[k + 1][0])),
            float(np.exp(ci[k + 1][1])),
            float(fit.pvalues[k + 1]),
        )
        for k, col in enumerate(kept)
    ]
    return terms, float(fit.prsquared), left_out


def _model(frame: Any, players: int, numeric: Sequence[str]) -> str:
    """The logistic model's table, strongest terms first, with its caveats."""
    import numpy as np
    from statsmodels.tools.sm_exceptions import PerfectSeparationError

    try:
        terms, r2, left_out = win_model(frame, players, numeric)
    except (np.linalg.LinAlgError, PerfectSeparationError, ValueError) as e:
        return (
            "<h3>A model across features</h3><div class='warn'>The logistic regression "
            f"could not be fitted on these games ({_e(type(e).__name__)}: {_e(e)}).</div>"
        )
    if not terms:
        return ""
    terms.sort(key=lambda t: -abs(np.log(t.odds_ratio)) if t.odds_ratio > 0 else 0.0)
    rows = [
        [
            _e(t.feature),
            f"{t.odds_ratio:.2f}",
            f"{t.low:.2f} to {t.high:.2f}",
            f"{t.p:.2g}" + (" <b>*</b>" if t.p < 0.05 else ""),
        ]
        for t in terms
    ]
    dropped = (
        f" Left out: {_e(', '.join(left_out))} (constant, or determined by the others)."
        if left_out
        else ""
    )
    return (
        "<h3>A model across features</h3><p class='note'>A logistic regression "
        "(statsmodels) of whether a seat won on all its numeric features at once, each "
        "standardised: an odds ratio is how the odds of winning change per standard "
        "deviation of the feature <i>with the others held fixed</i> (above 1 helps, below 1 "
        "hurts); 95% intervals and p-values use standard errors clustered by game. "
        f"McFadden's pseudo R² = {r2:.3f}.{dropped}</p>"
        "<div class='warn'>Caveats: these are associations in bot play, not causes; features "
        "that move together (Fuel held and Fuel picked) share their effect between them, so "
        "one may look weak or even reversed; the model is linear in the log-odds, so a "
        "threshold (a set of 4) shows better in the win share by value above; and a run's "
        "bots decide which features vary.</div>"
        + _table(["feature", "odds ratio per sd", "95% CI", "p"], rows, raw=True)
    )


def two_proportion_p(wins_a: float, n_a: int, wins_b: float, n_b: int) -> float:
    """The two-sided p-value of the two-proportion z-test (statsmodels) that the win
    shares ``wins_a / n_a`` and ``wins_b / n_b`` are equal; 1 where it cannot be tested."""
    if n_a < 1 or n_b < 1:
        return 1.0
    import math

    from statsmodels.stats.proportion import proportions_ztest

    pooled = (wins_a + wins_b) / (n_a + n_b)
    if pooled <= 0.0 or pooled >= 1.0:
        return 1.0
    _, p = proportions_ztest([wins_a, wins_b], [n_a, n_b])
    return float(p) if math.isfinite(p) else 1.0


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """The Benjamini-Hochberg adjusted q-values of ``pvalues`` (statsmodels), in order."""
    if not pvalues:
        return []
    from statsmodels.stats.multitest import multipletests

    return [float(q) for q in multipletests(list(pvalues), method="fdr_bh")[1]]


def value_bins(values: Any) -> list[tuple[str, Any]]:
    """The bins of a feature's values for its win share by value: each value its own bin
    when there are at most :data:`DISTINCT`, else up to :data:`BINS` quantile bins (``a to
    b``, both ends included); each with the boolean mask of the seats in it."""
    import numpy as np

    distinct = np.unique(values)
    if len(distinct) <= DISTINCT:
        return [(_number(v), values == v) for v in distinct]
    edges = np.unique(np.quantile(values, np.linspace(0, 1, BINS + 1)))
    out = []
    for k in range(len(edges) - 1):
        lo, hi = edges[k], edges[k + 1]
        last = k == len(edges) - 2
        mask = (values >= lo) & ((values <= hi) if last else (values < hi))
        if mask.any():
            top = hi if last else values[mask].max()
            out.append((f"{_number(values[mask].min())} to {_number(top)}", mask))
    return out


def _number(v: Any) -> str:
    return f"{float(v):g}"


def win_share_by_value(values: Any, wins: Any) -> list[tuple[str, Any, int]]:
    """Per bin of :func:`value_bins`: its label, the win share of its seats (a Wilson
    :class:`~.stats.Rate`) and how many seats."""
    return [
        (label, wilson(float(wins[mask].sum()), int(mask.sum())), int(mask.sum()))
        for label, mask in value_bins(values)
    ]


def _by_value(frame: Any, players: int, wins: Any, numeric: Sequence[str]) -> str:
    """Win share by each numeric feature's value, features with the widest spread first."""
    import numpy as np

    tables = []
    for col in numeric:
        v = np.concatenate([frame[f"{col}_{s}"].to_numpy(float) for s in range(players)])
        bins = win_share_by_value(v, wins)
        if len(bins) < 2:
            continue
        solid = [rate.value for _, rate, count in bins if count >= THIN]
        spread = max(solid) - min(solid) if len(solid) >= 2 else 0.0
        rows = [
            [
                _e(label),
                f"{rate.value:.1%}",
                f"{rate.low:.1%} to {rate.high:.1%}",
                f"{count}" + (" <b>thin</b>" if count < THIN else ""),
            ]
            for label, rate, count in bins
        ]
        best = max(bins, key=lambda b: b[1].value if b[2] >= THIN else -1.0)
        tables.append(
            (
                spread,
                f"<details><summary><b>{_e(col)}</b>: win share from "
                f"{min(solid, default=0):.1%} to {max(solid, default=0):.1%} over its values "
                f"(highest at {_e(best[0])})</summary>"
                + _table(["value", "win share", "95% CI", "seats"], rows, raw=True)
                + "</details>",
            )
        )
    if not tables:
        return ""
    tables.sort(key=lambda t: t[0], reverse=True)
    return (
        "<h3>Win share by value</h3><p class='note'>For each per-seat feature, the win share "
        "of the seats that ended with each value (binned into quantiles when a feature takes "
        f"more than {DISTINCT} values), with 95% Wilson intervals; the features whose win "
        f"share moves most over their values (bins of at least {THIN} seats) come first. A "
        "threshold shows here where a mean does not. Open a feature to see its table.</p>"
        + "".join(t for _, t in tables)
    )


def _headline(summary: Summary, frame: Any, players: int) -> str:
    """The findings first: turn order or seat advantage, the feature whose win share moves
    most over its values, and the scoring line that most separates winners."""
    import numpy as np

    items = []
    lines, test, what = (
        (summary.positions, summary.position_test, "turn order")
        if summary.positions
        else (summary.seats, summary.seat_test, "seat")
    )
    best = max(lines, key=lambda line: line.win.value)
    worst = min(lines, key=lambda line: line.win.value)
    if test is not None and test < 0.05:
        items.append(
            f"<b>{what.capitalize()} matters</b> (chi-squared p = {test:.3g}): "
            f"{_e(best.label)} wins {best.win.value:.1%}, {_e(worst.label)} "
            f"{worst.win.value:.1%} (fair share {summary.fair_share:.1%})."
        )
    elif test is not None:
        items.append(
            f"No {what} advantage shows (chi-squared p = {test:.3g}): win shares from "
            f"{worst.win.value:.1%} to {best.win.value:.1%} around the fair "
            f"{summary.fair_share:.1%}."
        )
    wins = np.concatenate([frame[f"win_{s}"].to_numpy(float) for s in range(players)])
    _, numbers = per_seat_features(frame, players, ())
    widest: tuple[float, str, str, str] | None = None
    for col in numbers:
        v = np.concatenate([frame[f"{col}_{s}"].to_numpy(float) for s in range(players)])
        solid = [(rate.value, label) for label, rate, n in win_share_by_value(v, wins) if n >= THIN]
        if len(solid) >= 2:
            hi, lo = max(solid), min(solid)
            if widest is None or hi[0] - lo[0] > widest[0]:
                widest = (hi[0] - lo[0], col, f"{hi[1]}: {hi[0]:.1%}", f"{lo[1]}: {lo[0]:.1%}")
    if widest is not None:
        items.append(
            f"The per-seat feature whose win share moves most is <b>{_e(widest[1])}</b> "
            f"({_e(widest[2])} against {_e(widest[3])}; see <i>Win share by value</i>)."
        )
    won = wins > 0
    gaps = []
    for c in frame.columns:
        if c.startswith("score_") and c.endswith("_0"):
            label = c[len("score_") : -2]
            cols = [f"score_{label}_{s}" for s in range(players)]
            if won.any() and not won.all() and all(x in frame.columns for x in cols):
                v = np.concatenate([frame[x].to_numpy(float) for x in cols])
                gaps.append((v[won].mean() - v[~won].mean(), label))
    if gaps:
        gap, label = max(gaps, key=lambda g: abs(g[0]))
        items.append(
            f"Winners differ most from the others in <b>{_e(label.replace('_', ' '))}</b> "
            f"({gap:+.2f} points on average; see <i>Scores of winners and others</i>)."
        )
    if not items:
        return ""
    return (
        "<div class='headline'><h2>Headline</h2><ul>"
        + "".join(f"<li>{i}</li>" for i in items)
        + "</ul></div>"
    )


def _scores(frame: Any, players: int) -> str:
    """Each scoring line's mean among the seats that won and the others."""
    import numpy as np

    labels = [
        c[len("score_") : -2] for c in frame.columns if c.startswith("score_") and c.endswith("_0")
    ]
    if not labels:
        return ""
    wins = np.concatenate([frame[f"win_{s}"].to_numpy(float) for s in range(players)])
    won = wins > 0
    if won.all() or not won.any():
        return ""
    rows = []
    for label in labels:
        cols = [f"score_{label}_{s}" for s in range(players)]
        if not all(c in frame.columns for c in cols):
            continue
        v = np.concatenate([frame[c].to_numpy(float) for c in cols])
        rows.append(
            [
                label.replace("_", " "),
                f"{v[won].mean():.2f}",
                f"{v[~won].mean():.2f}",
                f"{v[won].mean() - v[~won].mean():+.2f}",
                f"{v.mean():.2f}",
            ]
        )
    rows.sort(key=lambda r: -abs(float(r[3])))
    return (
        "<h2>Scores of winners and others</h2><p class='note'>Each line of the scoring "
        "breakdown: its mean among the seats that won (alone or shared) and among the others, "
        "largest difference first; what separates winners from the rest.</p>"
        + _table(["scoring", "winners", "others", "difference", "all seats"], rows)
    )


def per_seat_features(
    frame: Any, players: int, exclude: Sequence[str]
) -> tuple[list[str], list[str]]:
    """The per-seat feature names of a results table: (id lists, numbers)."""
    tokens, numbers = [], []
    for c in frame.columns:
        if not c.endswith("_0"):
            continue
        name = c[:-2]
        if name in exclude or name.startswith(
            ("score_", "snap", "position", "bot", "points", "rank", "win")
        ):
            continue
        if not all(f"{name}_{s}" in frame.columns for s in range(players)):
            continue
        from pandas.api.types import is_numeric_dtype

        if is_numeric_dtype(frame[c]):
            numbers.append(name)
        else:
            tokens.append(name)
    return tokens, numbers


def build(
    meta: dict[str, Any],
    summary: Summary,
    frame: Any,
    comparison: tuple[Comparison, Figure, str] | None = None,
) -> str:
    """The report's HTML."""
    players = int(meta["players"])
    title = f"{meta.get('game_name', meta['game'])}: {summary.games} games"
    files = meta.get("data_files") or {}
    run_rows: list[tuple[str, object]] = [
        ("game", f"{meta['game']} (rules version {meta['rules_version']})"),
        ("players", players),
        ("options", ", ".join(f"{k}={v}" for k, v in meta["options"].items()) or "none"),
        ("bots", ", ".join(meta["bots"]) + (" (seats rotated)" if meta.get("rotate") else "")),
        (
            "games",
            f"{summary.games} of {meta['n']}"
            + ("" if meta.get("complete", True) else " (run not finished)"),
        ),
        ("seed", meta["seed"]),
        ("per-game data", "yes" if meta.get("features", True) else "no (--no-features)"),
        (
            "data files",
            "; ".join(f"{k}: {v['path']} (SHA-256 {v['sha256']})" for k, v in files.items())
            or "built-in",
        ),
    ]
    changed = meta.get("data_values") or {}
    if any(changed.values()):
        run_rows.append(
            (
                "rule values (not the built-in)",
                "; ".join(
                    f"{opt}:{path}={v['value']} (built-in {v['built_in']})"
                    if isinstance(v, dict)
                    else f"{opt}: {v}"
                    for opt, values in changed.items()
                    for path, v in values.items()
                ),
            )
        )
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        "<table class='meta'>"
        + "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in run_rows)
        + "</table>",
        _headline(summary, frame, players),
    ]
    if summary.games < THIN:
        parts.append(
            f"<div class='warn'>Only {summary.games} games: every figure below is uncertain.</div>"
        )
    if comparison is not None:
        _cmp, fig, table = comparison
        parts.append("<h2>Comparison</h2>" + table + figure_png(fig))
    parts.append(_advantage(summary, bool(meta.get("features", True))))
    parts.append(figure_png(_rates_figure(summary)))
    parts.append(_skill(frame, players))
    pacing, pacing_fig = _pacing(frame, players)
    parts.append(pacing)
    if pacing_fig is not None:
        parts.append(figure_png(pacing_fig))
    length, lfig = _length(frame)
    parts.append(length + (figure_png(lfig) if lfig is not None else ""))
    parts.append(_scores(frame, players))
    tokens, numbers = per_seat_features(frame, players, ())
    names = token_names(meta) if tokens else {}
    parts.append(_attribution(frame, players, tokens, numbers, names))
    parts.append(
        "<p class='note'>Made by <code>dragonlair report</code>. Intervals are 95% Wilson "
        "score intervals; tests are Pearson's chi-squared (SciPy), the two-proportion z-test "
        "with Benjamini-Hochberg q-values (statsmodels) and, in comparisons, the paired "
        f"t-test. Click a table's heading to sort it.</p><script>{_JS}</script></body></html>"
    )
    return "\n".join(p for p in parts if p)
