"""Ratings: one per game per player (an account or a bot level) and the record of each
rated game, with whether it counted under the anti-farming rule (dragonlair.web.ratings).

Revision 0004_ratings, after 0004_listing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_ratings"
down_revision = "0004_listing"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dl_ratings",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(48), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("dl_ratings_game", "dl_ratings", ["game"])
    op.create_table(
        "dl_rated_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("party", sa.String(400), nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("counted", sa.Boolean, nullable=False),
        sa.Column("changes", sa.JSON, nullable=False),
    )
    op.create_index("dl_rated_games_party", "dl_rated_games", ["party", "finished"])


def downgrade() -> None:
    op.drop_index("dl_rated_games_party", "dl_rated_games")
    op.drop_table("dl_rated_games")
    op.drop_index("dl_ratings_game", "dl_ratings")
    op.drop_table("dl_ratings")
