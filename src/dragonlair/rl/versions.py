"""The version in each environment id (``dragonlair/DragonStripes-v0``,
``dragonlair_dragon_stripes_v0``), and what it stands for.

An environment's version names what a learner depends on: the observation layout (its
features' names and sizes, and the number of actions) and the rules (the game's
``rules_version``). A policy trained on ``-v0`` must mean the same thing on every
install that says ``-v0``. So:

- when a game's layout changes (a feature added, removed, renamed or resized, the action
  table changed) or its rules change (its ``rules_version`` goes up), its version goes
  up by one: ``VERSIONS`` below gets the new number and the new :func:`digest`, and
  CHANGELOG.md says what changed;
- the old id is not kept (one version of each game is registered);
- what a feature's values mean may not change under the same name; to change it, rename
  the feature (which changes the digest). ``tests/rl/data/tensor_digests.json`` holds the
  tensors themselves, so a change of values is caught there too;
- a change that leaves every tensor, the actions and the rules as they were (speed, code
  moved) keeps the version.

``tests/rl/test_rl_versions.py`` checks that every game's :func:`digest` is the one
recorded beside its version, so a layout or rules change cannot ship under the old id.
A game with no entry (one of a designer's own, the tests' example game) is version 0.
"""

from __future__ import annotations

import hashlib

from ..core import make
from ..core import spec as game_spec
from .layout import Encoder, encoder_for

# game id -> (version, digest of the layout and rules that version stands for)
VERSIONS: dict[str, tuple[int, str]] = {
    "dragon-race": (0, "ffe2084abb7c5b19"),
    "dragon-stripes": (0, "5811e5ec852ece6a"),
    "space-dragons": (0, "ab30a502d46cba26"),
    "space-race": (0, "8643a571dbf9728e"),
}


def signature_text(encoder: Encoder) -> str:
    """A layout bound to a game, as text: its features (names and sizes, in order) and
    the number of actions (which in the Dragon Race depends on the player count)."""
    text = ";".join(f"{r.name}:{r.size}" for r in encoder.rows)
    return text + f"|actions:{encoder.game.num_actions}"


def digest(game_id: str) -> str:
    """A short digest of what the environment id of ``game_id`` stands for: its layout
    signature (at the default player count) and its rules version."""
    text = signature_text(encoder_for(make(game_id)))
    text += f"|rules:{game_spec(game_id).rules_version}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def version(game_id: str) -> int:
    """The version in ``game_id``'s environment ids (0 for a game with no entry)."""
    return VERSIONS.get(game_id, (0, ""))[0]
