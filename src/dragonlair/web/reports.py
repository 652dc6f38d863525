"""Chat messages reported to the operator, and what the operator does about them.

A reader of a table's chat reports a message over the table's WebSocket
(:meth:`dragonlair.web.session.Table.report`): one row in ``dl_reports`` per report. The
operator lists them on the admin page (``/admin``, through ``GET /api/admin/reports``),
one entry per reported message with everyone who reported it, the open ones first, and
either **hides** the message (``dl_chat.hidden``: it leaves the chat of those connected
to the table in this process at once, and is never sent again to anyone who connects) or
**dismisses** the reports. Both close the message's open reports with that outcome.

The admin routes answer only a request carrying the operator's token
(``Authorization: Bearer <token>``, ``dragonlair serve --admin-token`` or the environment
variable ``DRAGONLAIR_ADMIN_TOKEN``), compared in constant time by :func:`hmac.compare_digest`;
without a configured token they are off (404). See docs/server.md, "Reports".
"""

from __future__ import annotations

import hmac
from typing import Any

from sqlalchemy import Engine, func, select, update

from .protocol import ProtocolError
from .store import chat_t, reports_t

OUTCOMES = ("hidden", "dismissed")
LISTED = 200  # reported messages per page of the admin list


def check_token(configured: str | None, authorization: str | None) -> None:
    """Nothing if ``authorization`` is ``Bearer <the operator's token>``; otherwise a
    ProtocolError: 404 ``admin_off`` when no token is configured, 401 ``admin_token``."""
    if not configured:
        raise ProtocolError(
            "admin_off",
            "the admin pages are off: start the server with --admin-token "
            "(or DRAGONLAIR_ADMIN_TOKEN) to use them",
            404,
        )
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        given.strip().encode("utf-8", "surrogatepass"), configured.encode("utf-8")
    ):
        raise ProtocolError(
            "admin_token", "this needs the operator's token (Authorization: Bearer ...)", 401
        )


def list_reports(engine: Engine, limit: int = LISTED) -> list[dict[str, Any]]:
    """The reported messages, the ones with open reports first, newest report first: the
    message (text or phrase id, who said it where, whether hidden), everyone who reported
    it and the outcome once the operator chose one."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(reports_t.c.chat_id, func.max(reports_t.c.id).label("last"))
            .group_by(reports_t.c.chat_id)
            .order_by(func.max(reports_t.c.id).desc())
            .limit(limit)
        ).all()
        ids = [r.chat_id for r in rows]
        if not ids:
            return []
        said = {r.id: r for r in conn.execute(select(chat_t).where(chat_t.c.id.in_(ids))).all()}
        by: dict[int, list[Any]] = {i: [] for i in ids}
        for r in conn.execute(
            select(reports_t).where(reports_t.c.chat_id.in_(ids)).order_by(reports_t.c.id)
        ).all():
            by[r.chat_id].append(r)
    out = []
    for i in ids:
        m = said[i]
        reports = by[i]
        outcome = next((r.outcome for r in reversed(reports) if r.outcome), None)
        open_reports = [r for r in reports if r.outcome is None]
        out.append(
            {
                "id": m.id,
                "table": m.table_id,
                "seat": m.seat,
                "name": m.name,
                "text": m.text,
                "phrase": m.phrase,
                "at": m.at,
                "hidden": bool(m.hidden),
                "open": bool(open_reports),
                "outcome": None if open_reports else outcome,
                "reports": [{"seat": r.seat, "name": r.name, "at": r.at} for r in reports],
            }
        )
    out.sort(key=lambda e: not e["open"])  # stable: open first, each part newest first
    return out


def decide(engine: Engine, message: int, outcome: str) -> str:
    """Close the open reports of a reported message with ``outcome`` ("hidden" also hides
    the message); the table's id. ProtocolError 404 ``not_found`` for a message nobody
    reported, 400 ``bad_request`` for another outcome."""
    if outcome not in OUTCOMES:
        raise ProtocolError("bad_request", f"an outcome is one of {', '.join(OUTCOMES)}")
    with engine.begin() as conn:
        table = conn.execute(
            select(reports_t.c.table_id).where(reports_t.c.chat_id == message).limit(1)
        ).scalar()
        if table is None:
            raise ProtocolError("not_found", f"no report of a chat message {message}", 404)
        if outcome == "hidden":
            conn.execute(update(chat_t).where(chat_t.c.id == message).values(hidden=True))
        conn.execute(
            update(reports_t)
            .where(reports_t.c.chat_id == message, reports_t.c.outcome.is_(None))
            .values(outcome=outcome)
        )
    return str(table)
