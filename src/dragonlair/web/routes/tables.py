"""Tables in the lobby: the listing, creating and joining a table, its description and
the public catalog a page draws it with."""

from __future__ import annotations

import json
from functools import lru_cache

from fastapi import APIRouter, Query, Request, Response

from ...core import make
from ...i18n import using
from ..catalog import table_catalog
from ..deps import ConfigDep, HubDep, TableDep
from ..language import LangQuery, check
from ..protocol import Catalog, Created, Joined, JoinRequest, ProtocolError, TableInfo, TableRequest
from .accounts import SessionDep

router = APIRouter(tags=["lobby"])


@lru_cache(maxsize=64)
def catalog_of(
    game_id: str, rules_version: int, players: int, options_json: str, lang: str = "en"
) -> Catalog:
    """The catalog of a table of ``game_id`` with this player count and these options,
    its texts in ``lang``."""
    game = make(game_id, players=players, options=json.loads(options_json))
    with using(lang):
        return Catalog(**table_catalog(game))


@router.get("/api/tables")
async def list_tables(
    request: Request,
    response: Response,
    hub: HubDep,
    config: ConfigDep,
    status: str | None = Query(None, pattern="^(waiting|playing)$"),
    game: str | None = None,
    limit: int | None = Query(None, ge=1, description="tables per page (default 50)"),
    offset: int = Query(0, ge=0, description="tables to skip"),
) -> list[TableInfo]:
    """Listed tables, waiting for players (join one) or in play, oldest first, one page
    at a time: ``X-Total-Count`` says how many there are, and a ``Link`` header with
    ``rel="next"`` gives the next page while there is one."""
    size = config.page_size if limit is None else limit
    if size > config.max_page_size:
        raise ProtocolError(
            "invalid_request",
            f"limit: at most {config.max_page_size} tables per page, not {size}",
            422,
        )
    page, total = await hub.listing(status, game, size, offset)
    response.headers["X-Total-Count"] = str(total)
    if offset + size < total:
        nxt = request.url.include_query_params(limit=size, offset=offset + size)
        response.headers["Link"] = f'<{nxt.path}?{nxt.query}>; rel="next"'
    return page


@router.post("/api/tables", status_code=201)
async def create_table(
    hub: HubDep, body: TableRequest, session: SessionDep, request: Request
) -> Created:
    """Create a table. The answer holds each person's seat token and link (hand them
    out) and the spectators' link; the server keeps only their digests. Signed in, the
    first person's seat is the account's."""
    address = request.client.host if request.client else "?"
    created = await hub.create(
        body,
        account=None if session is None else session.account_id,
        names=None if session is None else {session.account_id: session.name},
        address=address,
    )
    # its bots and hints take the creating address's share of the bot pool
    hub.bots.fair.charge_to(created.table.id, address)
    return created


@router.get("/api/tables/{table_id}")
async def get_table(table: TableDep) -> TableInfo:
    """A table's public description."""
    return table.info()


@router.get("/api/tables/{table_id}/catalog")
async def get_catalog(table: TableDep, lang: LangQuery = "en") -> Catalog:
    """What a page needs to draw this table, all of it public and the same for every
    seat: the printed components, a label for every action, the events' sentences (in
    ``lang``: two people at one table may read two languages)."""
    check(lang)
    if table.game is None:
        raise ProtocolError("broken", f"table {table.id} cannot be played: {table.problem}", 409)
    return catalog_of(
        table.game_id,
        table.game.spec.rules_version,
        table.players,
        json.dumps(table.options, sort_keys=True),
        lang,
    )


@router.post("/api/tables/{table_id}/join")
async def join_table(hub: HubDep, table_id: str, body: JoinRequest, session: SessionDep) -> Joined:
    """Take an open seat (the first one, or the one named); the game starts when the
    last open seat is taken. Signed in, the seat is the account's."""
    if session is None:
        return await hub.join(table_id, body)
    return await hub.join(table_id, body, account=session.account_id, account_name=session.name)
