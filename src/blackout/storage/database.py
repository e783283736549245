"""Opening the database: the URL, engine settings per backend, and migrations."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

DATABASE_ENV = "BLACKOUT_DATABASE_URL"
MIGRATIONS = Path(__file__).parent / "migrations"
#: The newest migration in ``migrations/versions`` (a test keeps the two in step).
HEAD = "0006"
#: Execution option of :meth:`Database.read` sessions (SQLite: a plain, deferred BEGIN).
READ_ONLY = "blackout_read_only"
#: SQLite's ``synchronous`` settings a URL may ask for (``sqlite:///file?synchronous=full``).
#: The default, ``normal``, is SQLite's advice for WAL mode: a commit survives the process
#: being killed; only a crash of the machine itself may lose the last commits (never the
#: database).  ``full`` also waits for the disk on every commit (about 4 ms here), and a
#: server's writes queue behind that wait.
SQLITE_SYNC = ("off", "normal", "full", "extra")
SQLITE_SYNC_DEFAULT = "normal"
#: How long a SQLite statement waits for another process's lock (ms), and inside
#: :meth:`Database.at_once`, where it does not wait.
BUSY_TIMEOUT_MS = 30_000
NO_WAIT = 0

#: PostgreSQL: the pool of :meth:`Database.on_loop`'s connections.  A live server has many
#: of its moves under way at once on its one event loop, each holding a connection, and a
#: connection opened past the pool and closed after one use costs PostgreSQL a new backend
#: process: with SQLAlchemy's default pool of 5, more than half of PostgreSQL's CPU per move
#: under bench/server.py's load went to that (3.0-3.4 ms a move against 1.2-1.3 ms).
LOOP_POOL = 20
LOOP_OVERFLOW = 10

T = TypeVar("T")

#: Inside :meth:`Database.on_loop` (PostgreSQL): the connection of the asynchronous driver
#: that this task's work runs on.  A context variable, not a thread-local: every task on
#: the event loop's one thread has its own.
_loop_connection: ContextVar[Connection | None] = ContextVar("blackout_loop_connection",
                                                             default=None)


class DatabaseError(ValueError):
    """A database URL that cannot be used."""


class Busy(Exception):
    """Inside :meth:`Database.at_once`: the work would have had to wait for another
    writer, so it was not started (nothing was written)."""


def default_url() -> str:
    """``$BLACKOUT_DATABASE_URL``, else a SQLite file in the user's data directory."""
    url = os.environ.get(DATABASE_ENV)
    if url:
        return url
    import platformdirs

    folder = Path(platformdirs.user_data_dir("blackout", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'blackout.sqlite3'}"


class Database:
    """An engine plus a session factory, with the schema brought up to date."""

    def __init__(self, url: str | None = None, migrate: bool = True) -> None:
        self.url = url or default_url()
        try:
            parsed = make_url(self.url)
        except ArgumentError:
            raise DatabaseError(f"not a database URL: {self.url!r}") from None
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        try:
            self.engine = _sqlite_engine(self.url, self._waits) if self.is_sqlite else (
                create_engine(self.url, pool_pre_ping=True))
        except (ArgumentError, ImportError) as exc:
            raise DatabaseError(f"cannot use database {self.url!r}: {exc}") from None
        # PostgreSQL: the same database through psycopg's asynchronous connections, for
        # work on an event loop (on_loop); made on first use, for the loop it is used on
        # (an asynchronous connection belongs to one loop).
        self._async_engine: AsyncEngine | None = None
        self._async_loop: asyncio.AbstractEventLoop | None = None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._readers = sessionmaker(self.engine.execution_options(**{READ_ONLY: True}),
                                     expire_on_commit=False)
        # SQLite: this process's writers queue here rather than in SQLite's busy handler,
        # which sleeps up to 100 ms between tries and lets a waiter lose again and again
        # (seconds of delay under load).  Reentrant: a nested write fails as before.
        self._writers = threading.RLock() if self.is_sqlite else None
        # Per thread: the open unit of work's session, and whether at_once is in force.
        self._unit = threading.local()
        if migrate:
            self.migrate()

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration."""
        if self.schema_version() == HEAD:
            return  # the common case, without loading Alembic
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def schema_version(self) -> str | None:
        """The migration the database is at (None: an empty database)."""
        try:
            with self.engine.connect() as connection:
                return connection.execute(text("SELECT version_num FROM alembic_version")
                                          ).scalar()
        except SQLAlchemyError:
            return None

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on error.
        Inside :meth:`unit` (in the same thread) it is a savepoint of the unit's
        transaction instead: an error rolls back only this block, and nothing is
        committed before the unit ends."""
        outer: Session | None = getattr(self._unit, "session", None)
        if outer is not None:
            with outer.begin_nested():
                yield outer
            return
        with self._write_lock(), self._sessions(**self._bind()) as session, session.begin():
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session in one transaction that only reads.  On SQLite it does not take the
        write lock (a deferred ``BEGIN``: readers run beside the writer, in WAL mode); a
        write in it is a bug (it could fail with "database is locked").  Inside
        :meth:`unit` it reads in the unit's transaction (a savepoint), so it sees what
        the unit has written so far."""
        outer: Session | None = getattr(self._unit, "session", None)
        if outer is not None:
            with outer.begin_nested():
                yield outer
            return
        with self._readers(**self._bind()) as session, session.begin():
            yield session

    @contextmanager
    def unit(self) -> Iterator[Session]:
        """One transaction for everything this thread does in the block: every
        :meth:`transaction` inside it joins it (as a savepoint), so a request's effects
        and the record of its answer commit together or not at all (the mail gateway's
        command and its reply)."""
        if getattr(self._unit, "session", None) is not None:
            raise RuntimeError("a unit of work is already open in this thread")
        with self._write_lock(), self._sessions() as session, session.begin():
            self._unit.session = session
            try:
                yield session
            finally:
                self._unit.session = None

    @property
    def can_refuse_to_wait(self) -> bool:
        """Whether :meth:`at_once` can tell beforehand that work would wait (SQLite: its
        locks can be tried; PostgreSQL's row locks and round trips cannot)."""
        return self.is_sqlite

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """In this block, this thread's transactions and reads (SQLite) never wait for a
        lock: one that would raises :class:`Busy` and is rolled back.  For work run on an
        event loop, which must not stall behind another writer (a `blackout move` in a
        terminal can hold SQLite's lock up to the 30 s busy timeout): on :class:`Busy`
        the caller hands the same work to a thread, where it waits its turn.  Only
        work whose earlier transactions may be repeated belongs here (reads do)."""
        if not self.can_refuse_to_wait:
            raise RuntimeError("at_once needs SQLite (see can_refuse_to_wait)")
        if getattr(self._unit, "at_once", False):
            yield
            return
        self._unit.at_once = True
        try:
            yield
        except OperationalError as exc:
            if _is_busy(exc):
                raise Busy("another writer holds the database") from None
            raise
        finally:
            self._unit.at_once = False

    async def on_loop(self, work: Callable[[], T]) -> T:
        """``work()`` on the calling event loop without blocking it on the database.

        PostgreSQL: ``work`` runs unchanged, but every session it opens is on a
        connection of psycopg's asynchronous driver, through SQLAlchemy's greenlet
        bridge (``AsyncConnection.run_sync``), so each round trip, and each wait for a
        row lock or a pooled connection, lets the loop serve everyone else meanwhile;
        only ``work``'s own CPU time holds the loop.  One connection for the whole of
        ``work``, its transactions one after another on it.  SQLite (whose driver has
        no such mode): :meth:`at_once`, so :class:`Busy` where it would have waited."""
        if self.can_refuse_to_wait:
            with self.at_once():
                return work()
        async with self._loop_engine().connect() as connection:
            return await connection.run_sync(_run_on, work)

    def _loop_engine(self) -> AsyncEngine:
        loop = asyncio.get_running_loop()
        if self._async_engine is None or self._async_loop is not loop:
            from sqlalchemy.ext.asyncio import create_async_engine

            self._drop_loop_engine()  # another loop's (a server stopped without close_loop)
            self._async_engine = create_async_engine(
                self.url, pool_pre_ping=True, pool_size=LOOP_POOL, max_overflow=LOOP_OVERFLOW)
            self._async_loop = loop
        return self._async_engine

    async def close_loop(self) -> None:
        """Close :meth:`on_loop`'s connections (before the event loop stops)."""
        engine, self._async_engine, self._async_loop = self._async_engine, None, None
        if engine is not None:
            await engine.dispose()

    def _drop_loop_engine(self) -> None:
        if self._async_engine is not None:
            # Its connections belong to a loop that is gone or not this thread's: let
            # them go without awaiting a close there.
            self._async_engine.sync_engine.dispose(close=False)
        self._async_engine, self._async_loop = None, None

    def _bind(self) -> dict[str, Connection]:
        """Inside :meth:`on_loop`: sessions on its connection (else the engine's pool)."""
        connection = _loop_connection.get()
        return {} if connection is None else {"bind": connection}

    def _waits(self) -> bool:
        """Whether this thread's statements may wait for a lock (not inside at_once)."""
        return not getattr(self._unit, "at_once", False)

    @contextmanager
    def _write_lock(self) -> Iterator[None]:
        """This process's SQLite write lock (none on PostgreSQL); tried, not waited for,
        inside :meth:`at_once`."""
        if self._writers is None:
            yield
            return
        if not self._writers.acquire(blocking=self._waits()):
            raise Busy("another thread of this process is writing")
        try:
            yield
        finally:
            self._writers.release()

    def dispose(self) -> None:
        self.engine.dispose()
        self._drop_loop_engine()


def _run_on(connection: Connection, work: Callable[[], T]) -> T:
    """In :meth:`Database.on_loop`'s greenlet: ``work()`` with its sessions on ``connection``."""
    token = _loop_connection.set(connection)
    try:
        return work()
    finally:
        _loop_connection.reset(token)


def _is_busy(exc: OperationalError) -> bool:
    """SQLite's "database is locked" (SQLITE_BUSY, extended codes included)."""
    code = getattr(exc.orig, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == sqlite3.SQLITE_BUSY


def _sqlite_engine(url: str, waits: Callable[[], bool]) -> Engine:
    """``waits()``: False inside :meth:`Database.at_once` (a lock is tried, not waited for)."""
    parsed = make_url(url)
    sync = parsed.query.get("synchronous", SQLITE_SYNC_DEFAULT)
    if not isinstance(sync, str) or sync.lower() not in SQLITE_SYNC:
        raise DatabaseError(f"synchronous= in a SQLite URL is one of {', '.join(SQLITE_SYNC)}"
                            f", not {sync!r}")
    engine = create_engine(parsed.difference_update_query(["synchronous"]),
                           connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # We issue BEGIN ourselves (below), so the driver must not.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={sync.upper()}")  # one of SQLITE_SYNC
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        # Take the write lock at the start: two movers then queue up (busy timeout)
        # instead of both reading the same position and one failing on upgrade.  A
        # read-only transaction (Database.read) takes no lock: WAL gives it a snapshot.
        read_only = connection.get_execution_options().get(READ_ONLY, False)
        begin = "BEGIN" if read_only else "BEGIN IMMEDIATE"
        if waits():
            connection.exec_driver_sql(begin)
            return
        # Inside Database.at_once: the lock is tried once.  (In WAL mode a reader never
        # waits for a writer: only BEGIN IMMEDIATE can meet another's lock.)
        connection.exec_driver_sql(f"PRAGMA busy_timeout={NO_WAIT}")
        try:
            connection.exec_driver_sql(begin)
        finally:
            connection.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    return engine
