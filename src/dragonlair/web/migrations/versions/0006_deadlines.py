"""Turn-based tables' deadlines in storage: a ``due`` column on each table (when the move
asked now must have been made, Unix seconds; null when nothing is due) and a partial index
on the tables in play that have one, so the deadline sweep is one query over the due
tables, not a scan of every table (dragonlair.web.table.deadlines); and each person's
time bank (``dl_seats.bank``, seconds left; null: full), so a restart does not refill it.

Revision 0006_deadlines, after 0005_chat.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_deadlines"
down_revision = "0005_chat"
branch_labels = None
depends_on = None

DUE = "status = 'playing' AND due IS NOT NULL"


def upgrade() -> None:
    op.add_column("dl_tables", sa.Column("due", sa.Float, nullable=True))
    op.create_index(
        "dl_tables_due",
        "dl_tables",
        ["due"],
        postgresql_where=sa.text(DUE),
        sqlite_where=sa.text(DUE),
    )
    op.add_column("dl_seats", sa.Column("bank", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("dl_seats") as batch:
        batch.drop_column("bank")
    op.drop_index("dl_tables_due", "dl_tables")
    with op.batch_alter_table("dl_tables") as batch:
        batch.drop_column("due")
