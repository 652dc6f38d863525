"""Option sweeps: ``dragonlair simulate GAME -o damage=-1,-2,-3 -o shield=1,2`` plays
every combination of the listed values (a grid) as one job, each setting on the same
seeds, and prints one comparison table: per setting, the win share by position (or seat),
the winning margin and the length, and against the first setting the paired differences
(see :mod:`dragonlair.sim.compare`) with their p-values and the share of games altered.
A data file is an option too: ``-o data=a.json,b.json``; and so is a number in the data
file, named by its path (:mod:`dragonlair.sim.datavalues`): ``-o data:start_gems=30,40,50``
writes a data file per value (beside ``--out``'s files, or in a temporary folder) and
plays each setting with its own, its SHA-256 in the table's JSON."""

from __future__ import annotations

import itertools
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..core import DragonlairError, make
from ..core.record import file_digest
from ..sim import datavalues
from ..sim.compare import Comparison, compare_frames
from ..sim.output import read_frame
from .options import parse_options
from .running import execute, prepare


def grid(option: list[str] | None) -> list[list[str]] | None:
    """The settings of a sweep (each a list of ``key=value``), or None if no option lists
    several values."""
    axes: list[list[str]] = []
    swept = False
    for item in option or []:
        key, sep, value = _assignment(item)
        values = [v.strip() for v in value.split(",")] if sep else [value]
        if sep and len(values) > 1:
            if any(not v for v in values):
                raise typer.BadParameter(f"a sweep lists values as key=a,b,c, not {item!r}")
            swept = True
        axes.append([f"{key.strip()}={v}" for v in values] if sep else [item])
    if not swept:
        return None
    return [list(combo) for combo in itertools.product(*axes)]


def _assignment(item: str) -> tuple[str, str, str]:
    """``key=value`` split at its first ``=`` outside brackets (a data path's selector,
    ``data:crew[number=13].points=1,2``, has one inside)."""
    depth = 0
    for i, ch in enumerate(item):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif ch == "=" and depth == 0:
            return item[:i], "=", item[i + 1 :]
    return item, "", ""


def _short(name: str) -> str:
    """``position 0 (start player)`` -> ``start``, ``position 2 (...)`` -> ``start+2``."""
    if name.startswith("position "):
        p = int(name.split()[1])
        return "start" if p == 0 else f"start+{p}"
    return name


def _point_path(out: Path, setting: list[str]) -> Path:
    tag = "_".join(re.sub(r"[^A-Za-z0-9._-]+", "-", s.replace("=", "-")) for s in setting)
    return out.with_name(f"{out.stem}.{tag}{out.suffix}")


def with_data_files(
    game: str, players: int | None, setting: list[str], folder: Path, stem: str
) -> tuple[list[str], dict[str, str]]:
    """``setting`` with its data values (``data:PATH=value``) written into a data file per
    data option, in ``folder`` as ``<stem>.<option>.json``, and named by the option instead;
    with each file's SHA-256 (option -> digest). Bad values raise BadParameter."""
    try:
        game_id = make(game, players=players).spec.id
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    plain = [item for item in setting if not datavalues.is_data_param(game_id, item)]
    values = [item for item in setting if datavalues.is_data_param(game_id, item)]
    if not values:
        return setting, {}
    chosen: dict[str, dict[datavalues.DataValue, float]] = {}
    bases: dict[str, Any] = {}
    try:
        options = parse_options(plain)
        for item in values:
            opt = item.partition(":")[0].strip()
            if opt not in bases:
                bases[opt] = datavalues.read_base(datavalues.base_file(game_id, options, opt))
            dv, v = datavalues.parse_data_setting(item, bases)
            chosen.setdefault(opt, {})[dv] = v
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    out = [item for item in plain if item.partition("=")[0].strip() not in chosen]
    digests = {}
    for opt, picked in chosen.items():
        path = folder / f"{stem}.{opt}.json"
        datavalues.write_data(path, datavalues.replaced(bases[opt], picked))
        digests[opt] = file_digest(str(path))
        out.append(f"{opt}={path}")
    try:
        make(game_id, players=players, options=parse_options(out))
    except DragonlairError as e:
        raise typer.BadParameter(f"{', '.join(setting)} is not accepted: {e}") from None
    return out, digests


