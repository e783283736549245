"""Helpers for the server tests."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from blackout.service import Event, Service
from blackout.storage import Database

GAME_TABLES = ("accounts", "games", "seats", "moves", "queued_moves")
TABLES = (*GAME_TABLES, "outbox")


def dump(database: Database, skip: tuple[str, ...] = (),
         tables: tuple[str, ...] = TABLES) -> dict[str, list[Any]]:
    """Every row of ``tables`` (columns in ``skip`` left out), to compare before/after."""
    out: dict[str, list[Any]] = {}
    with database.engine.connect() as connection:
        for table in tables:
            result = connection.execute(text(f"SELECT * FROM {table}"))
            columns = list(result.keys())
            keys = [k for k in columns if k not in skip]
            rows = [tuple(row._mapping[k] for k in keys) for row in result]
            out[table] = sorted(rows, key=repr)
    return out


def play_until_turn_of_nobody(service: Service, board: int, passwords: dict[str, str],
                              limit: int = 500) -> list[Event]:
    """Make the first legal move for whichever person is to move until the game ends;
    returns the events of the last move."""
    events: list[Event] = []
    for _ in range(limit):
        snap = service.snapshot(board)
        seat = snap.game.to_move
        if seat is None or snap.row.status != "active":
            return events
        userid = snap.controller(seat)
        action = snap.game.legal_actions()[0]
        events = service.move(board, userid, passwords[userid], str(action)).events
    raise AssertionError("game did not end")
