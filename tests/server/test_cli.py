"""End to end: the real ``blackout`` command line in a subprocess, on a fresh database."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from blackout.service import Service
from blackout.storage import Database

from .helpers import dump

BLACKOUT = Path(sys.executable).with_name("blackout")
TURN = re.compile(r"^To move: (\S+) ", re.MULTILINE)
MOVES = re.compile(r"^Your moves: (.+)$", re.MULTILINE)


class Cli:
    def __init__(self, db_url: str, env: dict[str, str]) -> None:
        self.db_url = db_url
        self.env = env
        self.runs = 0

    def run(self, *words: str) -> subprocess.CompletedProcess[str]:
        self.runs += 1
        return subprocess.run([str(BLACKOUT), *words, "--db", self.db_url], env=self.env,
                              capture_output=True, text=True, timeout=60)

    def ok(self, *words: str) -> str:
        done = self.run(*words)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def refused(self, *words: str) -> str:
        """The one-line message of a refused command (exit code 2, no traceback)."""
        done = self.run(*words)
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert done.stdout == "" and "Traceback" not in done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("blackout: "), done.stderr
        return lines[0].removeprefix("blackout: ")


@pytest.fixture
def cli(db_url: str, cli_env: dict[str, str]) -> Cli:
    return Cli(db_url, cli_env)


@pytest.fixture
def sqlite_cli(tmp_path, cli_env: dict[str, str]) -> Cli:
    """For the long runs: SQLite only (the service tests cover both databases)."""
    return Cli(f"sqlite:///{tmp_path / 'cli.db'}", cli_env)


def add_people(db_url: str, *userids: str) -> None:
    """Accounts made directly, their addresses confirmed (signup by command line is
    tested once, below; confirmation in test_accounts_confirm)."""
    from blackout.service.accounts import hash_password
    from blackout.service.services import utc_now
    from blackout.storage import Account

    database = Database(db_url)
    with database.transaction() as session:
        session.add_all(Account(userid=userid, email=f"{userid}@example.org",
                                password_hash=hash_password(f"{userid}-pw"), failures=0,
                                created_at=utc_now(), email_confirmed_at=utc_now())
                        for userid in userids)
    database.dispose()


# One human and computer players, one short hand (ties may add extra hands).
GAMES = {
    "pbmserv": ["-schedule=1,2", "ann", "bot:random", "bot:random", "bot:random"],
    "standard": ["-variant", "standard", "-schedule=1", "ann", "bot:random"],
    "nullo": ["-variant=nullo", "-schedule=1", "ann", "bot:random", "bot:random"],
    "partnership": ["-variant", "partnership", "-max_cards=1", "-max_hands=1", "ann",
                    "bot:random", "bot:random", "bot:random"],
    "potomac": ["-variant", "potomac", "-schedule=1", "ann", "bot:random"],
}


#: On PostgreSQL (about 0.7 s a command, mostly Python importing SQLAlchemy) only the
#: preset with the most server-side paths (three bots, the blind hand's automatic trick),
#: to keep the suite near two minutes; the service tests play every preset on both.
POSTGRES_GAMES = ("pbmserv",)


def test_full_games_of_every_preset(cli):
    games = GAMES if cli.db_url.startswith("sqlite") else {
        name: GAMES[name] for name in POSTGRES_GAMES}
    assert cli.ok("signup", "ann", "ann@example.org", "ann-pw").startswith(
        "account ann created\na confirmation code was mailed to ann@example.org")
    for board, (name, words) in enumerate(games.items(), start=101):
        out = cli.ok("challenge", "-seed=7", *words)
        assert out.startswith(f"board {board} started\nBoard {board}: blackout ({name})")
        for _ in range(60):
            if "The game has ended" in out:
                break
            mover = TURN.search(out)
            assert mover and mover.group(1) == "ann", out
            out = cli.ok("showas", str(board), "ann", "ann-pw") if not MOVES.search(out) \
                else out
            first = MOVES.search(out).group(1).split(", ")[0]
            out = cli.ok("move", str(board), "ann", "ann-pw", *first.split())
        else:
            raise AssertionError(f"{name} did not end")
        assert "Score sheet:" in out
        if name == "pbmserv":
            history = cli.ok("history", str(board))
            assert "(computer)" in history
            assert "(automatic)" in history  # the blind first hand plays itself
            assert cli.refused("move", str(board), "ann", "ann-pw", "0") == "The game has ended"
    assert cli.ok("games", "ann").count(" over ") == len(games)
    assert "ann" in cli.ok("ratings")
    print("cli runs", cli.runs)


def test_every_error_is_one_line_and_changes_nothing(sqlite_cli):
    cli, db_url = sqlite_cli, sqlite_cli.db_url
    add_people(db_url, "ann", "bob", "cy", "di", "ed")
    cli.ok("challenge", "-inorder", "-seed=3", "ann", "bob", "cy", "di")  # board 101
    cli.ok("challenge", "-seed=3", "-schedule=1", "ed", "bot:random", "bot:random",
           "bot:random")  # board 102
    cli.ok("move", "102", "ed", "ed-pw", "0")  # the last bid: the game is over
    database = Database(db_url)
    before = dump(database, skip=("failures", "locked_until"))
    expected = [
        (("move", "999", "ann", "x", "0"), "board 999 not found"),
        (("move", "101", "ann", "wrong", "0"), "Invalid password/userid entered"),
        (("move", "102", "ann", "ann-pw", "0"), "The game has ended"),
        (("move", "101", "ed", "ed-pw", "0"), "You are NOT playing this game"),
        (("move", "101", "bob", "bob-pw", "0"), "It is not your move"),
        (("move", "101", "ann", "ann-pw", "AS"), "it is time to bid, not to play AS"),
        (("move", "101", "ann", "ann-pw", "0#5"),
         "move #5 is in the future: board 101 is at move #1"),
        (("move", "101"), "usage: blackout move BOARD USERID PASSWORD MOVE[#N]"),
        (("challenge", "ann", "bob", "cy", "zed"), "unknown user zed"),
        (("challenge", "ann", "bob", "cy"), "pbmserv needs exactly 4 players, not 3"),
        (("challenge", "-frobnicate", "ann", "bob", "cy", "di"), "unknown parameter"),
        (("challenge", "-frob=1", "ann", "bob", "cy", "di"), "unknown option 'frob'"),
    ]
    for words, message in expected:
        assert message in cli.refused(*words), words
    assert dump(database, skip=("failures", "locked_until")) == before
    database.dispose()
    out = cli.ok("move", "101", "ann", "ann-pw", "1#1", "--comment", "hi there")
    assert out.startswith("move #1 accepted on board 101: 1")
    assert "hi there" in cli.ok("showas", "101", "bob", "bob-pw")
    assert "Bids: ann 1, bob -" in cli.ok("replay", "101#1")


def test_potomac_bid_change_through_move(sqlite_cli):
    cli = sqlite_cli
    add_people(cli.db_url, "ann", "bob")
    out = cli.ok("challenge", "-variant", "potomac", "-inorder", "-first_dealer=1",
                 "-schedule=3", "ann", "bob")
    assert "To move: ann (to bid)" in out
    cli.ok("move", "101", "ann", "ann-pw", "1")
    out = cli.ok("move", "101", "ann", "ann-pw", "3")  # changed before bob bids
    assert "Bids: ann 3, bob -" in out
    out = cli.ok("move", "101", "bob", "bob-pw", "1")  # the dealer's bid ends the bidding
    assert "To move: ann (to name trump)" in out
    assert "It is not your move" in cli.refused("move", "101", "bob", "bob-pw", "2")
    assert "Trump: hearts" in cli.ok("move", "101", "ann", "ann-pw", "trump", "H")


IDLE_HOURS = 0.0001  # 0.36 s: a wait short enough for a test to outlast


def _outwait_idle_limit() -> None:
    """Let a player's wait pass IDLE_HOURS for sure: on a fast machine the next command can
    start sooner than that after the last move, and then nobody is due a reminder yet."""
    time.sleep(IDLE_HOURS * 3600 + 0.15)


def test_check_timeouts_from_cron(sqlite_cli):
    """``blackout check-timeouts`` as cron would run it: once, mailing through the relay."""
    from aiosmtpd.controller import Controller

    from .test_mail import Sink, free_port

    cli = sqlite_cli
    add_people(cli.db_url, "ann", "bob", "cy", "di")
    cli.ok("challenge", "-inorder", "-seed=2", "ann", "bob", "cy", "di")
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    try:
        mail = ("--relay-host", "127.0.0.1", "--relay-port", str(relay.port), "--address",
                "server@test.example", "--bot-think", "0.1")
        _outwait_idle_limit()
        out = cli.ok("check-timeouts", "--remind-after", str(IDLE_HOURS), "--give-up-after", "100",
                     *mail)
        assert out == ("1 reminded, 0 replaced by a computer player, 0 forfeited; "
                       "0 mail(s) waiting for the relay\n")
        mails = sink.take(5)  # the challenge's board to each player, and ann's reminder
        (reminder,) = [m for m in mails if m["Subject"] == "blackout Board 101 reminder"]
        assert reminder["To"] == "ann@example.org" and reminder["From"] == "server@test.example"
        out = cli.ok("check-timeouts", "--remind-after", str(IDLE_HOURS), "--give-up-after",
                     str(IDLE_HOURS), *mail)
        assert out.startswith("0 reminded, 1 replaced by a computer player, 0 forfeited")
        boards = sink.take(3)
        assert {str(m["To"]) for m in boards} == {"bob@example.org", "cy@example.org",
                                                 "di@example.org"}
        assert all(m["Subject"] == "blackout Board 101 bob" for m in boards)  # bot:expert bid
        assert "ann did not move in time; bot:expert plays" in boards[0].get_content()
    finally:
        relay.stop()
    # The relay is away: bob's reminder waits in the outbox for the next run.
    _outwait_idle_limit()  # bob's wait began with the computer player's bid
    out = cli.ok("check-timeouts", "--remind-after", str(IDLE_HOURS), "--relay-host", "127.0.0.1",
                 "--relay-port", str(free_port()))
    assert out == ("1 reminded, 0 replaced by a computer player, 0 forfeited; "
                   "1 mail(s) waiting for the relay\n")


def test_a_command_line_move_is_mailed_to_every_player(cli):
    """Moves made with the ``blackout`` command line queue the same mail as the gateway:
    each person playing gets the board from their own seat, delivered by check-timeouts."""
    from aiosmtpd.controller import Controller

    from blackout.commands import board_text

    from .test_mail import Sink, by_recipient, free_port
    from .test_visibility import card_words, hidden_from

    add_people(cli.db_url, "ann", "bob", "cy")
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    try:
        deliver = ("check-timeouts", "--relay-host", "127.0.0.1", "--relay-port",
                   str(relay.port), "--address", "server@test.example")
        cli.ok("challenge", "-inorder", "-seed=2", "ann", "bob", "cy", "bot:random")
        assert cli.ok(*deliver).endswith("; 0 mail(s) waiting for the relay\n")
        started = sink.take(3)  # the new board to each person; the computer gets none
        assert all(m["Subject"] == "blackout Board 101 ann" for m in started)
        cli.ok("move", "101", "ann", "ann-pw", "0", "--comment", "good luck")
        assert cli.ok(*deliver).endswith("; 0 mail(s) waiting for the relay\n")
        boards = by_recipient(sink.take(3))
    finally:
        relay.stop()
    assert sorted(boards) == ["ann@example.org", "bob@example.org", "cy@example.org"]
    database = Database(cli.db_url)
    snap = Service(database).snapshot(101)
    database.dispose()
    assert len(snap.moves) == 1  # the board after ann's move, waiting for bob
    for seat, userid in enumerate(("ann", "bob", "cy")):
        board = boards[f"{userid}@example.org"]
        assert board["From"] == "server@test.example"
        assert board["Subject"] == "blackout Board 101 bob"
        text = board.get_content().replace("\r\n", "\n")
        assert text.startswith("Move #1: ann 0 saying: good luck\n")
        assert text.rstrip("\n").endswith(board_text(snap, seat))  # from their own seat
        assert not card_words(text) & hidden_from(snap.game, seat)


def test_db_may_come_before_the_command(sqlite_cli):
    # Issue 19.16: `blackout --db URL show 101` as well as `blackout show 101 --db URL`.
    add_people(sqlite_cli.db_url, "ann")
    before = subprocess.run([str(BLACKOUT), "--db", sqlite_cli.db_url, "challenge", "-variant",
                             "standard", "ann", "bot:random"], env=sqlite_cli.env,
                            capture_output=True, text=True, timeout=60)
    assert before.returncode == 0, before.stderr
    assert "101" in before.stdout
    shown = subprocess.run([str(BLACKOUT), "--db", sqlite_cli.db_url, "show", "101"],
                           env=sqlite_cli.env, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and shown.stdout == sqlite_cli.ok("show", "101")


def test_lockout_keeps_counting_past_45_failures(cli):
    # Issue 19.2: the 46th wrong password raised OverflowError (a traceback, the failure
    # not counted, guessing unlimited from then on).
    from datetime import datetime

    from sqlalchemy import select

    from blackout.service.accounts import LONGEST_LOCK, lock_after
    from blackout.storage import Account

    now = datetime(2026, 1, 1)
    assert lock_after(46, now) == lock_after(10**9, now) == now + LONGEST_LOCK
    add_people(cli.db_url, "ann")
    database = Database(cli.db_url)
    with database.transaction() as session:
        session.execute(select(Account)).scalar_one().failures = 45
    try:
        assert cli.refused("password", "ann", "wrong-pw", "new-pw") == \
            "Invalid password/userid entered"
        with database.transaction() as session:
            account = session.execute(select(Account)).scalar_one()
            assert account.failures == 46 and account.locked_until is not None
        # Locked now: even the right password is refused, in one line.
        assert cli.refused("password", "ann", "ann-pw", "new-pw").startswith(
            "too many wrong passwords for ann")
    finally:
        database.dispose()


def test_future_move_numbers_and_replays_of_finished_games(sqlite_cli):
    # Issue 19.15: `move ...#7` at move 1 said "stale"; `replay BOARD#N` of a finished game
    # printed "has ended, scores 0" instead of the position after move N.
    cli = sqlite_cli
    add_people(cli.db_url, "ann")
    cli.ok("challenge", "-variant", "standard", "-schedule=1", "-tiebreak=shared", "-inorder",
           "ann", "bot:random")
    board = cli.ok("show", "101")
    number = int(re.search(r"move #(\d+)", board).group(1))
    assert cli.refused("move", "101", "ann", "ann-pw", f"0#{number + 6}") == (
        f"move #{number + 6} is in the future: board 101 is at move #{number}")
    for _ in range(3):  # one hand of one card (ties shared: no tie-break hands)
        moves = MOVES.search(cli.ok("showas", "101", "ann", "ann-pw"))
        if moves is None:
            break
        cli.ok("move", "101", "ann", "ann-pw", moves.group(1).split(", ")[0])
    assert moves is None, "the game did not end"
    replayed = cli.ok("replay", "101#1")
    assert "has ended" not in replayed and "Bids:" in replayed
    assert "after move #1" in replayed
