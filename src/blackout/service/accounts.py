"""Account checks: userids, addresses, passwords (argon2 hashes) and throttling."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from blackout.service.errors import ServiceError

# OWASP's argon2id minimum (19 MiB, 2 passes): a few milliseconds, still costly to guess.
HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)

USERID = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,31}")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
#: Wrong passwords allowed before the account is locked for a while.
FREE_FAILURES = 5
FIRST_LOCK = timedelta(minutes=1)
LONGEST_LOCK = timedelta(hours=1)


def check_userid(userid: str) -> None:
    if not USERID.fullmatch(userid):
        raise ServiceError(f"bad userid {userid!r}: 1 to 32 letters, digits, '_', '.' or '-',"
                           " starting with a letter")


def check_email(email: str) -> None:
    if len(email) > 254 or not EMAIL.fullmatch(email):
        raise ServiceError(f"bad e-mail address {email!r}")


def check_password(password: str) -> None:
    if not 4 <= len(password) <= 128 or any(c.isspace() for c in password):
        raise ServiceError("a password is 4 to 128 characters without spaces")


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def password_matches(stored_hash: str, password: str) -> bool:
    try:
        return HASHER.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def lock_after(failures: int, now: datetime) -> datetime | None:
    """When an account with this many consecutive failures may try again (None: now)."""
    if failures < FREE_FAILURES:
        return None
    # The lock doubles up to the longest; the exponent is capped first, since 2 ** 40
    # minutes is past the largest timedelta (an OverflowError that stopped the counting).
    doublings = min(failures - FREE_FAILURES, _DOUBLINGS_TO_LONGEST)
    return now + min(FIRST_LOCK * 2 ** doublings, LONGEST_LOCK)


_DOUBLINGS_TO_LONGEST = (LONGEST_LOCK // FIRST_LOCK).bit_length()
