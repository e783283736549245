"""The service's parts as the web front uses them (SERVICE_INTERFACE.md), against a real
database: sessions, tables, the event log, the bus, the runner, queries."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime

import pytest

from blackout.service import Services, errors
from blackout.storage import Account, Database

from .conftest import POSTGRES_ENV, postgres_schema_url


@pytest.fixture
def services(database: Database, clock, people) -> Services:
    parts = Services(database, clock=clock, bot_iterations=20, takeover_bot="bot:random")
    yield parts
    parts.bus.close()


def test_login_gives_an_opaque_token_stored_hashed_that_expires_and_is_revoked(
        services, database, clock):
    from sqlalchemy import text

    token = services.sessions.login("ann", "ann-pw", "127.0.0.1")
    assert services.sessions.userid_for(token) == "ann"
    with database.engine.connect() as connection:
        stored = connection.execute(text("SELECT * FROM sessions")).all()
    assert token not in repr(stored)
    clock.advance(days=29)
    assert services.sessions.userid_for(token) == "ann"  # used: the idle time restarts
    clock.advance(days=31)
    with pytest.raises(errors.Unauthorized):
        services.sessions.userid_for(token)
    again = services.sessions.login("ann", "ann-pw", "127.0.0.1")
    services.sessions.logout(again)
    with pytest.raises(errors.Unauthorized):
        services.sessions.userid_for(again)
    with pytest.raises(errors.Unauthorized):
        services.sessions.login("ann", "wrong", "127.0.0.1")


def test_a_table_fills_starts_and_is_played_by_people_and_bots(services):
    seen: list[tuple[int, int]] = []
    unsubscribe = services.bus.subscribe(lambda board, n: seen.append((board, n)))
    created = services.tables.create("ann", "standard", {"schedule": [1, 2]},
                                     ["ann", "open", "bot:basic"], private=False, clock=None)
    board = created["board"]
    assert created["invite"] is None
    state = services.queries.table(board, "ann")
    assert state["status"] == "waiting" and state["view"] is None
    assert [s["kind"] for s in state["seats"]] == ["human", "open", "bot"]
    assert services.queries.lobby(None)["open"][0]["board"] == board
    state = services.tables.join(board, "bob", None, None)
    assert state["status"] == "active" and state["you"] == {"userid": "bob", "seat": 1}
    assert seen and seen[-1] == (board, state["event"])
    for _ in range(50):
        services.runner.run_due()
        state = services.queries.table(board, None)
        if state["status"] != "active":
            break
        seat = state["view"]["to_move"]
        userid = ["ann", "bob"][seat]
        mine = services.queries.table(board, userid)
        action = mine["view"]["legal_actions"][0]
        services.tables.move(board, userid, action, mine["next_move"])
    assert state["status"] == "over"
    events = services.queries.events(board, 0)
    assert [e["n"] for e in events] == list(range(1, len(events) + 1))
    kinds = [e["event"]["type"] for e in events]
    assert kinds[:4] == ["table_created", "seat_joined", "game_started", "hand_dealt"]
    assert kinds[-1] == "game_over" and "trick" in kinds and "hand_scored" in kinds
    assert services.queries.events(board, len(events) - 2) == events[-2:]
    unsubscribe()


def test_refusals_are_typed_and_change_nothing(services):
    board = services.tables.create("ann", "standard", {"schedule": [2]},
                                   ["ann", "bob"], private=True, clock=None)["board"]
    with pytest.raises(errors.Forbidden):
        services.tables.join(board, "cy", None, None)  # private, no invite
    with pytest.raises(errors.Forbidden):
        services.tables.join(board, "cy", None, "wrong-code")
    invite = services.queries.table(board, "ann")["invite"]
    assert services.queries.table(board, None)["invite"] is None
    state = services.tables.join(board, "bob", None, invite)
    assert state["status"] == "active"
    events_before = services.queries.events(board, 0)
    mover = ["ann", "bob"][state["view"]["to_move"]]
    other = "bob" if mover == "ann" else "ann"
    with pytest.raises(errors.Stale) as stale:
        services.tables.move(board, mover, "0", 7)
    assert stale.value.next_move == 1
    with pytest.raises(errors.Stale):
        services.tables.move(board, other, "0", None)
    with pytest.raises(errors.Illegal):
        services.tables.move(board, mover, "AS-nonsense", None)
    with pytest.raises(errors.Forbidden):
        services.tables.move(board, "cy", "0", None)
    with pytest.raises(errors.NotFound):
        services.queries.table(999, None)
    assert services.queries.events(board, 0) == events_before


def test_a_spectator_sees_the_public_view(services):
    board = services.tables.create("ann", "standard", {"schedule": [3]},
                                   ["ann", "bot:random"], private=False, clock=None)["board"]
    public = services.queries.table(board, None)["view"]
    assert public["seat"] is None and public["hands"] == [None, None]
    assert public["legal_actions"] == []
    mine = services.queries.table(board, "ann")["view"]
    assert len(mine["hands"][0]) == 3 and mine["hands"][1] is None


def test_a_mail_move_and_a_web_move_on_one_board_share_the_log_and_the_mail(
        service, database, people):
    """The command language's Service and the web's Services are the same tables: a
    move made by either is in the one event log, and the players of a mail game are
    mailed the board whichever front made it."""
    from sqlalchemy import select

    from blackout import variant
    from blackout.mail import mail_notices
    from blackout.storage import OutboxMail

    web = Services(database, takeover_bot="bot:random")
    web.mail_with(mail_notices)
    service.notifier = mail_notices
    board = service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv", inorder=True),
                              seed=2).board
    state = web.queries.table(board, "ann")
    first = state["view"]["players"][state["view"]["to_move"]]
    service.move(board, first, people[first], "0")  # by mail (or the command line)
    state = web.queries.table(board, None)
    assert state["next_move"] == 2
    last = web.queries.events(board, 0)[-1]["event"]
    assert last["type"] == "bid" and last["bid"] == "0"
    second = state["view"]["players"][state["view"]["to_move"]]
    web.tables.move(board, second, "0", 2)  # on the web
    assert service.snapshot(board).moves[-1].action == "0"
    assert [m.number for m in service.snapshot(board).moves] == [1, 2]
    with database.transaction() as session:
        summaries = [m.summary for m in session.scalars(select(OutboxMail))
                     if m.recipient == "ann@example.org"]
    assert any(f"Move #2: {second} 0" in text for text in summaries)
    web.bus.close()


def _test_a_commit_in_another_process_reaches_this_processs_subscribers(db_url, people):
    """PostgreSQL's LISTEN/NOTIFY (payload "board:n"): a process that did not make the
    change hears of it.  (SQLite is one process: the in-process bus, tested above.)"""
    import threading

    here = Services(Database(db_url), listen=True, takeover_bot="bot:random")
    there = Services(Database(db_url), takeover_bot="bot:random")  # another process's
    assert here.bus._listener is not None and here.bus._listener.ready.wait(10)
    heard: list[tuple[int, int]] = []
    arrived = threading.Event()

    def hear(board: int, n: int) -> None:
        heard.append((board, n))
        arrived.set()

    here.bus.subscribe(hear)
    board = there.tables.create("ann", "standard", {"schedule": [1]}, ["ann", "open"],
                                private=False, clock=None)["board"]
    assert arrived.wait(10)
    assert heard == [(board, 1)]  # table_created, numbered 1
    here.close()
    there.close()


if os.environ.get(POSTGRES_ENV):
    @pytest.fixture
    def postgres_url() -> Iterator[str]:
        yield from postgres_schema_url()

    @pytest.fixture
    def postgres_people(postgres_url, password_hashes):
        database = Database(postgres_url)
        with database.transaction() as session:
            session.add(Account(userid="ann", email="ann@example.org",
                                password_hash=password_hashes["ann"], failures=0,
                                created_at=datetime(2026, 1, 1)))
        database.dispose()

    def test_a_commit_in_another_process_reaches_this_processs_subscribers(
            postgres_url, postgres_people):
        _test_a_commit_in_another_process_reaches_this_processs_subscribers(
            postgres_url, postgres_people)
