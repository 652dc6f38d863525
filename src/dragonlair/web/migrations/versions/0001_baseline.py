"""The baseline: the schema of every database made before migrations (tables, seats and
actions, seeds sealed until the game ends).

Revision 0001, the first.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dl_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("salt", sa.String(32), nullable=True),
        sa.Column("sealed", sa.LargeBinary, nullable=True),
        sa.Column("commitment", sa.String(64), nullable=True),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("watch_hash", sa.LargeBinary(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
    )
    op.create_table(
        "dl_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dl_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("budget", sa.JSON, nullable=True),
        sa.Column("token_hash", sa.LargeBinary(32), nullable=True),
    )
    op.create_table(
        "dl_actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dl_tables.id"), primary_key=True),
        sa.Column("move", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dl_actions")
    op.drop_table("dl_seats")
    op.drop_table("dl_tables")
