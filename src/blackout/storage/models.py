"""The tables.  A game is stored as its rules, seed and seats plus the append-only list
of accepted moves; the position is always rebuilt from them by the rules engine."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Account(Base):
    __tablename__ = "accounts"

    userid: Mapped[str] = mapped_column(String(32), primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    # Wrong-password throttling survives restarts because it lives here.
    failures: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # Mail play waits until a code mailed to ``email`` comes back (issue 19.11).
    email_confirmed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    confirm_code_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    confirm_sent_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class GameRow(Base):
    __tablename__ = "games"

    # The board number players quote; the first game is board 101.
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)  # JSON of Rules.options()
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[str] = mapped_column(Text)  # JSON list, in challenge order
    # waiting (seats still open) | active | over | forfeited
    status: Mapped[str] = mapped_column(String(16), default="active")
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON
    created_at: Mapped[datetime] = mapped_column(DateTime)
    last_move_at: Mapped[datetime] = mapped_column(DateTime)
    reminded_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # A live (web) table: bots keep a human pace there and the move clock is short.
    live: Mapped[bool] = mapped_column(Boolean, default=False)
    # A private table is joined only with its invite code (shown to its players).
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Seconds per move (None: no clock); the turn started at ``last_move_at``.
    clock_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Kept in the move's transaction: the position cache checks it, the event stream
    # resumes from it.
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    last_event: Mapped[int] = mapped_column(Integer, default=0)
    # A runner thinking for the seat to move at this move number, until the lease ends:
    # no other process thinks for the same turn meanwhile.
    claimed_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # When the runner must act here next (bot turn, clock, absence); None: nothing to do.
    due_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))  # the name the game was started with
    # Who moves for the seat now: a userid or "bot:NAME" (after a resign or a timeout).
    controller: Mapped[str] = mapped_column(String(32), index=True)
    resigned: Mapped[bool] = mapped_column(Boolean, default=False)
    # An invited seat waits for its player to join; an open seat has no name yet.
    joined: Mapped[bool] = mapped_column(Boolean, default=True)
    # A live player's connection: away for longer than the grace period, a computer
    # player moves for them until they come back.
    connected: Mapped[bool] = mapped_column(Boolean, default=False)
    disconnected_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class MoveRow(Base):
    __tablename__ = "moves"
    # Two moves racing for the same number: the database lets exactly one in.
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_moves_game_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(8))  # player|queued|bot
    comment: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class EventRow(Base):
    """The board's event log: numbered codec JSON, appended in the transaction of the
    change it tells about (so a reconnecting client can be sent what it missed)."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_events_game_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class AnalysisRow(Base):
    """A finished game's post-game analysis (:func:`blackout.analysis.analyse`), worked
    out once on request and kept: it costs seconds of search, and a finished game never
    changes."""

    __tablename__ = "analyses"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    iterations: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)  # JSON of Analysis.to_dict()
    created_at: Mapped[datetime] = mapped_column(DateTime)


class SessionRow(Base):
    """A login: only the SHA-256 of its random token is stored."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    userid: Mapped[str] = mapped_column(ForeignKey("accounts.userid"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    last_used_at: Mapped[datetime] = mapped_column(DateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class LoginThrottle(Base):
    """Failed logins counted per key: an account, a source, or an account from one
    source (keys are stored hashed).  ``known`` marks a source that has logged in to
    the account before: the account-wide lock does not shut it out."""

    __tablename__ = "login_throttle"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    known: Mapped[bool] = mapped_column(Boolean, default=False)


class QueuedMove(Base):
    __tablename__ = "queued_moves"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(16))
    comment: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class OutboxMail(Base):
    """A mail to send, written in the same transaction as the move it tells about, so a
    relay that is down loses nothing: the gateway delivers pending rows and marks them
    sent, and retries failed ones later."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    recipient: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(255))
    # The text is ``summary`` (what happened) then ``body`` (the board as it is now).
    summary: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    # Unsent mails to one recipient on one topic (a board) merge: summaries add up and
    # the newest board replaces the older one.
    topic: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # Not before this time: a retry's backoff, or a delivery in progress (a lease).
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Set when delivery stopped for good: the relay refused the mail permanently (5xx),
    # or it kept failing for ``outbox.GIVE_UP_AFTER``.  ``last_error`` says why.
    given_up_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
