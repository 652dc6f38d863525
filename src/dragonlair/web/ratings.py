"""Ratings: one per game per player, updated in the same commit that stores a rated
table's end (:meth:`dragonlair.web.store.Store.append`).

**Model.** openskill's Weng-Lin Plackett-Luce model (a published Bayesian rating for
free-for-all games of any number of players, ties allowed), rather than pairwise Elo
(which rates a four-player game as six duels) or a home-made formula. A rating is a mean
``mu`` and an uncertainty ``sigma`` (new: 25 ± 8.33); it is shown as its *ordinal*
``mu − 3·sigma`` (a cautious estimate that rises as a player proves themselves) and is
**provisional** while ``sigma`` is at least :data:`PROVISIONAL_SIGMA`.

**Who is rated.** A signed-in person's account (``a:<account id>``) and each bot level
(``bot:<level>``): a bot is one player per level per game, so beating the heuristic bot
means the same whoever else beat it.

**Which tables are rated** (:func:`rated_party`): the creator asked for it (the
``rated`` setting, shown in the table's settings before anyone joins), the deal was drawn
by the server (never a position, a puzzle or a chosen seed), and at the end every
person's seat belongs to a signed-in account, each a different one. A table that is
abandoned or expires never ends with a result, so it is never rated.

**Anti-farming.** Games between the same set of two or more accounts count at most
:data:`FARM_LIMIT` times in :data:`FARM_WINDOW` seconds; a later one is recorded in
``dl_rated_games`` with ``counted`` false and moves nobody's rating. Two accounts passing
wins back and forth thus move their ratings by at most a few games a day.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import JSON as SAJSON
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Index,
    Integer,
    String,
    Table,
    func,
    literal,
    select,
    update,
)

from .store import metadata, seats_t, tables_t

PROVISIONAL_SIGMA = 3.0  # a rating is settled once its sigma is below this
FARM_LIMIT = 3  # games between the same accounts that count ...
FARM_WINDOW = 86400.0  # ... in this many seconds

MODEL = PlackettLuce()

ratings_t = Table(
    "dl_ratings",
    metadata,
    Column("game", String(64), primary_key=True),
    Column("player", String(48), primary_key=True),  # "a:<account id>" or "bot:<level>"
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
ratings_board_index = Index("dl_ratings_game", ratings_t.c.game)

rated_games_t = Table(
    "dl_rated_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    # the sorted accounts of the game's people, joined by spaces (the anti-farming key)
    Column("party", String(400), nullable=False),
    Column("finished", Float, nullable=False),
    Column("counted", Boolean, nullable=False),
    # per seat: player, mu and sigma before, mu and sigma after
    Column("changes", SAJSON, nullable=False),
)
rated_games_party_index = Index(
    "dl_rated_games_party", rated_games_t.c.party, rated_games_t.c.finished
)


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game."""

    player: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA


def player_key(kind: str, account: str | None, level: str | None) -> str | None:
    """Who a seat is for the ratings: its account, its bot level, or None (a guest)."""
    if kind == "bot" and level:
        return f"bot:{level}"
    if kind == "human" and account:
        return f"a:{account}"
    return None


def rated_party(
    settings: dict[str, Any], seats: Sequence[tuple[str, str | None, str | None]]
) -> list[str] | None:
    """The players of a finished table, by seat, if it is rated; else None. ``seats`` are
    (kind, account, level) by seat number."""
    if not settings.get("rated"):
        return None
    if settings.get("position") is not None or settings.get("chosen_seed"):
        return None
    keys = [player_key(*s) for s in seats]
    if any(k is None for k in keys):
        return None
    people = [k for k in keys if k is not None and k.startswith("a:")]
    if not people or len(set(people)) != len(people):
        return None
    return [k for k in keys if k is not None]


def rate_finished(
    conn: Connection, table_id: str, ranks: Sequence[int], now: float | None = None
) -> bool:
    """Update the ratings for table ``table_id``, which just finished with ``ranks`` (1 =
    best, ties share a rank), if it is rated; in ``conn``'s transaction. True when it was
    rated and counted."""
    now = time.time() if now is None else now
    row = conn.execute(
        select(tables_t.c.game, tables_t.c.settings).where(tables_t.c.id == table_id)
    ).first()
    if row is None:
        return False
    game, settings = row[0], dict(row[1] or {})
    seats = conn.execute(
        select(seats_t.c.kind, seats_t.c.account_id, seats_t.c.level)
        .where(seats_t.c.table_id == table_id)
        .order_by(seats_t.c.seat)
    ).all()
    party = rated_party(settings, [(s[0], s[1], s[2]) for s in seats])
    if party is None or len(party) != len(ranks) or len(party) < 2:
        return False
    if conn.execute(
        select(rated_games_t.c.table_id).where(rated_games_t.c.table_id == table_id)
    ).first():
        return False  # already rated (a result is stored once; this guards a replay of it)
    people = " ".join(sorted(k for k in party if k.startswith("a:")))
    counted = True
    if people.count(" ") >= 1:  # two or more accounts: the anti-farming rule
        recent = conn.execute(
            select(func.count())
            .select_from(rated_games_t)
            .where(
                rated_games_t.c.party == people,
                rated_games_t.c.counted,
                rated_games_t.c.finished > now - FARM_WINDOW,
            )
        ).scalar_one()
        counted = recent < FARM_LIMIT
    before = current(conn, game, party)
    changes: list[list[Any]] = []
    if counted:
        teams = [[MODEL.rating(mu=before[k].mu, sigma=before[k].sigma)] for k in party]
        after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        for k, team in zip(party, after, strict=True):
            r = team[0]
            changes.append([k, before[k].mu, before[k].sigma, r.mu, r.sigma])
        # a bot or account twice at the table (two seats of one bot level): each seat's
        # update applies in turn, the last one stored
        for k, _mb, _sb, mu, sigma in changes:
            _store(conn, game, k, mu, sigma, now, before[k].games)
    conn.execute(
        rated_games_t.insert().values(
            table_id=table_id,
            game=game,
            party=people,
            finished=now,
            counted=counted,
            changes=changes,
        )
    )
    return counted


