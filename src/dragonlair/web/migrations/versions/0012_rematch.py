"""Where a finished table's rematch is: a ``rematch`` column on each table (``{"table":
id, "by": seat}``, until now only in the memory of the process that made it), so that any
process tells a seat reconnecting to the finished table where its rematch is.

Revision 0012_rematch, after 0011_waiting_address.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_rematch"
down_revision = "0011_waiting_address"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("dl_tables", sa.Column("rematch", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("dl_tables") as batch:
        batch.drop_column("rematch")
