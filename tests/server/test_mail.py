"""The mail gateway over real SMTP on loopback.

The gateway listens on a free port; a local aiosmtpd server stands in for the relay and
keeps every mail the gateway sends.  Commands go in with smtplib.
"""

from __future__ import annotations

import queue
import smtplib
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default as default_policy

import pytest
from aiosmtpd.controller import Controller

from blackout import variant
from blackout.core.cards import cards_in
from blackout.mail import Gateway, GatewayConfig
from blackout.service import QueuedMoveRefused, Service


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Sink:
    """The relay: keeps what it is sent."""

    def __init__(self) -> None:
        self.mails: queue.Queue[EmailMessage] = queue.Queue()

    async def handle_DATA(self, server, session, envelope) -> str:
        self.mails.put(BytesParser(policy=default_policy).parsebytes(envelope.content))
        return "250 OK"

    def take(self, count: int, timeout: float = 20) -> list[EmailMessage]:
        got = [self.mails.get(timeout=timeout) for _ in range(count)]
        try:  # nothing more should follow
            extra = self.mails.get(timeout=0.3)
        except queue.Empty:
            return got
        raise AssertionError(f"unexpected extra mail: {extra['Subject']}")


@pytest.fixture
def mail(service: Service) -> Iterator[tuple[Sink, int, Gateway]]:
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    config = GatewayConfig(host="127.0.0.1", port=free_port(), relay_host="127.0.0.1",
                           relay_port=relay.port, address="blackout@test.example")
    gateway = Gateway(service, config)
    server = Controller(gateway, hostname="127.0.0.1", port=config.port)
    server.start()
    yield sink, config.port, gateway
    server.stop()
    relay.stop()


def send(port: int, sender: str, subject: str, body: str = "") -> None:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "blackout@test.example"
    message["Subject"] = subject
    message.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.send_message(message)


def by_recipient(mails: list[EmailMessage]) -> dict[str, EmailMessage]:
    return {str(m["To"]): m for m in mails}


def test_commands_by_mail_with_boards_to_every_player(mail, service, people):
    sink, port, _ = mail
    send(port, "zed@example.org", "blackout signup zed zed@example.org zed-pw")
    code, answer = sink.take(2)  # the confirmation code goes first, then the answer
    assert answer["To"] == "zed@example.org" and "account zed created" in answer.get_content()
    assert code["To"] == "zed@example.org"
    assert str(code["Subject"]).startswith("blackout confirm zed ")

    send(port, "ann@example.org", "blackout challenge -inorder -seed=2 ann bob cy di")
    (refused,) = sink.take(1)  # by mail, nobody chooses the deal of a game with people
    assert "-seed=N is only for games between computer players" in refused.get_content()
    assert service.games() == []

    send(port, "ann@example.org", "blackout challenge -inorder ann bob cy di")
    game = service.snapshot(101).game
    first = game.players[game.to_move]
    mails = sink.take(5)  # the answer, then a board for each of the four players
    boards = [m for m in mails if m["Subject"] == f"blackout Board 101 {first}"]
    assert sorted(str(m["To"]) for m in boards) == [f"{p}@example.org" for p in
                                                    ("ann", "bob", "cy", "di")]
    assert not any(str(game.seed) in m.get_content() for m in mails)  # the deal is secret

    send(port, f"{first}@example.org", f"blackout move 101 {first} {first}-pw 0#1",
         "Good luck, all.\n\n> quoted text stays out\n-- \nann's signature")
    mails = sink.take(5)
    answer = next(m for m in mails if str(m["Subject"]).startswith("Re:"))
    assert "move #1 accepted on board 101: 0" in answer.get_content()
    second = game.players[(game.to_move + 1) % 4]
    boards = by_recipient([m for m in mails if m["Subject"] == f"blackout Board 101 {second}"])
    assert len(boards) == 4
    for seat, userid in enumerate(("ann", "bob", "cy", "di")):
        text = boards[f"{userid}@example.org"].get_content()
        assert f"Move #1: {first} 0 saying: Good luck, all." in text
        assert "quoted text" not in text and "signature" not in text
        # The blind first hand: everyone's card but your own.
        own = str(next(cards_in(game.hands[seat])))
        others = [str(next(cards_in(game.hands[s]))) for s in range(4) if s != seat]
        assert own not in text.split() and all(c in text for c in others)


