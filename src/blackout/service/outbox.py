"""The outbox: mail is written to the database in the transaction that causes it and
delivered afterwards, so a relay that is down delays mail but never loses it.

Delivery claims due rows first (a lease: ``next_attempt_at`` moves past the time a
delivery may take), so two deliverers never send the same row; a sent row is marked
sent, a refused one waits ``retry_delay(attempts)`` before the next try.  As a mail
server does, the outbox gives a mail up when the relay refuses it for good (a 5xx
answer) or when it has kept failing for ``GIVE_UP_AFTER``; the row stays, with the
reason in ``last_error``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import CursorResult, delete, func, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.sql import ColumnElement

from blackout.storage import Database, OutboxMail

#: How long a claimed row stays claimed; a deliverer that died is retried after this.
#: Each mail is sent on its own within seconds (30 s at most for a relay that hangs), and
#: ``claim`` takes at most CLAIM_LIMIT rows, so two minutes is ample.
LEASE = timedelta(minutes=2)
CLAIM_LIMIT = 20
#: How long sent (and given-up) mail is kept, for the operator to see, before it is
#: deleted: its subject and text are no one's business after that.
RETENTION = timedelta(days=7)
FIRST_RETRY = timedelta(seconds=30)
LAST_RETRY = timedelta(hours=1)
#: How long a mail that keeps failing is retried (a mail server's usual queue lifetime).
GIVE_UP_AFTER = timedelta(days=5)
#: How the subject of an answer to a command begins (delivered after the players' mail).
REPLY_PREFIX = "Re: "


@dataclass(frozen=True)
class Notice:
    """A mail to write to the outbox.  Its text is ``summary`` then ``body``; notices
    with a ``topic`` merge with an unsent mail to the same recipient on that topic."""

    to: str
    subject: str
    body: str
    summary: str = ""
    topic: str | None = None


@dataclass(frozen=True)
class PendingMail:
    """A claimed outbox row, ready to send."""

    id: int
    to: str
    subject: str
    text: str


def _still_to_send() -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    """The rows delivery is still trying: neither sent nor given up."""
    return OutboxMail.sent_at.is_(None), OutboxMail.given_up_at.is_(None)


def retry_delay(attempts: int) -> timedelta:
    """30 s after the first failure, doubling each time, at most an hour."""
    # The exponent is capped: 30 s * 2**n overflows timedelta after about 45 failures.
    return min(FIRST_RETRY * (1 << min(max(attempts - 1, 0), 20)), LAST_RETRY)


class Outbox:
    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock

    def post(self, session: Session, notices: Iterable[Notice]) -> None:
        """Write ``notices`` in the caller's transaction."""
        now = self.clock()
        for notice in notices:
            pending = None if notice.topic is None else session.scalars(
                select(OutboxMail).where(
                    OutboxMail.recipient == notice.to, OutboxMail.topic == notice.topic,
                    OutboxMail.sent_at.is_(None), OutboxMail.attempts == 0,
                ).order_by(OutboxMail.id).limit(1)).first()
            if pending is not None:  # never tried yet, so no deliverer holds it
                pending.summary = "\n".join(s for s in (pending.summary, notice.summary) if s)
                pending.body = notice.body
                pending.subject = notice.subject
                continue
            session.add(OutboxMail(recipient=notice.to, subject=notice.subject,
                                   summary=notice.summary, body=notice.body,
                                   topic=notice.topic, created_at=now, attempts=0,
                                   next_attempt_at=now))
        session.flush()

    def posted(self, topic: str) -> Notice | None:
        """The latest mail written on ``topic`` (kept until purged), to write it again."""
        with self.db.transaction() as session:
            row = session.scalars(select(OutboxMail).where(OutboxMail.topic == topic)
                                  .order_by(OutboxMail.id.desc()).limit(1)).first()
            return None if row is None else Notice(row.recipient, row.subject, row.body,
                                                    row.summary, row.topic)

    def answers_to(self, recipient: str, since: datetime) -> int:
        """How many answers to commands (``Re:``) were written to ``recipient`` since
        ``since``."""
        with self.db.transaction() as session:
            return session.scalar(select(func.count()).select_from(OutboxMail).where(
                func.lower(OutboxMail.recipient) == recipient.lower(),
                OutboxMail.subject.like(f"{REPLY_PREFIX}%"),
                OutboxMail.created_at >= since)) or 0

    def claim(self, limit: int = CLAIM_LIMIT) -> list[PendingMail]:
        """The rows due now, claimed for one delivery attempt: the players' mail
        (boards, reminders, codes) first, then answers to commands (``Re:``), oldest
        first within each, so a flood of answers never holds back a board."""
        now = self.clock()
        with self.db.transaction() as session:
            query = select(OutboxMail).where(
                *_still_to_send(), OutboxMail.next_attempt_at <= now,
            ).order_by(OutboxMail.subject.like(f"{REPLY_PREFIX}%"), OutboxMail.id
                       ).limit(limit)
            if not self.db.is_sqlite:  # SQLite's BEGIN IMMEDIATE already serializes
                query = query.with_for_update(skip_locked=True)
            rows = list(session.scalars(query))
            for row in rows:
                row.attempts += 1
                row.next_attempt_at = now + LEASE
            return [PendingMail(row.id, row.recipient, row.subject,
                                "\n\n".join(p for p in (row.summary, row.body) if p))
                    for row in rows]

    def sent(self, mail_id: int) -> None:
        with self.db.transaction() as session:
            row = session.get(OutboxMail, mail_id)
            if row is not None:
                row.sent_at = self.clock()
                row.last_error = None

    def failed(self, mail_id: int, error: str, permanent: bool = False) -> bool:
        """Record a failed delivery; whether the mail is now given up (``permanent``:
        the relay refused it for good)."""
        now = self.clock()
        with self.db.transaction() as session:
            row = session.get(OutboxMail, mail_id)
            if row is None:
                return False
            row.last_error = error[:500]
            if permanent or now - row.created_at >= GIVE_UP_AFTER:
                row.given_up_at = now
                return True
            row.next_attempt_at = now + retry_delay(row.attempts)
            return False

    def purge(self) -> int:
        """Delete mail sent or given up more than ``RETENTION`` ago; how many."""
        cutoff = self.clock() - RETENTION
        with self.db.transaction() as session:
            done = delete(OutboxMail).where(or_(OutboxMail.sent_at < cutoff,
                                                OutboxMail.given_up_at < cutoff))
            # A DELETE's result is a CursorResult; SQLAlchemy types execute() as Result.
            result: CursorResult[Any] = session.execute(done)  # type: ignore[assignment]
            return result.rowcount or 0

    def pending(self) -> int:
        """How many mails are still to be sent (not sent, not given up)."""
        with self.db.transaction() as session:
            return session.scalar(select(func.count()).select_from(OutboxMail).where(
                *_still_to_send())) or 0
