"""What the type checker relies on and cannot check itself.

The C extensions' stubs (core/_engine.pyi, bots/_fast.pyi) describe the built modules:
mypy reads the stubs, not the C code, so a function added to, renamed in or dropped from
the C code and not from its stub would go unchecked.  mypy's ``stubtest`` imports the
built modules and compares them with their stubs name by name (and every signature the
C code states).  CI sets ``BLACKOUT_REQUIRE_FAST=1``: there a module not built fails.

The optional parts of a bot (``hint``, ``observe``) are runtime-checkable protocols, which
callers test with ``isinstance``: the shipped bots must answer as they are written.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from blackout import bots
from blackout.bots import Bot, Hinter, Observer

MODULES = ("blackout.core._engine", "blackout.bots._fast")


def test_the_stubs_describe_the_built_c_extensions(tmp_path: Path) -> None:
    missing = [m for m in MODULES if importlib.util.find_spec(m) is None]
    if missing:
        if os.environ.get("BLACKOUT_REQUIRE_FAST"):
            pytest.fail(f"not built: {', '.join(missing)}")
        pytest.skip(f"not built: {', '.join(missing)}")
    # In a scratch directory: stubtest keeps mypy's cache in the working directory.
    result = subprocess.run([sys.executable, "-m", "mypy.stubtest", *MODULES],
                            capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


@pytest.mark.parametrize(("name", "hints", "observes"), [
    ("random", False, False), ("basic", True, False), ("expert", True, True)])
def test_the_optional_bot_protocols_tell_the_shipped_bots_apart(
        name: str, hints: bool, observes: bool) -> None:
    # `blackout play` asks its hint bot for hints and lets it observe through these.
    bot = bots.create(name, seed=1)
    assert isinstance(bot, Bot)
    assert isinstance(bot, Hinter) is hints
    assert isinstance(bot, Observer) is observes
