"""Pebble Auction, the core's example game, as a game package of its own: a manifest, a
small heuristic, an observation layout and rules for players. Nothing in dragonlair names
it; the tests register its manifest (:func:`dragonlair.core.manifest.register`), and every
surface finds it from there, as it would a fifth game installed under the
``dragonlair.games`` entry points."""
