"""A hint's reason in players' words (the terminal's; the browser's is in ``table.js``):
the sentence :meth:`dragonlair.bots.advice.Advice.why` chose, with the choices' names and
the win chances as they are shown (rounded to the precision their playouts support)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..i18n import _


def percent(choice: dict[str, Any]) -> str:
    """A choice's shown win chance and its interval: ``40% (30–50%)``."""
    s = choice["shown"]
    return f"{s['value']}% ({s['low']}–{s['high']}%)"


def why_sentence(why: dict[str, Any], name: Callable[[str], str]) -> str:
    """The sentence for ``why`` (``Advice.why()``), naming actions with ``name``."""
    best, other = why["best"], why.get("other")
    a = best["shown"]["value"]
    if other is None:  # one choice only
        return _("{best} is the only choice here.").format(best=name(best["action"]))
    if why["kind"] == "clear":
        return _(
            "{best} wins most often: about {a}% wins out of {n} games played out from "
            "here, against about {b}% wins for the next best, {other}."
        ).format(
            best=name(best["action"]),
            a=a,
            n=best["playouts"],
            b=other["shown"]["value"],
            other=name(other["action"]),
        )
    if why["kind"] == "close":
        return _(
            "The playouts cannot tell {best} apart from the choices marked ≈ (about {a}% "
            "wins each); {other} wins clearly less often (about {b}%)."
        ).format(
            best=name(best["action"]),
            a=a,
            other=name(other["action"]),
            b=other["shown"]["value"],
        )
    return _(
        "For winning, the playouts cannot tell your choices apart (each about {a}%); "
        "{best} scores the most points on average ({p} against {q} for {other})."
    ).format(
        a=a,
        best=name(best["action"]),
        p=f"{round(best['points'], 1):g}",
        q=f"{round(other['points'], 1):g}",
        other=name(other["action"]),
    )
