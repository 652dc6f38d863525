"""Pebble Auction again, under another id with a heuristic bot (the one in
``heuristic.py``, which thinks for as long as a test wants)."""

from __future__ import annotations

import dataclasses

from tests.core.example_game import PebbleAuction
from tests.core.pebble_auction.manifest import MANIFEST as PEBBLE

from .heuristic import Heuristic


class PebbleWithHeuristic(PebbleAuction):
    spec = dataclasses.replace(PebbleAuction.spec, id="pebble-heuristic")


MANIFEST = dataclasses.replace(PEBBLE, game=PebbleWithHeuristic, heuristic=Heuristic, layout=None)
