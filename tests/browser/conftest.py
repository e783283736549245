"""The browser table, driven in Debian's Chromium against a real ``blackout serve``.

One server process (a temporary SQLite file, a free port on 127.0.0.1, computer players
moving after 0.05 s) and one Chromium serve the whole module; each test opens its own
browser contexts (one per person) so sessions never mix.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _blackout_command() -> list[str]:
    script = Path(sys.executable).with_name("blackout")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c",
            "import sys; from blackout.cli.main import main; sys.exit(main())"]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running ``blackout serve``."""
    db = tmp_path_factory.mktemp("browser") / "blackout.db"
    port = _free_port()
    log = (db.parent / "serve.log").open("w")
    proc = subprocess.Popen(
        [*_blackout_command(), "serve", "--db", f"sqlite:///{db}", "--port", str(port),
         "--bot-pace", "0.05", "--bot-think", "0.05", "--analysis-iterations", "20",
         "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a busy machine starts a server slowly
        while True:
            try:
                if httpx.get(f"{base}/api/variants", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                raise RuntimeError("blackout serve did not start:\n"
                                   + (db.parent / "serve.log").read_text())
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()
