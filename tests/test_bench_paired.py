"""bench/paired.py pairs two versions' bots.py runs deal by deal, and refuses runs whose
deals of the same number hold different cards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _deal(number: int, margin: float, turn_up: int = 7) -> str:
    """One deal's line as bench/bots.py prints it (the fields paired.py reads)."""
    game = {"dealer": number % 4, "hands": [1, 2, 4, 8], "turn_up": turn_up}
    return json.dumps({"deal": number, "margin": margin, "games": [game, game]})


def _write(path: Path, lines: list[str]) -> str:
    # A progress line and a summary line, as in a real run, are to be skipped.
    path.write_text("\n".join(["deal 1/2: margin +1.0 (1 expert)", *lines,
                               json.dumps({"margin_both": 0.0})]) + "\n")
    return str(path)


def _paired(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "bench/paired.py", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_the_difference_is_taken_deal_by_deal(tmp_path: Path) -> None:
    first = [_write(tmp_path / "a0", [_deal(0, 2.0), _deal(1, 4.0)]),
             _write(tmp_path / "a2", [_deal(2, 6.0)])]
    second = _write(tmp_path / "b", [_deal(0, 1.0), _deal(1, 2.0), _deal(2, 6.0),
                                     _deal(3, 9.0)])
    done = _paired(",".join(first), second)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["first:", "+4.00", "±", "4.97", "over", "3", "deals"]
    assert lines[1].split()[1:] == ["+4.50", "±", "5.88", "over", "4", "deals"]
    # Only the three deals both played: differences 1, 2 and 0.
    assert lines[2].split()[:3] == ["first", "-", "second:"]
    assert lines[2].split()[3:] == ["+1.00", "±", "2.48", "over", "3", "deals"]


def test_runs_of_other_cards_are_refused(tmp_path: Path) -> None:
    first = _write(tmp_path / "a", [_deal(0, 2.0)])
    second = _write(tmp_path / "b", [_deal(0, 1.0, turn_up=8)])
    done = _paired(first, second)
    assert done.returncode == 2
    assert "deal 0 holds different cards" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    done = _paired(str(tmp_path / "none"), str(tmp_path / "none"))
    assert done.returncode == 2 and "none" in done.stderr
    assert "Traceback" not in done.stderr
