"""Accounts: userids, addresses, passwords (argon2 hashes) and the login throttle.

A wrong password is counted three ways, each with one atomic ``UPDATE ... SET failures =
failures + 1 ... RETURNING`` (so parallel guesses all count, on PostgreSQL too): for the
account from that source, for the source, and for the account.  The first two lock the
guesser out; the account-wide count locks out only sources the account has never logged
in from (its own mail address counts as known), so a stranger's guesses never lock the
owner out of their own mail address or session.  The refusal never says when a lock ends.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from blackout.service.errors import BadRequest, Locked, Unauthorized
from blackout.storage import Account, Database, LoginThrottle

# OWASP's argon2id minimum (19 MiB, 2 passes): a few milliseconds, still costly to guess.
HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)

USERID = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,31}")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
WRONG_PASSWORD = "Invalid password/userid entered"
#: Wrong passwords allowed before a lock: for one account from one source, from one
#: source over all accounts, for one account from sources it does not know.
FREE_FAILURES = 5
FREE_SOURCE_FAILURES = 20
FREE_ACCOUNT_FAILURES = 20
FIRST_LOCK = timedelta(minutes=1)
LONGEST_LOCK = timedelta(hours=1)


def check_userid(userid: str) -> None:
    if not USERID.fullmatch(userid):
        raise BadRequest(f"bad userid {userid!r}: 1 to 32 letters, digits, '_', '.' or '-',"
                         " starting with a letter")


def check_email(email: str) -> None:
    if len(email) > 254 or not EMAIL.fullmatch(email):
        raise BadRequest(f"bad e-mail address {email!r}")


def check_password(password: str) -> None:
    if not 4 <= len(password) <= 128 or any(c.isspace() for c in password):
        raise BadRequest("a password is 4 to 128 characters without spaces")


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def password_matches(stored_hash: str, password: str) -> bool:
    try:
        return HASHER.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def lock_after(failures: int, now: datetime, free: int = FREE_FAILURES) -> datetime | None:
    """When a key with this many consecutive failures may try again (None: now)."""
    if failures < free:
        return None
    # The exponent is capped: a minute times 2**46 does not fit a timedelta.
    return now + min(FIRST_LOCK * (1 << min(failures - free, 10)), LONGEST_LOCK)


def _key(*parts: str | None) -> str:
    return hashlib.sha256("\0".join(p or "" for p in parts).encode()).hexdigest()


class Accounts:
    """Sign-up, password and address changes, and the password check every login and
    every password-carrying command (mail, command line) goes through."""

    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock

    def signup(self, userid: str, email: str, password: str) -> None:
        check_userid(userid)
        check_email(email)
        check_password(password)
        password_hash = hash_password(password)
        try:
            with self.db.transaction() as session:
                if session.get(Account, userid) is not None:
                    raise BadRequest(f"userid {userid} is already taken")
                session.add(Account(userid=userid, email=email, password_hash=password_hash,
                                    failures=0, created_at=self.clock()))
        except IntegrityError:
            raise BadRequest(f"userid {userid} is already taken") from None

    def change_password(self, userid: str, old: str, new: str,
                        source: str | None = None) -> None:
        check_password(new)
        self.verify(userid, old, source)
        new_hash = hash_password(new)
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            if account is not None:
                account.password_hash = new_hash

    def change_address(self, userid: str, password: str, email: str,
                       source: str | None = None) -> None:
        check_email(email)
        self.verify(userid, password, source)
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            if account is not None:
                account.email = email

    def email_of(self, userid: str) -> str | None:
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            return None if account is None else account.email

    def exists(self, userid: str) -> bool:
        with self.db.transaction() as session:
            return session.get(Account, userid) is not None

    # -- the password check and its throttle ---------------------------------------------

    def verify(self, userid: str, password: str, source: str | None) -> None:
        """Raise :class:`Unauthorized` for a wrong userid or password (counted) and
        :class:`Locked` while this source may not try.  Argon2 runs with no
        transaction open: it must not hold SQLite's write lock."""
        pair, origin = _key("pair", userid, source), _key("source", source)
        now = self.clock()
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            rows = {row.key: row for row in session.query(LoginThrottle).filter(
                LoginThrottle.key.in_([pair, origin]))}
            stored = None if account is None else account.password_hash
            known = account is not None and (source == account.email
                                             or (pair in rows and rows[pair].known))
            locked = [row for row in rows.values() if _locked(row.locked_until, now)]
            if account is not None and not known and _locked(account.locked_until, now):
                locked.append(rows.get(pair) or LoginThrottle(key=pair))
        if locked:
            raise Locked(f"too many wrong passwords for {userid}; try again later")
        if stored is None or not password_matches(stored, password):
            self._count_failure(userid if stored is not None else None, pair, origin)
            raise Unauthorized(WRONG_PASSWORD)
        self._count_success(userid, pair)

    def _count_failure(self, userid: str | None, pair: str, origin: str) -> None:
        now = self.clock()
        with self.db.transaction() as session:
            for key, free in ((pair, FREE_FAILURES), (origin, FREE_SOURCE_FAILURES)):
                _ensure_row(session, self.db, key)
                failures = session.execute(
                    update(LoginThrottle).where(LoginThrottle.key == key)
                    .values(failures=LoginThrottle.failures + 1)
                    .returning(LoginThrottle.failures)).scalar_one()
                session.execute(update(LoginThrottle).where(
                    LoginThrottle.key == key, LoginThrottle.failures == failures)
                    .values(locked_until=lock_after(failures, now, free)))
            if userid is not None:
                failures = session.execute(
                    update(Account).where(Account.userid == userid)
                    .values(failures=Account.failures + 1)
                    .returning(Account.failures)).scalar_one()
                session.execute(update(Account).where(
                    Account.userid == userid, Account.failures == failures)
                    .values(locked_until=lock_after(failures, now, FREE_ACCOUNT_FAILURES)))

    def _count_success(self, userid: str, pair: str) -> None:
        with self.db.transaction() as session:
            _ensure_row(session, self.db, pair)
            session.execute(update(LoginThrottle).where(LoginThrottle.key == pair).values(
                failures=0, locked_until=None, known=True))
            session.execute(update(Account).where(
                Account.userid == userid, Account.failures != 0).values(
                failures=0, locked_until=None))


def _locked(until: datetime | None, now: datetime) -> bool:
    return until is not None and until > now


def _ensure_row(session: Session, db: Database, key: str) -> None:
    """Insert the throttle row for ``key`` unless it exists (races allowed)."""
    if db.is_sqlite:
        from sqlalchemy.dialects.sqlite import insert
    else:
        from sqlalchemy.dialects.postgresql import insert  # type: ignore[assignment]
    session.execute(insert(LoginThrottle).values(key=key, failures=0, known=False)
                    .on_conflict_do_nothing())