def test_an_error_goes_only_to_the_sender_with_board_and_quote(mail, service, people,
                                                               database):
    from .helpers import GAME_TABLES, dump

    sink, port, gateway = mail
    service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv", inorder=True), seed=2)
    gateway.deliver()
    assert len(sink.take(4)) == 4  # the new board, to each player
    before = dump(database, skip=("failures", "locked_until"), tables=GAME_TABLES)
    send(port, "mallory@example.org", "blackout move 101 bob wrong-pw 0", "let me in")
    (error,) = sink.take(1)
    text = error.get_content()
    assert error["To"] == "mallory@example.org"
    assert text.startswith("Error: Invalid password/userid entered")
    assert "Board 101: blackout (pbmserv)" in text
    assert "> Subject: blackout move 101 bob ***** 0" in text and "> let me in" in text
    assert "wrong-pw" not in text  # the password is never quoted back (issue 19.5)
    assert dump(database, skip=("failures", "locked_until"), tables=GAME_TABLES) == before

    send(port, "ann@example.org", "Re: blackout frobnicate")
    (error,) = sink.take(1)
    assert "unknown command 'frobnicate'" in error.get_content()


def test_idle_players_are_reminded_then_replaced_by_mail(mail, service, people, clock):
    sink, _, gateway = mail  # the gateway's defaults: remind after 72 h, replace after 168 h
    service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv", inorder=True), seed=2)
    gateway.deliver()
    assert len(sink.take(4)) == 4  # the new board, to each player
    clock.advance(hours=73)
    gateway.check_timeouts()
    (reminder,) = sink.take(1)
    assert reminder["To"] == "ann@example.org"
    assert reminder["Subject"] == "blackout Board 101 reminder"
    clock.advance(hours=100)
    gateway.check_timeouts()
    boards = sink.take(3)  # bob, cy and di get the board; ann has left the game
    assert {str(m["To"]) for m in boards} == {"bob@example.org", "cy@example.org",
                                             "di@example.org"}
    assert all(m["Subject"] == "blackout Board 101 bob" for m in boards)
    assert "ann did not move in time; bot:random plays the seat now" in boards[0].get_content()


def test_a_refused_queued_move_is_mailed_to_its_player(mail, service, people):
    sink, _, gateway = mail
    board = service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv", inorder=True),
                              seed=2).board
    service.queue(board, "di", "di-pw", "1")  # the hook will forbid it
    service.move(board, "ann", "ann-pw", "0")
    service.move(board, "bob", "bob-pw", "0")
    events = service.move(board, "cy", "cy-pw", "0").events
    assert any(isinstance(e, QueuedMoveRefused) for e in events)
    gateway.deliver()
    mails = sink.take(5)  # the board to each player (merged), and di's notice
    (notice,) = [m for m in mails if m["Subject"] == "blackout Board 101 queued move"]
    assert notice["To"] == "di@example.org" and "may not bid 1" in notice.get_content()
    boards = by_recipient([m for m in mails if m["Subject"] == "blackout Board 101 di"])
    assert len(boards) == 4
    lines = boards["ann@example.org"].get_content().splitlines()
    assert lines[:4] == ["Board 101 started: ann, bob, cy, di", "Move #1: ann 0",
                         "Move #2: bob 0", "Move #3: cy 0"]


def test_the_mail_gateway_command_serves_mail(tmp_path, cli_env):
    """``blackout mail-gateway`` as a real process, answering through the relay."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    port = free_port()
    gateway = subprocess.Popen(
        [str(Path(sys.executable).with_name("blackout")), "mail-gateway", "--port", str(port),
         "--relay-host", "127.0.0.1", "--relay-port", str(relay.port),
         "--db", f"sqlite:///{tmp_path / 'mail.db'}", "--address", "server@test.example"],
        env=cli_env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "listening on 127.0.0.1" in gateway.stdout.readline()
        for _ in range(50):  # the port opens a moment after the message
            try:
                send(port, "ann@example.org", "blackout help move")
                break
            except OSError:
                time.sleep(0.1)
        (answer,) = sink.take(1)
        assert answer["From"] == "server@test.example" and answer["To"] == "ann@example.org"
        assert "blackout move BOARD USERID PASSWORD MOVE[#N]" in answer.get_content()
    finally:
        gateway.terminate()
        gateway.wait(timeout=30)
        relay.stop()


def test_a_database_failure_asks_the_sender_to_try_again(mail, service, people, database):
    """451, a temporary failure: the sending mail system keeps the command and retries."""
    from sqlalchemy import text

    sink, port, _ = mail
    service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv"), seed=2)
    with database.engine.begin() as connection:
        connection.execute(text("DROP TABLE moves"))
    with pytest.raises(smtplib.SMTPDataError) as refused:
        send(port, "ann@example.org", "blackout show 101")
    assert refused.value.smtp_code == 451
    assert sink.mails.empty()
