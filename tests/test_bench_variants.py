"""Every variant of the expert in bench/variants still plays.

bench/RESULTS.md gives the command that reproduces each variant's figures.  The variants
reach into the bots' internals (a function or constant swapped for one decision, a
method overridden), so a change to the shipped bot can leave one naming what is no
longer there; mypy sees some of that, and only a game sees the rest (an attribute swapped
by name).  Each variant plays one 3-card deal in every seat against three basic bots at
5 iterations a decision, by the documented command, in a process of its own: some
variants change the shipped models for the whole process they run in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "bench" / "variants"
NAMES = sorted(p.stem for p in VARIANTS.glob("*.py") if not p.stem.startswith("_"))


def _run(args: list[str], env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    # Only what the test gives: a variant's setting from the caller's shell would change it.
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("BLACKOUT_")}
    environment = {**inherited, "PYTHONPATH": f"{VARIANTS}{os.pathsep}{ROOT / 'bench'}",
                   **(env or {})}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=300)


def _play(name: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return _run(["bench/ab.py", f"module:{name}", "--cards", "3", "--deals", "0", "1",
                 "--iterations", "5", "--field", "basic"], env)


def test_the_readme_describes_every_variant() -> None:
    # A module the README's table does not name is an experiment nobody can read of.
    table = (VARIANTS / "README.md").read_text()
    for name in NAMES:
        assert f"`{name}`" in table, f"bench/variants/README.md does not describe {name}"
    assert len(NAMES) >= 20


@pytest.mark.parametrize("name", NAMES)
def test_variant_plays_a_deal(name: str, tmp_path: Path) -> None:
    env = None
    if name == "direct":
        env = {"BLACKOUT_LOCATIONS": str(_location_weights(tmp_path))}
    done = _play(name, env)
    assert done.returncode == 0, done.stderr
    deal = json.loads(done.stdout.splitlines()[0])
    assert deal["deal"] == 0 and isinstance(deal["margin"], float)
    assert f"module:{name} vs basic, 3 cards" in done.stdout


def test_direct_without_its_weights_says_what_to_give() -> None:
    done = _play("direct")
    assert done.returncode != 0
    assert "BLACKOUT_LOCATIONS=FILE" in done.stderr
    assert "Traceback" not in done.stderr


def _location_weights(folder: Path) -> Path:
    """A weights file in ``bench/locations.py --save``'s form, every weight 0.1 (the
    play is not what is checked: that the weights are read and applied is)."""
    path = folder / "locations.json"
    made = _run(["-c", "import json, sys; from locations import FEATURES; "
                 "json.dump({'features': FEATURES, 'weights': [0.1] * len(FEATURES)}, "
                 "open(sys.argv[1], 'w'))", str(path)])
    assert made.returncode == 0, made.stderr
    return path
