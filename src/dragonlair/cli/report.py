"""``dragonlair report``: one self-contained HTML page explaining a run, or a comparison
of two runs (``--against``), for designers (see :mod:`dragonlair.sim.report`)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from ..core import DragonlairError, spec

if TYPE_CHECKING:
    from ..sim.compare import Comparison


def comparison_table(cmp: Comparison) -> str:
    """The paired differences as an HTML table, with the games altered and warnings."""
    rows = []
    for d in cmp.differences:
        pct = d.measure.startswith(("win share", "ties"))

        def f(x: float, signed: bool = False, pct: bool = pct) -> str:
            if pct:
                return f"{100 * x:+.1f} pt" if signed else f"{x:.1%}"
            return f"{x:+.2f}" if signed else f"{x:.2f}"

        mark = " <b>*</b>" if d.significant else ""
        rows.append(
            f"<tr><td>{html.escape(d.measure)}</td><td>{f(d.a)}</td><td>{f(d.b)}</td>"
            f"<td>{f(d.diff, True)}{mark}</td><td>{f(d.low, True)} to {f(d.high, True)}</td>"
            f"<td>{d.p:.2g}</td></tr>"
        )
    warn = "".join(f"<div class='warn'>{html.escape(w)}</div>" for w in cmp.warnings)
    return (
        f"<p>A: {html.escape(cmp.a_label)}; B: {html.escape(cmp.b_label)}; {cmp.games} games "
        f"paired by index: {html.escape(cmp.changes())}. "
        "Differences are B − A with 95% intervals from the paired t-test; * p &lt; 0.05.</p>"
        + warn
        + "<table><tr><th>measure</th><th>A</th><th>B</th><th>B − A</th><th>95% CI</th>"
        "<th>p</th></tr>" + "".join(rows) + "</table>"
    )


def report(
    results: Annotated[Path, typer.Argument(help="A results file (.csv or .parquet).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The HTML file to write.")] = Path(
        "report.html"
    ),
    against: Annotated[
        Path | None,
        typer.Option(help="A second results file: the report then leads with the comparison."),
    ] = None,
) -> None:
    """Write one self-contained HTML report of a run: seat and turn-order advantage, skill
    matrix, pacing, length and component attribution (with --against: a comparison)."""
    from ..sim.compare import compare_frames
    from ..sim.output import check_output_file, read_frame, read_metadata, results_source
    from ..sim.plot import draw_comparison
    from ..sim.report import build
    from ..sim.stats import Tally, tally_rows
    from .compare import settings

    try:
        check_output_file(out)
        source = results_source(results)
        meta = read_metadata(source)
        players = int(meta["players"])
        other_meta: dict[str, Any] = {}
        if against is not None:  # checked before either file's rows are read
            other_meta = read_metadata(results_source(against))
            if (other_meta["game"], other_meta["players"]) != (meta["game"], players):
                raise DragonlairError(
                    f"{against} is another game or player count than {results}: they do not compare"
                )
        try:
            meta["game_name"] = spec(meta["game"]).name
        except DragonlairError:
            meta["game_name"] = meta["game"]
        tally = Tally(meta["game"], players, dict(meta["options"]), list(meta["bots"]))
        tally_rows(tally, source, players)
        summary = tally.summary(int(meta["n"]), False, 0.0, bool(meta.get("rotate")))
        frame = read_frame(source)
        comparison = None
        if against is not None:
            other = read_frame(against)
            cmp = compare_frames(
                frame,
                other,
                players,
                meta["game"],
                f"{results} ({settings(meta)})",
                f"{against} ({settings(other_meta)})",
            )
            fig = draw_comparison(cmp, frame, other, f"{results} vs {against}")
            comparison = (cmp, fig, comparison_table(cmp))
        page = build(meta, summary, frame, comparison)
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    out.write_text(page, encoding="utf-8")
    Console().print(f"report: {out} ({len(page) // 1024} KiB, {summary.games} games)")


def register(app: typer.Typer) -> None:
    app.command()(report)
