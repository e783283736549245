"""Accounts: userids, addresses, passwords (argon2 hashes) and the login throttle.

A wrong password is counted three ways, each with one atomic ``UPDATE ... SET failures =
failures + 1 ... RETURNING`` (so parallel guesses all count, on PostgreSQL too): for the
account from that source, for the source, and for the account.  The first two lock the
guesser out; the account-wide count locks out only sources the account has never logged
in from (its own mail address counts as known), so a stranger's guesses never lock the
owner out of their own mail address or session.  The refusal never says when a lock ends.

An address is confirmed before mail play (issue 19.11): signing up or changing the
address mails a random code to it (only its SHA-256 is stored; it expires after
``CODE_LIFETIME``), and ``confirm USERID CODE`` (a reply to that mail does it) confirms
it.  Until then no board mail goes to the address and mail commands that act on games
are refused.  An address is the confirmed address of one account at most: confirming it
for a second account is refused.  Codes to one address go out at most once per
``RESEND_AFTER``; wrong codes are throttled like wrong passwords.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import ColumnElement, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from blackout.service.errors import BadRequest, Forbidden, Locked, NotFound, Unauthorized
from blackout.service.outbox import Notice, Outbox
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
#: A confirmation code: 10 characters of an alphabet without look-alikes (50 bits).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
CODE_LIFETIME = timedelta(days=2)
#: At most one confirmation mail per address in this time (a stranger signing up with
#: someone else's address cannot flood it).
RESEND_AFTER = timedelta(minutes=10)


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


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def code_hash(userid: str, email: str, code: str) -> str:
    """What is stored of a code: bound to the account and the address it was sent to."""
    return hashlib.sha256("\0".join((userid, email.lower(), code.strip().upper()))
                          .encode()).hexdigest()


def how_to_confirm(userid: str) -> str:
    return (f"reply to the confirmation mail (Subject: blackout confirm {userid} CODE), "
            f"or mail 'blackout confirm {userid}' for a new code")


def _key(*parts: str | None) -> str:
    return hashlib.sha256("\0".join(p or "" for p in parts).encode()).hexdigest()


class Accounts:
    """Sign-up, password and address changes, and the password check every login and
    every password-carrying command (mail, command line) goes through."""

    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock
        self.outbox = Outbox(db, clock)

    def signup(self, userid: str, email: str, password: str) -> str:
        """Create the account and mail a confirmation code to ``email``; what was done
        about the code (one line for the user)."""
        check_userid(userid)
        check_email(email)
        check_password(password)
        password_hash = hash_password(password)
        try:
            with self.db.transaction() as session:
                if session.get(Account, userid) is not None:
                    raise BadRequest(f"userid {userid} is already taken")
                account = Account(userid=userid, email=email, password_hash=password_hash,
                                  failures=0, created_at=self.clock())
                session.add(account)
                session.flush()
                return self._send_code(session, account)
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
                       source: str | None = None) -> str:
        """Change the address; a new one is unconfirmed until its code comes back.
        What was done about the code (one line for the user)."""
        check_email(email)
        self.verify(userid, password, source)
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            if account is None:
                raise NotFound(f"no account {userid}")
            if account.email.lower() == email.lower() and account.email_confirmed_at:
                account.email = email
                return f"{email} is already confirmed"
            account.email = email
            account.email_confirmed_at = None
            account.confirm_code_hash = None
            return self._send_code(session, account)

    def email_of(self, userid: str) -> str | None:
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            return None if account is None else account.email

    # -- address confirmation ---------------------------------------------------------------

    def _send_code(self, session: Session, account: Account) -> str:
        """Mail a new code to the account's address, unless one went to that address
        less than ``RESEND_AFTER`` ago; what was done, for the user."""
        wait = self._wait_before_sending(session, account)
        if wait is not None:
            return wait
        code = new_code()
        account.confirm_code_hash = code_hash(account.userid, account.email, code)
        account.confirm_sent_at = self.clock()
        self.outbox.post(session, [confirmation_mail(account.userid, account.email, code)])
        return (f"a confirmation code was mailed to {account.email}: reply to that mail (or "
                f"send 'blackout confirm {account.userid} CODE') to play by mail")

    def _wait_before_sending(self, session: Session, account: Account) -> str | None:
        """Why no code may go to the account's address now (None: one may)."""
        now = self.clock()
        recent = session.scalar(select(func.max(Account.confirm_sent_at)).where(
            func.lower(Account.email) == account.email.lower()))
        if recent is None or now - recent >= RESEND_AFTER:
            return None
        minutes = -(-(RESEND_AFTER - (now - recent)).total_seconds() // 60)
        return (f"a confirmation code went to {account.email} a moment ago; mail "
                f"'blackout confirm {account.userid}' for a new one in {minutes:.0f} "
                "minutes")

    def resend(self, userid: str) -> str:
        """Mail a new code to the account's unconfirmed address (throttled)."""
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            if account is None:
                raise NotFound(f"no account {userid}")
            if account.email_confirmed_at is not None:
                return f"the address of {userid} is already confirmed"
            wait = self._wait_before_sending(session, account)
            if wait is not None:
                raise Forbidden(wait)
            return self._send_code(session, account)

    def confirm(self, userid: str, code: str, source: str | None = None) -> str:
        """Confirm the account's address with the code mailed to it."""
        pair = _key("confirm", userid, source)
        now = self.clock()
        with self.db.transaction() as session:
            row = session.get(LoginThrottle, pair)
            if row is not None and _locked(row.locked_until, now):
                raise Locked(f"too many wrong codes for {userid}; try again later")
            account = session.get(Account, userid)
            if account is None:
                raise NotFound(f"no account {userid}")
            if account.email_confirmed_at is not None:
                return f"the address of {userid} ({account.email}) is already confirmed"
            stored = account.confirm_code_hash
            fresh = account.confirm_sent_at is not None and \
                now - account.confirm_sent_at <= CODE_LIFETIME
            right = stored is not None and hmac.compare_digest(
                stored, code_hash(userid, account.email, code))
            email = account.email
        if not (right and fresh):
            self._count_code_failure(pair)
            raise Unauthorized(f"wrong or expired confirmation code for {userid}; mail "
                               f"'blackout confirm {userid}' for a new one")
        with self.db.transaction() as session:
            # Every account with this address, locked (PostgreSQL; SQLite's writer lock
            # serializes anyway): two confirmations of one address cannot both succeed.
            query = select(Account).where(func.lower(Account.email) == email.lower()) \
                .order_by(Account.userid)
            if not self.db.is_sqlite:
                query = query.with_for_update()
            holders = list(session.scalars(query))
            if any(a.userid != userid and a.email_confirmed_at is not None for a in holders):
                raise Forbidden(f"{email} is already the confirmed address of another "
                                "account; an address plays for one account only")
            account = next((a for a in holders if a.userid == userid), None)
            if account is None or account.confirm_code_hash != stored:
                raise Forbidden(f"the address of {userid} changed meanwhile; try again")
            account.email_confirmed_at = now
            account.confirm_code_hash = None
        return f"the address of {userid} ({email}) is confirmed: mail play is open"

    def is_confirmed(self, userid: str) -> bool:
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            return account is not None and account.email_confirmed_at is not None

    def require_confirmed(self, userid: str) -> None:
        """Mail play needs a confirmed address: raise :class:`Forbidden` otherwise."""
        if not self.is_confirmed(userid):
            raise Forbidden(f"the address of {userid} is not confirmed yet: "
                            f"{how_to_confirm(userid)}")

    def confirmed_owner(self, email: str) -> str | None:
        """The account whose confirmed address ``email`` is (None: none)."""
        with self.db.transaction() as session:
            return session.scalars(select(Account.userid).where(
                func.lower(Account.email) == email.lower(),
                Account.email_confirmed_at.is_not(None)).order_by(Account.userid)
                .limit(1)).first()

    def _count_code_failure(self, pair: str) -> None:
        now = self.clock()
        with self.db.transaction() as session:
            self._count_throttled(session, pair, now, FREE_FAILURES)

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
                self._count_throttled(session, key, now, free)
            if userid is not None:
                _count_on(session, Account, Account.userid == userid, now,
                          FREE_ACCOUNT_FAILURES)

    def _count_throttled(self, session: Session, key: str, now: datetime, free: int) -> None:
        """One more failure on throttle row ``key``, counted atomically, and its lock."""
        _ensure_row(session, self.db, key)
        _count_on(session, LoginThrottle, LoginThrottle.key == key, now, free)

    def _count_success(self, userid: str, pair: str) -> None:
        with self.db.transaction() as session:
            _ensure_row(session, self.db, pair)
            session.execute(update(LoginThrottle).where(LoginThrottle.key == pair).values(
                failures=0, locked_until=None, known=True))
            session.execute(update(Account).where(
                Account.userid == userid, Account.failures != 0).values(
                failures=0, locked_until=None))


def confirmation_mail(userid: str, email: str, code: str) -> Notice:
    """The mail with the code; its Subject is the command, so a plain reply confirms."""
    minutes = int(RESEND_AFTER.total_seconds() // 60)
    return Notice(email, f"blackout confirm {userid} {code}", "\n".join([
        f"Someone (we hope you) gave this address for the Blackout account {userid}.",
        "",
        "To confirm it, reply to this mail (keep the Subject), or send a mail with the",
        f"Subject:  blackout confirm {userid} {code}",
        "",
        f"The code is valid for {CODE_LIFETIME.days} days.  Until the address is "
        "confirmed, no board",
        "mail is sent to it and mail commands that play are refused.  For a new code,",
        f"mail 'blackout confirm {userid}' (at most one every {minutes} minutes).",
        "If you did not sign up, ignore this mail: nothing more will come.",
    ]))


def _locked(until: datetime | None, now: datetime) -> bool:
    return until is not None and until > now


def _ensure_row(session: Session, db: Database, key: str) -> None:
    """Insert the throttle row for ``key`` unless it exists (races allowed)."""
    if db.is_sqlite:
        from sqlalchemy.dialects.sqlite import insert
    else:
        # Another dialect's insert, with the same on_conflict_do_nothing.
        from sqlalchemy.dialects.postgresql import insert  # type: ignore[assignment]
    session.execute(insert(LoginThrottle).values(key=key, failures=0, known=False)
                    .on_conflict_do_nothing())


def _count_on(session: Session, model: type[Account] | type[LoginThrottle],
              row: ColumnElement[bool], now: datetime, free: int) -> None:
    """One more failure on the ``model`` row that ``row`` picks, counted atomically (the
    database adds one and says the new count), then its lock after ``free`` failures:
    set only if no other failure was counted meanwhile (that one sets its own)."""
    failures = session.execute(
        update(model).where(row).values(failures=model.failures + 1)
        .returning(model.failures)).scalar_one()
    session.execute(update(model).where(row, model.failures == failures)
                    .values(locked_until=lock_after(failures, now, free)))
