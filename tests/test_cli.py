"""The ``blackout`` command, run as the installed console script with piped input."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from blackout import Game, variant
from blackout.bots import create
from blackout.cli.main import main
from blackout.cli.play import help_text
from blackout.core.cards import CARDS
from blackout.core.rules import PRESETS, VARIANTS

BLACKOUT = str(Path(sys.executable).with_name("blackout")) \
    if Path(sys.executable).with_name("blackout").exists() else shutil.which("blackout")
ALL_CARDS = [str(c) for c in CARDS]


def blackout(*args: str, stdin: str = "", columns: int = 120) -> subprocess.CompletedProcess[str]:
    assert BLACKOUT, "the blackout console script is not installed"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": str(columns)}
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
    assert "'banana' is not a bid; type `help`" in out
    assert "bids are 0 to 1" in out
    assert "hint: " in out and " — " in out
    assert "Hand 1 of 2" in out and "Hand 2 of 2" in out
    assert "Score sheet" in out and "Winner" in out
    assert out.count("Score sheet") == 1  # at the end; each hand gives one line of scores
    assert out.count("(`score` shows the sheet)") == 2
    assert "takes the trick with" in out or "you take the trick with" in out
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


def test_moves_typed_after_the_end_are_no_file_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    stdin = any_legal_moves(8) + "hint\nsave last.json\n"
    code, out, _ = run_here(["play", "standard", "--players", "3", "-o", "schedule=1,2",
                             "--seed", "1"], stdin, monkeypatch, capsys)
    assert code == 0 and "Game over." in out
    assert "the game is over: type a file name, or Enter to skip" in out
    assert [p.name for p in tmp_path.iterdir()] == ["last.json"]


def test_quit_and_bad_options(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_here(["play", "nullo", "--seed", "3"], "quit\n", monkeypatch, capsys)
    assert code == 0
    assert "Game left unfinished in hand 1" in out
    assert VARIANTS["nullo"] in out and "changed by your -o options" not in out
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


def test_replay_of_a_game_left_before_trump_was_named(tmp_path: Path) -> None:
    record_file = tmp_path / "potomac.json"
    # You outbid both bots, then the input ends at the trump prompt.
    blackout("play", "potomac", "--players", "3", "-o", "schedule=3,2", "--seed", "5",
             "--save", str(record_file), stdin="1\nchange 2\n\n")
    replay = blackout("replay", str(record_file))
    assert "Bidding: you bid 1, you change the bid to 2, bot1 bids 1, bot2 bids 1" in replay.stdout
    assert "Trump: not named yet" in replay.stdout and "no trump" not in replay.stdout


def test_pbmserv_blind_hand_shows_the_others_cards(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_here(["play", "pbmserv", "--seed", "2"], "quit\n", monkeypatch, capsys)
    assert "Blind hand: you see every card but your own." in out
    blind_part = out.split("Blind hand:")[1]
    assert sum(f"  bot{i}: " in blind_part for i in (1, 2, 3)) == 3  # each other hand


ALL_HAND = "\n".join(ALL_CARDS * 13) + "\nquit\n"  # every card, until a hand is played


def test_partnership_names_the_teams_and_scores_them_once(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_here(["play", "partnership", "--seed", "3"], "nil\n" + ALL_HAND,
                         monkeypatch, capsys)
    assert "Partners sit opposite: you and bot2 against bot1 and bot3." in out
    assert "Teams: you and bot2 bid 2, took 0; bot1 and bot3 bid 6, took 0" in out
    assert "Teams: you and bot2 bid nil, took 0; bot1 and bot3 bid 6, took 0" in out
    # Your nil voids bot2's number bid (seed 000, rule 3).
    assert re.search(r"^bot2 +2 \(void\) .* partner *$", out, re.MULTILINE)
    summary = next(line for line in out.splitlines() if line.startswith("Hand 1 over."))
    assert summary.count(" for you and bot2") == 1 and summary.count(" for bot1 and bot3") == 1
    assert re.search(r"^Scores: you and bot2 -?\d+, bot1 and bot3 -?\d+ ", out, re.MULTILINE)


def test_trump_by_suit_alone_and_clear_errors(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 4: you deal hand 1 and outbid everyone with 7, so you name trump.
    _, out, _ = run_here(["play", "potomac", "--seed", "4"], "7\nxx\nspades\n" + ALL_HAND,
                         monkeypatch, capsys)
    assert "'xx' is not a trump suit (C, D, H, S or NT)" in out
    assert "you name ♠ spades trump" in out
    assert "dealer, declarer" in out
    # The card prompt lists the cards in the order the hand shows them.
    hand = next(line for line in out.splitlines() if line.startswith("Your hand: ♠"))
    prompt = next(line for line in out.splitlines() if line.startswith("Your card ("))
    ranks = [word for word in hand.split(":")[1].split() if word not in "♠♥♣♦"]
    assert [card[:-1] for card in prompt.split("(")[1].split(")")[0].split()] == ranks


def test_potomac_bot_bids_of_a_new_hand_come_after_its_heading(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 27: bot2 plays the last card of hand 1 and bids first in hand 2; that bid once
    # came out before the heading of hand 2, told as a change of bot2's hand-1 bid.
    _, out, _ = run_here(["play", "potomac", "--players", "3", "-o", "schedule=2,1",
                          "--seed", "27"], "0\n" + ALL_HAND, monkeypatch, capsys)
    before, heading, after = out.partition("Hand 2 of 2")
    assert heading
    assert " bids " not in before.split("Hand 1 over.")[1]
    assert "changes the bid" not in before.split("Hand 1 over.")[1]
    assert after.splitlines()[1] == "  bot2 bids 1"


def test_no_bid_changes_and_a_card_typed_with_a_space(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 2: you deal the one-card hand 1 and hold the 5 of diamonds.
    _, out, _ = run_here(["play", "standard", "--players", "3", "--seed", "2"],
                         "change 1\n0\n5 d\nquit\n", monkeypatch, capsys)
    assert "these rules do not allow changing a bid" in out
    assert "  you play 5♦" in out


def test_help_fits_the_rules_and_80_columns() -> None:
    for name in PRESETS:
        text = help_text(variant(name))
        assert max(map(len, text.splitlines())) <= 80
        assert ("change N" in text) == variant(name).bid_changes
        assert ("nil" in text) == variant(name).teams


def test_the_hooked_bid_is_explained(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 1: you deal the one-card hand 1 after bids totalling 1, so 0 is hooked.
    _, out, _ = run_here(["play", "pbmserv", "--seed", "1"], "0\nquit\n", monkeypatch, capsys)
    assert "Bids total 1 for 1 trick (you may not bid 0: that makes 1)" in out
    assert "Your bid (1)> the dealer may not bid 0" in out


def test_score_sheet_fits_80_columns() -> None:
    names = "Wei-Hwa,SquashBot,Twonky,TrundleBot"
    result = blackout("score", "potomac", "--players", names, stdin=SAMPLE_SHEET_HANDS,
                      columns=80)
    sheet = result.stdout.split("Hand 3: 11 cards")[0].rsplit("Score sheet", 1)[1]
    assert max(map(len, sheet.splitlines())) <= 80
    assert "TrundleBot Wei-Hwa  NT    3/3 +11    2/2 +7 2/2 +7     3/6 -3" in sheet
    assert re.search(r"^Total +9 +14 +6 +-4$", sheet, re.MULTILINE)


SAMPLE_SHEET_HANDS = (
    "TrundleBot\n3 2 2 3\n3 2 2 6\n\nNT\n"       # 13 cards
    "\n4 2 5 3\n2 2 6 2\n\nhearts\n"             # 12 cards, dealer Wei-Hwa by default
    "\n1 1 7 3\n0 1 8 2\nTwonky\nX\nC\n"         # a bad trump is asked again; 11 cards
    "undo\n"
    "\n1 1 7 3\n0 1 8 2\nTwonky\nclubs\n"
    "quit\n"
)


def test_score_the_sample_sheet_of_seed_004() -> None:
    result = blackout("score", "potomac", "--players", "Wei-Hwa,SquashBot,Twonky,TrundleBot",
                      stdin=SAMPLE_SHEET_HANDS)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "> 'X' is not a suit" in out and "sheet unchanged" not in out
    assert "Removed the last hand; 2 hand(s) on the sheet." in out
    # The sheet's own running totals after the first three hands.
    assert "Totals: Wei-Hwa 8, SquashBot 20, Twonky 5, TrundleBot -5" in out


def test_score_asks_again_at_once_for_a_bad_answer() -> None:
    stdin = ("Bob\nTrundleBot\n3 2 2\n3 2 2 3\n3 2 2 x\n3 2 2 7\n3 2 2 6\n"
             "Zed\n\nNT\nquit\n")
    result = blackout("score", "potomac", "--players", "Wei-Hwa,SquashBot,Twonky,TrundleBot",
                      stdin=stdin)
    out = result.stdout
    assert out.count("'Bob' is not a player here: Wei-Hwa, SquashBot") == 1
    assert "give 4 bids, one per player in seat order (you gave 3)" in out
    assert "tricks are whole numbers" in out
    assert "those add up to 14, but 13 tricks were played" in out
    assert "'Zed' is not a player here" in out
    assert "Totals: Wei-Hwa 11, SquashBot 7, Twonky 7, TrundleBot -3" in out


def test_a_turn_up_sheet_claims_no_trump(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # The score command never asks for a turned-up trump, so the sheet has no Trump column.
    _, out, _ = run_here(["score", "nullo", "--players", "x,y,z"], "x\n1 0 0\n1 0 0\nquit\n",
                         monkeypatch, capsys)
    assert re.search(r"^Hand +Cards +Dealer +x +y +z *$", out, re.MULTILINE)
    assert "NT" not in out and "Totals: x 11, y 6, z 6" in out


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


POTOMAC_FOUR = ["score", "potomac", "--players", "Wei-Hwa,SquashBot,Twonky,TrundleBot"]


def test_score_checks_each_answer_as_it_is_typed(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 19.13: each field is refused at its own prompt, before the next is asked.
    stdin = ("TrundleBot\n3 2 2 3\n3 2 2 6\n\nNT\n"          # hand 1 (13 cards)
             "Twonky\n\n"                                  # a dealer out of turn, then Enter
             "13 2 5 3\n"                                  # a bid above the 12-card hand
             "4 2 5 1\n"                                   # the hook on Wei-Hwa (dealer)
             "4 2 5 3\n2 2 6 2\n"
             "Wei-Hwa\nTwonky\nH\nquit\n")                 # not the first highest bidder
    _, out, _ = run_here(POTOMAC_FOUR, stdin, monkeypatch, capsys)
    assert "Dealer [Wei-Hwa]> the deal passes clockwise: Wei-Hwa deals this hand" in out
    assert "> bid '13': bids are 0 to 12" in out
    assert "> the hook: Wei-Hwa, bidding last, may not make the bids total 12" in out
    assert "Declarer [Twonky]> the declarer must be the first highest bidder (bid 5): " \
        "Twonky" in out
    assert "sheet unchanged" not in out
    assert "Totals: Wei-Hwa 9, SquashBot 14, Twonky 6, TrundleBot -4" in out


def test_score_explains_every_prompt(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    stdin = "help\nTrundleBot\nhelp\n3 2 2 3\nhelp\n3 2 2 6\nhelp\n\nhelp\nNT\nquit\n"
    _, out, _ = run_here(POTOMAC_FOUR, stdin, monkeypatch, capsys)
    for prompt, words in [("Dealer> ", "the dealer's name"),
                          ("Declarer [Wei-Hwa]> ", "the declarer"),
                          ("Trump named (C, D, H, S or NT)> ", "the trump the declarer named")]:
        assert f"{prompt}Type {words}" in out, prompt
    assert re.search(r"Bids \([^\n]*\)> Type each player's bid", out)
    assert re.search(r"Tricks taken \([^\n]*\)> Type the tricks each player took", out)
    assert out.count("`undo` removes the last hand, `quit` stops.") >= 5
    assert "Totals: Wei-Hwa 11, SquashBot 7, Twonky 7, TrundleBot -3" in out


def test_score_saves_and_resumes_a_sheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "sheet.json"
    first = "TrundleBot\n3 2 2 3\n3 2 2 6\n\nNT\nquit\n"
    run_here([*POTOMAC_FOUR, "--file", str(sheet)], first, monkeypatch, capsys)
    assert json.loads(sheet.read_text())["hands"][0]["dealer"] == "TrundleBot"
    # Resumed without --players: the next hand is the 12-card hand dealt by Wei-Hwa.
    second = "\n4 2 5 3\n2 2 6 2\n\nhearts\nquit\n"
    code, out, _ = run_here(["score", "potomac", "--file", str(sheet)], second,
                            monkeypatch, capsys)
    assert code == 0 and "1 hand(s) on the sheet" in out
    assert "Hand 2: 12 cards each" in out and "Dealer [Wei-Hwa]>" in out
    assert "Totals: Wei-Hwa 9, SquashBot 14, Twonky 6, TrundleBot -4" in out
    assert len(json.loads(sheet.read_text())["hands"]) == 2
    code, _, err = run_here(["score", "potomac", "--players", "a,b,c", "--file", str(sheet)],
                            "", monkeypatch, capsys)
    assert code == 2 and "is the sheet of Wei-Hwa, SquashBot, Twonky, TrundleBot" in err


def _play_until_prompt(*args: str) -> tuple[subprocess.Popen[bytes], bytes]:
    """``blackout play`` in its own process group, as a terminal runs it, read up to its
    first prompt."""
    import select

    assert BLACKOUT
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"}
    play = subprocess.Popen([BLACKOUT, "play", "standard", "--seed", "1", "--bots", "basic",
                             *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True)
    assert play.stdout is not None
    seen = b""
    while b"Your bid" not in seen:
        ready, _, _ = select.select([play.stdout], [], [], 30)
        assert ready, seen
        seen += os.read(play.stdout.fileno(), 65536)
    return play, seen


@pytest.mark.parametrize("during_hint", [False, True])
def test_ctrl_c_ends_play_quietly_with_status_130(during_hint: bool) -> None:
    # Issue 19.14: Ctrl-C reaches the whole process group, the hint's pool workers too;
    # they printed "Process ForkPoolWorker-1:" and tracebacks.
    import signal
    import time

    play, _ = _play_until_prompt()
    assert play.stdin is not None
    if during_hint:
        play.stdin.write(b"hint\n")
        play.stdin.flush()
        time.sleep(0.2)  # the expert is thinking (about a second) in its worker processes
    os.killpg(play.pid, signal.SIGINT)
    out, err = play.communicate(timeout=30)
    assert play.returncode == 130
    assert err.strip() == b"", err.decode()
    assert b"Traceback" not in out and b"ForkPoolWorker" not in out


def test_ctrl_d_ends_play_with_status_0() -> None:
    play, _ = _play_until_prompt()
    out, err = play.communicate(b"", timeout=30)  # the input ends: Ctrl-D at a terminal
    assert play.returncode == 0, err.decode()
    assert b"(input ended)" in out and b"Game left unfinished" in out and err == b""
