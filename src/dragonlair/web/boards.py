"""Where the page finds each game's browser board: the file its manifest names.

A manifest's ``browser_board`` is ``"package:folder/board.js"``, a file of a package's
data, in the game's own package: the four games' are ``dragonlair.<game>:web/board.js``,
an installed game's its own. The board's folder (the module, its style sheet, its
pictures) is published whole at ``/static/games/<game id>/``; a board inside the server's
own static folder would be served where it lies, under ``/static``. The table's catalog
gives the page the board's path under ``/static/`` (:func:`board_path`), so the page
imports every board the same way, and every board imports the page's modules from their
one address, ``/static/js/`` (``docs/architecture.md``, "How a game ships a browser
board").

The files are served by Starlette's ``StaticFiles`` (one per board folder), which refuses
paths that leave the folder, answers only GET and HEAD, and sets the caching headers:
the same server the rest of ``/static`` has, rather than one written here.
"""

from __future__ import annotations

from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from ..core import UnknownGame, manifest
from ..core.manifest import BadManifest

STATIC = Path(__file__).resolve().parent / "static"
"""The server's own static folder, served at ``/static``."""

GAMES_PREFIX = "games"
"""The boards outside the static folder are at ``/static/games/<game id>/``."""


def _board_file(game_id: str) -> Path | None:
    found = manifest(game_id).browser_board_file()
    return None if found is None else Path(str(found)).resolve()


def board_path(game_id: str) -> str | None:
    """The game's board module as a path under ``/static/``, or None for the page's
    generic board."""
    file = _board_file(game_id)
    if file is None:
        return None
    if file.is_relative_to(STATIC):
        return file.relative_to(STATIC).as_posix()
    return f"{GAMES_PREFIX}/{game_id}/{file.name}"


class GameBoards:
    """The ASGI app mounted at ``/static/games``: ``/<game id>/<file>`` is a file of the
    folder holding that game's board, for a game whose board is outside the static
    folder; anything else is 404."""

    def __init__(self) -> None:
        self._served: dict[tuple[str, Path], StaticFiles] = {}

    def _files(self, game_id: str) -> StaticFiles | None:
        try:
            file = _board_file(game_id)
        except (UnknownGame, BadManifest):
            return None
        if file is None or file.is_relative_to(STATIC) or not file.is_file():
            return None
        key = (game_id, file.parent)
        found = self._served.get(key)
        if found is None:
            found = self._served[key] = StaticFiles(directory=file.parent)
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        root = scope.get("root_path", "")
        path: str = scope["path"]
        rest = path[len(root) :] if path.startswith(root) else path
        game_id, slash, _ = rest.lstrip("/").partition("/")
        files = self._files(game_id) if slash else None
        if files is None:
            raise HTTPException(status_code=404)
        inner = dict(scope, root_path=f"{root}/{game_id}")
        await files(inner, receive, send)
