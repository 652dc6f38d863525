"""``dragonlair games``: the games, their player counts, options and bot levels (with
each game's archetypes: its heuristic with other weights)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

import dragonlair

from ..bots import LEVELS, archetypes
from ..core import manifest


def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print the specs as JSON.")] = False,
) -> None:
    """List the games with their player counts, options and bot levels (the archetypes
    are the game's heuristic with other weights: `--bots fuel-heavy,heuristic`)."""
    specs = [dragonlair.spec(g) for g in dragonlair.games()]
    styles = {s.id: archetypes(s.id) for s in specs}
    if as_json:
        out = []
        for s in specs:
            d = s.to_dict()
            d["archetypes"] = [
                {"name": a.name, "summary": a.summary, "weights": a.changed()}
                for a in styles[s.id].values()
            ]
            out.append(d)
        print(json.dumps(out, indent=2))
        return
    table = Table(title="dragonlair games")
    table.add_column("id", style="bold cyan")
    table.add_column("name")
    table.add_column("players", justify="center")
    table.add_column("options")
    table.add_column("bots")
    for s in specs:
        opts = "\n".join(f"{o.name}={o.default}: {o.help}" for o in s.options) or "-"
        has_heuristic = manifest(s.id).heuristic is not None
        bots = [b for b in LEVELS if has_heuristic or b != "heuristic"]
        bots += list(styles[s.id])
        table.add_row(s.id, s.name, f"{s.min_players}-{s.max_players}", opts, ", ".join(bots))
    console = Console()
    console.print(table)
    if not any(styles.values()):
        return
    kinds = Table(
        title="archetypes: each game's heuristic with other weights (--bots NAME[:weight=value])",
        title_justify="left",
    )
    for col in ("game", "bot", "plays", "weights"):
        kinds.add_column(col, style="bold cyan" if col == "bot" else None)
    for s in specs:
        for a in styles[s.id].values():
            weights = ", ".join(f"{k}={v:g}" for k, v in a.changed().items())
            kinds.add_row(s.id, a.name, a.summary, weights)
    console.print(kinds)


def register(app: typer.Typer) -> None:
    app.command()(games)
