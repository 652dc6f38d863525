"""E-mail for turn-based tables: each account's address, when it was verified, whether
turn-based tables may write to it and in which language (``dl_accounts.email``,
``email_verified``, ``email_turns``, ``email_lang``), and the outbox of messages to send
(``dl_outbox``; see dragonlair.web.mail).

Revision 0010_mail, after 0009_votes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_mail"
down_revision = "0009_votes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable columns, and one with a constant default: neither database rewrites the table
    op.add_column("dl_accounts", sa.Column("email", sa.String(254), nullable=True))
    op.add_column("dl_accounts", sa.Column("email_verified", sa.Float, nullable=True))
    op.add_column(
        "dl_accounts",
        sa.Column("email_turns", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("dl_accounts", sa.Column("email_lang", sa.String(8), nullable=True))
    op.create_table(
        "dl_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("due", sa.Float, nullable=True),
        sa.Column("remind_at", sa.Float, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("claimed_by", sa.String(40), nullable=True),
        sa.Column("claimed_until", sa.Float, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("sent", sa.Float, nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
    )
    op.create_index("dl_outbox_once", "dl_outbox", ["kind", "table_id", "seat", "due"], unique=True)
    op.create_index(
        "dl_outbox_pending",
        "dl_outbox",
        ["id"],
        postgresql_where=sa.text("status = 'pending'"),
        sqlite_where=sa.text("status = 'pending'"),
    )
    op.create_index(
        "dl_outbox_remind",
        "dl_outbox",
        ["remind_at"],
        postgresql_where=sa.text("remind_at IS NOT NULL"),
        sqlite_where=sa.text("remind_at IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("dl_outbox_remind", "dl_outbox")
    op.drop_index("dl_outbox_pending", "dl_outbox")
    op.drop_index("dl_outbox_once", "dl_outbox")
    op.drop_table("dl_outbox")
    with op.batch_alter_table("dl_accounts") as batch:
        batch.drop_column("email_lang")
        batch.drop_column("email_turns")
        batch.drop_column("email_verified")
        batch.drop_column("email")
