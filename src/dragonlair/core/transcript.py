"""Golden transcripts: a seeded game written out as text people can read and review.

A transcript plays a seeded game with a seeded random driver and writes every move (who
did what), the events as a spectator saw them and the private events each seat saw, and
every seat's full view at the start, at changes of phase (at most once every
``VIEW_EVERY`` moves, so games whose phase changes at every play stay readable) and at the
end. Its first line
holds the parameters as JSON, so ``scripts/regen_golden.py`` can regenerate any transcript
file from the file alone, and a test can compare a fresh transcript with the stored one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .registry import make
from .rng import Rng
from .state import State

HEADER = "# dragonlair transcript "
VIEW_EVERY = 12


def transcript(
    game_id: str, players: int, seed: int, options: Mapping[str, object] | None = None
) -> str:
    """The transcript of one seeded game, driven by random moves from ``Rng(seed)``."""
    game = make(game_id, players=players, options=options)
    params = {"game": game_id, "players": players, "seed": seed, "options": dict(options or {})}
    out = [HEADER + json.dumps(params, sort_keys=True)]
    out.append(
        f"# {game.spec.name}, rules version {game.spec.rules_version}; "
        "regenerate with: python scripts/regen_golden.py"
    )
    state = game.new_game(seed)
    driver = Rng(seed)
    seen = 0
    out.append("")
    out.append("== setup")
    seen = _events(state, seen, out)
    _views(state, out)
    phase = state.phase
    last_views = 0
    while not state.is_over:
        seat = state.to_act[driver.randbelow(len(state.to_act))]
        legal = state.legal_actions(seat)
        action = legal[driver.randbelow(len(legal))]
        waiting = " ".join(map(str, state.to_act))
        state.apply(seat, action)
        out.append(
            f"move {state.move}: seat {seat} {action}   "
            f"[{phase}; waiting for {waiting}; {len(legal)} legal]"
        )
        seen = _events(state, seen, out)
        if state.phase != phase:
            phase = state.phase
            out.append("")
            out.append(f"== phase {phase}")
            if state.move - last_views >= VIEW_EVERY or state.is_over:
                _views(state, out)
                last_views = state.move
    result = state.result
    assert result is not None
    out.append("")
    out.append("== result")
    out.append(f"points  {list(result.points)}")
    out.append(f"ranks   {list(result.ranks)}")
    out.append(f"winners {list(result.winners)}")
    for s, b in enumerate(result.breakdown):
        out.append(f"seat {s}: " + ", ".join(f"{k} {v}" for k, v in b.items()))
    if result.reason:
        out.append(f"reason: {result.reason}")
    return "\n".join(out) + "\n"


def _events(state: State, seen: int, out: list[str]) -> int:
    game = state.game
    names = [f"seat {i}" for i in range(game.players)]
    public = {e["seq"]: e for e in state.events_since(seen, None)}
    for e in public.values():
        out.append("    " + game.event_text(e, names))
    for seat in range(game.players):
        for e in state.events_since(seen, seat):
            if public.get(e["seq"]) != e:
                out.append(f"    (seat {seat} sees) " + game.event_text(e, names))
    return state.event_count


def _views(state: State, out: list[str]) -> None:
    for seat in [*range(state.game.players), None]:
        v: dict[str, Any] = state.view(seat)
        who = "spectator" if seat is None else f"seat {seat}"
        out.append(f"  view {who}: " + json.dumps(v, sort_keys=True, separators=(",", ":")))


def regenerate(path: Path) -> str:
    """The transcript the file at ``path`` should hold, from the parameters on its first
    line."""
    first = path.read_text().splitlines()[0]
    if not first.startswith(HEADER):
        raise ValueError(f"{path} is not a dragonlair transcript")
    p = json.loads(first[len(HEADER) :])
    return transcript(p["game"], p["players"], p["seed"], p["options"])


def write(
    path: Path, game_id: str, players: int, seed: int, options: Mapping[str, object] | None = None
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(transcript(game_id, players, seed, options))
