"""Issue 19's security items 1, 3 and 4, each with a test that failed before its fix:
the deal of a game with people is the server's secret; failed logins are counted
atomically; a stranger's guesses lock out the stranger, not the owner."""

from __future__ import annotations

import re
import threading

import pytest
from sqlalchemy import select

from blackout import variant
from blackout.commands import CommandError, board_text, execute, history_text
from blackout.service import Services, errors
from blackout.service.accounts import FREE_ACCOUNT_FAILURES, FREE_FAILURES, _key
from blackout.storage import Account, GameRow, LoginThrottle, OutboxMail

from .helpers import dump
from .test_mail import mail, send  # noqa: F401  (the real SMTP gateway fixture)

PBM = variant("pbmserv", inorder=True)


# -- 1. the challenger does not choose the deal ----------------------------------------------


def test_a_chosen_seed_is_refused_for_a_game_with_people(service, people, database):
    before = dump(database)
    with pytest.raises(CommandError, match="-seed=N is only for games between computer"):
        execute(service, ["challenge", "-seed=5", "ann", "bob", "cy", "di"])
    with pytest.raises(CommandError, match="-seed=N is only for games between computer"):
        execute(service, ["challenge", "-seed=5", "ann", "bot:random", "bot:random",
                          "bot:random"])
    assert dump(database) == before
    # Between computer players a chosen seed repeats a game (nobody is dealt a secret).
    board = execute(service, ["challenge", "-seed=5", "-schedule=1", "bot:random",
                              "bot:random", "bot:random", "bot:random"]).text.split()[1]
    with database.transaction() as session:
        assert session.get(GameRow, int(board)).seed == 5
    # The server's operator (the command line on the server) may choose one.
    execute(service, ["challenge", "-seed=5", "ann", "bob", "cy", "di"], operator=True)


def test_a_game_with_people_is_dealt_from_secret_randomness_never_shown(service, people,
                                                                        database):
    from blackout.mail import mail_notices

    service.notifier = mail_notices
    boards = [service.challenge(["ann", "bob", "cy", "di"], PBM).board for _ in range(3)]
    with database.transaction() as session:
        seeds = [session.get(GameRow, b).seed for b in boards]
    assert len(set(seeds)) == 3 and all(s > 2**32 for s in seeds)  # 62 random bits
    with database.transaction() as session:
        mailed = " ".join(m.body + m.summary for m in session.scalars(select(OutboxMail)))
    for board, seed in zip(boards, seeds, strict=True):
        snap = service.snapshot(board)
        shown = [board_text(snap), history_text(snap), mailed,
                 str(service.parts.queries.table(board, "ann")),
                 str(service.parts.queries.record(board, None)),
                 str(service.parts.queries.events(board, 0))]
        assert not any(str(seed) in text for text in shown)
    execute(service, ["resign", str(boards[0]), "ann", "ann-pw"])  # declining a challenge
    assert service.snapshot(boards[0]).seats[0].controller.startswith("bot:")


# -- 3. parallel wrong passwords all count ------------------------------------------------------


def test_parallel_wrong_passwords_are_all_counted(database, clock, people):
    services = Services(database, clock=clock)
    guesses = 64
    barrier = threading.Barrier(guesses)
    refused: list[str] = []

    def guess() -> None:
        barrier.wait(timeout=60)
        try:
            services.sessions.login("ann", "guess", "10.6.6.6")
        except errors.ServiceError as exc:
            refused.append(exc.code)

    threads = [threading.Thread(target=guess) for _ in range(guesses)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(refused) == guesses
    with database.transaction() as session:
        pair = session.get(LoginThrottle, _key("pair", "ann", "10.6.6.6"))
        assert pair is not None and pair.failures == refused.count("unauthorized")
        assert session.get(Account, "ann").failures == pair.failures
    # Every guess that reached the password check was counted (none lost), and once the
    # counter passed the free failures the lock held.
    assert refused.count("unauthorized") >= FREE_FAILURES
    with pytest.raises(errors.Locked):
        services.sessions.login("ann", "ann-pw", "10.6.6.6")


# -- 4. a stranger cannot lock the owner out ------------------------------------------------------


def test_a_strangers_guesses_do_not_lock_the_owner_out(database, clock, people):
    services = Services(database, clock=clock)
    for _ in range(FREE_ACCOUNT_FAILURES + 5):
        with pytest.raises((errors.Unauthorized, errors.Locked)):
            services.sessions.login("ann", "guess", "mallory@evil.example")
    with pytest.raises(errors.Locked) as locked:
        services.sessions.login("ann", "ann-pw", "mallory@evil.example")
    assert not re.search(r"\d", locked.value.message)  # says nothing of when it ends
    # The owner's own address, and a place she has logged in from, still work...
    services.sessions.login("ann", "ann-pw", "ann@example.org")
    clock.advance(hours=2)  # locks end (an hour at most)
    services.sessions.login("ann", "ann-pw", "mallory@evil.example")


def test_guessing_many_accounts_from_one_source_locks_the_source(database, clock, people):
    services = Services(database, clock=clock)
    from blackout.service.accounts import FREE_SOURCE_FAILURES

    counted = 0
    for userid in ("bob", "cy", "di", "ed"):
        for _ in range(FREE_FAILURES):
            if counted < FREE_SOURCE_FAILURES:
                with pytest.raises(errors.Unauthorized):
                    services.sessions.login(userid, "guess", "10.6.6.6")
                counted += 1
    with pytest.raises(errors.Locked):  # a fresh account, but the same source
        services.sessions.login("ann", "guess", "10.6.6.6")
    services.sessions.login("ann", "ann-pw", "10.1.1.1")  # others are not affected


def test_a_strangers_wrong_passwords_by_mail_leave_the_owners_mail_working(
        mail, service, people):  # noqa: F811
    sink, port, gateway = mail
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    gateway.deliver()
    sink.take(4)
    for _ in range(FREE_FAILURES + 2):
        send(port, "mallory@evil.example", f"blackout move {board} ann guess 0")
    errors_mailed = sink.take(FREE_FAILURES + 2)
    last = errors_mailed[-1].get_content()
    assert "too many wrong passwords for ann; try again later" in last
    assert not re.search(r"\d\d:\d\d", last.split("Board")[0])
    send(port, "ann@example.org", f"blackout move {board} ann ann-pw 0")
    answer = next(m for m in sink.take(5) if str(m["Subject"]).startswith("Re:"))
    assert f"move #1 accepted on board {board}: 0" in answer.get_content()
