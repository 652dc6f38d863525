"""Files a run leaves: the results table (one row per game, CSV or Parquet) and records.

**The results table** has one row per finished game, in index order: ``index, seed, game,
options`` (as JSON), ``players, length, reason``, for each seat ``s``: ``bot_s, points_s,
rank_s, win_s`` (the seat's share of the win), then the game's rich data (start player and
positions, length in rounds or turns, the full score breakdown, the game's own features,
score snapshots; see :mod:`.features`).

**Streaming and resuming.** Rows are appended to the file as games finish (memory stays
flat whatever the number of games) and flushed after every batch, so an interrupted run
(Ctrl-C, SIGTERM, a crash, a power cut) leaves every finished game on disk. The same
command with ``--resume`` reads which games are there (a last line cut short by a crash is
dropped) and plays only the missing ones. Rows are written in index order; a resumed run
that filled holes is sorted once at the end.

**Formats.** ``.csv`` is written directly, with the run's metadata beside it in
``<file>.meta.json``. ``.parquet`` is written as CSV to ``<file>.partial.csv`` while the run
goes and converted into one Parquet file (pyarrow, streamed batch by batch) when it is
complete, with the metadata inside the file (the schema's ``dragonlair`` key).

**Metadata.** The game, its rules version, the options, the bots, the number of games,
the seed, whether seats rotate, the SHA-256 of every data file an option names and the
entries where it differs from the game's built-in file (``data_values``: the rule values a
``-o data:PATH=value`` set, by path), the column types, and whether the run is complete.
``--resume`` refuses a file whose run differs from the command's (another seed, option,
bot, or a data file that changed).

Records go one JSON file per game, ``game-000042.json``, each replayable with
``dragonlair replay``. Paths are checked before a run starts (:func:`check_output_file`,
:func:`check_records_dir`), so a typo costs nothing and changes nothing.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core import DragonlairError, game_class
from ..core.record import data_digests
from .runner import Job, Outcome, RunResult

FORMAT = "dragonlair.results/1"
SUFFIXES = (".csv", ".parquet")


class OutputError(DragonlairError):
    """An output path that cannot be written, or a results file that cannot be read."""


def check_output_file(path: Path) -> None:
    """Raise OutputError unless ``path`` can be created or overwritten as a file."""
    if path.exists() and not path.is_file():
        raise OutputError(f"cannot write the results to {path}: it is not a file")
    parent = path.parent
    if not parent.is_dir():
        raise OutputError(f"cannot write the results to {path}: there is no folder {parent}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OutputError(f"cannot write the results to {path}: permission denied")


def check_results_file(path: Path) -> None:
    """Raise OutputError unless ``path`` is a writable results file name (.csv, .parquet)."""
    check_output_file(path)
    if path.suffix.lower() not in SUFFIXES:
        raise OutputError(
            f"cannot write the results to {path}: the file name must end in .csv or .parquet"
        )
    if path.suffix.lower() == ".parquet":
        _pyarrow()


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


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.csv
        import pyarrow.parquet
    except ImportError:
        raise OutputError(
            "Parquet files need pyarrow: install dragonlair with the sim extra "
            "(pip install 'dragonlair[sim]')"
        ) from None
    return pyarrow


# ---------------------------------------------------------------------- rows and metadata


def data_files(game: str, options: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The data file behind every data option of ``game``: option -> {path, sha256}; a
    data option left unset names the game's built-in file (``built-in:NAME``), so a run
    on changed built-in values shows in its digest too."""
    import hashlib

    from .datavalues import BadDataValue, base_file, path_options

    digests = data_digests(game_class(game).spec, options)
    out = {k: {"path": str(options[k]), "sha256": v} for k, v in digests.items()}
    for opt in path_options(game):
        if opt not in out:
            try:
                path = base_file(game, {}, opt)
            except BadDataValue:
                continue  # a game with no single built-in file (one registered at run time)
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            out[opt] = {"path": f"built-in:{path.name}", "sha256": digest}
    return out


