"""The routes' dependencies: the lobby service, the settings and the limiters kept on the
application's state, and a table looked up from the path (a finished one for records)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from .config import ServerConfig
from .connection import Limits
from .lobby import Hub
from .protocol import ProtocolError
from .session import Table


def get_hub(conn: HTTPConnection) -> Hub:
    """The lobby service of the running server."""
    hub: Hub = conn.app.state.hub
    return hub


def get_config(conn: HTTPConnection) -> ServerConfig:
    """The server's settings."""
    config: ServerConfig = conn.app.state.config
    return config


def get_limits(conn: HTTPConnection) -> Limits:
    """The server's rate limiters."""
    limits: Limits = conn.app.state.limits
    return limits


HubDep = Annotated[Hub, Depends(get_hub)]
ConfigDep = Annotated[ServerConfig, Depends(get_config)]
LimitsDep = Annotated[Limits, Depends(get_limits)]


async def get_table(table_id: str, hub: HubDep) -> Table:
    """The table named in the path (404 ``not_found`` if there is none)."""
    return await hub.get(table_id)


TableDep = Annotated[Table, Depends(get_table)]


async def get_finished(table: TableDep) -> Table:
    """The table named in the path, once its game is over (409 ``not_over`` before)."""
    if table.status != "over":
        raise ProtocolError(
            "not_over",
            "a record is available once the game is over (before that it would reveal "
            "hidden cards)",
            409,
        )
    return table


FinishedDep = Annotated[Table, Depends(get_finished)]
