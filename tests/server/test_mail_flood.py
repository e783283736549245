"""Issue 19.8/19.12: "an anonymous sender mailing help once a second held back 32 of 156
board mails".  Reproduced with the real gateway and a real (deliberately slow) SMTP relay
on loopback: a stranger floods the gateway with ``help`` while the players make their
moves by mail.  Every board must reach every player within seconds of the move; the
stranger gets a bounded number of answers and is told to come back later (451) after that.
"""

from __future__ import annotations

import asyncio
import smtplib
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default as default_policy

import pytest
from aiosmtpd.controller import Controller

from blackout import variant
from blackout.mail import Gateway, GatewayConfig
from blackout.mail.gateway import STRANGER_REPLIES
from blackout.service import Service

from . import test_mail
from .test_mail import free_port, send

mail = test_mail.mail  # the gateway and relay fixture, shared

SPAM = 300
MOVES = 8
#: What the relay takes per mail: slow enough that a queue of answers would show.
RELAY_DELAY = 0.1


class SlowRelay:
    """Keeps every mail with the time it arrived; takes RELAY_DELAY for each."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.mails: list[tuple[float, EmailMessage]] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        await asyncio.sleep(RELAY_DELAY)
        message = BytesParser(policy=default_policy).parsebytes(envelope.content)
        with self.lock:
            self.mails.append((time.monotonic(), message))
        return "250 OK"

    def to(self, address: str) -> list[tuple[float, EmailMessage]]:
        with self.lock:
            return [(t, m) for t, m in self.mails if m["To"] == address]


@pytest.fixture
def gateway(service: Service) -> Iterator[tuple[SlowRelay, int]]:
    relay_sink = SlowRelay()
    relay = Controller(relay_sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    config = GatewayConfig(host="127.0.0.1", port=free_port(), relay_host="127.0.0.1",
                           relay_port=relay.port, address="blackout@test.example")
    server = Controller(Gateway(service, config), hostname="127.0.0.1", port=config.port)
    server.start()
    yield relay_sink, config.port
    server.stop()
    relay.stop()


def message_from(sender: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "blackout@test.example"
    message["Subject"] = subject
    message.set_content("")
    return message


def flood(port: int, codes: list[int], count: int) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
        for _ in range(count):
            try:
                smtp.send_message(message_from("spam@evil.example", "blackout help"))
                codes.append(250)
            except smtplib.SMTPDataError as exc:
                codes.append(exc.smtp_code)
            except (OSError, smtplib.SMTPException) as exc:  # shown by the test's asserts
                codes.append(-1)
                print(f"flood: a spam connection failed: {exc!r}")
                return


def test_a_stranger_flooding_help_never_holds_back_a_board(gateway, service, people):
    relay, port = gateway
    board = service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv", inorder=True),
                              seed=2).board
    codes: list[int] = []
    spammers = [threading.Thread(target=flood, args=(port, codes, SPAM // 3))
                for _ in range(3)]
    started = time.monotonic()
    for spammer in spammers:
        spammer.start()
    delays = []
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
        for number in range(1, MOVES + 1):
            snap = service.snapshot(board)
            player = snap.controller(snap.game.to_move)
            action = str(snap.game.legal_actions()[0])
            accepted = time.monotonic()  # the mail's answer comes after its boards went
            smtp.send_message(message_from(f"{player}@example.org",
                                   f"blackout move {board} {player} {player}-pw "
                                   f"{action}#{number}"))
            for userid in ("ann", "bob", "cy", "di"):
                while True:  # the board that tells of move #number, to this player
                    seen = [t for t, m in relay.to(f"{userid}@example.org")
                            if m["Subject"].startswith(f"blackout Board {board}")
                            and f"Move #{number}:" in m.get_content()]
                    if seen or time.monotonic() - accepted > 30:
                        break
                    time.sleep(0.01)
                assert seen, f"no board after move #{number} to {userid}"
                delays.append(seen[0] - accepted)
    for spammer in spammers:
        spammer.join(timeout=120)
    elapsed = time.monotonic() - started
    answers = relay.to("spam@evil.example")
    print(f"flood: {len(codes)} help mails, {codes.count(250)} taken, "
          f"{len(answers)} answered; {MOVES} moves, board delay max "
          f"{max(delays):.3f} s, mean {sum(delays) / len(delays):.3f} s; {elapsed:.1f} s")
    counted = {code: codes.count(code) for code in set(codes)}
    assert len(codes) == SPAM, counted
    assert max(delays) < 5.0, delays
    assert counted == {250: STRANGER_REPLIES, 451: SPAM - STRANGER_REPLIES}, counted
    time.sleep(1)
    assert len(relay.to("spam@evil.example")) == STRANGER_REPLIES


def test_boards_go_before_a_backlog_of_answers(service, people):
    """Mail that piled up (the relay was away, a burst of commands): the players' boards
    are claimed and sent ahead of the answers to commands, whatever their age."""
    from blackout.mail import mail_notices
    from blackout.service.outbox import CLAIM_LIMIT, Notice

    service.notifier = mail_notices  # as every front end installs it
    service.post([Notice("spam@evil.example", f"Re: blackout help {n}", "help")
                  for n in range(3 * CLAIM_LIMIT)])
    service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv"))
    assert service.outbox.pending() == 3 * CLAIM_LIMIT + 4
    due = service.outbox.claim()
    assert sorted(m.to for m in due[:4]) == [f"{p}@example.org"
                                             for p in ("ann", "bob", "cy", "di")]
    assert all(m.subject.startswith("Re:") for m in due[4:])


def test_the_strangers_limit_is_per_hour_and_players_have_none(mail, service, people,
                                                                clock):
    sink, port, _ = mail

    def helps(sender: str, count: int) -> list[int]:
        codes = []
        for _ in range(count):
            try:
                send(port, sender, "blackout help")
                codes.append(250)
            except smtplib.SMTPDataError as exc:
                codes.append(exc.smtp_code)
        return codes

    assert helps("Spam@Evil.example", STRANGER_REPLIES + 2) == \
        [250] * STRANGER_REPLIES + [451, 451]
    assert helps("spam@evil.example", 1) == [451]  # the same address, other case
    clock.advance(hours=1, seconds=1)
    assert helps("spam@evil.example", 1) == [250]
    assert helps("ann@example.org", STRANGER_REPLIES + 2) == [250] * (STRANGER_REPLIES + 2)
    assert len(sink.take(2 * STRANGER_REPLIES + 3)) == 2 * STRANGER_REPLIES + 3
