"""The lobby's listing by index: a ``listed`` column on each table (copied from its
settings) and a partial index on the listed unfinished tables in creation order, so
``GET /api/tables`` counts and pages them in the database without reading each table's
settings (a position can make them kilobytes long).

Revision 0004_listing, after 0003_accounts.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_listing"
down_revision = "0003_accounts"
branch_labels = None
depends_on = None

LISTED = "status IN ('waiting', 'playing') AND listed"


def upgrade() -> None:
    op.add_column(
        "dl_tables", sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.true())
    )
    conn = op.get_bind()
    t = sa.table(
        "dl_tables",
        sa.column("id", sa.String),
        sa.column("status", sa.String),
        sa.column("settings", sa.JSON),
        sa.column("listed", sa.Boolean),
    )
    unlisted = [
        r.id
        for r in conn.execute(
            sa.select(t.c.id, t.c.settings).where(t.c.status.in_(("waiting", "playing")))
        )
        if not isinstance(r.settings, dict) or r.settings.get("listed", True) is False
    ]
    for i in range(0, len(unlisted), 500):
        conn.execute(sa.update(t).where(t.c.id.in_(unlisted[i : i + 500])).values(listed=False))
    op.create_index(
        "dl_tables_listed",
        "dl_tables",
        ["created"],
        postgresql_where=sa.text(LISTED),
        sqlite_where=sa.text(LISTED),
    )


def downgrade() -> None:
    op.drop_index("dl_tables_listed", "dl_tables")
    with op.batch_alter_table("dl_tables") as batch:
        batch.drop_column("listed")