def current(conn: Connection, game: str, players: Sequence[str]) -> dict[str, Rating]:
    """The ratings of ``players`` in ``game`` (a new rating for one never rated)."""
    rows = conn.execute(
        select(ratings_t.c.player, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games).where(
            ratings_t.c.game == game, ratings_t.c.player.in_(list(set(players)))
        )
    ).all()
    found = {r[0]: Rating(r[0], r[1], r[2], r[3]) for r in rows}
    new = MODEL.rating()
    return {p: found.get(p, Rating(p, new.mu, new.sigma, 0)) for p in players}


def _store(
    conn: Connection, game: str, player: str, mu: float, sigma: float, now: float, games: int
) -> None:
    done = conn.execute(
        update(ratings_t)
        .where(ratings_t.c.game == game, ratings_t.c.player == player)
        .values(mu=mu, sigma=sigma, games=ratings_t.c.games + 1, updated=now)
    )
    if done.rowcount == 0:
        conn.execute(
            ratings_t.insert().values(
                game=game, player=player, mu=mu, sigma=sigma, games=games + 1, updated=now
            )
        )


def _on_board(game: str, settled: bool) -> list[Any]:
    """Who a leaderboard of ``game`` lists: its rated players but deleted accounts (their
    name is gone), and with ``settled`` only those whose rating is no longer provisional."""
    from .accounts.schema import accounts_t

    deleted = select(literal("a:") + accounts_t.c.id).where(accounts_t.c.deleted.is_not(None))
    where = [ratings_t.c.game == game, ratings_t.c.player.not_in(deleted)]
    if settled:
        where.append(ratings_t.c.sigma < PROVISIONAL_SIGMA)
    return where


def board(
    conn: Connection, game: str, limit: int = 100, offset: int = 0, settled: bool = False
) -> list[Rating]:
    """The leaderboard of ``game``: its players by ordinal, best first (from the
    ``offset``-th on; with ``settled``, provisional ratings left out)."""
    rows = conn.execute(
        select(ratings_t.c.player, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
        .where(*_on_board(game, settled))
        .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc(), ratings_t.c.player)
        .limit(limit)
        .offset(offset)
    ).all()
    return [Rating(r[0], r[1], r[2], r[3]) for r in rows]


def board_size(conn: Connection, game: str, settled: bool = False) -> int:
    """How many players :func:`board` lists in all."""
    return int(
        conn.execute(
            select(func.count()).select_from(ratings_t).where(*_on_board(game, settled))
        ).scalar_one()
    )


def bot_name(level: str | None) -> str:
    """How a bot level is named on leaderboards and profiles."""
    return f"bot ({level})"


def shown(r: Rating, names: dict[str, str]) -> dict[str, Any]:
    """A rating as the API shows it: who, their name, the estimate and its uncertainty."""
    bot = r.player.startswith("bot:")
    return {
        "player": r.player,
        "name": bot_name(r.player[4:]) if bot else names.get(r.player, "?"),
        "bot": bot,
        "mu": round(r.mu, 2),
        "sigma": round(r.sigma, 2),
        "ordinal": round(r.ordinal, 2),
        "games": r.games,
        "provisional": r.provisional,
    }


def account_names(conn: Connection, players: Sequence[str]) -> dict[str, str]:
    """The names of the accounts among ``players`` ("a:<id>" keys)."""
    from .accounts.schema import accounts_t

    ids = [p[2:] for p in players if p.startswith("a:")]
    if not ids:
        return {}
    rows = conn.execute(
        select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(ids))
    ).all()
    return {f"a:{r[0]}": r[1] for r in rows}


def leaderboard(
    conn: Connection, game: str, limit: int = 100, offset: int = 0, settled: bool = False
) -> list[dict[str, Any]]:
    """``game``'s leaderboard as the API shows it, best first, bots included (from the
    ``offset``-th on, ranked from there; with ``settled``, provisional ratings left out)."""
    top = board(conn, game, limit, offset, settled)
    names = account_names(conn, [r.player for r in top])
    return [{"rank": offset + i + 1, **shown(r, names)} for i, r in enumerate(top)]


def of_account(conn: Connection, account_id: str) -> list[dict[str, Any]]:
    """An account's rating in each game it has played rated, by game."""
    rows = conn.execute(
        select(
            ratings_t.c.game,
            ratings_t.c.player,
            ratings_t.c.mu,
            ratings_t.c.sigma,
            ratings_t.c.games,
        )
        .where(ratings_t.c.player == f"a:{account_id}")
        .order_by(ratings_t.c.game)
    ).all()
    names = account_names(conn, [f"a:{account_id}"])
    return [{"game": r[0], **shown(Rating(r[1], r[2], r[3], r[4]), names)} for r in rows]
