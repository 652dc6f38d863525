"""The database schema's migrations (Alembic): :func:`migrate` brings a database, empty or
made by any earlier version of the server, to the schema this version uses.

Each change of the schema is one module in ``versions/``, named ``NNNN_what.py``, whose
``down_revision`` is the one before it. To add one (the models are in
``dragonlair.web.store``)::

    .venv/bin/alembic -c src/dragonlair/web/migrations/alembic.ini revision \
        --rev-id NNNN -m "what changes"

then write its ``upgrade()`` with ``op`` (SQLite needs ``op.batch_alter_table`` to change
or drop a column), and test it from the previous revision with data in it
(``tests/web/test_migrations.py``). Alembic was chosen over a home-made version table: it
is SQLAlchemy's own migration tool, knows both databases' DDL (SQLite's batch mode among
it), records the revision in the database, and lets a later change branch and merge.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, inspect

HERE = Path(__file__).resolve().parent
BASELINE = "0001"  # the schema of the databases made before migrations


def alembic_config(conn: Connection | None = None) -> Config:
    """Alembic's configuration for this package (on ``conn`` if given)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


def migrate(conn: Connection) -> None:
    """Bring the database behind ``conn`` (in a transaction) to the newest revision: an
    empty one gets every table; one made before migrations existed is first recorded as
    the baseline revision, which is the schema it has."""
    cfg = alembic_config(conn)
    names = set(inspect(conn).get_table_names())
    if "alembic_version" not in names and "dl_tables" in names:
        command.stamp(cfg, BASELINE)
    command.upgrade(cfg, "head")


def revision(conn: Connection) -> str | None:
    """The database's revision (None: never migrated)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def head() -> str:
    """The newest revision this version of the server knows."""
    from alembic.script import ScriptDirectory

    got = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert got is not None
    return got
