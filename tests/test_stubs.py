"""The C extensions' stubs (core/_engine.pyi, bots/_fast.pyi) describe the built modules.

mypy reads the stubs, not the C code, so a function added to, renamed in or dropped from
the C code and not from its stub would go unchecked.  mypy's ``stubtest`` imports the
built modules and compares them with their stubs name by name (and every signature the
C code states).  CI sets ``BLACKOUT_REQUIRE_FAST=1``: there a module not built fails.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
