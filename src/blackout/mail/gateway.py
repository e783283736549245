"""The e-mail front end: commands arrive by SMTP, answers leave through a relay.

A mail's Subject is the command (``blackout move 101 ann secret 7``, the leading
``blackout`` optional) and its body an optional comment for the other players.  The
sender is answered; after every accepted move each player is mailed the board from their
own seat, Subject ``blackout Board N <next player>``.  An error goes only to the sender,
with the board and the original message quoted.

Nothing is mailed directly: the service writes each notification to the outbox in the
transaction of the move it tells about (composed by :func:`~blackout.mail.mail_notices`,
the notifier of every front end), answers are written right after the command, and
:meth:`Gateway.deliver` sends what is due, retrying refused mail later (see
:mod:`blackout.service.outbox`).  A relay that is down delays mail; it loses none.
"""

from __future__ import annotations

import asyncio
import contextlib
import smtplib
import sys
import time
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default as default_policy
from email.utils import parseaddr
from typing import Any

from blackout.commands import CommandError, board_text, execute
from blackout.commands.language import BOARD
from blackout.mail.notices import mail_notices
from blackout.service import Event, Service, ServiceError
from blackout.service.outbox import Notice, PendingMail

MAX_COMMENT = 1000
#: How often the running gateway looks for mail that is due (retries, leftovers).
DELIVERY_TICK = 5.0


@dataclass(frozen=True)
class GatewayConfig:
    host: str = "127.0.0.1"
    port: int = 2525
    address: str = "blackout@localhost"
    relay_host: str = "localhost"
    relay_port: int = 25
    remind_after_hours: float = 72.0
    give_up_after_hours: float = 168.0
    forfeit: bool = False
    check_every: float = 60.0


class Gateway:
    """Turns incoming mail into commands and delivers the outbox through the relay.

    It makes :func:`~blackout.mail.notices.mail_notices` ``service``'s notifier (as every
    front end does): every write of the service puts the mail about it in the outbox, in
    the same transaction.
    """

    def __init__(self, service: Service, config: GatewayConfig) -> None:
        self.service = service
        self.config = config
        service.notifier = mail_notices
        # Computer players move after the answer (run_due), never inside a request.
        service.run_bots = False

    # -- incoming -----------------------------------------------------------------------

    def handle(self, message: EmailMessage) -> None:
        """Run the command in ``message``; its answer goes to the outbox."""
        sender = parseaddr(str(message.get("From", "")))[1]
        if not sender:
            return
        subject = " ".join(str(message.get("Subject", "")).split())
        words = _command_words(subject)
        comment = _comment(message)
        try:
            # The sender is the source wrong passwords are counted by: a stranger's
            # guesses lock out the stranger, not the owner's own address.
            reply = execute(self.service, words, comment=comment, source=sender)
        except ValueError as exc:  # CommandError, ServiceError, RulesError
            self.service.post([self._error_notice(sender, subject, message, str(exc), words)])
            return
        self.service.post([Notice(sender, f"Re: {subject}", reply.text)])

    def _error_notice(self, sender: str, subject: str, original: EmailMessage, error: str,
                      words: list[str]) -> Notice:
        parts = [f"Error: {error}", ""]
        board = _board_of(words)
        if board is not None:
            with contextlib.suppress(ServiceError):  # no such board: the error says so
                parts += [board_text(self.service.snapshot(board)), ""]
        parts.append("Your message:")
        parts.append(f"> Subject: {subject}")
        parts += ["> " + line for line in _body(original).splitlines()]
        return Notice(sender, f"Re: {subject} (error)", "\n".join(parts))

    # -- outgoing -----------------------------------------------------------------------

    def deliver(self) -> int:
        """Send the outbox's mail that is due through the relay; how many were sent.
        Mail the relay does not take stays in the outbox for a later try."""
        due = self.service.outbox.claim()
        sent = 0
        try:
            if due:
                with smtplib.SMTP(self.config.relay_host, self.config.relay_port,
                                  timeout=30) as relay:
                    while due:
                        try:
                            self._send_one(relay, due[0])
                            sent += 1
                        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused,
                                smtplib.SMTPDataError) as exc:  # this mail only
                            self._failed(due[0], exc)
                        due.pop(0)  # a lost connection leaves it in ``due``: retried
        except (OSError, smtplib.SMTPException) as exc:
            print(f"blackout mail-gateway: relay {self.config.relay_host}:"
                  f"{self.config.relay_port} did not take the mail ({len(due)} kept for later): "
                  f"{exc}", file=sys.stderr)
            for mail in due:
                self._failed(mail, exc)
        return sent

    def _failed(self, mail: PendingMail, exc: Exception) -> None:
        if self.service.outbox.failed(mail.id, str(exc), permanent=_refused_for_good(exc)):
            print(f"blackout mail-gateway: gave up on the mail to {mail.to} "
                  f"({mail.subject!r}): {exc}", file=sys.stderr)

    def _send_one(self, relay: smtplib.SMTP, pending: PendingMail) -> None:
        mail = EmailMessage()
        mail["From"] = self.config.address
        mail["To"] = pending.to
        mail["Subject"] = pending.subject
        mail.set_content(pending.text + "\n")
        relay.send_message(mail)
        self.service.outbox.sent(pending.id)

    # -- timeouts -------------------------------------------------------------------------

    def check_timeouts(self) -> list[Event]:
        """Remind or replace idle players (their mail goes to the outbox), then deliver."""
        self.service.parts.runner.run_due()
        events = self.service.check_timeouts(
            self.service.clock(), remind_after=timedelta(hours=self.config.remind_after_hours),
            give_up_after=timedelta(hours=self.config.give_up_after_hours),
            forfeit=self.config.forfeit)
        self.deliver()
        return events

    # -- the SMTP server's hook (aiosmtpd) -----------------------------------------------------

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from sqlalchemy.exc import SQLAlchemyError

        message = BytesParser(policy=default_policy).parsebytes(envelope.content)
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, self._answer, message)
        except SQLAlchemyError as exc:
            # Nothing was committed: a temporary failure makes the sender's mail system
            # try again later instead of losing the command.
            print(f"blackout mail-gateway: database error: {_first_line(exc)}", file=sys.stderr)
            return "451 Requested action aborted: local error in processing"
        return "250 Message accepted for delivery"

    def _answer(self, message: Any) -> None:
        self.handle(message)
        self.deliver()  # the answer first; then the computer players it made due
        if self.service.parts.runner.run_due():
            self.deliver()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _command_words(subject: str) -> list[str]:
    words = subject.split()
    while words and words[0].lower().rstrip(":") in ("re", "fwd", "fw"):
        words = words[1:]
    if words and words[0].lower() == "blackout":
        words = words[1:]
    return words


