"""``dragonlair tune``: search numeric game options and values in the game's data file
toward targets the designer states, with Optuna.

``--param damage=-6..2`` declares a numeric option and the range to search (integers for
an integer option; a bare ``--param damage`` searches the option's whole declared range).
``--param data:crew[number=13].points=-2..5`` declares a number in the data file (the
data option's file, or the built-in one) by its path (see :mod:`dragonlair.sim.datavalues`);
each trial writes its own data file, checked by the game like any other, and records
its SHA-256.
The targets, all to be made as small as possible together (the objective is their sum,
each times its weight, ``@W`` after a target: ``fair=2@3``; 1 without):

- ``fair``: the largest distance, in percentage points, of any position's win share (by
  place after the start player; by seat where the game has none) from the fair share 1/N;
  ``fair=2`` also says the goal is met within 2 points;
- ``styles``: the largest distance, in percentage points, of any bot's win share per seat
  from the fair share (balance between the bot styles ``--bots`` lists); with it, every
  trial rotates the seats as a tournament does, so that a bot's share is not its seat's;
- ``margin=X``: the distance of the mean winning margin from X points;
- ``length=X``: the distance of the mean length, in decisions, from X;
- ``expr=EXPRESSION``: a Python expression of the designer's own over the trial's results
  table ``df`` (a pandas DataFrame with the columns of a results file; ``np`` is NumPy),
  whose value is made small: ``expr=abs(df.crystals_0.mean() - 2)``. It runs in this
  process with the user's own rights, as a notebook cell would; its syntax, its names,
  the columns it reads and what it asks of NumPy are checked before any game.

Every trial plays the same ``-n`` games from the same ``--seed`` (common random numbers:
settings differ by their effect, not by their luck) with Optuna's TPE sampler seeded by
``--seed``, so a search is reproducible. The report gives the best setting with its
measured figures and every trial, best first.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core import DragonlairError, spec
from .simargs import (
    BOTS_HELP,
    JsonOpt,
    OptionOpt,
    PlayersOpt,
    QuietOpt,
    SeedOpt,
    WorkersOpt,
)

if TYPE_CHECKING:
    from ..sim import Job
    from ..sim.datavalues import DataValue


@dataclass(frozen=True)
class Param:
    name: str
    low: float
    high: float
    integer: bool


@dataclass(frozen=True)
class Target:
    kind: str  # fair, styles, margin, length, expr
    value: float | None  # fair: tolerance in points; margin/length: the goal
    weight: float = 1.0
    expression: str = ""  # expr: the Python expression over ``df``


def parse_param(game: str, text: str) -> Param:
    """``name=lo..hi`` or ``name`` (the declared range) of a numeric option of ``game``."""
    from ..sim import datavalues

    name, sep, rng = text.partition("=")
    try:
        opt = spec(game).option(name.strip())
    except (KeyError, DragonlairError):
        opt = None
    if opt is None or opt.kind not in ("int", "float"):
        numeric = [o.name for o in spec(game).options if o.kind in ("int", "float")]
        files = "".join(
            f"; or a value in a data file: {o}:PATH=lo..hi" for o in datavalues.path_options(game)
        )
        raise typer.BadParameter(
            f"--param {text!r}: {name!r} is not a numeric option of {game}; its numeric options "
            f"are: {', '.join(numeric) or 'none'}{files}"
        )
    integer = opt.kind == "int"
    if sep:
        lo_text, dots, hi_text = rng.partition("..")
        try:
            low, high = float(lo_text), float(hi_text)
        except ValueError:
            raise typer.BadParameter(
                f"--param {text!r}: a range is lo..hi, e.g. {name}=-6..2"
            ) from None
        if not dots or low >= high:
            raise typer.BadParameter(f"--param {text!r}: a range is lo..hi with lo < hi")
    else:
        if opt.min is None or opt.max is None:
            raise typer.BadParameter(
                f"--param {name}: the option has no declared range; give lo..hi"
            )
        low, high = float(opt.min), float(opt.max)
    for v in (low, high):
        try:
            opt.validate(int(v) if integer else v)
        except DragonlairError as e:
            raise typer.BadParameter(f"--param {text!r}: {e}") from None
    return Param(opt.name, low, high, integer)


def parse_target(text: str) -> Target:
    """``KIND[=value][@weight]`` (see the module's docstring)."""
    body, at, tail = text.rpartition("@")
    weight = 1.0
    if at:
        try:
            weight = float(tail)
        except ValueError:
            body = text  # an @ inside an expression, not a weight
        else:
            if not math.isfinite(weight) or weight <= 0:
                raise typer.BadParameter(f"--target {text!r}: a weight is a number above 0")
    else:
        body = text
    kind, sep, value = body.partition("=")
    kind = kind.strip()
    if kind not in ("fair", "styles", "margin", "length", "expr"):
        raise typer.BadParameter(
            f"--target {text!r}: targets are fair[=points], styles, margin=X, length=X or "
            "expr=EXPRESSION, each with an optional weight @W"
        )
    if kind == "expr":
        if not value.strip():
            raise typer.BadParameter("--target expr needs an expression: expr=EXPRESSION")
        try:
            compile(value, "--target expr", "eval")
        except SyntaxError as e:
            raise typer.BadParameter(
                f"--target {text!r}: not a Python expression: {e.msg}"
            ) from None
        return Target(kind, None, weight, value.strip())
    if kind == "styles" and sep:
        raise typer.BadParameter("--target styles takes no value (a weight: styles@2)")
    if kind in ("margin", "length") and not sep:
        raise typer.BadParameter(f"--target {kind} needs a goal: {kind}=X")
    try:
        return Target(kind, float(value) if sep else None, weight)
    except ValueError:
        raise typer.BadParameter(f"--target {text!r}: {value!r} is not a number") from None


def measure(played: Any, players: int, targets: Sequence[Target] = ()) -> dict[str, Any]:
    """The figures the targets read, from a finished run (with each ``expr`` target's
    value, in order, as ``expr``)."""
    import numpy as np

    from ..sim.plot import frame_of

    summary = played.summary
    lines = summary.positions or summary.seats
    shares = [line.win.value for line in lines]
    frame = frame_of(played.result)
    pts = np.sort(frame[[f"points_{s}" for s in range(players)]].to_numpy(float), axis=1)
    styles = [line.win.value for line in summary.bots]
    out = {
        "shares": {line.label.split(":")[0]: v for line, v in zip(lines, shares, strict=True)},
        "fair_distance": 100 * max(abs(v - 1 / players) for v in shares),
        "styles_distance": 100 * max(abs(v - 1 / players) for v in styles) if styles else 0.0,
        "bot_shares": {line.label: line.win.value for line in summary.bots},
        "margin": float((pts[:, -1] - pts[:, -2]).mean()) if players > 1 else 0.0,
        "length": summary.length_mean,
    }
    exprs = [t for t in targets if t.kind == "expr"]
    if exprs:
        out["expr"] = [evaluate(t.expression, frame) for t in exprs]
    return out


def evaluate(expression: str, frame: Any) -> float:
    """The value of a designer's ``expr`` target over the results table ``frame``."""
    import numpy as np

    try:
        value = eval(expression, {"np": np, "df": frame})  # the user's own code, as in a notebook
        number = float(value)
    except Exception as e:  # any error of the user's expression is reported as theirs
        raise typer.BadParameter(
            f"--target expr={expression}: {type(e).__name__}: {e} (the results table is df; "
            "its columns are those of a results file)"
        ) from None
    if not math.isfinite(number):
        raise typer.BadParameter(f"--target expr={expression} gave {number}, not a finite number")
    return number


def table_columns(job: Job) -> tuple[set[str], tuple[str, ...]]:
    """The columns a trial's results table has, known before any game: those of every
    results file and the game's declared per-game data; and the prefixes of those only a
    played game names (the score breakdown's labels, ``score_<label>_s``)."""
    from ..sim.features import SNAPSHOTS, hooks
    from ..sim.output import header

    n = job.players
    columns = set(header(n))
    if not job.data:
        return columns, ()
    module, _ = hooks(job.make_game())
    columns |= {"start_seat", "lead_changes", *(f"leader{p}" for p in SNAPSHOTS)}
    for s in range(n):
        columns |= {f"position_{s}", *(f"snap{p}_{s}" for p in SNAPSHOTS)}
        if module is not None:
            columns |= {f"{name}_{s}" for name in module.SEAT}
    if module is not None:
        columns |= {f"len_{unit}" for unit in module.LENGTH}
        if hasattr(module, "stage"):
            columns |= {f"stage{p}" for p in SNAPSHOTS}
    return columns, ("score_",)


def _frame_has(name: str) -> bool:
    """Whether a pandas DataFrame has the attribute ``name`` (pandas imported only when
    an expression reads something of ``df`` that is not a column)."""
    import pandas as pd

    return hasattr(pd.DataFrame, name)


def _numpy_has(name: str) -> bool:
    import numpy as np

    return hasattr(np, name)


def check_expression(expression: str, columns: set[str], prefixes: tuple[str, ...]) -> None:
    """Refuse, before any game, an ``expr`` target that names what a trial's results table
    ``df`` cannot have: an unknown name, a column that is not there (``df.x`` or
    ``df["x"]``), or something NumPy (``np``) lacks. What only running it can tell (a
    division by zero, a value that is not a number) is reported after the first trial."""
    import ast
    import builtins

    tree = ast.parse(expression.strip(), mode="eval")
    bound = {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    bound |= {
        x.id for x in ast.walk(tree) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store)
    }

    def column(name: str) -> bool:
        return name in columns or name.startswith(prefixes)

    def refuse(why: str) -> typer.BadParameter:
        return typer.BadParameter(f"--target expr={expression}: {why}")

    some = ", ".join(sorted(columns)[:12])
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id not in ("df", "np", *bound) and not hasattr(builtins, node.id):
                raise refuse(f"name {node.id!r} is not defined (the results table is df, NumPy np)")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = node.value.id
            if owner in bound:
                continue
            if owner == "df" and not (column(node.attr) or _frame_has(node.attr)):
                raise refuse(
                    f"the results table has no column {node.attr!r} (its columns: {some}, ...)"
                )
            if owner == "np" and not _numpy_has(node.attr):
                raise refuse(f"NumPy (np) has no {node.attr!r}")
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == "df"
            and "df" not in bound
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
            and not column(node.slice.value)
        ):
            raise refuse(
                f"the results table has no column {node.slice.value!r} (its columns: {some}, ...)"
            )


