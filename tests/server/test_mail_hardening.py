"""Issue 19's mail items, over real SMTP on loopback (the gateway on a free port, an
aiosmtpd relay that keeps what it is sent), on SQLite and, when configured, PostgreSQL."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from blackout import variant
from blackout.mail import Gateway, GatewayConfig
from blackout.service.outbox import RETENTION
from blackout.storage import Account, OutboxMail

from . import test_mail
from .test_mail import Sink, free_port, send

mail = test_mail.mail  # the gateway and relay fixture, shared

PBM = variant("pbmserv", inorder=True)


def outbox_rows(database) -> list[OutboxMail]:
    with database.transaction() as session:
        return list(session.scalars(select(OutboxMail).order_by(OutboxMail.id)))


def send_raw(port: int, sender: str, raw: bytes) -> tuple[int, bytes]:
    """Send ``raw`` as it is; the gateway's answer to DATA (code, text)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
        smtp.ehlo()
        smtp.mail(sender)
        smtp.rcpt("blackout@test.example")
        return smtp.data(raw)


def test_passwords_are_never_stored_replied_or_logged(mail, service, people, database,
                                                      clock, capfd):
    # Issue 19.5 and 19.12: a password change by mail, right and wrong.
    sink, port, gateway = mail
    send(port, "ann@example.org", "Re: Re: blackout password ann ann-pw Brand-new-1")
    send(port, "ann@example.org", "blackout password ann Wrong-guess-2 Other-new-3")
    replies = sink.take(2)
    assert [str(m["Subject"]) for m in replies] == [
        "Re: blackout password ann ***** *****", "Re: blackout password ann ***** *****"
        " (error)"]
    stored = " ".join(f"{r.subject} {r.summary} {r.body}" for r in outbox_rows(database))
    logged = capfd.readouterr().err
    texts = [stored, logged, *(m.get_content() for m in replies)]
    for secret in ("ann-pw", "Brand-new-1", "Wrong-guess-2", "Other-new-3"):
        assert all(secret not in text for text in texts), secret
    # Every handled command is logged for the operator, without the passwords.
    assert "ann@example.org: blackout password ann ***** *****: done" in logged
    assert "blackout password ann ***** *****: refused: Invalid password" in logged
    # Sent mail is deleted after the retention period; unsent mail is kept.
    service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
    clock.advance(seconds=(RETENTION + timedelta(seconds=1)).total_seconds())
    assert gateway.purge() == 2
    assert len(outbox_rows(database)) == 4 and all(r.sent_at is None
                                                   for r in outbox_rows(database))


def test_outgoing_mail_has_date_and_a_stable_message_id(mail, service, people):
    sink, port, _ = mail
    send(port, "ann@example.org", "blackout help")
    (reply,) = sink.take(1)
    assert reply["Date"] is not None and reply["Date"].datetime is not None
    assert reply["Message-ID"].startswith("<blackout.outbox.")
    assert reply["Message-ID"].endswith("@test.example>")


def test_a_killed_deliverer_leaves_mail_for_a_short_lease_and_it_goes_once(
        mail, service, people, clock):
    # Issue 19.9: a gateway killed after claiming mail held it for 10 minutes.
    sink, _, gateway = mail
    service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
    assert len(service.outbox.claim()) == 4  # ... and the deliverer dies here
    assert gateway.deliver() == 0
    clock.advance(minutes=2)  # the lease: long enough to send, short enough to wait
    assert gateway.deliver() == 4
    assert len(sink.take(4)) == 4
    clock.advance(hours=1)
    assert gateway.deliver() == 0


def test_an_address_the_relay_cannot_take_fails_only_its_own_mail(service, people,
                                                                  database):
    # Issue 19.8: the relay has no SMTPUTF8; the mail to ü@example.org cannot go, the
    # others go at once, and it is given up rather than retried for five days.
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=False)
    relay.start()
    gateway = Gateway(service, GatewayConfig(relay_host="127.0.0.1", relay_port=relay.port))
    with database.transaction() as session:
        session.get(Account, "cy").email = "ü@example.org"
    service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
    assert gateway.deliver() == 3
    assert sorted(str(m["To"]) for m in sink.take(3)) == [
        "ann@example.org", "bob@example.org", "di@example.org"]
    relay.stop()
    (left,) = [r for r in outbox_rows(database) if r.sent_at is None]
    assert left.recipient == "ü@example.org" and left.given_up_at is not None
    assert service.outbox.pending() == 0


