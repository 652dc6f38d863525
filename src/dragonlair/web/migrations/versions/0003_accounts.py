"""Accounts: an account (name, Argon2id password hash), its server-side sessions (the
digests of their cookies), and the account a seat belongs to, indexed for "my games"
(dragonlair.web.accounts).

Revision 0003_accounts, after 0002.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_accounts"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dl_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=True, unique=True),
        sa.Column("password", sa.String(200), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float, nullable=True),
    )
    op.create_table(
        "dl_sessions",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("dl_accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("dl_sessions_account", "dl_sessions", ["account_id"])
    # a nullable column without a default: PostgreSQL and SQLite add it without rewriting
    # the table, however many finished games it holds
    op.add_column("dl_seats", sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("dl_seats_account", "dl_seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("dl_seats_account", "dl_seats")
    with op.batch_alter_table("dl_seats") as batch:
        batch.drop_column("account_id")
    op.drop_index("dl_sessions_account", "dl_sessions")
    op.drop_table("dl_sessions")
    op.drop_table("dl_accounts")
