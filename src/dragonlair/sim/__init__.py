"""Seeded simulation at scale: batches of bot games over several processes, tournaments
with rotated seats, and the statistics that say what they show.

- :mod:`.runner`: :class:`Job` (what to play), :func:`run` (play it over K processes,
  identical results for any K, Ctrl-C keeps what finished), :class:`Outcome` (one game).
- :mod:`.stats`: :func:`summarize`: win shares with 95% Wilson intervals per seat and per
  bot, points mean and spread, ranks, game lengths.
- :mod:`.output`: the results CSV and the game records, and checks of both paths.

The command-line surfaces are ``dragonlair simulate`` and ``dragonlair tournament``.
"""

from .output import OutputError, check_output_file, check_records_dir, write_records, write_results
from .runner import Job, Outcome, RunResult, SimulationError, play_game, run
from .stats import Line, Rate, Summary, summarize, wilson

__all__ = [
    "Job",
    "Line",
    "Outcome",
    "OutputError",
    "Rate",
    "RunResult",
    "SimulationError",
    "Summary",
    "check_output_file",
    "check_records_dir",
    "play_game",
    "run",
    "summarize",
    "wilson",
    "write_records",
    "write_results",
]
