"""Helpers for Space Dragons scenario tests: chosen positions and small data files."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import dragonlair
from dragonlair.space_dragons.rules import SpaceDragonsState

GAME = "space-dragons"
BUILTIN = (
    Path(__file__).resolve().parents[2] / "src/dragonlair/space_dragons/data/space_dragons.json"
)


def builtin_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BUILTIN.read_text())
    return data


def plain_data(
    crew: Mapping[int, Mapping[str, Any]] | None = None,
    dragons: Mapping[int, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """A deck of blank cards (no effects, no symbols, no points; dragons worth 10) with the
    built-in scoring cards, and the given cards changed."""
    data = builtin_data()
    for i, card in enumerate(data["crew"]):
        card.update(effects=[], symbols={"science": 0, "mood": 0, "crime": 0}, points=0)
        card.update((crew or {}).get(i + 1, {}))
    for i, d in enumerate(data["dragons"]):
        d.update(points=10, symbols={"science": 0, "mood": 0, "crime": 0})
        d.update((dragons or {}).get(i + 1, {}))
    return data


def symbols(science: int = 0, mood: int = 0, crime: int = 0) -> dict[str, int]:
    return {"science": science, "mood": mood, "crime": crime}


def write(tmp_path: Path, data: object, name: str = "deck.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def hunt(
    players: int = 4,
    options: Mapping[str, object] | None = None,
    *,
    hands: Sequence[Sequence[int]],
    played: Sequence[Sequence[int]] | None = None,
    claimed: Sequence[Sequence[int]] | None = None,
    shields: Sequence[int] | None = None,
    damage: Sequence[int] | None = None,
    face_up: int | None = None,
    lead: int = 0,
    pile_left: int | None = None,
    seed: int = 0,
) -> SpaceDragonsState:
    """A state at the start of a Dragon Hunt round, led by ``lead``, with the given cards
    in hand (filled up to 9 minus the cards played with the highest cards nobody named)
    and earlier plays; every other crew card is in the draw pile (``pile_left`` of them
    still untaken) and the dragons not named are in the lair and the box."""
    game = dragonlair.make(GAME, players=players, options=options)
    s = game.new_game(seed)
    assert isinstance(s, SpaceDragonsState)
    n = players
    played = played or [()] * n
    claimed = claimed or [()] * n
    rnd = len(played[0])
    used = {c for h in (*hands, *played) for c in h}
    rest = [c for c in range(1, 81) if c not in used]
    full = []
    for h, p in zip(hands, played, strict=True):
        extra = 9 - len(p) - len(h)  # fill the hand up with cards nobody named
        full.append(tuple(sorted([*h, *rest[len(rest) - extra :]])))
        del rest[len(rest) - extra :]
    s.hands = full
    s.picks = [()] * n
    s.played = [tuple(p) for p in played]
    s.start_cards = tuple(rest[:n])
    s.pile = tuple(rest[n:])
    s.taken = len(s.pile) - (len(s.pile) if pile_left is None else pile_left)
    s.shields = list(shields or [0] * n)
    s.damage = list(damage or [0] * n)
    s.claimed = [tuple(c) for c in claimed]
    taken_dragons = {d for c in claimed for d in c}
    free = [d for d in range(1, 21) if d not in taken_dragons and d != face_up]
    s.face_up = face_up if face_up is not None else free.pop(0)
    lair = 7 - 1 - rnd
    s.lair = tuple(free[:lair])
    s.ships = tuple(free[lair : lair + n])
    s.box = tuple(free[lair + n :])
    s.round = rnd
    s.lead = lead
    s.phase = "hunt"
    s._choices = None
    s._to_act = (lead,)
    s.check_invariants()
    return s


def play_round(s: dragonlair.State, cards: Mapping[int, int]) -> None:
    """Each seat in turn order plays the card given for it."""
    for _ in range(len(cards)):
        (seat,) = s.to_act
        s.apply(seat, f"play {cards[seat]}")


def events(s: dragonlair.State, since: int = 0, seat: int | None = None) -> list[dict[str, Any]]:
    return s.events_since(since, seat)


def kinds(s: dragonlair.State, since: int = 0) -> list[str]:
    return [e["type"] for e in s.events_since(since, None)]
