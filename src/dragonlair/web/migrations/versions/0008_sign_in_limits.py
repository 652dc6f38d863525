"""Sign-in limits shared by every process of the server: the attempts, failures and
sign-ups counted per address (and per address and name), and the pairs locked out
(dragonlair.web.accounts.limits).

Revision 0008_sign_in_limits, after 0007_passkeys.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_sign_in_limits"
down_revision = "0007_passkeys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # two new tables, empty: the counts a process kept in memory before are not carried
    # over (at worst an address gets a fresh budget once, at the upgrade)
    op.create_table(
        "dl_sign_in_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("dl_sign_in_events_key", "dl_sign_in_events", ["kind", "key", "at"])
    op.create_index("dl_sign_in_events_at", "dl_sign_in_events", ["at"])
    op.create_table(
        "dl_sign_in_locks",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("until", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dl_sign_in_locks")
    op.drop_index("dl_sign_in_events_at", "dl_sign_in_events")
    op.drop_index("dl_sign_in_events_key", "dl_sign_in_events")
    op.drop_table("dl_sign_in_events")
