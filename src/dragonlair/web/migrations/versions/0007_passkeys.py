"""Passkeys: an account's WebAuthn credentials and the challenges handed out for
registering one or signing in with one (dragonlair.web.accounts.passkeys).

Revision 0007_passkeys, after 0006_concede.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_passkeys"
down_revision = "0006_concede"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # two new tables: nothing that exists is rewritten, however many games it holds
    op.create_table(
        "dl_passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("dl_accounts.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index("dl_passkeys_account", "dl_passkeys", ["account_id"])
    op.create_table(
        "dl_passkey_challenges",
        sa.Column("ticket", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("dl_passkey_challenges_expires", "dl_passkey_challenges", ["expires"])


def downgrade() -> None:
    op.drop_index("dl_passkey_challenges_expires", "dl_passkey_challenges")
    op.drop_table("dl_passkey_challenges")
    op.drop_index("dl_passkeys_account", "dl_passkeys")
    op.drop_table("dl_passkeys")