# the most changed entries a results file lists per data file (a different deck can
# differ everywhere; its SHA-256 identifies it all the same)
MAX_DATA_VALUES = 200


def data_values(game: str, files: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, Any]]:
    """For every data file of ``files`` (:func:`data_files`) that is not the built-in one,
    the entries where it differs from the game's built-in file, by their path into the
    JSON (``scoring.crystal_set_bonus``, ``crew.12.points``: keys and list positions
    joined by dots, as ``-o data:PATH=value`` names them): option -> path -> {value,
    built_in}. So a run with values set from the command line records the values, not
    only the path of the file in the cache that holds them. A list whose length differs
    is one entry; past MAX_DATA_VALUES entries the rest are counted under ``"..."``."""
    from .datavalues import BadDataValue, base_file, read_base

    out: dict[str, dict[str, Any]] = {}
    for opt, entry in files.items():
        path = entry.get("path", "")
        if path.startswith("built-in:"):
            continue
        try:
            built_in = read_base(base_file(game, {}, opt))
            used = read_base(Path(path))
        except BadDataValue:
            continue  # no built-in file to compare with, or the file is gone
        changes: dict[str, Any] = {}
        _differences(built_in, used, "", changes)
        if len(changes) > MAX_DATA_VALUES:
            kept = dict(list(changes.items())[:MAX_DATA_VALUES])
            kept["..."] = f"{len(changes) - MAX_DATA_VALUES} more entries differ"
            changes = kept
        out[opt] = changes
    return out


def _differences(base: Any, used: Any, at: str, out: dict[str, Any]) -> None:
    if isinstance(base, dict) and isinstance(used, dict):
        for key in sorted(set(base) | set(used), key=str):
            where = f"{at}.{key}" if at else str(key)
            if key not in used:
                out[where] = {"value": None, "built_in": base[key]}
            elif key not in base:
                out[where] = {"value": used[key], "built_in": None}
            else:
                _differences(base[key], used[key], where, out)
    elif isinstance(base, list) and isinstance(used, list) and len(base) == len(used):
        for i, (b, u) in enumerate(zip(base, used, strict=True)):
            _differences(b, u, f"{at}.{i}" if at else str(i), out)
    elif base != used or type(base) is not type(used):
        out[at or "(the whole file)"] = {"value": used, "built_in": base}


def run_metadata(job: Job) -> dict[str, Any]:
    """What a results file says about the run that made it (and resuming compares)."""
    files = data_files(job.game, job.options)
    return {
        "format": FORMAT,
        "game": job.game,
        "rules_version": game_class(job.game).spec.rules_version,
        "players": job.players,
        "options": dict(job.options),
        "bots": [b.text for b in job.bots],
        "n": job.n,
        "seed": job.seed,
        "rotate": job.rotate,
        "data_files": files,
        "data_values": data_values(job.game, files),
        "features": job.data,
    }


def header(players: int) -> list[str]:
    """The column names every results file starts with."""
    cols = ["index", "seed", "game", "options", "players", "length", "reason"]
    for s in range(players):
        cols += [f"bot_{s}", f"points_{s}", f"rank_{s}", f"win_{s}"]
    return cols


def row(job: Job, o: Outcome, options: str | None = None) -> dict[str, Any]:
    """The results file's row of one outcome."""
    if options is None:
        options = json.dumps(dict(job.options), sort_keys=True, separators=(",", ":"))
    r: dict[str, Any] = {
        "index": o.index,
        "seed": o.seed,
        "game": job.game,
        "options": options,
        "players": job.players,
        "length": o.length,
        "reason": o.reason,
    }
    for s in range(job.players):
        r[f"bot_{s}"] = job.bots[o.lineup[s]].text
        r[f"points_{s}"] = o.points[s]
        r[f"rank_{s}"] = o.ranks[s]
        r[f"win_{s}"] = round(o.share(s), 6)
    r.update(o.data)
    return r


