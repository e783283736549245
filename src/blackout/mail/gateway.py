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
import dataclasses
import hashlib
import smtplib
import sys
import time
from dataclasses import dataclass
from datetime import timedelta
from email.errors import MessageError
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default as default_policy
from email.utils import formatdate, parseaddr
from typing import Any

from blackout.commands import CommandError, board_text, execute, redact
from blackout.commands.usage import BOARD
from blackout.mail.notices import mail_notices
from blackout.service import Event, Service, ServiceError
from blackout.service.outbox import Notice, PendingMail

MAX_COMMENT = 1000
#: The longest address (RFC 5321) and subject the outbox stores.
MAX_ADDRESS = 254
MAX_SUBJECT = 255
#: How often the running gateway looks for mail that is due (retries, leftovers).
DELIVERY_TICK = 5.0
#: Answers a sender that is no account's confirmed address gets per STRANGER_WINDOW.
STRANGER_REPLIES = 10
STRANGER_WINDOW = timedelta(hours=1)


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
        """Run the command in ``message``; its answer goes to the outbox.  The command's
        effects and the answer's outbox row are written in one transaction (a
        :meth:`~blackout.storage.Database.unit`): if the answer cannot be written the
        command is rolled back too, and the SQLAlchemy error reaches the SMTP answer
        (451: nothing was done, send again).  Passwords are never stored or logged: the
        reply's subject and quote show the command with each password replaced by
        ``*****``."""
        sender = _sender(message)
        if not sender:
            raise Unreadable("the From: header has no address to answer")
        if len(sender) > MAX_ADDRESS:  # RFC 5321's limit; the outbox holds no longer
            raise Unreadable("the sender's address is longer than 254 characters")
        words = _command_words(_raw_subject(message))
        shown = _subject_of(redact(words))
        topic = _answer_topic(message)
        try:
            with self.service.db.unit():
                if topic is not None and not self.service.db.is_sqlite:
                    # One mail at a time per Message-ID (a resend racing the first
                    # delivery waits for it, then finds its answer).  SQLite's writer
                    # lock, taken by the unit's first statement, already serializes
                    # every command.
                    _advisory_lock(self.service, topic)
                self._throttle(sender, shown)
                outcome = self._run(sender, shown, words, message, topic)
        except Throttled:
            raise  # before anything was written
        except BaseException:
            # The position cache kept the unit's moves as they were made: rolled back,
            # they must not be taken for the board's (another process may commit other
            # moves under the same numbers).
            self.service.parts.store.forget()
            raise
        _log(f"{sender}: {shown}: {outcome}")  # committed

    def _run(self, sender: str, shown: str, words: list[str], message: EmailMessage,
             topic: str | None) -> str:
        """Run the command and write its answer (inside the caller's unit); what
        happened, for the log."""
        answered = None if topic is None else self.service.outbox.posted(topic)
        if answered is not None:  # the sender's mail system sent it again: answer, not rerun
            self.service.post([dataclasses.replace(answered, to=sender)])
            return "a resent mail, answered again"
        if not all(ch.isprintable() for ch in _raw_subject(message)):
            error = ("the Subject holds a control character (such as NUL); write the "
                     "command as plain text")
            self._answer_error(sender, shown, message, error, words, topic)
            return f"refused: {error}"
        try:
            # The sender is the source wrong passwords are counted by: a stranger's
            # guesses lock out the stranger, not the owner's own address.
            reply = execute(self.service, words, comment=_comment(message), source=sender)
        except ValueError as exc:  # CommandError, ServiceError, RulesError
            self._answer_error(sender, shown, message, str(exc), words, topic)
            return f"refused: {exc}"
        self.service.post([Notice(sender, _reply_subject(shown), reply.text, topic=topic)])
        return "done"

    def _throttle(self, sender: str, shown: str) -> None:
        """A sender that is no account's confirmed address gets at most
        ``STRANGER_REPLIES`` answers an hour: past that its mail is refused for now
        (SMTP 451), so a stranger mailing ``help`` in a loop (or forging someone's
        address) cannot fill the outbox ahead of the players' boards."""
        if self.service.parts.accounts.confirmed_owner(sender) is not None:
            return
        if not self.service.db.is_sqlite:  # count and answer one mail at a time
            _advisory_lock(self.service, "stranger:" + sender.lower())
        since = self.service.clock() - STRANGER_WINDOW
        if self.service.outbox.answers_to(sender, since) >= STRANGER_REPLIES:
            raise Throttled(f"more than {STRANGER_REPLIES} mails an hour from {sender}, "
                            "which is no account's confirmed address")

    def _answer_error(self, sender: str, shown: str, original: EmailMessage, error: str,
                      words: list[str], topic: str | None) -> None:
        notice = self._error_notice(sender, shown, original, error, words)
        self.service.post([dataclasses.replace(notice, topic=topic)])

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
        return Notice(sender, _reply_subject(subject, " (error)"), _printable("\n".join(parts)))

    # -- outgoing -----------------------------------------------------------------------

    def deliver(self) -> int:
        """Send the outbox's mail that is due through the relay; how many were sent.
        Each mail goes on its own: one the relay refuses (a recipient, an address it
        cannot take) or that breaks the connection never holds back another.  Mail the
        relay does not take stays in the outbox for a later try."""
        due = self.service.outbox.claim()
        sent = 0
        relay: smtplib.SMTP | None = None
        try:
            for index, pending in enumerate(due):
                try:
                    relay = relay or smtplib.SMTP(self.config.relay_host,
                                                  self.config.relay_port, timeout=30)
                except OSError as exc:  # the relay is away: the rest waits for later
                    _log(f"relay {self.config.relay_host}:{self.config.relay_port} did not "
                         f"take the mail ({len(due) - index} kept for later): {exc}")
                    for mail in due[index:]:
                        self._failed(mail, exc)
                    break
                try:
                    self._send_one(relay, pending)
                    sent += 1
                except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused,
                        smtplib.SMTPDataError, smtplib.SMTPNotSupportedError,
                        UnicodeError, ValueError) as exc:  # this mail only
                    self._failed(pending, exc)
                except (OSError, smtplib.SMTPException) as exc:  # the connection broke
                    self._failed(pending, exc)
                    with contextlib.suppress(OSError, smtplib.SMTPException):
                        relay.close()
                    relay = None
        finally:
            if relay is not None:
                with contextlib.suppress(OSError, smtplib.SMTPException):
                    relay.quit()
        return sent

    def _failed(self, mail: PendingMail, exc: Exception) -> None:
        if self.service.outbox.failed(mail.id, str(exc), permanent=_refused_for_good(exc)):
            _log(f"gave up on the mail to {mail.to} ({mail.subject!r}): {exc}")

    def _send_one(self, relay: smtplib.SMTP, pending: PendingMail) -> None:
        mail = EmailMessage()
        mail["From"] = self.config.address
        mail["To"] = pending.to
        mail["Subject"] = pending.subject
        mail["Date"] = formatdate(usegmt=True)
        # The same Message-ID on every attempt: a mail sent twice (the gateway stopped
        # between sending and recording it) is recognisable as one.
        domain = self.config.address.rpartition("@")[2] or "localhost"
        mail["Message-ID"] = f"<blackout.outbox.{pending.id}@{domain}>"
        mail.set_content(pending.text + "\n")
        relay.send_message(mail)
        self.service.outbox.sent(pending.id)

    # -- timeouts -------------------------------------------------------------------------

    def check_timeouts(self) -> list[Event]:
        """Remind or replace idle players (their mail goes to the outbox), deliver, and
        delete old sent mail."""
        self.service.parts.runner.run_due()
        events = self.service.check_timeouts(
            self.service.clock(), remind_after=timedelta(hours=self.config.remind_after_hours),
            give_up_after=timedelta(hours=self.config.give_up_after_hours),
            forfeit=self.config.forfeit)
        self.deliver()
        self.purge()
        return events

    # -- the SMTP server's hook (aiosmtpd) -----------------------------------------------------

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from sqlalchemy.exc import SQLAlchemyError

        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, self._answer, envelope.content)
        except Unreadable as exc:
            _log(f"refused a mail: {exc}")
            return f"550 5.6.0 Not a command this server can read: {exc}"
        except Throttled as exc:
            _log(f"held back a mail: {exc}")
            return ("451 4.7.1 Too many mails from this address; nothing was done, try "
                    "again later")
        except SQLAlchemyError as exc:
            # Nothing was committed: a temporary failure makes the sender's mail system
            # try again later instead of losing the command.
            _log(f"database error: {_first_line(exc)}")
            return "451 Requested action aborted: local error in processing"
        return "250 Message accepted for delivery"

    def _answer(self, content: bytes) -> None:
        self.handle(_parse(content))
        self.deliver()  # the answer first; then the computer players it made due
        if self.service.parts.runner.run_due():
            self.deliver()

    def purge(self) -> int:
        """Delete sent and given-up mail older than the outbox's retention period."""
        return self.service.outbox.purge()


