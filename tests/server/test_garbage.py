"""Random garbage command lines are refused cleanly and change nothing.

Through the command line's own ``main`` (in this process, for speed) and, for a few
fixed lines, through the real ``blackout`` executable.  The words never include a right
password, a bot name or an e-mail address, so no line can be a valid change; a line
may still be a valid question (``games``, ``show 101``), which must exit 0.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackout import variant
from blackout.cli.main import main
from blackout.commands import USAGE, execute
from blackout.service import Service
from blackout.storage import Database

from .helpers import dump

TOKENS = ["101", "102", "101#1", "101#0", "0", "1", "13", "AS", "10C", "trump", "H", "nil",
          "-inorder", "-hook", "-nohook", "-variant", "potomac", "-schedule=1,2", "-seed=x",
          "-max_cards=0", "-hook=maybe", "-x=y", "ann", "bob", "wrong", "#", "#5", "-", "--",
          "--db", "--comment", "-h", "", " ", "999999999999", "bot:", "é", "\t"]
WORD = st.one_of(st.sampled_from(TOKENS),
                 st.text(st.characters(blacklist_characters="@\x00",
                                       blacklist_categories=("Cs",)), max_size=12))
# ``replay`` is left out here: its argparse parser belongs to the record-file command,
# whose argparse errors are two lines (usage + error); the language test covers it.
LINES = st.tuples(st.sampled_from(sorted(set(USAGE) - {"replay"})),
                  st.lists(WORD, max_size=6))
SKIP = ("failures", "locked_until")  # wrong passwords are counted: that is the point


def _setup(url: str) -> Database:
    database = Database(url)
    service = Service(database)
    for userid in ("ann", "bob", "cy", "di"):
        service.signup(userid, f"{userid}@example.org", f"{userid}-right")
    service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv"), seed=1)
    return database


def test_garbage_on_the_command_line_is_refused_cleanly(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'garbage.db'}"
    database = _setup(url)
    before = dump(database, skip=SKIP)
    monkeypatch.setenv("BLACKOUT_DATABASE_URL", url)

    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(LINES)
    def check(line: tuple[str, list[str]]) -> None:
        command, words = line
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([command, *words])
            except SystemExit as exc:  # argparse's own refusals
                code = exc.code
        assert "Traceback" not in err.getvalue()
        assert code in (0, 2), (command, words, code, err.getvalue())
        if code == 2:
            lines = err.getvalue().splitlines()
            assert len(lines) == 1 and lines[0].startswith("blackout: "), err.getvalue()
            assert out.getvalue() == ""
        assert dump(database, skip=SKIP) == before

    check()
    database.dispose()


def test_garbage_by_any_first_word_is_refused_by_the_language(tmp_path):
    """The mail gateway's path: any Subject at all."""
    database = _setup(f"sqlite:///{tmp_path / 'garbage.db'}")
    service = Service(database)
    before = dump(database, skip=SKIP)

    @settings(max_examples=100, deadline=None, derandomize=True)
    @given(st.lists(WORD, max_size=7))
    def check(words: list[str]) -> None:
        try:
            execute(service, words)
        except ValueError as exc:
            assert "\n" not in str(exc) and str(exc)
        assert dump(database, skip=SKIP) == before

    check()
    database.dispose()


def test_the_real_executable_refuses_garbage_with_exit_code_2(tmp_path, cli_env):
    url = f"sqlite:///{tmp_path / 'garbage.db'}"
    database = _setup(url)
    before = dump(database, skip=SKIP)
    env = {**cli_env, "BLACKOUT_DATABASE_URL": url}
    blackout = str(Path(sys.executable).with_name("blackout"))
    for words in (["move", "101", "ann", "bad", "AS#x"], ["challenge", "-variant"],
                  ["replay", "101#"], ["replay", "7#7"], ["show", "-1"], ["queue"],
                  ["signup", "a", "b", "c"],
                  # Issue 19.6/19.10: deep nesting, an endless schedule, huge numbers.
                  ["challenge", "-schedule=" + "[" * 20_000, "ann", "bob", "cy", "di"],
                  ["challenge", "-schedule=" + ",".join(["1"] * 500), "ann", "bot:basic"],
                  ["challenge", "-variant=standard", "-max_hands=999999", "ann", "bob"],
                  ["challenge", "-variant=standard", "-first_dealer=true", "ann", "bob"]):
        done = subprocess.run([blackout, *words], env=env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2, (words, done.stdout, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert dump(database, skip=SKIP) == before
    database.dispose()


@pytest.mark.parametrize("words", [
    ["check-timeouts", "--bot-think", "-1"],
    ["mail-gateway", "--bot-think", "nan"],
    ["move", "101", "ann", "ann-pw", "0", "--bot-think", "soon"],
    ["challenge", "ann", "bot:expert", "--bot-think", "0"],
])
def test_a_bad_thinking_time_is_one_line(tmp_path, monkeypatch, capsys, words):
    monkeypatch.setenv("BLACKOUT_DATABASE_URL", f"sqlite:///{tmp_path / 'think.db'}")
    assert main(words) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("blackout: --bot-think needs a number of seconds")


@pytest.mark.parametrize(("words", "message"), [
    # Issue 19.17: each of these spun, exited, printed a traceback or replaced players at once.
    (["mail-gateway", "--check-every", "0"], "--check-every needs a positive number of seconds"),
    (["mail-gateway", "--check-every", "-1"], "--check-every needs a positive number"),
    (["check-timeouts", "--remind-after", "inf"], "--remind-after needs a positive number"),
    (["check-timeouts", "--remind-after", "nan"], "--remind-after needs a positive number"),
    (["check-timeouts", "--give-up-after", "-5"], "--give-up-after needs a positive number"),
    (["check-timeouts", "--remind-after", "200", "--give-up-after", "168"],
     "--give-up-after (168 hours) must not be less than --remind-after (200 hours)"),
])
def test_bad_gateway_times_are_one_line(tmp_path, monkeypatch, capsys, words, message):
    monkeypatch.setenv("BLACKOUT_DATABASE_URL", f"sqlite:///{tmp_path / 'times.db'}")
    assert main(words) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"blackout: {message}"), err
    assert len(err.splitlines()) == 1