def rows(result: RunResult) -> Iterable[list[object]]:
    """The results file's rows (as lists, in the order of the first row's columns)."""
    options = json.dumps(dict(result.job.options), sort_keys=True, separators=(",", ":"))
    for o in result.outcomes:
        yield list(row(result.job, o, options).values())


def _kind(value: object) -> str:
    if isinstance(value, bool | int):
        return "int"
    if isinstance(value, float):
        return "float"
    return "str"


class ResultsFile:
    """The results file of one run, written as games finish (``add`` is the runner's sink).

    ``resume=True`` continues the run on disk: :attr:`done` holds the games already there,
    to be skipped; the file's run must be the same as ``job``'s."""

    def __init__(self, path: Path, job: Job, resume: bool = False) -> None:
        self.path = path
        self.job = job
        self.parquet = path.suffix.lower() == ".parquet"
        self.journal = path.with_name(path.name + ".partial.csv") if self.parquet else path
        self.meta_path = self.journal.with_name(self.journal.name + ".meta.json")
        self.meta = run_metadata(job)
        self.done: set[int] = set()
        self.columns: list[str] = []
        self._types: dict[str, str] = {}
        self._sorted = True
        self._last = -1
        self._buffer: dict[int, dict[str, Any]] = {}
        self._options = json.dumps(dict(job.options), sort_keys=True, separators=(",", ":"))
        if resume:
            self._resume()
        else:
            for stale in (self.journal, self.meta_path):
                stale.unlink(missing_ok=True)
            self._write_meta(complete=False)
        pending = [i for i in range(job.n) if i not in self.done]
        self._pending: Iterator[int] = iter(pending)
        self._next = next(self._pending, None)
        self._file = self.journal.open("a", newline="", encoding="utf-8")
        self._writer = csv.writer(self._file)

    # -- resuming

    def _resume(self) -> None:
        meta = self._read_meta()
        if meta is None:
            raise OutputError(
                f"nothing to resume at {self.path}: no results of an earlier run are there"
            )
        # files written before "features" was recorded always had the features; the data
        # values follow from the data files' digests, which are compared
        missing = {"features": True, "data_values": self.meta.get("data_values")}
        theirs = {k: meta.get(k, missing.get(k)) for k in self.meta}
        if theirs != self.meta:
            diff = [k for k in self.meta if theirs[k] != self.meta[k]]
            detail = "; ".join(f"{k}: {theirs[k]!r} there, {self.meta[k]!r} now" for k in diff)
            raise OutputError(f"cannot resume {self.path}: it holds another run ({detail})")
        self.columns = list(meta.get("columns", []))
        self._types = dict(meta.get("types", {}))
        if self.parquet and not self.journal.exists() and self.path.exists():
            table = _pyarrow().parquet.read_table(self.path, columns=["index"])
            indices = [int(i) for i in table.column("index").to_pylist()]
            self.done = set(indices)
            self._sorted = indices == sorted(indices)
            self._last = max(indices, default=-1)
            # continue in a journal holding the Parquet file's rows
            _pyarrow().csv.write_csv(_pyarrow().parquet.read_table(self.path), self.journal)
            return
        if not self.journal.exists():
            return
        self._drop_cut_line()
        with self.journal.open(newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            head = next(reader, None)
            if head is None:
                return
            self.columns = head
            at = head.index("index")
            for r in reader:
                i = int(r[at])
                if i <= self._last:
                    self._sorted = False
                self._last = max(self._last, i)
                self.done.add(i)

    def _drop_cut_line(self) -> None:
        """Cut off a last line that a crash left unfinished."""
        with self.journal.open("rb+") as f:
            f.seek(0, io.SEEK_END)
            size = f.tell()
            if size == 0:
                return
            f.seek(size - 1)
            if f.read(1) == b"\n":
                return
            f.seek(0)
            data = f.read()
            f.truncate(data.rfind(b"\n") + 1)

    def _read_meta(self) -> dict[str, Any] | None:
        if self.meta_path.exists():
            loaded: dict[str, Any] = json.loads(self.meta_path.read_text(encoding="utf-8"))
            return loaded
        if self.parquet and self.path.exists():
            return read_metadata(self.path)
        return None

    def _write_meta(self, complete: bool, games: int | None = None) -> None:
        meta = dict(self.meta, columns=self.columns, types=self._types, complete=complete)
        if games is not None:
            meta["games"] = games
        tmp = self.meta_path.with_name(self.meta_path.name + ".tmp")
        tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        tmp.replace(self.meta_path)

    # -- writing

    def add(self, batch: Sequence[Outcome]) -> None:
        """Take finished games; write those whose turn it is, in index order."""
        for o in batch:
            self._buffer[o.index] = row(self.job, o, self._options)
        while self._next is not None and self._next in self._buffer:
            self._write(self._buffer.pop(self._next))
            self._next = next(self._pending, None)
        self._file.flush()

    def _write(self, r: dict[str, Any]) -> None:
        if not self.columns:
            self.columns = list(r)
            self._types = {k: _kind(v) for k, v in r.items()}
            self._writer.writerow(self.columns)
            self._write_meta(complete=False)
        elif list(r) != self.columns:
            extra = sorted(set(r) ^ set(self.columns))
            raise OutputError(f"game {r['index']} has other columns than the results file: {extra}")
        i = int(r["index"])
        if i <= self._last:
            self._sorted = False
        self._last = max(self._last, i)
        self.done.add(i)
        self._writer.writerow(r.values())

    @property
    def readable(self) -> Path:
        """The file that holds the rows now (the journal until a Parquet file is made)."""
        return self.path if self.parquet and not self.journal.exists() else self.journal

    def close(self) -> None:
        """Write what is left (after an interruption: out of turn) and, if every game is
        there, finish the file: sorted, converted to Parquet if asked, marked complete."""
        for i in sorted(self._buffer):
            self._write(self._buffer.pop(i))
        self._file.close()
        complete = len(self.done) >= self.job.n
        if not complete:
            self._write_meta(complete=False, games=len(self.done))
            return
        if self.parquet:
            self._to_parquet()
            self.journal.unlink(missing_ok=True)
            self.meta_path.unlink(missing_ok=True)
            return
        if not self._sorted:
            self._sort_csv()
        self._write_meta(complete=True, games=len(self.done))

    def _convert_options(self) -> Any:
        pa = _pyarrow()
        import pyarrow.csv as pacsv

        kinds = {"int": pa.int64(), "float": pa.float64(), "str": pa.string()}
        types = {c: kinds[self._types.get(c, "str")] for c in self.columns}
        return pacsv.ConvertOptions(
            column_types=types, strings_can_be_null=False, quoted_strings_can_be_null=False
        )

    def _to_parquet(self) -> None:
        pa = _pyarrow()
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        meta = dict(self.meta, columns=self.columns, types=self._types, complete=True)
        meta["games"] = len(self.done)
        convert = self._convert_options()
        tmp = self.path.with_name(self.path.name + ".tmp")
        if self._sorted:
            reader = pacsv.open_csv(self.journal, convert_options=convert)
            schema = reader.schema.with_metadata({"dragonlair": json.dumps(meta)})
            with pq.ParquetWriter(tmp, schema) as w:
                for batch in reader:
                    w.write_table(pa.Table.from_batches([batch], schema=reader.schema))
        else:
            table = pacsv.read_csv(self.journal, convert_options=convert).sort_by("index")
            table = table.replace_schema_metadata({"dragonlair": json.dumps(meta)})
            pq.write_table(table, tmp)
        tmp.replace(self.path)

    def _sort_csv(self) -> None:
        with self.journal.open(newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            head = next(reader)
            at = head.index("index")
            body = sorted(reader, key=lambda r: int(r[at]))
        tmp = self.journal.with_name(self.journal.name + ".tmp")
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(body)
        tmp.replace(self.journal)


def read_metadata(path: Path) -> dict[str, Any]:
    """The metadata of a results file (Parquet: inside it; CSV: ``<file>.meta.json``)."""
    if path.suffix.lower() == ".parquet":
        pq = _pyarrow().parquet
        try:
            schema = pq.read_schema(path)
        except Exception as e:
            raise OutputError(f"cannot read {path} as Parquet: {e}") from None
        raw = (schema.metadata or {}).get(b"dragonlair")
        if raw is None:
            raise OutputError(f"{path} is not a dragonlair results file (no metadata)")
        loaded: dict[str, Any] = json.loads(raw)
        return loaded
    meta = path.with_name(path.name + ".meta.json")
    if not meta.exists():
        raise OutputError(f"{path} has no metadata beside it ({meta.name} is missing)")
    loaded = json.loads(meta.read_text(encoding="utf-8"))
    return loaded


def results_source(path: Path) -> Path:
    """The file holding a run's rows: ``path``, or the journal of an unfinished Parquet run."""
    if path.suffix.lower() == ".parquet" and not path.exists():
        journal = path.with_name(path.name + ".partial.csv")
        if journal.exists():
            return journal
    if not path.is_file():
        raise OutputError(f"there is no results file {path}")
    return path


def read_columns(path: Path) -> list[str]:
    """The column names of a results file."""
    import pyarrow.parquet as pq

    source = results_source(path)
    if source.suffix.lower() == ".parquet":
        return list(pq.read_schema(source).names)
    with source.open(newline="", encoding="utf-8") as f:
        return next(csv.reader(f), [])


def _csv_types(path: Path) -> dict[str, Any]:
    """The Arrow type of each column of a CSV results file, from its metadata (an empty
    text column would otherwise be read as nulls)."""
    pa = _pyarrow()
    meta = path.with_name(path.name + ".meta.json")
    if not meta.exists():
        return {}
    types = json.loads(meta.read_text(encoding="utf-8")).get("types", {})
    kinds = {"int": pa.int64(), "float": pa.float64(), "str": pa.string()}
    return {c: kinds[k] for c, k in types.items() if k in kinds}


def iter_batches(path: Path, columns: Sequence[str]) -> Iterator[dict[str, list[Any]]]:
    """The ``columns`` of a results file (CSV or Parquet), a batch of rows at a time, as
    lists by column name; memory stays flat however long the file is."""
    pa = _pyarrow()
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    path = results_source(path)
    try:
        if path.suffix.lower() == ".parquet":
            for batch in pq.ParquetFile(path).iter_batches(columns=list(columns)):
                yield batch.to_pydict()
        else:
            convert = pacsv.ConvertOptions(
                include_columns=list(columns),
                column_types=_csv_types(path),
                strings_can_be_null=False,
            )
            for batch in pacsv.open_csv(path, convert_options=convert):
                yield pa.Table.from_batches([batch]).to_pydict()
    except (pa.ArrowInvalid, KeyError, OSError) as e:
        raise OutputError(f"cannot read {path} as a results file: {e}") from None


def read_frame(path: Path, columns: Sequence[str] | None = None) -> Any:
    """A results file (CSV or Parquet) as a pandas DataFrame sorted by ``index``."""
    pa = _pyarrow()
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    path = results_source(path)
    cols = None if columns is None else list(columns)
    try:
        if path.suffix.lower() == ".parquet":
            table = pq.read_table(path, columns=cols)
        else:
            table = pacsv.read_csv(
                path,
                convert_options=pacsv.ConvertOptions(
                    include_columns=cols or [],
                    column_types=_csv_types(path),
                    strings_can_be_null=False,
                ),
            )
    except (pa.ArrowInvalid, KeyError, OSError) as e:
        raise OutputError(f"cannot read {path} as a results file: {e}") from None
    frame = table.to_pandas()
    if "index" in frame.columns:
        frame = frame.sort_values("index").reset_index(drop=True)
    return frame


def write_results(path: Path, result: RunResult) -> None:
    """Write the results file of a finished ``result`` to ``path`` in one go."""
    f = ResultsFile(path, result.job)
    f.add(result.outcomes)
    f.close()


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