class Unreadable(ValueError):
    """A mail the gateway cannot read as a command (refused with an SMTP 550)."""


class Throttled(ValueError):
    """Too many mails from a sender with no confirmed account (SMTP 451, nothing done)."""


def _advisory_lock(service: Service, name: str) -> None:
    """PostgreSQL: hold a lock on ``name`` until the unit of work ends (a transaction
    lock: nothing to release, nothing left behind by a crash)."""
    from sqlalchemy import text

    key = int(hashlib.sha256(name.encode("utf-8", "replace")).hexdigest()[:15], 16)
    with service.db.transaction() as session:
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _raw_subject(message: EmailMessage) -> str:
    return " ".join(str(message.get("Subject", "")).split())


def _parse(content: bytes) -> EmailMessage:
    """The mail, with every header and the body it will use read now, so that a mail
    the parser cannot take (a multipart nested thousands deep, a broken header) is
    refused in one line instead of failing later."""
    try:
        message = BytesParser(policy=default_policy).parsebytes(content)
        str(message.get("Subject", ""))
        _body(message)
    except (RecursionError, LookupError, ValueError, TypeError, IndexError,
            AttributeError, MessageError) as exc:
        detail = "nested too deeply" if isinstance(exc, RecursionError) else "malformed"
        raise Unreadable(f"the message is {detail}") from None
    return message


