"""Chat at a table: the ``dl_chat`` table (one row per message, text only) and its
index by table, so a table's chat is read back in order when a seat connects.

Revision 0005_chat, after 0004_listing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_chat"
down_revision = "0004_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dl_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dl_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("apart", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("dl_chat_table", "dl_chat", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("dl_chat_table", "dl_chat")
    op.drop_table("dl_chat")
