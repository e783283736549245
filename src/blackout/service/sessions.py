"""Sessions: log in once (argon2 then), get an opaque random token.

Only the token's SHA-256 is stored, so a copy of the database logs nobody in.  A token
expires after :data:`IDLE_LIMIT` without use and :meth:`Sessions.logout` revokes it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import bindparam, select

from blackout.service.accounts import Accounts
from blackout.service.errors import Unauthorized
from blackout.storage import Database, SessionRow

IDLE_LIMIT = timedelta(days=30)
#: ``last_used_at`` is written at most this often: a read must not write every time.
TOUCH_EVERY = timedelta(hours=1)
NOT_LOGGED_IN = "not logged in (or the session has expired); log in again"
# Every request asks this: built once (building a statement costs more than running it).
_SESSION = select(SessionRow.userid, SessionRow.revoked_at, SessionRow.last_used_at).where(
    SessionRow.token_hash == bindparam("key"))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    def __init__(self, db: Database, clock: Callable[[], datetime],
                 accounts: Accounts) -> None:
        self.db = db
        self.clock = clock
        self.accounts = accounts

    def login(self, userid: str, password: str, source: str | None = None) -> str:
        """A new token for ``userid``; ``source`` (the client's address, the mail
        sender) is what the login throttle counts failures by."""
        self.accounts.verify(userid, password, source)
        token = secrets.token_urlsafe(32)
        now = self.clock()
        with self.db.transaction() as session:
            session.add(SessionRow(token_hash=token_hash(token), userid=userid,
                                   created_at=now, last_used_at=now))
        return token

    def logout(self, token: str) -> None:
        with self.db.transaction() as session:
            row = session.get(SessionRow, token_hash(token))
            if row is not None and row.revoked_at is None:
                row.revoked_at = self.clock()

    def userid_for(self, token: str) -> str:
        """The userid of a live session.  A read-only transaction; ``last_used_at`` is
        written (in a short write of its own) at most every :data:`TOUCH_EVERY`."""
        now = self.clock()
        if not token:
            raise Unauthorized(NOT_LOGGED_IN)
        key = token_hash(token)
        with self.db.read() as session:
            found = session.execute(_SESSION, {"key": key}).first()
        if found is None:
            raise Unauthorized(NOT_LOGGED_IN)
        userid, revoked_at, last_used_at = found
        if revoked_at is not None or now - last_used_at > IDLE_LIMIT:
            raise Unauthorized(NOT_LOGGED_IN)
        stale = now - last_used_at > TOUCH_EVERY
        if stale:
            with self.db.transaction() as session:
                row = session.get(SessionRow, key)
                if row is None or row.revoked_at is not None:
                    raise Unauthorized(NOT_LOGGED_IN)  # revoked meanwhile
                if row.last_used_at < now:
                    row.last_used_at = now
        return userid
