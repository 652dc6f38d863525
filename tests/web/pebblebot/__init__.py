"""Pebble Auction again, in a package with a heuristic bot (how real games ship theirs)."""

from __future__ import annotations

import dataclasses

from example_game import PebbleAuction


class PebbleWithHeuristic(PebbleAuction):
    spec = dataclasses.replace(PebbleAuction.spec, id="pebble-heuristic")
