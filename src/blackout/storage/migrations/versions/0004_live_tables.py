"""Live tables: the board's event log, sessions, login throttling by source, table
settings (private, invite, move clock, live), seat presence, and counters the position
cache and the event stream check.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite has it): a batch copy of ``games`` would break the
    # foreign keys of seats and moves.
    op.add_column("games", sa.Column("live", sa.Boolean, nullable=False,
                  server_default=sa.false()))
    op.add_column("games", sa.Column("private", sa.Boolean, nullable=False,
                  server_default=sa.false()))
    op.add_column("games", sa.Column("invite", sa.String(32), nullable=True))
    op.add_column("games", sa.Column("clock_seconds", sa.Float, nullable=True))
    op.add_column("games", sa.Column("move_count", sa.Integer, nullable=False,
                  server_default="0"))
    op.add_column("games", sa.Column("last_event", sa.Integer, nullable=False,
                  server_default="0"))
    op.add_column("games", sa.Column("claimed_move", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("claimed_until", sa.DateTime, nullable=True))
    # Games stored before this migration: their move count is their number of moves.
    op.execute("UPDATE games SET move_count = (SELECT COUNT(*) FROM moves "
               "WHERE moves.game_id = games.id)")
    op.add_column("seats", sa.Column("joined", sa.Boolean, nullable=False,
                  server_default=sa.true()))
    op.add_column("seats", sa.Column("connected", sa.Boolean, nullable=False,
                  server_default=sa.false()))
    op.add_column("seats", sa.Column("disconnected_at", sa.DateTime, nullable=True))
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False,
                  index=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("game_id", "number", name="uq_events_game_number"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("userid", sa.String(32), sa.ForeignKey("accounts.userid"),
                  nullable=False, index=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("last_used_at", sa.DateTime, nullable=False),
        sa.Column("revoked_at", sa.DateTime, nullable=True),
    )
    op.create_table(
        "login_throttle",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.DateTime, nullable=True),
        sa.Column("known", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("login_throttle")
    op.drop_table("sessions")
    op.drop_table("events")
    with op.batch_alter_table("seats") as table:
        for column in ("disconnected_at", "connected", "joined"):
            table.drop_column(column)
    with op.batch_alter_table("games") as table:
        for column in ("claimed_until", "claimed_move", "last_event", "move_count",
                       "clock_seconds", "invite", "private", "live"):
            table.drop_column(column)
