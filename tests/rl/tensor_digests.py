"""Digests of the observation tensors of seeded random games, every game with a layout
in every player count and option set, every seat at every step: the figures the
encoders must keep giving (``data/tensor_digests.json``).

    python -m tests.rl.tensor_digests --write   # after a deliberate change to a layout
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import dragonlair
from dragonlair.rl import encoder_for
from tests.rl.rl_helpers import OPTION_SETS, player_counts

FILE = Path(__file__).parent / "data" / "tensor_digests.json"
GAMES = ("dragon-race", "dragon-stripes", "space-dragons", "space-race")
SEEDS = (0, 1)


def digests() -> dict[str, str]:
    """One SHA-256 per game, option set and player count, over the tensors of every seat
    at every step of the seeded games."""
    out: dict[str, str] = {}
    for gid in GAMES:
        for options in [{}, *OPTION_SETS.get(gid, [])]:
            for n in player_counts(gid):
                game = dragonlair.make(gid, players=n, options=options)
                enc = encoder_for(game)
                h = hashlib.sha256()
                for seed in SEEDS:
                    rng = random.Random(seed)
                    state = game.new_game(seed=seed)
                    while True:
                        for seat in range(n):
                            h.update(enc.encode(state.seat_view(seat)).tobytes())
                        if state.is_over:
                            break
                        seat = rng.choice(state.to_act)
                        state.apply_id(seat, rng.choice(state.legal_action_ids(seat)))
                key = f"{gid} {json.dumps(options, sort_keys=True)} {n}p"
                out[key] = h.hexdigest()
    return out


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        FILE.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n")
    else:
        print(json.dumps(digests(), indent=1, sort_keys=True))
