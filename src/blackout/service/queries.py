"""Read queries: plain JSON-able data (docs/api.md), never rows.

A seat's player gets their seat's view; anyone else (``userid`` None or not seated)
gets the public view (:meth:`Game.public_view`), which holds no unplayed card.
"""

from __future__ import annotations

import functools
import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select

from blackout.core import codec
from blackout.core.rules import TITLES
from blackout.service.errors import NotFound, Stale
from blackout.service.standings import ratings, standings
from blackout.service.store import OPEN, Board, Store, bot_name, is_bot
from blackout.storage import Account, EventRow, GameRow, SeatRow

#: How many tables a lobby list shows at most.
LOBBY_LIMIT = 200


@functools.lru_cache(maxsize=256)
def _rules_json(variant_name: str, options: str, players: str) -> dict[str, Any]:
    """A table's rules as the state shows them, from its row's columns: made once per
    kind of table, not for every state sent (shared: never changed by a caller)."""
    from blackout.core.rules import variant

    rules = variant(variant_name, **json.loads(options))
    return codec.rules_to_json(rules, len(json.loads(players)))


def _iso(moment: datetime) -> str:
    return moment.replace(microsecond=0).isoformat() + "Z"


class Queries:
    def __init__(self, store: Store, grace: float) -> None:
        self.store = store
        self.grace = timedelta(seconds=grace)

    # -- tables -----------------------------------------------------------------------------

    def table(self, board: int, userid: str | None) -> dict[str, Any]:
        return self.state(self.store.read(board), userid)

    def state(self, b: Board, userid: str | None) -> dict[str, Any]:
        """The table state of ``b`` as ``userid`` may see it."""
        row = b.row
        seat = None if userid is None else b.seat_of(userid)
        seated = seat is not None or (userid is not None and any(
            s.name == userid for s in b.seats))
        view = None
        if b.game is not None:
            view = codec.view_to_json(b.game.view(seat) if seat is not None
                                       else b.game.public_view())
        clock = None
        if row.clock_seconds is not None:
            deadline = None
            if b.active and b.to_move() is not None:
                deadline = _iso(row.last_move_at + timedelta(seconds=row.clock_seconds))
            clock = {"seconds": row.clock_seconds, "deadline": deadline}
        return {
            "board": row.id,
            "variant": row.variant,
            "title": TITLES.get(row.variant, row.variant),
            "status": row.status,
            "private": row.private,
            "invite": row.invite if seated else None,
            "seats": [self._seat(b, s) for s in b.seats],
            "you": None if userid is None else {"userid": userid, "seat": seat},
            "event": row.last_event,
            "next_move": b.next_move,
            "clock": clock,
            "rules": _rules_json(row.variant, row.options, row.players),
            "view": view,
            "result": None if row.result is None else json.loads(row.result),
        }

    def _seat(self, b: Board, s: SeatRow) -> dict[str, Any]:
        if s.name == OPEN:
            kind = "open"
        elif is_bot(s.controller) and not s.resigned:
            kind = "bot"
        else:
            kind = "human"
        bot = bot_name(s.controller) if is_bot(s.controller) else None
        return {"seat": s.seat, "player": s.name or None, "kind": kind, "bot": bot,
                "joined": s.joined, "connected": s.connected, "away": self.away(b, s)}

    def away(self, b: Board, s: SeatRow) -> bool:
        """Whether a live table's player has been gone longer than the grace period."""
        return (b.row.live and not s.connected and s.disconnected_at is not None
                and not is_bot(s.controller) and b.now - s.disconnected_at >= self.grace)

    def lobby(self, userid: str | None) -> dict[str, Any]:
        with self.store.db.read() as session:
            def summaries(*where: Any) -> list[dict[str, Any]]:
                rows = session.scalars(select(GameRow).where(*where)
                                       .order_by(GameRow.id.desc()).limit(LOBBY_LIMIT))
                return [self._summary(session, row) for row in rows]

            mine: list[dict[str, Any]] = []
            if userid is not None:
                mine = summaries(GameRow.id.in_(select(SeatRow.game_id).where(
                    or_(SeatRow.name == userid, SeatRow.controller == userid))))
            return {"open": summaries(GameRow.status == "waiting",
                                      GameRow.private.is_(False)),
                    "playing": summaries(GameRow.status == "active",
                                         GameRow.private.is_(False)),
                    "mine": mine}

    def _summary(self, session: Any, row: GameRow) -> dict[str, Any]:
        seats = session.scalars(select(SeatRow).where(SeatRow.game_id == row.id)
                                .order_by(SeatRow.seat))
        return {"board": row.id, "variant": row.variant, "status": row.status,
                "seats": [{"seat": s.seat, "player": s.name or None,
                           "kind": "open" if s.name == OPEN else
                           "bot" if is_bot(s.name) else "human"} for s in seats],
                "private": row.private, "created_at": _iso(row.created_at)}

    def variants(self) -> list[dict[str, Any]]:
        return codec.variants_to_json()

    # -- the event log ----------------------------------------------------------------------

    def events(self, board: int, after: int = 0) -> list[dict[str, Any]]:
        """Every logged event of ``board`` numbered after ``after``, in order."""
        with self.store.db.read() as session:
            rows = session.execute(select(EventRow.number, EventRow.body).where(
                EventRow.game_id == board, EventRow.number > after)
                .order_by(EventRow.number)).all()
            if not rows and session.scalar(select(GameRow.id).where(
                    GameRow.id == board)) is None:
                raise NotFound(f"board {board} not found")
            return [{"n": number, "event": json.loads(body)} for number, body in rows]

    def record(self, board: int, userid: str | None) -> dict[str, Any]:
        """The game record once the game is over; while it runs, only the public part
        (no seed: it would tell every hand still to come)."""
        b = self.store.read(board)
        if b.game is None:
            return {"board": board, "status": b.row.status, "moves": []}
        record = b.game.record()
        if b.active:
            record.pop("seed", None)
            record.pop("deals", None)
            record["status"] = "active"
            record["view"] = codec.view_to_json(b.game.public_view())
        return record

    def hint(self, board: int, userid: str) -> dict[str, Any]:
        from blackout.bots.basic import BasicBot
        from blackout.service.errors import Forbidden

        b = self.store.read(board)
        seat = b.seat_of(userid)
        if seat is None:
            raise Forbidden("You are NOT playing this game")
        if b.game is None or b.to_move() != seat:
            raise Stale("It is not your move", b.next_move)
        action, reason = BasicBot().hint(b.game.view(seat))
        return {"action": str(action), "reason": reason}

    # -- players ----------------------------------------------------------------------------

    def finished(self) -> list[tuple[list[str], dict[str, Any]]]:
        """(seat names, result) of every finished game, in the order they finished."""
        with self.store.db.read() as session:
            rows = session.scalars(select(GameRow).where(
                GameRow.status.in_(("over", "forfeited")))
                .order_by(GameRow.finished_at, GameRow.id)).all()
            out = []
            for row in rows:
                names = list(session.scalars(select(SeatRow.name).where(
                    SeatRow.game_id == row.id).order_by(SeatRow.seat)))
                out.append((names, json.loads(row.result or "{}")))
            return out

    def player(self, userid: str) -> dict[str, Any]:
        with self.store.db.read() as session:
            if session.get(Account, userid) is None:
                raise NotFound(f"no player {userid}")
        finished = self.finished()
        table = {s.player: s for s in standings(finished)}
        rating = ratings(finished).get(userid)
        lobby = self.lobby(userid)
        entry = table.get(userid)
        return {"userid": userid, "games": entry.played if entry else 0,
                "wins": entry.won if entry else 0,
                "rating": None if rating is None else round(rating),
                "recent": lobby["mine"][:20]}

    def ratings(self) -> list[dict[str, Any]]:
        finished = self.finished()
        table = {s.player: s for s in standings(finished)}
        return [{"userid": name, "rating": round(value), "games": table[name].played,
                 "wins": table[name].won} for name, value in ratings(finished).items()]