def objective(figures: dict[str, Any], targets: list[Target]) -> float:
    """The weighted sum of every target's distance."""
    total = 0.0
    exprs = iter(figures.get("expr", []))
    for t in targets:
        if t.kind == "fair":
            d = figures["fair_distance"]
        elif t.kind == "styles":
            d = figures["styles_distance"]
        elif t.kind == "margin":
            d = abs(figures["margin"] - (t.value or 0.0))
        elif t.kind == "length":
            d = abs(figures["length"] - (t.value or 0.0))
        else:
            d = next(exprs)
        total += t.weight * d
    return total


def met(figures: dict[str, Any], targets: list[Target]) -> bool | None:
    """Whether the stated tolerance of ``fair=X`` is met (None without one)."""
    for t in targets:
        if t.kind == "fair" and t.value is not None:
            return bool(figures["fair_distance"] <= t.value)
    return None


def tune(
    game: Annotated[str, typer.Argument(help="Game id (see `dragonlair games`).")],
    param: Annotated[
        list[str],
        typer.Option(
            "--param",
            help="A numeric option to search, name=lo..hi or name; or a number in the data "
            "file, data:PATH=lo..hi (PATH as start_gems, stripes.3, crew[number=13].points).",
        ),
    ],
    target: Annotated[
        list[str],
        typer.Option("--target", help="fair[=points], margin=X or length=X (repeatable)."),
    ],
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP)] = "heuristic",
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Games per trial.")] = 500,
    trials: Annotated[int, typer.Option(min=1, help="Settings to try.")] = 20,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    option: OptionOpt = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            help="Keep every trial's data file in this folder (default: a temporary one, "
            "removed at the end; each file's SHA-256 is reported either way).",
        ),
    ] = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Search numeric options and data-file values toward stated targets (fair turn order,
    a margin, a length) with Optuna; report the best setting with its measured figures."""
    from ..sim import datavalues
    from ..sim.datavalues import BadDataValue
    from .running import prepare

    targets = [parse_target(t) for t in target]  # a bad argument costs nothing
    if data_dir is not None and not data_dir.is_dir():
        raise typer.BadParameter(f"--data-dir {data_dir}: there is no such folder")
    # balance between styles is measured with the seats rotated (as a tournament does), so
    # that a bot's share is not its seat's or its place in turn order
    rotate = any(t.kind == "styles" for t in targets)
    base = prepare(game, players, bots, n, seed, option, None, None, rotate=rotate)
    _check_expressions(base, targets)
    params = [parse_param(base.game, p) for p in param if not datavalues.is_data_param(game, p)]
    data_texts = [p for p in param if datavalues.is_data_param(game, p)]
    scratch = tempfile.TemporaryDirectory(prefix="dragonlair-tune-")
    folder = data_dir if data_dir is not None else Path(scratch.name)
    try:
        bases, values_of = _data_values(base, players, data_texts, folder)
        names = _searched(params, values_of, option)
    except (BadDataValue, DragonlairError) as e:
        scratch.cleanup()
        raise typer.BadParameter(str(e)) from None
    except typer.BadParameter:
        scratch.cleanup()  # a name searched twice, or also fixed with -o
        raise
    try:
        import optuna
    except ImportError:
        raise typer.BadParameter("tune needs optuna: pip install 'dragonlair[sim]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
    search = _Search(
        game=game,
        players=players,
        bots=bots,
        n=n,
        seed=seed,
        option=option,
        workers=workers,
        rotate=rotate,
        params=params,
        values_of=values_of,
        bases=bases,
        folder=folder,
        data_dir=data_dir,
        targets=targets,
        trials=trials,
        quiet=quiet or as_json,
        err=Console(stderr=True),
    )
    history = search.history
    err = search.err
    try:
        study.optimize(search.run, n_trials=trials, catch=())
    except KeyboardInterrupt:
        err.print(f"interrupted after {len(history)} trials: the best so far follows")
    finally:
        scratch.cleanup()
    if not history:
        raise typer.Exit(130)
    ranked = sorted(history, key=lambda h: h["objective"])
    best = ranked[0]
    if as_json:
        print(json.dumps({"best": best, "met": met(best, targets), "trials": ranked}, indent=2))
        return
    _print_trials(
        f"{base.game}: {len(history)} trials of {n} games each (seed {seed}), best first",
        ranked,
        names,
        params,
        values_of,
        targets,
    )
    if not math.isfinite(best["objective"]):  # pragma: no cover - objectives are finite
        raise typer.Exit(1)


def _check_expressions(base: Job, targets: list[Target]) -> None:
    """Each ``expr`` target's expression names only columns of the results table."""
    expressions = [t.expression for t in targets if t.kind == "expr"]
    if expressions:
        columns, prefixes = table_columns(base)
        for e in expressions:
            check_expression(e, columns, prefixes)


