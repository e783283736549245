"""Fixtures for the server tests: a fresh database per test, SQLite always and
PostgreSQL too when ``BLACKOUT_TEST_POSTGRES_URL`` is set (a schema per test, dropped
afterwards), a settable clock, and accounts."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest

from blackout.service import Service
from blackout.service.accounts import hash_password
from blackout.storage import Account, Database

POSTGRES_ENV = "BLACKOUT_TEST_POSTGRES_URL"
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get(POSTGRES_ENV) else [])


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.db'}"
        return
    yield from postgres_schema_url()


def postgres_schema_url() -> Iterator[str]:
    """A URL whose connections work in a new, empty schema; the schema is dropped after."""
    from sqlalchemy import create_engine, text

    base = os.environ[POSTGRES_ENV]
    schema = f"blackout_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    joiner = "&" if "?" in base else "?"
    try:
        yield f"{base}{joiner}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment for the real ``blackout`` executable: no database from the
    developer's environment, and compiled bytecode kept between the many short runs
    (outside the source tree), which makes each run about a fifth faster."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("BLACKOUT_DATABASE_URL", "PYTHONDONTWRITEBYTECODE")}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path_factory.mktemp("pycache"))
    return env


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    db = Database(db_url)
    yield db
    db.dispose()


@pytest.fixture
def service(database: Database, clock: Clock) -> Service:
    return Service(database, clock=clock, takeover_bot="bot:random")


PLAYERS = {"ann": "ann-pw", "bob": "bob-pw", "cy": "cy-pw", "di": "di-pw", "ed": "ed-pw"}


@pytest.fixture(scope="session")
def password_hashes() -> dict[str, str]:
    """Argon2 hashes of the players' passwords, computed once (hashing is slow on purpose)."""
    return {userid: hash_password(password) for userid, password in PLAYERS.items()}


@pytest.fixture
def people(database: Database, clock: Clock, password_hashes: dict[str, str]) -> dict[str, str]:
    """Five accounts with confirmed addresses (``signup`` and confirmation are tested on
    their own): userid -> password."""
    with database.transaction() as session:
        session.add_all(Account(userid=userid, email=f"{userid}@example.org",
                                password_hash=password_hashes[userid], failures=0,
                                created_at=clock(), email_confirmed_at=clock())
                        for userid in PLAYERS)
    return dict(PLAYERS)
