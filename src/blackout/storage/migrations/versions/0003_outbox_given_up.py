"""The outbox remembers mail it gave up on (refused for good, or failing for days).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as table:
        table.add_column(sa.Column("given_up_at", sa.DateTime, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as table:
        table.drop_column("given_up_at")
