"""The per-address cap on waiting tables counted in the database: a ``creator`` column on
each table (the keyed digest of the creating address, until now only in its settings) and
a partial index on the waiting tables that have one, so every process counts an
address's waiting tables in the transaction that adds one (Store.create_table).

Revision 0011_waiting_address, after 0010_mail.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_waiting_address"
down_revision = "0010_mail"
branch_labels = None
depends_on = None

WAITING_BY_CREATOR = "status = 'waiting' AND creator IS NOT NULL"


def upgrade() -> None:
    op.add_column("dl_tables", sa.Column("creator", sa.String(32), nullable=True))
    conn = op.get_bind()
    t = sa.table(
        "dl_tables",
        sa.column("id", sa.String),
        sa.column("status", sa.String),
        sa.column("settings", sa.JSON),
        sa.column("creator", sa.String),
    )
    # only the tables still waiting are counted: their creators move to the column
    for r in conn.execute(sa.select(t.c.id, t.c.settings).where(t.c.status == "waiting")).all():
        creator = r.settings.get("creator") if isinstance(r.settings, dict) else None
        if isinstance(creator, str) and creator:
            settings = {k: v for k, v in r.settings.items() if k != "creator"}
            conn.execute(
                sa.update(t).where(t.c.id == r.id).values(creator=creator[:32], settings=settings)
            )
    op.create_index(
        "dl_tables_waiting_creator",
        "dl_tables",
        ["creator"],
        postgresql_where=sa.text(WAITING_BY_CREATOR),
        sqlite_where=sa.text(WAITING_BY_CREATOR),
    )


def downgrade() -> None:
    conn = op.get_bind()
    t = sa.table(
        "dl_tables",
        sa.column("id", sa.String),
        sa.column("status", sa.String),
        sa.column("settings", sa.JSON),
        sa.column("creator", sa.String),
    )
    waiting = sa.select(t.c.id, t.c.settings, t.c.creator).where(
        t.c.status == "waiting", t.c.creator.is_not(None)
    )
    for r in conn.execute(waiting).all():
        settings = {**(r.settings if isinstance(r.settings, dict) else {}), "creator": r.creator}
        conn.execute(sa.update(t).where(t.c.id == r.id).values(settings=settings))
    op.drop_index("dl_tables_waiting_creator", "dl_tables")
    with op.batch_alter_table("dl_tables") as batch:
        batch.drop_column("creator")
