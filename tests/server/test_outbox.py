"""No lost mail: notifications go to the outbox in the move's own transaction and reach
the players once the relay takes them, exactly once, however long it was away."""

from __future__ import annotations

from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from blackout import variant
from blackout.mail import Gateway, GatewayConfig, mail_notices
from blackout.service import ServiceError
from blackout.service.outbox import retry_delay
from blackout.storage import MoveRow, OutboxMail

from .test_mail import Sink, free_port, send

PBM = variant("pbmserv", inorder=True)


class RefusingSink(Sink):
    """A relay that answers but refuses mail with a temporary error until told not to."""

    def __init__(self) -> None:
        super().__init__()
        self.refusing = True

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.refusing:
            return "451 4.3.0 try again later"
        return await super().handle_DATA(server, session, envelope)


def outbox_rows(database) -> list[OutboxMail]:
    with database.transaction() as session:
        return list(session.scalars(select(OutboxMail).order_by(OutboxMail.id)))


def test_mail_waits_while_the_relay_is_away_and_arrives_exactly_once(service, people,
                                                                    database, clock):
    relay_port = free_port()  # nothing listens here yet: connections are refused
    config = GatewayConfig(host="127.0.0.1", port=free_port(), relay_host="127.0.0.1",
                           relay_port=relay_port, address="blackout@test.example")
    gateway = Gateway(service, config)
    server = Controller(gateway, hostname="127.0.0.1", port=config.port)
    server.start()
    relay = None
    try:
        # The operator's challenge (a chosen seed: ann moves first), then a mail move.
        service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv", inorder=True), seed=2)
        assert gateway.deliver() == 0  # the relay is away: tried once, kept
        send(config.port, "ann@example.org", "blackout move 101 ann ann-pw 0")
        # The challenge's boards, the move's answer and boards: all kept.
        rows = outbox_rows(database)
        assert len(rows) == 9
        assert all(r.sent_at is None and r.attempts == 1 and r.last_error for r in rows)
        assert gateway.deliver() == 0  # too early for a retry: nothing is even tried
        assert all(r.attempts == 1 for r in outbox_rows(database))

        # The relay comes back but refuses for now (451): a failed attempt, kept again.
        sink = RefusingSink()
        relay = Controller(sink, hostname="127.0.0.1", port=relay_port)
        relay.start()
        clock.advance(seconds=31)
        assert gateway.deliver() == 0
        rows = outbox_rows(database)
        assert all(r.sent_at is None and r.attempts == 2 and "451" in r.last_error
                   for r in rows)
        assert sink.mails.empty()

        sink.refusing = False
        clock.advance(seconds=59)  # the second retry waits 60 s
        assert gateway.deliver() == 0
        clock.advance(seconds=1)
        assert gateway.deliver() == 9
        mails = sink.take(9)
        assert sorted(str(m["Subject"]) for m in mails) == sorted(
            ["Re: blackout move 101 ann ***** 0"]
            + ["blackout Board 101 ann"] * 4 + ["blackout Board 101 bob"] * 4)
        clock.advance(hours=2)
        assert gateway.deliver() == 0  # sent once, never again
        assert sink.mails.empty()
        assert all(r.sent_at is not None for r in outbox_rows(database))
    finally:
        server.stop()
        if relay is not None:
            relay.stop()


def test_a_relay_that_refuses_one_recipient_does_not_hold_up_the_others(service, people,
                                                                        database, clock):
    class PickySink(Sink):
        async def handle_RCPT(self, server, session, envelope, address, options) -> str:
            if address.startswith("cy@"):
                return "550 5.1.1 no such user"
            envelope.rcpt_tos.append(address)
            return "250 OK"

    sink = PickySink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    try:
        gateway = Gateway(service, GatewayConfig(relay_host="127.0.0.1", relay_port=relay.port))
        service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
        assert gateway.deliver() == 3
        assert sorted(str(m["To"]) for m in sink.take(3)) == [
            "ann@example.org", "bob@example.org", "di@example.org"]
        (refused,) = [r for r in outbox_rows(database) if r.sent_at is None]
        assert refused.recipient == "cy@example.org" and "550" in refused.last_error
        # 550 is a refusal for good: the mail is given up, not retried every hour.
        assert refused.given_up_at is not None and service.outbox.pending() == 0
        clock.advance(hours=2)
        assert gateway.deliver() == 0
        assert sink.mails.empty()
    finally:
        relay.stop()


