"""When each board's next turn is due to the runner (indexed, so the runner reads only
the boards with something to do), and e-mail address confirmation.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # When the runner must act on the board (a computer player's turn, a move clock, an
    # absent player's grace); NULL when only a person can move or the game is over.
    op.add_column("games", sa.Column("due_at", sa.DateTime, nullable=True))
    op.create_index("ix_games_due_at", "games", ["due_at"])
    # A mail address is confirmed (a code sent to it came back) before mail play.
    op.add_column("accounts", sa.Column("email_confirmed_at", sa.DateTime, nullable=True))
    op.add_column("accounts", sa.Column("confirm_code_hash", sa.String(64), nullable=True))
    op.add_column("accounts", sa.Column("confirm_sent_at", sa.DateTime, nullable=True))
    # Accounts made before confirmation existed keep playing: their address was in use.
    op.execute("UPDATE accounts SET email_confirmed_at = created_at")


def downgrade() -> None:
    op.drop_column("accounts", "confirm_sent_at")
    op.drop_column("accounts", "confirm_code_hash")
    op.drop_column("accounts", "email_confirmed_at")
    op.drop_index("ix_games_due_at", table_name="games")
    op.drop_column("games", "due_at")
