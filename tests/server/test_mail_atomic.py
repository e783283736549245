"""Issue 19.7: a mail command and the outbox row of its answer commit together or not at
all.  The answer's row is made to fail the real way, by a rule the database itself
enforces (a CHECK constraint on PostgreSQL, a trigger on SQLite, both refusing ``Re:``
subjects); the command, over real SMTP on loopback, must then leave nothing behind and
the gateway must say so (451: nothing done, send again).  Once the rule is lifted the
sender's resend is run once."""

from __future__ import annotations

import smtplib

import pytest
from sqlalchemy import func, select, text

from blackout import variant
from blackout.storage import Account, Database, OutboxMail

from . import test_mail
from .test_mail_hardening import send_raw

mail = test_mail.mail  # the gateway and relay fixture, shared

PBM = variant("pbmserv", inorder=True)


def refuse_answers(database: Database) -> None:
    with database.engine.begin() as connection:
        if database.is_sqlite:
            connection.execute(text(
                "CREATE TRIGGER no_answers BEFORE INSERT ON outbox "
                "WHEN NEW.subject LIKE 'Re:%' BEGIN SELECT RAISE(ABORT, 'no answers'); END"))
        else:
            connection.execute(text("ALTER TABLE outbox ADD CONSTRAINT no_answers "
                                    "CHECK (subject NOT LIKE 'Re:%') NOT VALID"))


def allow_answers(database: Database) -> None:
    with database.engine.begin() as connection:
        connection.execute(text("DROP TRIGGER no_answers") if database.is_sqlite
                           else text("ALTER TABLE outbox DROP CONSTRAINT no_answers"))


def outbox_count(database: Database) -> int:
    with database.transaction() as session:
        return session.scalar(select(func.count()).select_from(OutboxMail)) or 0


def test_a_command_whose_answer_cannot_be_written_is_not_committed(mail, service, people,
                                                                   database, capfd):
    sink, port, gateway = mail
    service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
    gateway.deliver()
    assert len(sink.take(4)) == 4
    before = outbox_count(database)
    refuse_answers(database)

    move = (b"From: ann@example.org\r\nMessage-ID: <atomic.1@example.org>\r\n"
            b"Subject: blackout move 101 ann ann-pw 0\r\n\r\n\r\n")
    code, said = send_raw(port, "ann@example.org", move)
    assert code == 451, said  # the truth: nothing was done
    assert service.snapshot(101).moves == []  # the move did not commit ...
    assert outbox_count(database) == before  # ... nor its boards to the players
    signup = (b"From: zed@example.org\r\nSubject: blackout signup zed zed@example.org "
              b"zed-pw\r\n\r\n\r\n")
    assert send_raw(port, "zed@example.org", signup)[0] == 451
    with database.transaction() as session:
        assert session.get(Account, "zed") is None  # nor the account and its code mail
    assert outbox_count(database) == before
    assert sink.mails.empty()
    assert "Traceback" not in capfd.readouterr().err

    allow_answers(database)
    assert send_raw(port, "ann@example.org", move)[0] == 250  # the sender's resend
    mails = sink.take(5)  # the answer and the board to each player
    (answer,) = [m for m in mails if str(m["Subject"]).startswith("Re:")]
    assert "move #1 accepted on board 101: 0" in answer.get_content()
    assert len(service.snapshot(101).moves) == 1
    assert send_raw(port, "ann@example.org", move)[0] == 250  # once more: answered only
    (again,) = sink.take(1)
    assert again.get_content() == answer.get_content()
    assert len(service.snapshot(101).moves) == 1


@pytest.mark.parametrize("subject", ["blackout password ann ann-pw Newer-pw-1",
                                     "blackout challenge ann bob cy di"])
def test_account_and_game_commands_roll_back_with_their_answer(mail, service, people,
                                                                database, subject):
    _, port, _ = mail
    with database.transaction() as session:
        old_hash = session.get(Account, "ann").password_hash
    refuse_answers(database)
    with pytest.raises(smtplib.SMTPDataError) as refused:
        test_mail.send(port, "ann@example.org", subject)
    assert refused.value.smtp_code == 451
    with database.transaction() as session:
        assert session.get(Account, "ann").password_hash == old_hash
    assert service.games() == [] and outbox_count(database) == 0


def test_one_mail_delivered_many_times_at_once_runs_once(mail, service, people):
    """A sender's mail system that delivers the same mail over several connections at
    the same moment: one move, and every copy answered with its answer."""
    import queue
    import threading

    sink, port, gateway = mail
    service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
    gateway.deliver()
    assert len(sink.take(4)) == 4
    move = (b"From: ann@example.org\r\nMessage-ID: <race.1@example.org>\r\n"
            b"Subject: blackout move 101 ann ann-pw 0\r\n\r\n\r\n")
    copies = 6
    barrier = threading.Barrier(copies)
    codes: list[int] = []

    def deliver() -> None:
        barrier.wait(timeout=30)
        codes.append(send_raw(port, "ann@example.org", move)[0])

    threads = [threading.Thread(target=deliver) for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert codes == [250] * copies
    assert len(service.snapshot(101).moves) == 1
    mails = []
    while True:  # the boards once, and the answer (copies not yet sent merge into one)
        try:
            mails.append(sink.mails.get(timeout=2))
        except queue.Empty:
            break
    answers = [m.get_content() for m in mails if str(m["Subject"]).startswith("Re:")]
    boards = [m for m in mails if str(m["Subject"]).startswith("blackout Board 101")]
    assert len(boards) == 4 and 1 <= len(answers) <= copies
    assert all("move #1 accepted" in answer for answer in answers)


def test_a_rolled_back_move_leaves_no_trace_in_the_gateways_position_cache(
        mail, service, people, database):
    """The gateway process caches positions as moves are made; a move rolled back with
    its answer must not be taken for the board's when another process then commits a
    different move under the same number."""
    from blackout.service import Service as OtherProcess
    from blackout.storage import GameRow

    port = mail[1]
    service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
    refuse_answers(database)
    with pytest.raises(smtplib.SMTPDataError):
        test_mail.send(port, "ann@example.org", "blackout move 101 ann ann-pw 0")
    allow_answers(database)
    OtherProcess(database).move(101, "ann", "ann-pw", "1")  # the command line, say
    with database.transaction() as session:
        row = session.get(GameRow, 101)
        cached = service.parts.store.cache.game(session, row)
    assert [str(m.action) for m in cached.history] == ["1"]
    assert [str(m.action) for m in service.snapshot(101).game.history] == ["1"]
