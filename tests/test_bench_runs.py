"""The bench tools that read bench/bots.py runs, all through bench/runs.py: paired.py pairs
two versions' runs deal by deal and refuses runs whose deals of the same number hold
different cards; bid_split.py splits a run's margin by bids; out_of_reach.py finds where an
expert's bid goes out of reach and what its rivals then make; every tool skips progress and
summary lines and names the file and line of anything else; paired.py and bid_split.py end
quietly when their reader stops early."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _deal(number: int, margin: float, turn_up: int = 7) -> str:
    """One deal's line as bench/bots.py prints it (the fields the tools read)."""
    game = {"dealer": number % 4, "hands": [1, 2, 4, 8], "turn_up": turn_up,
            "bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0], "experts": [0, 2]}
    return json.dumps({"deal": number, "margin": margin, "games": [game, game]})


def _write(path: Path, lines: list[str]) -> str:
    # A progress line and a summary line, as in a real run, are to be skipped.
    path.write_text("\n".join(["deal 1/2: margin +1.0 (1 expert)", *lines,
                               json.dumps({"margin_both": 0.0})]) + "\n")
    return str(path)


def _bench(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, f"bench/{tool}", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def _paired(*args: str) -> subprocess.CompletedProcess[str]:
    return _bench("paired.py", *args)


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


def test_a_line_that_is_not_a_run_is_named_by_file_and_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.write_text(_deal(0, 1.0) + "\n" + '{"deal": 1, "margin": ' + "\n")
    for tool, args in (("paired.py", [str(broken), str(broken)]),
                       ("bid_split.py", [str(broken)])):
        done = _bench(tool, *args)
        assert done.returncode == 2, tool
        assert f"{broken}:2: not a JSON line" in done.stderr, tool
        assert "Traceback" not in done.stderr and not done.stdout, tool


def test_bid_split_compares_the_same_cards_seat_by_seat(tmp_path: Path) -> None:
    # One card each.  Seat 0 held by the expert in the first game bids 1 and takes the
    # trick (11 points); ISMCTS on its cards bids 0 and takes it too (1 point).  The three
    # other seats bid 0 and take nothing under both (10 points each).
    first = {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0], "experts": [0, 2]}
    second = {"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0], "experts": [1, 3]}
    run = _write(tmp_path / "run", [json.dumps({"deal": 0, "margin": 2.5,
                                                "games": [first, second]})])
    done = _bench("bid_split.py", run)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["deals"] == 1 and found["seat_hands"] == 4
    assert found["points_a_seat_hand"] == {"expert": 10.25, "ismcts": 7.75}
    higher = found["groups"]["expert bid higher"]
    assert (higher["share"], higher["exact_expert"], higher["exact_ismcts"]) == (0.25, 1, 0)
    assert higher["points_a_seat_hand"] == 10
    assert found["groups"]["same bid"]["points_a_seat_hand"] == 0
    assert "expert bid lower" not in found["groups"]


def test_a_deal_twice_on_one_side_is_refused(tmp_path: Path) -> None:
    half = _write(tmp_path / "half", [_deal(0, 2.0)])
    done = _paired(f"{half},{half}", half)
    assert done.returncode == 2
    assert f"deal 0 is in {half} and in an earlier file" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_a_reader_that_stops_early_ends_the_output_quietly(tmp_path: Path) -> None:
    # `paired.py a b | head -1`: the pipe is closed before the tool writes its answer.
    run = _write(tmp_path / "a", [_deal(0, 2.0)])
    for tool, args in (("paired.py", [run, run]), ("bid_split.py", [run])):
        tool_run = subprocess.Popen([sys.executable, f"bench/{tool}", *args], cwd=ROOT,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert tool_run.stdout is not None
        tool_run.stdout.close()
        _, errors = tool_run.communicate(timeout=60)
        assert tool_run.returncode == 0, errors
        assert not errors, errors


def _three_card_record(experts: list[int]) -> dict[str, object]:
    """A 3-card deal as bench/bots.py records it: spades are trump and seat 1, who leads,
    holds the top three; every seat bids 0 and plays its cards in order, so seat 1's bid is
    out of reach once it takes the first trick, with two cards still in its hand."""
    from blackout.core.cards import Card

    hands = [["2C", "3C", "4C"], ["AS", "KS", "QS"], ["2D", "3D", "4D"], ["2H", "3H", "4H"]]
    plays = [hands[seat][trick] for trick in range(3) for seat in (1, 2, 3, 0)]
    return {"dealer": 0, "turn_up": int(Card.parse("5S")), "bids": [0, 0, 0, 0],
            "tricks": [0, 3, 0, 0], "experts": experts,
            "hands": [sum(1 << Card.parse(card) for card in hand) for hand in hands],
            "plays": [int(Card.parse(card)) for card in plays]}


def test_out_of_reach_finds_the_first_card_played_with_the_bid_lost(tmp_path: Path) -> None:
    record = _three_card_record(experts=[1, 2])
    run = _write(tmp_path / "run", [json.dumps({"deal": deal, "margin": 0.0,
                                                "games": [record, record]})
                                    for deal in (0, 1)])
    done = _bench("out_of_reach.py", run)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    # Two expert seat-hands in each of four games; only seat 1's bid goes out of reach,
    # at its second card, and its three rivals all make their bids of 0.
    assert found["expert_seat_hands"] == 8 and found["out_of_reach"] == 4
    assert found["share"] == 0.5 and found["rivals_exact"] == 1.0
    assert found["by_cards_left"] == {"2": {"seat_hands": 4, "rivals_exact": 1.0}}
    unplayed = _write(tmp_path / "old", [_deal(0, 1.0)])  # a run without the plays
    done = _bench("out_of_reach.py", unplayed)
    assert done.returncode == 2 and "no plays" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
