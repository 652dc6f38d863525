"""Conceding: the move each seat's player conceded at (``dl_seats.conceded``, None for a
seat whose player did not concede; dragonlair.web.concede).

Revision 0006_concede, after 0005_chat.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_concede"
down_revision = "0006_reports"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a nullable column without a default: PostgreSQL and SQLite add it without rewriting
    # the table, however many finished games it holds
    op.add_column("dl_seats", sa.Column("conceded", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("dl_seats") as batch:
        batch.drop_column("conceded")