def sweep(
    game: str,
    players: int | None,
    bots: str,
    n: int,
    seed: int,
    workers: int,
    settings: list[list[str]],
    out: Path | None,
    as_json: bool,
    quiet: bool,
    features: bool = True,
) -> None:
    """Play every setting on the same seeds and print the comparison table."""
    rows: list[dict[str, Any]] = []
    frames = []
    with tempfile.TemporaryDirectory(prefix="dragonlair-sweep-") as tmp:
        jobs = []
        digests: list[dict[str, str]] = []
        for k, setting in enumerate(settings):
            path = _point_path(out, setting) if out is not None else None
            folder = path.parent if path is not None else Path(tmp)
            stem = path.stem if path is not None else f"setting-{k}"
            items, files = with_data_files(game, players, setting, folder, stem)
            job = prepare(game, players, bots, n, seed, items, path, None, False, features=features)
            jobs.append((setting, path, job))
            digests.append(files)
        for k, (setting, path, job) in enumerate(jobs):
            target = path if path is not None else Path(tmp) / f"{k}.csv"
            played = execute(
                job, workers, not (quiet or as_json), escape(", ".join(setting)), target
            )
            if played.source is None:  # pragma: no cover - execute always writes target
                raise typer.Exit(1)
            frames.append(read_frame(played.source))
            if played.result.interrupted:
                Console(stderr=True).print("interrupted: the sweep stops here")
                raise typer.Exit(130)
    n_seats = jobs[0][2].players
    for k, ((setting, path, _job), frame) in enumerate(zip(jobs, frames, strict=True)):
        cmp = compare_frames(
            frames[0], frame, n_seats, game, ", ".join(settings[0]), ", ".join(setting)
        )
        rows.append(_row(setting, path, cmp, digests[k], first=k == 0))
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    _print_sweep(
        f"{game}: {len(settings)} settings, {n} games each on the same seeds (seed {seed})", rows
    )


def _row(
    setting: list[str], path: Path | None, cmp: Comparison, digests: dict[str, str], first: bool
) -> dict[str, Any]:
    """A setting's row of the sweep: its win shares, margin and length, its data files, and
    (but for the first) how it differs from the first setting."""
    diffs = {d.measure: d for d in cmp.differences}
    share = [d for d in cmp.differences if d.group == "position"] or [
        d for d in cmp.differences if d.measure.startswith("win share, seat")
    ]
    margin = diffs.get("winning margin")
    row: dict[str, Any] = {
        "setting": setting,
        "file": str(path) if path else None,
        "games": cmp.games,
        "win_share": {d.measure.removeprefix("win share, "): d.b for d in share},
        "margin": margin.b if margin else None,
        "length": diffs["length (decisions)"].b,
    }
    if digests:
        row["data_files"] = digests
    if not first:
        row["vs_first"] = {
            "altered_share": cmp.altered_share,
            "rescored_share": cmp.rescored_share,
            "winner_changed_share": cmp.winner_changed_share,
            "margin_diff": margin.diff if margin else None,
            "margin_p": margin.p if margin else None,
            "first_share_diff": share[0].diff,
            "first_share_p": share[0].p,
            "warnings": cmp.warnings,
        }
    return row


def _print_sweep(title: str, rows: list[dict[str, Any]]) -> None:
    """The sweep's table, one row per setting, and the comparisons' warnings."""
    console = Console() if Console().is_terminal else Console(width=160)
    first = next(iter(rows[0]["win_share"]))
    table = Table(
        title=title,
        title_justify="left",
    )
    # the settings whole (other columns' headings wrap first): they say what each row is
    widest = max(len(", ".join(row["setting"])) for row in rows)
    table.add_column("setting", overflow="fold", min_width=min(widest, 80))
    for name in rows[0]["win_share"]:
        table.add_column(_short(name) + " wins", justify="right")
    changed = "altered / rescored / new winner"
    for col in ("margin", "length", f"Δ {_short(first)} (p)", "Δ margin (p)", changed):
        table.add_column(col, justify="right")
    for row in rows:
        vs = row.get("vs_first")
        table.add_row(
            Text(", ".join(row["setting"])),
            *(f"{v:.1%}" for v in row["win_share"].values()),
            f"{row['margin']:.2f}" if row["margin"] is not None else "",
            f"{row['length']:.1f}",
            f"{100 * vs['first_share_diff']:+.1f} pt ({vs['first_share_p']:.2g})"
            if vs
            else "baseline",
            f"{vs['margin_diff']:+.2f} ({vs['margin_p']:.2g})"
            if vs and vs["margin_diff"] is not None
            else "",
            " / ".join(
                f"{vs[k]:.0%}" for k in ("altered_share", "rescored_share", "winner_changed_share")
            )
            if vs
            else "",
        )
    console.print(table)
    console.print(
        "Δ: paired difference against the first setting (paired t-test p-value); altered: "
        "games that went differently; rescored: the same games scored differently; new "
        "winner: games whose winning seats differ"
    )
    for row in rows[1:]:
        for w in row["vs_first"]["warnings"]:
            Console(stderr=True).print(
                Text.assemble(("warning", "yellow"), f" ({', '.join(row['setting'])}): {w}")
            )
