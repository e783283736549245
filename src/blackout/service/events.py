"""Notifications as events: what happened, for front ends to tell the right people."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveAccepted:
    """A move went into board ``board`` as move ``number``; ``kind`` is ``"player"``,
    ``"queued"`` (played from a player's queue) or ``"bot"`` (a computer player)."""

    board: int
    number: int
    seat: int
    player: str
    action: str
    kind: str
    comment: str | None = None


@dataclass(frozen=True)
class GameStarted:
    board: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class GameEnded:
    board: int
    winners: tuple[str, ...]


@dataclass(frozen=True)
class QueuedMoveRefused:
    """A queued move was no longer legal when its turn came; it was dropped."""

    board: int
    userid: str
    action: str
    reason: str


@dataclass(frozen=True)
class Reminder:
    """``userid`` has not moved on ``board`` for a while."""

    board: int
    userid: str


@dataclass(frozen=True)
class SeatTakenOver:
    """``userid`` resigned or timed out; computer player ``bot`` now plays the seat."""

    board: int
    userid: str
    bot: str
    reason: str  # "resigned" | "timeout"


@dataclass(frozen=True)
class GameForfeited:
    board: int
    userid: str


Event = (MoveAccepted | GameStarted | GameEnded | QueuedMoveRefused | Reminder
         | SeatTakenOver | GameForfeited)