def _data_values(
    base: Job, players: int | None, texts: list[str], folder: Path
) -> tuple[dict[str, Any], list[DataValue]]:
    """The data-file values searched (``data:PATH=lo..hi``): each file's document by its
    option, and each value, whose whole range the file accepts (checked in ``folder``)."""
    from ..sim import datavalues

    bases: dict[str, Any] = {}
    for text in texts:
        opt = text.partition(":")[0].strip()
        if opt not in bases:
            bases[opt] = datavalues.read_base(datavalues.base_file(base.game, base.options, opt))
    values_of = [datavalues.parse_data_value(base.game, t, bases) for t in texts]
    for dv in values_of:
        datavalues.check_range(base.game, players, base.options, bases, dv, folder)
    return bases, values_of


def _searched(
    params: list[Param], values_of: list[DataValue], option: list[str] | None
) -> list[str]:
    """The names searched, each once and none also fixed with -o."""
    names = [p.name for p in params] + [dv.name for dv in values_of]
    if len(set(names)) != len(names):
        raise typer.BadParameter("each --param once")
    fixed = {o.partition("=")[0].strip() for o in option or []}
    clash = fixed & {p.name for p in params}
    if clash:
        raise typer.BadParameter(f"{', '.join(sorted(clash))} is both fixed with -o and searched")
    return names


