"""One test suite, both engines: the rules-core tests run again against the compiled one.

The tests below run in a child pytest with ``BLACKOUT_ENGINE=compiled``, which makes
``blackout.Game`` the compiled :class:`~blackout.core.fast.FastGame` (see conftest.py);
the same files run against the pure-Python reference in the ordinary run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from blackout.core.fast import COMPILED

ROOT = Path(__file__).resolve().parent.parent

#: The tests of the rules core, the README's example and the documented records.
CORE_TESTS = ("test_actions.py", "test_cards.py", "test_codec.py", "test_docs.py",
              "test_events.py", "test_nullo.py",
              "test_partnership.py", "test_pbmserv.py", "test_potomac.py",
              "test_properties.py", "test_readme.py", "test_record.py", "test_rules.py",
              "test_scoresheet.py", "test_smoke.py", "test_standard.py",
              "test_trick_winner.py")


@pytest.mark.skipif(not COMPILED and not os.environ.get("BLACKOUT_REQUIRE_FAST"),
                    reason="the compiled engine was not built (no C compiler at install)")
def test_the_core_tests_pass_against_the_compiled_engine() -> None:
    env = {**os.environ, "BLACKOUT_ENGINE": "compiled"}
    run = subprocess.run(
        # Not quiet: the report header names the engine the child ran against.
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider",
         *(str(ROOT / "tests" / name) for name in CORE_TESTS)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "blackout engine: blackout.core.fast.CompiledGame" in run.stdout
    assert " passed" in run.stdout
