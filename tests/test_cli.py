"""The ``blackout`` command, run as the installed console script with piped input."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from blackout import Game, variant
from blackout.bots import create
from blackout.cli.main import main
from blackout.core.cards import CARDS

BLACKOUT = str(Path(sys.executable).with_name("blackout")) \
    if Path(sys.executable).with_name("blackout").exists() else shutil.which("blackout")
ALL_CARDS = [str(c) for c in CARDS]


def blackout(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    assert BLACKOUT, "the blackout console script is not installed"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"}
    return subprocess.run([BLACKOUT, *args], input=stdin, capture_output=True, text=True,
                          timeout=60, env=env, check=False)


def any_legal_moves(rounds: int) -> str:
    """Lines that make some legal move at every prompt: bids 0 and 1, then every card;
    the wrong ones are refused with a message and the prompt repeats."""
    return "".join("0\n1\n" + "\n".join(ALL_CARDS) + "\n" for _ in range(rounds))


def test_variants_lists_every_preset() -> None:
    result = blackout("variants")
    assert result.returncode == 0
    for name in ("pbmserv", "standard", "nullo", "partnership", "potomac"):
        assert name in result.stdout


def run_here(args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command in this process (faster than a subprocess) with piped input."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_shows_a_preset(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_here(["rules", "potomac"], "", monkeypatch, capsys)
    assert code == 0
    assert "bid_changes" in out and "declarer" in out


def test_play_a_whole_game_then_replay_it(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    stdin = "banana\n7\nhint\n" + any_legal_moves(8)
    result = blackout("play", "standard", "--players", "3", "-o", "schedule=1,2", "--seed", "1",
                      "--save", str(record_file), stdin=stdin)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "'banana' is not a move" in out
    assert "bids are 0 to 1" in out
    assert "hint: " in out and " — " in out
    assert "Hand 1 of 2" in out and "Hand 2 of 2" in out
    assert "Score sheet" in out and "Winner" in out
    record = json.loads(record_file.read_text())
    game = Game.replay(record)
    assert game.is_over and game.rules.hand_sizes(3)[:2] == (1, 2)
    finals = ", ".join(f"{p} {s}" for p, s in zip(game.players, game.scores, strict=True))
    assert f"Final scores: {finals}" in out

    replay = blackout("replay", str(record_file))
    assert replay.returncode == 0, replay.stderr
    assert "Hand 1: 1 card" in replay.stdout and "Hand 2: 2 cards" in replay.stdout
    assert "Trick 1:" in replay.stdout and "Trick 2:" in replay.stdout
    assert f"Final scores: {finals}" in replay.stdout


def test_quit_and_bad_options(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_here(["play", "nullo", "--seed", "3"], "quit\n", monkeypatch, capsys)
    assert code == 0
    assert "Game left unfinished in hand 1" in out
    code, _, err = run_here(["play", "standard", "-o", "hooks=true"], "", monkeypatch, capsys)
    assert code == 2
    assert err.startswith("blackout: unknown option 'hooks'")
    code, _, err = run_here(["score", "nullo", "--players", "a,b", "-o", "hook"], "",
                            monkeypatch, capsys)
    assert code == 2 and "is not KEY=VALUE" in err


def test_potomac_bid_change_and_declarer(tmp_path: Path) -> None:
    later_hands = "".join(f"0\n\ntrump H\n{any_legal_moves(1)}" for _ in range(6))
    stdin = "1\nhint\nchange 2\n\n" + later_hands
    record_file = tmp_path / "potomac.json"
    result = blackout("play", "potomac", "--players", "3", "-o", "schedule=3,2", "--seed", "5",
                      "--save", str(record_file), stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert "you bid 1" in result.stdout
    assert "you change the bid to 2" in result.stdout
    assert "hints are for your own turn" in result.stdout
    assert "Declarer" in result.stdout and "Winner" in result.stdout
    game = Game.replay(json.loads(record_file.read_text()))
    assert game.hands_played[0].bids[0].tricks == 2  # type: ignore[union-attr]


def test_pbmserv_blind_hand_shows_the_others_cards(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_here(["play", "pbmserv", "--seed", "2"], "quit\n", monkeypatch, capsys)
    assert "Blind hand: you see every card but your own." in out
    blind_part = out.split("Blind hand:")[1]
    assert sum(f"  bot{i}: " in blind_part for i in (1, 2, 3)) == 3  # each other hand


SAMPLE_SHEET_HANDS = (
    "TrundleBot\n3 2 2 3\n3 2 2 6\n\nNT\n"       # 13 cards
    "\n4 2 5 3\n2 2 6 2\n\nhearts\n"             # 12 cards, dealer Wei-Hwa by default
    "\n1 1 7 3\n0 1 8 2\nTwonky\nX\n"            # a bad trump: refused, sheet unchanged
    "\n1 1 7 3\n0 1 8 2\nTwonky\nC\n"            # 11 cards
    "undo\n"
    "\n1 1 7 3\n0 1 8 2\nTwonky\nclubs\n"
    "quit\n"
)


def test_score_the_sample_sheet_of_seed_004() -> None:
    result = blackout("score", "potomac", "--players", "Wei-Hwa,SquashBot,Twonky,TrundleBot",
                      stdin=SAMPLE_SHEET_HANDS)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "error: 'X' is not a suit" in out and "sheet unchanged" in out
    assert "Removed the last hand; 2 hand(s) on the sheet." in out
    # The sheet's own running totals after the first three hands.
    assert "Totals: Wei-Hwa 8, SquashBot 20, Twonky 5, TrundleBot -5" in out


def test_corrupt_record_is_one_clean_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "blackout-record", "version": 1, "rules": ')
    result = blackout("replay", str(broken))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "is not a JSON game record" in result.stderr


@pytest.mark.parametrize(("content", "message"), [
    ("[]", "not a Blackout game record"),
    ('{"format": "blackout-record", "version": 9}', "version 9 is not supported"),
    ('{"format": "blackout-record", "version": 1, "rules": {"variant": "nullo"},'
     ' "players": ["a", "b", "c"], "seed": 1, "moves": [[0, "AS"]]}', "move 1"),
    ('{"format": "blackout-record", "version": 1, "rules": {"variant": "nullo"},'
     ' "players": ["a", "b", "c"], "seed": 1, "moves": 5}', "moves"),
    (None, "cannot read"),
])
def test_bad_records_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            content: str | None, message: str) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_replay_step_waits_between_hands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(variant("nullo", schedule=[1, 2]), ["ann", "bob", "cy"], seed=4)
    bot = create("basic")
    while not game.is_over:
        action = bot.choose(game.view(game.to_move or 0))
        assert action is not None
        game.apply(action)
    path = tmp_path / "nullo.json"
    path.write_text(json.dumps(game.record()))
    code, out, _ = run_here(["replay", str(path), "--step"], "\n", monkeypatch, capsys)
    assert code == 0
    assert out.count("(Enter for the next hand)") == 2  # the second pause meets the end
    assert "Hand 2: 2 cards" in out and "Winner" in out
