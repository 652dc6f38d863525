"""Alembic's environment: migrations run on the connection the server hands over (inside
its transaction, see :func:`dragonlair.web.migrations.migrate`), or, from the ``alembic``
command line, on ``sqlalchemy.url`` of ``alembic.ini``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from dragonlair.web.store import metadata


def run(conn: Connection) -> None:
    context.configure(
        connection=conn,
        target_metadata=metadata,
        # SQLite alters a table by copying it: Alembic's batch mode does that
        render_as_batch=conn.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get("connection")
if given is not None:
    run(given)
else:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url, "alembic.ini names no sqlalchemy.url"
    with create_engine(url).begin() as conn:
        run(conn)