@dataclass
class _Search:
    """What every trial of a search shares: the command's arguments, the options and data
    values searched, the data files' folder, and the trials' history so far."""

    game: str
    players: int | None
    bots: str
    n: int
    seed: int
    option: list[str] | None
    workers: int
    rotate: bool
    params: list[Param]
    values_of: list[DataValue]
    bases: dict[str, Any]
    folder: Path
    data_dir: Path | None
    targets: list[Target]
    trials: int
    quiet: bool  # no line per trial (also with --json)
    err: Console
    history: list[dict[str, Any]] = field(default_factory=list)

    def run(self, trial: Any) -> float:
        """One trial: the setting Optuna suggests played for its figures and objective."""
        from ..core.record import file_digest
        from ..sim import datavalues
        from .running import execute, prepare

        values: dict[str, Any] = {}
        for p in self.params:
            if p.integer:
                values[p.name] = trial.suggest_int(p.name, int(p.low), int(p.high))
            else:
                values[p.name] = trial.suggest_float(p.name, p.low, p.high)
        setting = [*(self.option or []), *(f"{k}={v}" for k, v in values.items())]
        chosen: dict[DataValue, float] = {}
        for dv in self.values_of:
            if dv.integer:
                chosen[dv] = trial.suggest_int(dv.name, int(dv.low), int(dv.high))
            else:
                chosen[dv] = trial.suggest_float(dv.name, dv.low, dv.high)
            values[dv.name] = chosen[dv]
        files: dict[str, str] = {}
        kept: dict[str, str] = {}
        for opt, doc in self.bases.items():
            path = self.folder / f"trial-{trial.number:04d}-{opt}.json"
            mine = {dv: v for dv, v in chosen.items() if dv.option == opt}
            datavalues.write_data(path, datavalues.replaced(doc, mine))
            files[opt] = file_digest(str(path))
            kept[opt] = str(path)
            setting.append(f"{opt}={path}")
        job = prepare(
            self.game,
            self.players,
            self.bots,
            self.n,
            self.seed,
            setting,
            None,
            None,
            rotate=self.rotate,
        )
        played = execute(job, self.workers, False, "trial")
        if played.result.interrupted:
            raise KeyboardInterrupt
        figures = measure(played, job.players, self.targets)
        score = objective(figures, self.targets)
        entry: dict[str, Any] = {"trial": trial.number, "values": values, "objective": score}
        if files:
            entry["data_files"] = files
            if self.data_dir is not None:
                entry["data_paths"] = kept
        self.history.append({**entry, **figures})
        if not self.quiet:
            self.err.print(
                f"trial {trial.number + 1}/{self.trials}: "
                + ", ".join(f"{k}={v:g}" for k, v in values.items())
                + f" -> objective {score:.2f}",
                markup=False,
            )
        return score


