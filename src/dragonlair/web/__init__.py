r"""The online multiplayer server: lobby, seats, bots, persistence, recovery, security.

``dragonlair serve`` runs :func:`create_app` under uvicorn. The parts:

- :mod:`.app`: the FastAPI application (middleware, error handlers, start-up);
- :mod:`.routes`: the lobby, records, play and page routes as ``APIRouter``\ s, with
  :mod:`.deps` their dependencies;
- :mod:`.lobby`: the lobby service: every table, creating and joining, recovery;
- :mod:`.session`: a table's session: turns, deadlines, away players, bots;
- :mod:`.connection`: one WebSocket client and its conversation;
- :mod:`.protocol`: request and message models, and the per-seat state message;
- :mod:`.store`: SQLAlchemy storage (SQLite or PostgreSQL) with group commit;
- :mod:`.bots`: bot decisions off the event loop;
- :mod:`.security`: tokens and rate limits;
- ``static/``: the browser front end's files, served at ``/`` and ``/static``.

The API, message by message, is in ``docs/server.md``.

The package imports its parts when they are first asked for (``create_app`` and
``ServerConfig`` below too): a bots' worker process unpickles its job from
:mod:`.bots`, and importing the package must not import the whole server there (FastAPI,
SQLAlchemy, the accounts), which made a fresh pool's first hint wait seconds for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "ServerConfig":
        from .config import ServerConfig

        return ServerConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
