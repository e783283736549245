"""Fixtures for the web tests: a real uvicorn server on a free 127.0.0.1 port serving the
app on a fresh database (SQLite always, PostgreSQL too with ``BLACKOUT_TEST_POSTGRES_URL``),
and players with sessions."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from .live import PASSWORDS, Player, ServerThread, open_services, postgres_database

POSTGRES_ENV = "BLACKOUT_TEST_POSTGRES_URL"
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get(POSTGRES_ENV) else [])


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'web.db'}"
        return
    yield from postgres_database(os.environ[POSTGRES_ENV])


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
def players(server: ServerThread, services) -> Iterator[dict[str, Player]]:
    """ann, bob, cy and di, signed up and logged in."""
    for userid, password in PASSWORDS.items():
        services.accounts.signup(userid, f"{userid}@example.org", password)
    people = {userid: Player.login(server.url, userid) for userid in PASSWORDS}
    yield people
    for person in people.values():
        person.close()
