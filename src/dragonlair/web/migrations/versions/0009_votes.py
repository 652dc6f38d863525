"""Turn-based tables' end of life: when a table ends as abandoned if no person moves
(``dl_tables.abandons``, Unix seconds; null at a real-time table, a finished one, or one
whose game has not begun) with a partial index on the tables in play that have one, so the
idle sweep is one query, not a scan of every table; and the players' vote to end it, or how
it ended (``dl_tables.vote``, JSON; null when no vote is open). See
dragonlair.web.table.votes.

Revision 0009_votes, after 0008_sign_in_limits.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_votes"
down_revision = "0008_sign_in_limits"
branch_labels = None
depends_on = None

IDLE = "status = 'playing' AND abandons IS NOT NULL"


def upgrade() -> None:
    # nullable columns without a default: added without rewriting the table
    op.add_column("dl_tables", sa.Column("abandons", sa.Float, nullable=True))
    op.add_column("dl_tables", sa.Column("vote", sa.JSON, nullable=True))
    op.create_index(
        "dl_tables_abandons",
        "dl_tables",
        ["abandons"],
        postgresql_where=sa.text(IDLE),
        sqlite_where=sa.text(IDLE),
    )


def downgrade() -> None:
    op.drop_index("dl_tables_abandons", "dl_tables")
    with op.batch_alter_table("dl_tables") as batch:
        batch.drop_column("vote")
        batch.drop_column("abandons")
