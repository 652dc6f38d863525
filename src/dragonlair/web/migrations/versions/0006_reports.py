"""Chat reports and quick phrases: ``dl_chat`` gains ``phrase`` (a quick phrase's id, its
text then empty) and ``hidden`` (the operator hid the message: never sent again), and
``dl_reports`` holds the messages readers reported to the operator, with the outcome the
operator chose (see dragonlair.web.reports).

Revision 0006_reports, after 0005_chat.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_reports"
down_revision = "0006_deadlines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dl_chat") as batch:
        batch.add_column(sa.Column("phrase", sa.String(32), nullable=True))
        batch.add_column(sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "dl_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("chat_id", sa.Integer, sa.ForeignKey("dl_chat.id"), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dl_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=True),
    )
    op.create_index("dl_reports_open", "dl_reports", ["outcome", "id"])


def downgrade() -> None:
    op.drop_index("dl_reports_open", "dl_reports")
    op.drop_table("dl_reports")
    with op.batch_alter_table("dl_chat") as batch:
        batch.drop_column("hidden")
        batch.drop_column("phrase")