DEEP = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
                for i in range(3000))


@pytest.mark.parametrize(("raw", "answer"), [
    (b"From: <\r\nSubject: blackout help\r\n\r\nhi\r\n", 550),  # no address to answer
    (b"From: ann@example.org\r\nSubject: blackout help\r\n" + DEEP, 550),
])
def test_odd_mail_gets_a_clear_answer_never_500(mail, service, people, capfd, raw, answer):
    # Issue 19.10.
    _, port, _ = mail
    code, text = send_raw(port, "ann@example.org", raw)
    assert code == answer, text
    assert "Traceback" not in capfd.readouterr().err


def test_encoded_crlf_in_the_display_name_and_nul_in_the_subject(mail, service, people,
                                                                 database, capfd):
    sink, port, _ = mail
    forged = (b"From: =?utf-8?q?Ann=0D=0Ablackout-mail-gateway=3A_forged?= "
              b"<ann@example.org>\r\nSubject: blackout games\r\n\r\n\r\n")
    assert send_raw(port, "ann@example.org", forged)[0] == 250
    (reply,) = sink.take(1)
    assert reply["To"] == "ann@example.org" and reply["Subject"] == "Re: blackout games"
    nul = b"From: ann@example.org\r\nSubject: =?utf-8?q?blackout_signup_zed_z=40x.org_pw=00x?=" \
          b"\r\n\r\n\r\n"
    assert send_raw(port, "ann@example.org", nul)[0] == 250   # not 451, retried forever
    (reply,) = sink.take(1)
    assert "the Subject holds a control character" in reply.get_content()
    with database.transaction() as session:
        assert session.get(Account, "zed") is None
    logged = capfd.readouterr().err
    assert "\nblackout-mail-gateway: forged" not in logged and "Traceback" not in logged


def test_long_subjects_and_senders_commit_or_are_refused(mail, service, people, database):
    # Issue 19.7: on PostgreSQL a reply subject over 255 characters (stacked Re:) failed
    # after the command had committed, and the resent mail ran it again.
    sink, port, _ = mail
    service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
    send(port, "ann@example.org", "Re: " * 80 + "blackout move 101 ann ann-pw 0 " + "x" * 200)
    mails = sink.take(5)  # an error (a long move), and the boards of the challenge
    (error,) = [m for m in mails if str(m["Subject"]).startswith("Re:")]
    assert len(str(error["Subject"])) <= 255
    send(port, "ann@example.org", "Re: " * 80 + "blackout move 101 ann ann-pw 0")
    mails = sink.take(5)  # the answer and a board to each player
    assert len(service.snapshot(101).game.history) == 1
    long_sender = "a" * 250 + "@example.org"
    with pytest.raises(smtplib.SMTPDataError) as refused:
        send(port, long_sender, "blackout signup zed zed@example.org zed-pw")
    assert refused.value.smtp_code == 550
    with database.transaction() as session:
        assert session.get(Account, "zed") is None


def test_a_resent_mail_is_answered_again_not_run_again(mail, service, people):
    # Issue 19.7: a sender's mail system that resends (after a 451, or a lost 250) must
    # not make the move twice; the Message-ID names the mail.
    sink, port, gateway = mail
    service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
    gateway.deliver()
    assert len(sink.take(4)) == 4
    raw = (b"From: ann@example.org\r\nMessage-ID: <once.1@example.org>\r\n"
           b"Subject: blackout move 101 ann ann-pw 0\r\n\r\n\r\n")
    assert send_raw(port, "ann@example.org", raw)[0] == 250
    first = [m for m in sink.take(5) if str(m["Subject"]).startswith("Re:")]
    assert send_raw(port, "ann@example.org", raw)[0] == 250
    (again,) = sink.take(1)
    assert again.get_content() == first[0].get_content()
    assert "move #1 accepted" in again.get_content()
    assert len(service.snapshot(101).game.history) == 1
    # Another mail (another Message-ID) with the same subject is a new command.
    other = raw.replace(b"once.1", b"once.2")
    assert send_raw(port, "ann@example.org", other)[0] == 250
    (refused,) = sink.take(1)
    assert "Error:" in refused.get_content()
