"""Shared parsing of command-line game options (``--option key=value``)."""

from __future__ import annotations

import typer


def parse_options(items: list[str] | None) -> dict[str, object]:
    """``["side=b", "variant=true"]`` as a dict; the game validates the values."""
    out: dict[str, object] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"options are key=value, not {item!r}")
        out[key.strip()] = value.strip()
    return out
