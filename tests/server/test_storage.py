"""The schema comes from the packaged Alembic migrations."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, select, text

from blackout.storage import Base, Database
from blackout.storage.database import HEAD, MIGRATIONS


def test_head_constant_matches_the_migration_scripts():
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD


def test_migrations_create_the_tables_the_models_describe(database: Database, db_url: str):
    assert database.schema_version() == HEAD
    inspector = inspect(database.engine)
    for table in Base.metadata.sorted_tables:
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        assert columns == {c.name for c in table.columns}, table.name
    again = Database(db_url)  # opening an up-to-date database changes nothing
    assert again.schema_version() == HEAD
    again.dispose()


def test_a_bad_url_is_one_clear_error():
    import pytest

    from blackout.storage.database import DatabaseError

    with pytest.raises(DatabaseError, match="not a database URL"):
        Database("nonsense")


def test_default_database_is_a_sqlite_file_in_the_data_directory(monkeypatch, tmp_path):
    from blackout.storage import DATABASE_ENV, default_url

    monkeypatch.delenv(DATABASE_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path / 'blackout' / 'blackout.sqlite3'}"
    monkeypatch.setenv(DATABASE_ENV, "postgresql+psycopg://someone@db/blackout")
    assert default_url() == "postgresql+psycopg://someone@db/blackout"


def test_the_database_refuses_a_second_move_with_the_same_number(service, people, database):
    """The backstop under the row lock: (game, move number) is unique."""
    from datetime import datetime

    import pytest
    from sqlalchemy.exc import IntegrityError

    from blackout import variant
    from blackout.storage import MoveRow

    board = service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv"), seed=1).board
    now = datetime(2026, 1, 1)
    with database.transaction() as session:
        session.add(MoveRow(game_id=board, number=1, seat=0, action="0", kind="player",
                            created_at=now))
    with pytest.raises(IntegrityError), database.transaction() as session:
        session.add(MoveRow(game_id=board, number=1, seat=1, action="1", kind="player",
                            created_at=now))


def test_a_database_made_by_the_first_migration_is_upgraded_keeping_its_games(db_url: str):
    """A server's existing 0001 database (rows written as 0001's schema had them):
    opening it adds the outbox, the event log and the live-table columns; games go on."""
    from datetime import datetime

    from alembic import command
    from sqlalchemy import text

    from blackout import Game, variant
    from blackout.mail import Gateway, GatewayConfig
    from blackout.service import Service
    from blackout.service.accounts import hash_password

    old = Database(db_url, migrate=False)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with old.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    assert old.schema_version() == "0001"
    assert "outbox" not in inspect(old.engine).get_table_names()
    rules = variant("standard", schedule=[2])
    game = Game.new(rules, ["ann", "bot:random"], seed=3)
    first = str(game.legal_actions()[0])
    now = datetime(2026, 1, 1)
    with old.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO accounts VALUES ('ann', 'ann@example.org', :hash, 0, NULL, :now)"),
            {"hash": hash_password("ann-pw"), "now": now})
        connection.execute(text(
            "INSERT INTO games VALUES (101, 'standard', :options, 3, :players, 'active', "
            "NULL, :now, :now, NULL, NULL)"),
            {"options": '{"schedule": [2]}', "players": '["ann", "bot:random"]', "now": now})
        for seat, name in enumerate(game.players):
            connection.execute(text("INSERT INTO seats VALUES (101, :seat, :name, :name, :f)"),
                               {"seat": seat, "name": name, "f": False})
        connection.execute(text(
            "INSERT INTO moves (game_id, number, seat, action, kind, comment, created_at) "
            "VALUES (101, 1, :seat, :action, 'player', NULL, :now)"),
            {"seat": game.to_move, "action": first, "now": now})
    old.dispose()

    upgraded = Database(db_url)
    assert upgraded.schema_version() == HEAD == "0006"
    service = Service(upgraded, takeover_bot="bot:random")
    Gateway(service, GatewayConfig())
    after = service.snapshot(101)
    assert [(m.number, m.action) for m in after.moves] == [(1, first)]
    assert after.row.move_count == 1  # filled in by the migration
    while (seat := after.game.to_move) is not None and after.controller(seat) != "ann":
        service.play_bots(101)
        after = service.snapshot(101)
    action = str(after.game.legal_actions()[0])
    number = service.move(101, "ann", "ann-pw", action).events[0].number
    assert service.snapshot(101).moves[number - 1].action == action
    with upgraded.engine.connect() as connection:
        mailed = connection.execute(text("SELECT recipient FROM outbox")).scalars().all()
    assert mailed == ["ann@example.org"]
    upgraded.dispose()


def test_sqlite_waits_for_the_disk_only_when_the_url_asks(tmp_path):
    import pytest

    from blackout.storage.database import DatabaseError

    def synchronous(query: str) -> int:
        db = Database(f"sqlite:///{tmp_path / 'sync.db'}{query}")
        with db.engine.connect() as connection:
            value = connection.exec_driver_sql("PRAGMA synchronous").scalar()
        db.dispose()
        return int(value)

    assert synchronous("") == 1  # NORMAL: SQLite's advice in WAL mode
    assert synchronous("?synchronous=full") == 2
    assert synchronous("?synchronous=FULL") == 2
    with pytest.raises(DatabaseError, match="synchronous= in a SQLite URL is one of"):
        Database(f"sqlite:///{tmp_path / 'sync.db'}?synchronous=sometimes")


def test_at_once_refuses_to_wait_for_a_writer_and_changes_nothing(tmp_path):
    """Inside ``at_once`` a write meeting another writer (another process, or another
    thread of this one) raises Busy at once and writes nothing; outside it, and after it,
    writes wait for the lock as before (the busy timeout is put back)."""
    import sqlite3
    import threading
    import time

    import pytest

    from blackout.storage import Busy, LoginThrottle

    path = tmp_path / "busy.db"
    db = Database(f"sqlite:///{path}")

    def add(key: str) -> None:
        with db.transaction() as session:
            session.add(LoginThrottle(key=key, failures=1))

    def stored() -> list[str]:
        with db.read() as session:
            return sorted(session.scalars(select(LoginThrottle.key)))

    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(Busy), db.at_once():
        add("refused")
    assert time.monotonic() - started < 1.0  # tried, not waited for (the timeout is 30 s)
    with db.at_once():
        assert stored() == []  # a reader does not wait for the writer (WAL)
    releaser = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    releaser.start()
    started = time.monotonic()
    add("waited")  # outside at_once: waits for the other writer, then writes
    assert time.monotonic() - started >= 0.2
    releaser.join()
    with db.engine.connect() as connection:  # every pooled connection waits again
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000

    holding, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:  # another thread of this process, mid-transaction
        with db.transaction():
            holding.set()
            release.wait(5)

    writer = threading.Thread(target=hold_the_lock)
    writer.start()
    assert holding.wait(5)
    with pytest.raises(Busy), db.at_once():
        add("refused too")
    release.set()
    writer.join()
    with db.at_once():
        add("at once")  # nobody else writing: done on the spot
    assert stored() == ["at once", "waited"]
    other.close()
    db.dispose()


def test_at_once_is_for_sqlite_only():
    import pytest

    db = Database("postgresql+psycopg://nobody@127.0.0.1:1/none", migrate=False)
    assert not db.can_refuse_to_wait
    with pytest.raises(RuntimeError, match="SQLite"), db.at_once():
        pass


# PostgreSQL only: SQLite's on_loop is at_once, tested above.
@pytest.mark.parametrize("db_url", ["postgresql"] if os.environ.get("BLACKOUT_TEST_POSTGRES_URL")
                         else [], indirect=True)
def test_on_loop_waits_for_a_row_lock_without_stopping_the_loop(database, db_url):
    """PostgreSQL: work run by ``on_loop`` that meets another transaction's row lock waits
    for it with the event loop still running everything else (the synchronous driver
    would stop the loop for the whole wait), then finishes; two such pieces of work at
    once each have their own connection and transaction."""
    from blackout.storage import LoginThrottle

    with database.transaction() as session:
        session.add(LoginThrottle(key="held", failures=0))

    def bump() -> int:
        with database.transaction() as session:
            # Bounded: were the loop stuck in this wait, the holder could never let go.
            session.execute(text("SET LOCAL lock_timeout = '5s'"))
            row = session.get(LoginThrottle, "held", with_for_update=True)
            assert row is not None
            row.failures += 1
            return row.failures

    def add_slowly(key: str, seconds: float) -> list[str]:
        """Adds ``key``; what its transaction sees ``seconds`` later."""
        with database.transaction() as session:
            session.add(LoginThrottle(key=key, failures=0))
            session.flush()
            session.execute(text("SELECT pg_sleep(:s)"), {"s": seconds})
            return sorted(session.scalars(select(LoginThrottle.key)))

    async def scenario() -> tuple[int, int, list[list[str]]]:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        with database.engine.connect() as holder:  # another transaction holds the row
            holder.execute(text("SELECT key FROM login_throttle WHERE key = 'held' FOR UPDATE"))
            waiting = asyncio.create_task(database.on_loop(bump))
            await asyncio.sleep(0.5)
            assert not waiting.done()  # waiting for the lock
            ticks_while_waiting = ticks
            holder.commit()
        bumped = await asyncio.wait_for(waiting, 10)
        both = await asyncio.gather(database.on_loop(lambda: add_slowly("a", 0.8)),
                                    database.on_loop(lambda: add_slowly("b", 0.1)))
        ticker.cancel()
        await database.close_loop()
        return bumped, ticks_while_waiting, both

    # A loop of its own in a thread of its own (the browser tests' Playwright may have one
    # running in this thread).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        bumped, ticks, both = pool.submit(asyncio.run, scenario()).result()
    assert bumped == 1
    assert ticks >= 20  # the loop went on (about 50 ticks in 0.5 s; none if it was stuck)
    # b ran and committed while a's transaction was open, and never saw a's row
    assert both == [["a", "b", "held"], ["b", "held"]]
    with database.read() as session:
        assert sorted(session.scalars(select(LoginThrottle.key))) == ["a", "b", "held"]