def _board_of(words: list[str]) -> int | None:
    if len(words) > 1 and BOARD.fullmatch(words[1].split("#")[0]):
        return int(words[1].split("#")[0])
    return None


def _body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    if part is None:
        return ""
    try:
        return str(part.get_content())
    except (LookupError, ValueError):
        return ""


def _comment(message: EmailMessage) -> str | None:
    """The body without quoted lines and signature, as the move's comment."""
    lines = []
    for line in _body(message).splitlines():
        if line.rstrip() == "--":
            break
        if not line.startswith(">"):
            lines.append(line.rstrip())
    text = "\n".join(lines).strip()
    return text[:MAX_COMMENT] or None


def serve_forever(service: Service, config: GatewayConfig) -> None:
    """Run the SMTP server, mail delivery and the timeout checks until interrupted."""
    from aiosmtpd.controller import Controller
    from sqlalchemy.exc import SQLAlchemyError

    gateway = Gateway(service, config)
    controller = Controller(gateway, hostname=config.host, port=config.port)
    controller.start()
    print(f"blackout mail-gateway listening on {config.host}:{config.port}, relay "
          f"{config.relay_host}:{config.relay_port}", flush=True)
    next_check = time.monotonic() + config.check_every
    try:
        while True:
            try:
                gateway.deliver()  # retries, and mail left from before a restart
                if time.monotonic() >= next_check:
                    next_check = time.monotonic() + config.check_every
                    gateway.check_timeouts()
            except SQLAlchemyError as exc:  # the database is away: try again next time
                print(f"blackout mail-gateway: database error: {_first_line(exc)}",
                      file=sys.stderr)
            time.sleep(min(DELIVERY_TICK, config.check_every))
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


def _refused_for_good(exc: Exception) -> bool:
    """Whether the relay's answer was a permanent refusal (an SMTP 5xx code)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
    else:
        codes = [getattr(exc, "smtp_code", 0)]
    return bool(codes) and all(500 <= code < 600 for code in codes)


__all__ = ["CommandError", "Gateway", "GatewayConfig", "serve_forever"]

