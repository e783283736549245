"""Issue 19.11: an address is confirmed (a code mailed to it comes back) before mail play,
and one address is the confirmed address of one account at most.  Over real SMTP on
loopback (the gateway on a free port, an aiosmtpd relay keeping what it is sent), on
SQLite and, when configured, PostgreSQL."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from blackout import variant
from blackout.service import errors
from blackout.service.accounts import CODE_LIFETIME, RESEND_AFTER
from blackout.storage import Account, OutboxMail

from . import test_mail
from .test_mail import send

mail = test_mail.mail  # the gateway and relay fixture, shared

PBM = variant("pbmserv", inorder=True)


def code_of(confirmation) -> str:
    subject = str(confirmation["Subject"])
    match = re.fullmatch(r"blackout confirm (\S+) ([A-Z0-9]{10})", subject)
    assert match, subject
    return match.group(2)


def answer(mails) -> str:
    (reply,) = [m for m in mails if str(m["Subject"]).startswith("Re:")]
    return reply.get_content()


def signup_by_mail(sink, port, userid: str, email: str) -> str:
    """Sign up by mail; the code mailed to ``email``."""
    send(port, email, f"blackout signup {userid} {email} {userid}-pw")
    mails = sink.take(2)
    assert f"account {userid} created" in answer(mails)
    assert f"a confirmation code was mailed to {email}" in answer(mails)
    (confirmation,) = [m for m in mails if str(m["Subject"]).startswith("blackout confirm")]
    assert confirmation["To"] == email
    return code_of(confirmation)


def test_no_mail_play_until_the_address_is_confirmed_by_a_reply(mail, service, people,
                                                                database, capfd):
    sink, port, _ = mail
    code = signup_by_mail(sink, port, "zed", "zed@example.org")
    with database.transaction() as session:  # only the code's hash is kept
        zed = session.get(Account, "zed")
        assert zed.email_confirmed_at is None and code not in repr(vars(zed))
        assert len(zed.confirm_code_hash) == 64

    # A challenge by mail from the unconfirmed address is refused; by ann it is not.
    send(port, "zed@example.org", "blackout challenge ann bob cy zed")
    assert "is not the confirmed address of an account" in sink.take(1)[0].get_content()
    assert service.games() == []
    send(port, "ann@example.org", "blackout challenge -inorder zed ann bob cy")
    mails = sink.take(4)  # the answer, and the board to ann, bob and cy: none to zed
    assert "board 101 started" in answer(mails)
    assert sorted(str(m["To"]) for m in mails if not str(m["Subject"]).startswith("Re:")) \
        == ["ann@example.org", "bob@example.org", "cy@example.org"]

    # zed's move by mail is refused, saying how to confirm; nothing is played.
    send(port, "zed@example.org", "blackout move 101 zed zed-pw 0")
    (refused,) = sink.take(1)
    text = refused.get_content()
    assert "the address of zed is not confirmed yet" in text
    assert "blackout confirm zed CODE" in text and "'blackout confirm zed'" in text
    assert service.snapshot(101).moves == []

    # A wrong code is refused; the reply to the confirmation mail confirms.
    send(port, "zed@example.org", "blackout confirm zed AAAAAAAAAA")
    assert "wrong or expired confirmation code" in sink.take(1)[0].get_content()
    send(port, "zed@example.org", f"Re: blackout confirm zed {code}")
    (confirmed,) = sink.take(1)
    assert "the address of zed (zed@example.org) is confirmed" in confirmed.get_content()
    assert str(confirmed["Subject"]) == "Re: blackout confirm zed *****"
    send(port, "zed@example.org", "blackout move 101 zed zed-pw 0")
    mails = sink.take(5)  # now the answer, and the board to all four
    assert "move #1 accepted" in answer(mails)
    assert "zed@example.org" in {str(m["To"]) for m in mails
                                 if str(m["Subject"]) == "blackout Board 101 ann"}
    # The operator's log shows every command, never the code.
    logged = capfd.readouterr().err
    assert "zed@example.org: blackout confirm zed *****: done" in logged
    assert "blackout confirm zed *****: refused: wrong or expired" in logged
    assert code not in logged and "AAAAAAAAAA" not in logged
    with database.transaction() as session:
        stored = " ".join(r.subject + r.body for r in session.scalars(select(OutboxMail))
                          if r.subject.startswith("Re:"))
    assert code not in stored


def test_codes_expire_are_throttled_and_a_new_one_replaces_the_old(mail, service, clock,
                                                                   database):
    sink, port, _ = mail
    first = signup_by_mail(sink, port, "zed", "zed@example.org")
    send(port, "zed@example.org", "blackout confirm zed")  # a new code: too soon
    assert "a confirmation code went to zed@example.org a moment ago" in \
        sink.take(1)[0].get_content()
    clock.advance(seconds=RESEND_AFTER.total_seconds() + 1)
    send(port, "zed@example.org", "blackout confirm zed")
    mails = sink.take(2)
    second = code_of(next(m for m in mails if str(m["Subject"]).startswith("blackout")))
    assert second != first
    send(port, "zed@example.org", f"blackout confirm zed {first}")  # replaced
    assert "wrong or expired" in sink.take(1)[0].get_content()
    clock.advance(seconds=CODE_LIFETIME.total_seconds() + 1)
    send(port, "zed@example.org", f"blackout confirm zed {second}")  # expired
    assert "wrong or expired" in sink.take(1)[0].get_content()
    assert not service.parts.accounts.is_confirmed("zed")


def test_wrong_codes_are_throttled(service, clock):
    service.signup("zed", "zed@example.org", "zed-pw")
    for _ in range(5):
        with pytest.raises(errors.Unauthorized):
            service.confirm("zed", "BBBBBBBBBB", source="mallory@evil.example")
    with pytest.raises(errors.Locked):
        service.confirm("zed", "BBBBBBBBBB", source="mallory@evil.example")


def test_one_address_is_the_confirmed_address_of_one_account(mail, service, people,
                                                             database, clock):
    sink, port, _ = mail
    first = signup_by_mail(sink, port, "zed", "shared@example.org")
    # A second account on the same address: its code waits (one mail per 10 minutes).
    send(port, "shared@example.org", "blackout signup yan shared@example.org yan-pw")
    assert "a confirmation code went to shared@example.org a moment ago" in \
        sink.take(1)[0].get_content()
    clock.advance(seconds=RESEND_AFTER.total_seconds())
    send(port, "shared@example.org", "blackout confirm yan")
    second = code_of(next(m for m in sink.take(2) if str(m["Subject"]).startswith("blackout")))
    send(port, "shared@example.org", f"blackout confirm zed {first}")
    assert "is confirmed" in sink.take(1)[0].get_content()
    send(port, "shared@example.org", f"blackout confirm yan {second}")
    assert "shared@example.org is already the confirmed address of another account" in \
        sink.take(1)[0].get_content()
    assert not service.parts.accounts.is_confirmed("yan")
    # So the board of a game with both goes to the address once, for zed's seat.
    service.challenge(["zed", "yan", "ann"], variant("standard"))
    with database.transaction() as session:
        rows = list(session.scalars(select(OutboxMail).where(
            OutboxMail.recipient == "shared@example.org", OutboxMail.sent_at.is_(None))))
    assert len(rows) == 1 and "zed" in rows[0].body


def test_a_new_address_is_unconfirmed_until_its_code_comes_back(mail, service, people):
    sink, port, gateway = mail
    send(port, "ann@example.org", "blackout address ann ann-pw ann@new.example.org")
    mails = sink.take(2)
    assert "address of ann is now ann@new.example.org" in answer(mails)
    (confirmation,) = [m for m in mails if m["To"] == "ann@new.example.org"]
    assert not service.parts.accounts.is_confirmed("ann")
    service.challenge(["ann", "bob"], variant("standard"))
    gateway.deliver()
    assert [str(m["To"]) for m in sink.take(1)] == ["bob@example.org"]  # none for ann
    send(port, "ann@new.example.org", f"Re: {confirmation['Subject']}")
    assert "is confirmed" in sink.take(1)[0].get_content()
    assert service.parts.accounts.is_confirmed("ann")


def test_web_accounts_play_without_confirming(database, clock):
    """A web sign-up is mailed a code but needs none to play at a web table."""
    from blackout.service import Services

    services = Services(database, clock=clock)
    for userid in ("wes", "wyn"):
        services.accounts.signup(userid, f"{userid}@example.org", f"{userid}-pw")
    board = services.tables.create("wes", "standard", {"schedule": [1]}, ["wes", "wyn"])
    board = board["board"]
    services.tables.join(board, "wyn")
    played = 0
    for userid in ("wes", "wyn", "wes", "wyn"):
        actions = services.queries.table(board, userid)["view"]["legal_actions"]
        if actions:
            services.tables.move(board, userid, actions[0])
            played += 1
    assert played >= 2 and not services.accounts.is_confirmed("wes")


def stored_code(database, userid: str) -> str:
    """The code as it went out (the outbox row of its mail; the account has its hash)."""
    with database.transaction() as session:
        subjects = list(session.scalars(select(OutboxMail.subject).where(
            OutboxMail.subject.like(f"blackout confirm {userid} %"))))
    return subjects[-1].split()[-1]


def confirm_at_once(accounts, userid: str, code: str, barrier, outcomes: list[str]) -> None:
    barrier.wait(timeout=30)
    try:
        outcomes.append(accounts.confirm(userid, code))
    except errors.Forbidden as exc:
        outcomes.append(exc.message)


def test_two_accounts_confirming_one_address_at_once_only_one_wins(service, database,
                                                                   clock):
    import threading

    accounts = service.parts.accounts
    for round_ in range(4):
        users = [f"u{round_}a", f"u{round_}b"]
        for userid in users:
            accounts.signup(userid, f"same{round_}@example.org", "pw-pw")
            clock.advance(seconds=RESEND_AFTER.total_seconds())
        codes = {userid: stored_code(database, userid) for userid in users}
        barrier = threading.Barrier(2)
        outcomes: list[str] = []
        threads = [threading.Thread(target=confirm_at_once,
                                    args=(accounts, u, codes[u], barrier, outcomes))
                   for u in users]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sum("is confirmed" in o for o in outcomes) == 1, outcomes
        assert sum("already the confirmed address of another" in o for o in outcomes) == 1
        assert sum(accounts.is_confirmed(u) for u in users) == 1
