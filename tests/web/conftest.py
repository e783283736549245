"""Fixtures for the web tests: a real uvicorn server on a free 127.0.0.1 port serving the
app on a fresh database (SQLite always, PostgreSQL too with ``BLACKOUT_TEST_POSTGRES_URL``),
and players with sessions.

Every test's database is a copy of one made once per run (schema, the four accounts and a
session for each): argon2 makes signing up and logging in slow on purpose, and the copy
(a file copy, or PostgreSQL's ``CREATE DATABASE ... TEMPLATE``) takes milliseconds.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from .live import PASSWORDS, Player, ServerThread, open_services, postgres_database

POSTGRES_ENV = "BLACKOUT_TEST_POSTGRES_URL"
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get(POSTGRES_ENV) else [])


@dataclass
class Template:
    url: str
    tokens: dict[str, str] = field(default_factory=dict)


def fill(url: str) -> Template:
    """The schema, the accounts and a session token for each."""
    services = open_services(url)
    try:
        for userid, password in PASSWORDS.items():
            services.accounts.signup(userid, f"{userid}@example.org", password)
        tokens = {userid: services.sessions.login(userid, password, None)
                  for userid, password in PASSWORDS.items()}
    finally:
        services.close()
    return Template(url, tokens)


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Template]]:
    made: dict[str, Template] = {}
    cleanups = []
    for backend in BACKENDS:
        if backend == "sqlite":
            made[backend] = fill(f"sqlite:///{tmp_path_factory.mktemp('web') / 'template.db'}")
        else:
            database = postgres_database(os.environ[POSTGRES_ENV])
            made[backend] = fill(next(database))
            cleanups.append(database)
    yield made
    for database in cleanups:
        next(database, None)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def db_url(backend: str, templates: dict[str, Template], tmp_path) -> Iterator[str]:
    template = templates[backend]
    if backend == "sqlite":
        copy = tmp_path / "web.db"
        shutil.copyfile(template.url.removeprefix("sqlite:///"), copy)
        yield f"sqlite:///{copy}"
        return
    yield from postgres_database(os.environ[POSTGRES_ENV], template=template.url)


@pytest.fixture
def tokens(backend: str, templates: dict[str, Template]) -> dict[str, str]:
    """userid -> a valid session token, for ann, bob, cy and di."""
    return templates[backend].tokens


@pytest.fixture
def services(db_url: str):
    services = open_services(db_url)
    yield services
    services.close()


@pytest.fixture
def server(services) -> Iterator[ServerThread]:
    with ServerThread(services) as running:
        yield running


@pytest.fixture
def players(server: ServerThread, tokens: dict[str, str]) -> Iterator[dict[str, Player]]:
    """ann, bob, cy and di, logged in (each with a session token)."""
    people = {userid: Player(server.url, userid, token) for userid, token in tokens.items()}
    yield people
    for person in people.values():
        person.close()

