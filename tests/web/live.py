"""Real servers and real clients for the web tests.

:class:`ServerThread` runs uvicorn with the app in a thread of the test process, on a
socket bound to a free port of 127.0.0.1; :class:`ServerProcess` runs ``blackout serve``
as a separate process (for several processes on one database, and for kill -9).
:class:`Player` is an httpx client with a session; :class:`Watcher` a WebSocket client in
a thread of its own, keeping every message it receives.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from blackout.service import Services
from blackout.web import create_app

PASSWORDS = {"ann": "ann-pw-1", "bob": "bob-pw-1", "cy": "cy-pw-1", "di": "di-pw-1"}
WAIT = 20.0  # seconds any awaited thing may take before the test fails
ANALYSIS_ITERATIONS = 8  # simulations a move in the analyses the tests ask for
START = 60.0  # seconds a `blackout serve` process may take to answer (a busy machine)


def open_services(url: str) -> Services:
    """Services as the tests want them: bots move at once and think briefly."""
    return Services.open(url=url, bot_pace=0.0, bot_think=0.05, bot_iterations=40, grace=30.0,
                         analysis_iterations=ANALYSIS_ITERATIONS)


def postgres_database(base: str, template: str | None = None) -> Iterator[str]:
    """A URL of a new PostgreSQL database (empty, or a copy of the database at
    ``template``), dropped afterwards."""
    from sqlalchemy import create_engine, make_url, text

    name = f"blackout_web_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    copy = f' TEMPLATE "{make_url(template).database}"' if template else ""
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerThread:
    """uvicorn serving ``create_app(services)`` in a thread, on a free port."""

    def __init__(self, services: Services, **options: Any) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        config = uvicorn.Config(create_app(services, **options), log_level="warning",
                                ws_ping_interval=None)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "server did not start"
            time.sleep(0.01)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)
        self.sock.close()


class ServerProcess:
    """``blackout serve`` in a process of its own."""

    def __init__(self, db_url: str, workers: int = 1, bot_pace: float = 0.0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k != "BLACKOUT_DATABASE_URL"}
        env["BLACKOUT_BOT_THINK"] = "0.05"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "blackout.cli.main", "serve", "--port", str(self.port),
             "--db", db_url, "--workers", str(workers), "--bot-pace", str(bot_pace),
             "--bot-think", "0.05", "--log-level", "warning"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def __enter__(self) -> ServerProcess:
        deadline = time.monotonic() + START
        while True:
            assert self.process.poll() is None, f"server exited: {self.process.communicate()[1]}"
            try:
                if httpx.get(f"{self.url}/api/variants", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.1)

    def kill(self) -> None:
        """kill -9: no goodbye to anyone."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT)

    def __exit__(self, *_: object) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process.stderr:
            self.process.stderr.close()


class Player:
    """One person's HTTP client, logged in."""

    def __init__(self, base_url: str, userid: str, token: str | None) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.userid = userid
        self.token = token
        self.http = httpx.Client(base_url=base_url, headers=headers, timeout=WAIT)

    def close(self) -> None:
        self.http.close()

    def ok(self, method: str, path: str, status: int = 200, **kwargs: Any) -> Any:
        answer = self.http.request(method, path, **kwargs)
        assert answer.status_code == status, (method, path, answer.status_code, answer.text)
        return answer.json() if answer.content else None

    def table(self, board: int) -> dict[str, Any]:
        table: dict[str, Any] = self.ok("GET", f"/api/tables/{board}")
        return table

    def create(self, variant: str, seats: list[str], options: dict[str, Any] | None = None,
               **extra: Any) -> int:
        body = {"variant": variant, "options": options or {}, "seats": seats, **extra}
        board: int = self.ok("POST", "/api/tables", 201, json=body)["board"]
        return board

    def move(self, board: int, action: str, expect: int | None) -> httpx.Response:
        return self.http.post(f"/api/tables/{board}/moves",
                              json={"action": action, "expect": expect})


class Watcher:
    """A WebSocket on a board's event stream, read by a thread into ``messages``."""

    def __init__(self, ws_url: str, board: int, after: int = 0, token: str | None = None):
        query = f"?after={after}" + (f"&token={token}" if token else "")
        self.socket = connect(f"{ws_url}/api/tables/{board}/live{query}", open_timeout=WAIT,
                              max_size=2**24).__enter__()
        self.messages: list[dict[str, Any]] = []
        self.closed = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                with self._changed:
                    self.messages.append(json.loads(text))
                    self._changed.notify_all()
        except Exception:
            pass
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def events(self) -> list[dict[str, Any]]:
        with self._changed:
            return [m for m in self.messages if m["type"] == "event"]

    def last_state(self) -> dict[str, Any]:
        with self._changed:
            return next(m for m in reversed(self.messages) if m["type"] == "state")

    def wait_for_state(self, n: int, timeout: float = WAIT) -> dict[str, Any]:
        """Wait for a state message as of event ``n`` or later; returns its table."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                states = [m for m in self.messages if m["type"] == "state" and m["n"] >= n]
                if states:
                    table: dict[str, Any] = states[0]["table"]
                    return table
                left = deadline - time.monotonic()
                assert left > 0 and not self.closed, f"no state as of event {n}"
                self._changed.wait(left)

    def close(self) -> None:
        self.socket.close()
        self._thread.join(WAIT)