def _sender(message: EmailMessage) -> str:
    """The From: address, read from the header as sent: the display name is not
    decoded (an encoded CR/LF in it is no reason to refuse the mail)."""
    raw = next((str(value) for name, value in message.raw_items() if name.lower() == "from"),
               "")
    return parseaddr(" ".join(raw.split()))[1]


def _answer_topic(message: EmailMessage) -> str | None:
    """The outbox topic of the answer to this mail, from its Message-ID (None without
    one): a mail sent again with the same Message-ID finds its answer there."""
    message_id = next((" ".join(str(value).split()) for name, value in message.raw_items()
                       if name.lower() == "message-id"), "")
    if not message_id:
        return None
    return "answer:" + hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:56]


def _log(text: str) -> None:
    """One line for the operator, on stderr (never a password: callers pass redacted
    commands)."""
    print(f"blackout mail-gateway: {_printable(text)}", file=sys.stderr, flush=True)


def _printable(text: str) -> str:
    """``text`` without control characters other than newlines (a NUL cannot be stored
    in PostgreSQL, a CR/LF could forge a log line)."""
    return "".join(ch if ch.isprintable() or ch == "\n" else "?" for ch in text)


def _subject_of(words: list[str]) -> str:
    return _printable(" ".join(["blackout", *words]))


def _reply_subject(subject: str, suffix: str = "") -> str:
    """``Re: <command>`` cut to what the outbox stores (255 characters)."""
    text = f"Re: {subject}"
    return text[:MAX_SUBJECT - len(suffix) - 3] + "..." + suffix \
        if len(text) + len(suffix) > MAX_SUBJECT else text + suffix


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
    text = "\n".join(lines).strip().replace("\0", "")  # a database text cannot hold NUL
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
                _log(f"database error: {_first_line(exc)}")
            time.sleep(min(DELIVERY_TICK, config.check_every))
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


def _refused_for_good(exc: Exception) -> bool:
    """Whether the relay's answer was a permanent refusal (an SMTP 5xx code)."""
    if isinstance(exc, smtplib.SMTPNotSupportedError | UnicodeError | ValueError):
        return True  # e.g. an address this relay cannot take (no SMTPUTF8): never will
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
    else:
        codes = [getattr(exc, "smtp_code", 0)]
    return bool(codes) and all(500 <= code < 600 for code in codes)


__all__ = ["CommandError", "Gateway", "GatewayConfig", "serve_forever"]

