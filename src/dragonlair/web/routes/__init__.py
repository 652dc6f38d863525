"""The server's routes, one :class:`fastapi.APIRouter` per part of the API; their shared
dependencies are in :mod:`dragonlair.web.deps`.

- :mod:`.server`: ``GET /api/health``; :mod:`.metrics`: ``GET /metrics`` (Prometheus);
- :mod:`.games`: ``GET /api/games``, ``/api/games/{id}``, ``/api/games/{id}/rules``;
- :mod:`.tables`: ``GET/POST /api/tables``, ``GET /api/tables/{id}``, its ``catalog``
  and ``join``;
- :mod:`.records`: ``GET /api/tables/{id}/record``, ``/replay`` and ``/summary``
  (finished games);
- :mod:`.play`: ``WS /ws/tables/{id}``;
- :mod:`.accounts`: ``/api/account`` (sign up, in and out, claim a seat, delete);
- :mod:`.mail`: ``/api/account/email`` (the e-mail setting), ``/mail/verify`` and
  ``/mail/unsubscribe`` (the links in e-mail);
- :mod:`.ratings`: ``GET /api/ratings/{game}`` (leaderboard), ``/api/account/ratings``,
  ``/api/players/{name}`` (a public profile);
- :mod:`.admin`: ``/api/admin/reports`` (the operator's, with its token);
- :mod:`.pages`: ``GET /``, ``/play/{id}``, ``/watch/{id}``, ``/account``, ``/admin``,
  ``/players/{name}``, ``/leaderboard/{game}``, ``/games/{id}`` (a finished game's page)
  (the browser front end).
"""

from __future__ import annotations

from fastapi import APIRouter

from . import accounts, admin, games, mail, metrics, pages, play, ratings, records, server, tables

ROUTERS: tuple[APIRouter, ...] = (
    server.router,
    metrics.router,
    games.router,
    tables.router,
    records.router,
    play.router,
    accounts.router,
    mail.router,
    ratings.router,
    admin.router,
    pages.router,
)

__all__ = ["ROUTERS"]
