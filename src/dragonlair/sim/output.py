"""Files a run leaves: the results table (CSV, one row per game) and game records.

The results file is written with the standard :mod:`csv` module, one row per finished game
in index order: ``index, seed, game, options`` (as JSON), ``players, length, reason``, then
for each seat ``s``: ``bot_s, points_s, rank_s, win_s`` (the seat's share of the win).
Every row carries the game and options, so files from runs with different rules can be
concatenated and compared. Records go one JSON file per game, ``game-000042.json``, each
replayable with ``dragonlair replay``.

Paths are checked before a run starts (:func:`check_output_file`, :func:`check_records_dir`),
so a typo costs nothing and changes nothing.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from pathlib import Path

from ..core import DragonlairError
from .runner import Outcome, RunResult


class OutputError(DragonlairError):
    """An output path that cannot be written."""


def check_output_file(path: Path) -> None:
    """Raise OutputError unless ``path`` can be created or overwritten as a file."""
    if path.exists() and not path.is_file():
        raise OutputError(f"cannot write the results to {path}: it is not a file")
    parent = path.parent
    if not parent.is_dir():
        raise OutputError(f"cannot write the results to {path}: there is no folder {parent}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OutputError(f"cannot write the results to {path}: permission denied")


def check_records_dir(path: Path) -> None:
    """Raise OutputError unless ``path`` is, or can be made as, a writable folder."""
    if path.exists():
        if not path.is_dir():
            raise OutputError(f"cannot keep records in {path}: it is not a folder")
        if not os.access(path, os.W_OK):
            raise OutputError(f"cannot keep records in {path}: permission denied")
        return
    ancestor = path.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir() or not os.access(ancestor, os.W_OK):
        raise OutputError(f"cannot keep records in {path}: {ancestor} is not a writable folder")


def header(players: int) -> list[str]:
    """The column names of the results file."""
    cols = ["index", "seed", "game", "options", "players", "length", "reason"]
    for s in range(players):
        cols += [f"bot_{s}", f"points_{s}", f"rank_{s}", f"win_{s}"]
    return cols


def rows(result: RunResult) -> Iterable[list[object]]:
    """The results file's rows, one per finished game, in index order."""
    job = result.job
    options = json.dumps(dict(job.options), sort_keys=True, separators=(",", ":"))
    for o in result.outcomes:
        row: list[object] = [o.index, o.seed, job.game, options, job.players, o.length, o.reason]
        for s in range(job.players):
            row += [job.bots[o.lineup[s]].text, o.points[s], o.ranks[s], round(o.share(s), 6)]
        yield row


def write_results(path: Path, result: RunResult) -> None:
    """Write the results file of ``result`` to ``path``."""
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header(result.job.players))
        w.writerows(rows(result))


def record_path(folder: Path, index: int) -> Path:
    """Where the record of game ``index`` is kept."""
    return folder / f"game-{index:06d}.json"


def write_records(folder: Path, outcomes: Iterable[Outcome]) -> int:
    """Write each outcome's record into ``folder``; returns how many were written."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for o in outcomes:
        if o.record is not None:
            record_path(folder, o.index).write_text(o.record + "\n", encoding="utf-8")
            count += 1
    return count
