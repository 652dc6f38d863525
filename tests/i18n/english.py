"""A check over rendered text: does it read as English anywhere?

Words that are English and never German, looked for as whole lower-case words, after the
allowlist is taken out: the games' names and the printed names of cards (the same in both
languages), and what a player types (the action texts, the same in every language).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ENGLISH = frozenset(
    {
        "the",
        "and",
        "of",
        "your",
        "you",
        "with",
        "from",
        "for",
        "has",
        "are",
        "by",
        "at",
        "it",
        "this",
        "that",
        "not",
        "or",
        "is",
        "to",
        "draws",
        "plays",
        "turn",
        "card",
        "cards",
        "round",
        "wins",
        "players",
        "seat",
        "move",
        "choose",
        "choices",
        "over",
        "game",
        "points",
        "their",
        "waiting",
        "chose",
        "nothing",
        "none",
        "nobody",
    }
)

ALLOWED = (
    "The Great Dragon Race",
    "Space Dragons",
    "Space Race",
    "Dragon Stripes",
    "Passing Wind!",
    "Tornado!",
    "Downdraft!",
    "Updraft!",
    "Balls!",
    "Bolts!",
    "HALT!",
    "dragonlair",
)


def english_words(text: str, typed: Iterable[str] = ()) -> list[str]:
    """The English words in ``text`` (with the allowlist and the typed forms removed)."""
    for allowed in (*ALLOWED, *sorted(typed, key=len, reverse=True)):
        if allowed:
            text = text.replace(allowed, " ")
    return [w for w in re.findall(r"[A-Za-z']+", text) if w in ENGLISH]