def test_mail_that_keeps_failing_is_given_up_after_five_days(service, people, database,
                                                             clock):
    sink = RefusingSink()  # 451: try again later, for ever
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    try:
        gateway = Gateway(service, GatewayConfig(relay_host="127.0.0.1", relay_port=relay.port))
        service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2)
        assert service.outbox.pending() == 4
        for _ in range(4 * 24):  # hourly retries for four days: still kept
            gateway.deliver()
            clock.advance(hours=1)
        assert service.outbox.pending() == 4
        assert all(r.given_up_at is None and "451" in r.last_error
                   for r in outbox_rows(database))
        clock.advance(days=1)
        assert gateway.deliver() == 0
        assert service.outbox.pending() == 0
        rows = outbox_rows(database)
        assert all(r.sent_at is None and r.given_up_at is not None for r in rows)
        attempts = [r.attempts for r in rows]
        clock.advance(days=1)
        gateway.deliver()
        assert [r.attempts for r in outbox_rows(database)] == attempts  # not tried again
        assert sink.mails.empty()
    finally:
        relay.stop()


def test_notifications_are_written_in_the_moves_transaction(service, people, database):
    """If the mail cannot be written, the move is not made either (and vice versa)."""
    service.notifier = mail_notices  # as every front end installs it
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    before = len(outbox_rows(database))

    def broken(reader, events):
        mail_notices(reader, events)
        raise RuntimeError("the disk is full")

    service.notifier = broken
    with pytest.raises(RuntimeError):
        service.move(board, "ann", "ann-pw", "0")
    with database.transaction() as session:
        assert session.scalars(select(MoveRow)).all() == []
    assert len(outbox_rows(database)) == before
    service.notifier = mail_notices
    with pytest.raises(ServiceError, match="It is not your move"):
        service.move(board, "bob", "bob-pw", "0")
    assert len(outbox_rows(database)) == before  # a refused move mails nobody
    service.move(board, "ann", "ann-pw", "0")
    rows = outbox_rows(database)  # merged into the unsent mail about the new board
    assert len(rows) == before == 4 and all("Move #1: ann 0" in r.summary for r in rows)


def test_unsent_board_mail_merges_into_one_mail_with_the_newest_board(service, people,
                                                                      database):
    gateway = Gateway(service, GatewayConfig(relay_host="127.0.0.1", relay_port=free_port()))
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    service.move(board, "ann", "ann-pw", "0")
    service.move(board, "bob", "bob-pw", "0")
    rows = [r for r in outbox_rows(database) if r.recipient == "cy@example.org"]
    assert len(rows) == 1
    assert rows[0].summary.splitlines() == ["Board 101 started: ann, bob, cy, di",
                                            "Move #1: ann 0", "Move #2: bob 0"]
    assert rows[0].subject == "blackout Board 101 cy" and "move #3" in rows[0].body
    gateway.deliver()  # the relay is away: tried once, so later mail no longer merges
    service.move(board, "cy", "cy-pw", "0")
    assert len([r for r in outbox_rows(database) if r.recipient == "cy@example.org"]) == 2


def test_retries_back_off_to_at_most_an_hour():
    assert [retry_delay(n) for n in (1, 2, 3)] == [timedelta(seconds=s) for s in (30, 60, 120)]
    assert retry_delay(20) == timedelta(hours=1)
    assert retry_delay(100) == timedelta(hours=1)  # days of failures: still an hour

