"""Wall time of one server bot decision (ISMCTS at a Space Dragons table of three, under
the default --bot-max-seconds 5): the budget a table naming none used to get (the limit
as its time) against the default now (500 iterations, the limit only as a ceiling), on
the same three decisions, in one run; with the load average before and after.

    .venv/bin/python scripts/bot_budget.py
"""

from __future__ import annotations

import json
import os
import random
import time

from dragonlair.core import make
from dragonlair.web.bots import _bot


def run(budget: dict[str, float], label: str) -> None:
    g = make("space-dragons", players=3)
    bot = _bot("space-dragons", 3, "{}", "ismcts", json.dumps(budget), 5.0)
    times = []
    for seed in range(3):
        st = g.new_game(seed)
        rng = random.Random(seed)
        while True:
            assert not st.is_over and st.to_act, "no decision with 3 choices"
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            if len(legal) >= 3:
                break
            st.apply(seat, rng.choice(legal))
        view = st.view(seat)
        t = time.perf_counter()
        bot.choose(view, legal, random.Random(seed))
        times.append(time.perf_counter() - t)
    shown = ", ".join(f"{x:.2f}" for x in times)
    print(f"{label}: iterations={bot.iterations} time={bot.time} decisions (s): {shown}")


if __name__ == "__main__":
    print("load average", os.getloadavg())
    run({"time": 5.0}, "before (time = limit)")
    run({}, "now (default)")
    print("load average", os.getloadavg())