def _print_trials(
    title: str,
    ranked: list[dict[str, Any]],
    names: list[str],
    params: list[Param],
    values_of: list[DataValue],
    targets: list[Target],
) -> None:
    """The ten best trials as a table, then the best setting, its data files and whether
    it meets the fairness target."""
    console = Console() if Console().is_terminal else Console(width=150)
    table = Table(
        title=title,
        title_justify="left",
    )
    for name in names:  # whole, however long a data path: the heading folds
        table.add_column(Text(name), justify="right", overflow="fold", min_width=8)
    styles = any(t.kind == "styles" for t in targets)
    exprs = [t for t in targets if t.kind == "expr"]
    for col in (
        "objective",
        "max |share - fair|",
        *(["max |bot - fair|"] if styles else []),
        "margin",
        "length",
        *(f"expr {k + 1}" for k in range(len(exprs))),
    ):
        table.add_column(col, justify="right")
    if values_of:
        table.add_column("data SHA-256", justify="left")
    best = ranked[0]
    for h in ranked[:10]:
        digests = [" ".join(d[:12] for d in h["data_files"].values())] if values_of else []
        table.add_row(
            *(f"{h['values'][name]:g}" for name in names),
            f"{h['objective']:.2f}",
            f"{h['fair_distance']:.1f} pt",
            *([f"{h['styles_distance']:.1f} pt"] if styles else []),
            f"{h['margin']:.2f}",
            f"{h['length']:.1f}",
            *(f"{v:.4g}" for v in h.get("expr", [])),
            *digests,
        )
    console.print(table)
    shares = ", ".join(f"{k} {v:.1%}" for k, v in best["shares"].items())
    setting = [f"-o {p.name}={best['values'][p.name]:g}" for p in params]
    setting += [f"{dv.name}={best['values'][dv.name]:g}" for dv in values_of]
    verdict = met(best, targets)
    console.print(
        f"best: {' '.join(setting)}: {shares}; margin {best['margin']:.2f}, "
        f"length {best['length']:.1f}",
        markup=False,
    )
    for opt, digest in best.get("data_files", {}).items():
        where = best["data_paths"][opt] if "data_paths" in best else "not kept: see --data-dir"
        console.print(f"its {opt} file: SHA-256 {digest} ({where})", markup=False)
    if verdict is not None:
        console.print(
            "the fairness target is met" if verdict else "[yellow]the fairness target is not met[/]"
        )


def register(app: typer.Typer) -> None:
    app.command()(tune)
