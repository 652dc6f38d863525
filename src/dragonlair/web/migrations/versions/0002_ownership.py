"""Ownership by several processes and the sweeps' indexes: each table's owner and fencing
epoch, a heartbeat row per process (dragonlair.web.ownership), a partial index on the
unfinished tables (orphans, expiry, the listing) and one on creation time (retention).

Revision 0002, after 0001.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ACTIVE = "status IN ('waiting', 'playing')"


def upgrade() -> None:
    op.add_column("dl_tables", sa.Column("owner", sa.String(40), nullable=True))
    op.add_column("dl_tables", sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "dl_processes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("processes", sa.Integer, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("beat", sa.Float, nullable=False),
    )
    op.create_index(
        "dl_tables_active",
        "dl_tables",
        ["status", "created"],
        postgresql_where=sa.text(ACTIVE),
        sqlite_where=sa.text(ACTIVE),
    )
    op.create_index("dl_tables_created", "dl_tables", ["created"])


def downgrade() -> None:
    op.drop_index("dl_tables_created", "dl_tables")
    op.drop_index("dl_tables_active", "dl_tables")
    op.drop_table("dl_processes")
    with op.batch_alter_table("dl_tables") as batch:
        batch.drop_column("epoch")
        batch.drop_column("owner")
