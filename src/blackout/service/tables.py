"""Tables: create (open, invited and computer seats; private ones with an invite
code), join, leave, start when every seat is taken, move (with the expected-move-number
guard), queue, resign, chat, and presence.

Each public method takes an already authenticated userid (a session's, or a
password-checked command's), makes its change in one transaction through the
:class:`~blackout.service.store.Store`, and returns the caller's table state as
:meth:`Queries.table <blackout.service.queries.Queries.table>` does.  Computer players
never move here: the runner plays them after the commit.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from blackout import bots
from blackout.core import codec
from blackout.core.fast import Game
from blackout.core.rules import Rules, RulesError, variant
from blackout.service.accounts import USERID
from blackout.service.errors import BadRequest, Forbidden, Illegal, NotFound, Stale
from blackout.service.events import GameStarted, SeatTakenOver
from blackout.service.queries import Queries
from blackout.service.store import BOT_PREFIX, FIRST_BOARD, OPEN, Board, Store, is_bot
from blackout.storage import Account, GameRow, QueuedMove, SeatRow

OPEN_SEAT = "open"
MAX_CHAT = 500
#: Seconds a move clock may be set to: a few seconds live, up to a month by mail.
CLOCK_RANGE = (5.0, 30 * 24 * 3600.0)


class Tables:
    def __init__(self, store: Store, queries: Queries, takeover_bot: str) -> None:
        self.store = store
        self.queries = queries
        self.takeover_bot = takeover_bot

    # -- the web's interface (returns the caller's table state) -----------------------------

    def create(self, userid: str, variant_name: str, options: dict[str, Any],
               seats: list[str], private: bool = False,
               clock: float | None = None) -> dict[str, Any]:
        rules = _rules(variant_name, {**options, "inorder": True})
        if clock is not None and not CLOCK_RANGE[0] <= clock <= CLOCK_RANGE[1]:
            raise BadRequest(f"a move clock is {CLOCK_RANGE[0]:.0f} to "
                             f"{CLOCK_RANGE[1]:.0f} seconds")
        names = _seat_names(seats)
        _check_count(rules, len(names))
        mine = names.index(userid) if userid in names else (
            names.index(OPEN) if OPEN in names else None)
        invite = secrets.token_urlsafe(12) if private else None
        board = self._insert(rules, names, userid, mine, live=True, private=private,
                             invite=invite, clock=clock)
        return {"board": board, "invite": invite}

    def join(self, board: int, userid: str, seat: int | None = None,
             invite: str | None = None) -> dict[str, Any]:
        with self.store.write(board) as b:
            if b.seat_of(userid) is None:
                self._join(b, userid, seat, invite)
        return self.queries.state(b, userid)

    def leave(self, board: int, userid: str) -> dict[str, Any]:
        with self.store.write(board) as b:
            if b.row.status != "waiting":
                raise BadRequest("the game has started: resign instead")
            seat = b.seat_of(userid)
            if seat is None:
                raise Forbidden("You are NOT playing this game")
            row = b.seats[seat]
            if _was_invited(b, seat):
                row.joined = False  # an invited seat stays theirs to take again
            else:
                row.name = row.controller = OPEN
                row.joined = False
            b.emit({"type": "seat_left", "seat": seat, "player": userid})
        return self.queries.state(b, userid)

    def move(self, board: int, userid: str, action: str,
             expect: int | None = None) -> dict[str, Any]:
        # The state as the move's own transaction left it: no second read of the board.
        return self.queries.state(self.make_move(board, userid, action, expect), userid)

    def queue(self, board: int, userid: str, action: str) -> dict[str, Any]:
        b, _ = self.queue_move(board, userid, action)
        return self.queries.state(b, userid)

    def resign(self, board: int, userid: str) -> dict[str, Any]:
        return self.queries.state(self.resign_seat(board, userid), userid)

    def chat(self, board: int, userid: str, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            raise BadRequest("say something")
        if len(text) > MAX_CHAT:
            raise BadRequest(f"a chat line is at most {MAX_CHAT} characters")
        with self.store.write(board, lock=False) as b:
            b.emit({"type": "chat", "seat": b.seat_of(userid), "player": userid,
                    "text": text})

    def presence(self, board: int, userid: str, connected: bool) -> None:
        # Locked: whether the player is here decides when the runner plays for them
        # (games.due_at), which must be worked out from the board as it is.
        with self.store.write(board) as b:
            seat = b.seat_of(userid)
            if seat is None:
                return
            row = b.seats[seat]
            was_away = self.queries.away(b, row)
            row.connected = connected
            row.disconnected_at = None if connected else b.now
            if connected and was_away:
                b.emit({"type": "seat_returned", "seat": seat, "player": userid,
                        "bot": None, "reason": "back"})

    # -- the operations, shared with the command language ------------------------------

    def challenge(self, players: Sequence[str], rules: Rules, seed: int | None) -> int:
        """Start a game at once (pbmserv's ``challenge``): seats are shuffled from the
        seed unless the rules say ``inorder``; every named player is seated."""
        people = [p for p in players if not is_bot(p)]
        if len(set(people)) != len(people):
            raise BadRequest("a player may take only one seat")
        names = _seat_names(list(players))
        _check_count(rules, len(names))
        seed = secrets.randbits(62) if seed is None else seed
        seating = list(Game.new(rules, names, seed=seed).players)
        return self._insert(rules, seating, None, None, live=False, private=False,
                            invite=None, clock=None, seed=seed, given=names)

    def make_move(self, board: int, userid: str, action: str, expect: int | None,
                  comment: str | None = None) -> Board:
        with self.store.write(board) as b:
            ended = b.row.status not in ("waiting", "active")
            if not ended:
                seat = self._player_seat(b, userid)
            # On an ended game the number is checked before "the game has ended": a client
            # that raced the last move learns its number is stale (409), as every other
            # loser of a race does.
            if expect is not None and expect != b.next_move:
                when = "is in the future" if expect > b.next_move else "is stale"
                raise Stale(f"move #{expect} {when}: board {board} is at move "
                            f"#{b.next_move}", b.next_move)
            if ended:
                seat = self._player_seat(b, userid)  # refuses: the game has ended
            assert b.game is not None
            if seat != b.game.to_move and not b.game.legal_actions(seat):
                raise Stale("It is not your move", b.next_move)
            self.store.play(b, seat, action, "player", comment)
            self.store.settle(b, self.store.finish_game)
        return b

    def queue_move(self, board: int, userid: str, action: str,
                   comment: str | None = None) -> tuple[Board, str]:
        from blackout.core.actions import IllegalAction, parse_action

        with self.store.write(board) as b:
            seat = self._player_seat(b, userid)
            try:
                parsed = parse_action(action, b.game is None or b.game.rules.pass_bid)
            except IllegalAction as exc:
                raise Illegal(str(exc)) from None
            if b.game is not None and seat == b.game.to_move:
                self.store.play(b, seat, parsed, "player", comment)
                self.store.settle(b, self.store.finish_game)
                message = "it was your move: played now"
            else:
                b.session.add(QueuedMove(game_id=board, seat=seat, action=str(parsed),
                                         comment=comment, created_at=b.now))
                message = f"queued {parsed} on board {board}"
        return b, message

    def resign_seat(self, board: int, userid: str) -> Board:
        with self.store.write(board) as b:
            seat = self._player_seat(b, userid)
            self.take_over(b, seat, "resigned")
            b.emit({"type": "resigned", "seat": seat, "player": userid})
        return b

    def take_over(self, b: Board, seat: int, reason: str) -> None:
        """A computer player takes ``seat`` for the rest of the game."""
        userid = b.controller(seat)
        b.seats[seat].controller = self.takeover_bot
        b.seats[seat].resigned = True
        self.store.drop_queue(b, seat)
        b.notices.append(SeatTakenOver(b.number, userid, self.takeover_bot, reason))
        b.emit({"type": "seat_taken_over", "seat": seat, "player": userid,
                "bot": self.takeover_bot[len(BOT_PREFIX):], "reason": reason})

    # -- helpers ----------------------------------------------------------------------------

    def _player_seat(self, b: Board, userid: str) -> int:
        """The checks every player request makes, in pbmserv's order."""
        if b.row.status == "waiting":
            raise Illegal("the game has not started: every seat must be taken first")
        if not b.active:
            raise Illegal("The game has ended")
        seat = b.seat_of(userid)
        if seat is None:
            raise Forbidden("You are NOT playing this game")
        return seat

    def _join(self, b: Board, userid: str, seat: int | None, invite: str | None) -> None:
        if b.row.status != "waiting":
            raise Forbidden("the game has started; every seat is taken")
        if b.row.private and not _same(invite, b.row.invite):
            raise Forbidden("this table is private: joining needs its invite code")
        invited = [s.seat for s in b.seats if s.name == userid]
        free = invited or [s.seat for s in b.seats if s.name == OPEN]
        if seat is not None:
            if not 0 <= seat < len(b.seats):
                raise BadRequest(f"there is no seat {seat}")
            if seat not in free:
                raise Forbidden(f"seat {seat} is not open to you")
            free = [seat]
        if not free:
            raise Forbidden("no seat is open at this table")
        if not self._account_exists(b, userid):
            raise NotFound(f"unknown user {userid}")
        row = b.seats[free[0]]
        row.name = row.controller = userid
        row.joined = True
        b.emit({"type": "seat_joined", "seat": row.seat, "player": userid})
        if all(s.joined for s in b.seats):
            self._start(b)

    @staticmethod
    def _account_exists(b: Board, userid: str) -> bool:
        return b.session.get(Account, userid) is not None

    def _start(self, b: Board) -> None:
        """Deal: every seat is taken.  A challenge's players were stored in the order
        given (the game seats them from its seed); a table's as they sit."""
        if b.row.live:
            b.row.players = json.dumps([s.name for s in b.seats])
        b.row.status = "active"
        b.row.last_move_at = b.now
        game = Game.new(variant(b.row.variant, **json.loads(b.row.options)),
                        json.loads(b.row.players), seed=b.row.seed)
        names = list(game.players)
        assert names == [s.name for s in b.seats], "seats follow the game's seating"
        b.game = game
        b.emit({"type": "game_started", "players": names})
        for event in game.opening_events():
            b.emit(codec.event_to_json(event))
        b.notices.append(GameStarted(b.number, tuple(names)))
        self.store.settle(b, self.store.finish_game)

    def _insert(self, rules: Rules, names: list[str], creator: str | None, mine: int | None,
                live: bool, private: bool, invite: str | None, clock: float | None,
                seed: int | None = None, given: list[str] | None = None) -> int:
        """Store a new table with seats ``names``; a challenge passes the players in the
        order ``given`` (everyone seated at once)."""
        seed = secrets.randbits(62) if seed is None else seed
        for _attempt in range(5):
            try:
                return self._insert_once(rules, names, creator, mine, live, private, invite,
                                         clock, seed, given)
            except IntegrityError:
                continue  # another table took the same board number; take the next
        raise BadRequest("the server is busy; try again")

    def _insert_once(self, rules: Rules, names: list[str], creator: str | None,
                     mine: int | None, live: bool, private: bool, invite: str | None,
                     clock: float | None, seed: int, given: list[str] | None) -> int:
        store = self.store
        with store.db.transaction() as session:
            for name in names:
                if name != OPEN and not is_bot(name) and session.get(Account, name) is None:
                    shown = name if USERID.fullmatch(name) else repr(name)
                    raise NotFound(f"unknown user {shown}")
            board = max(session.scalar(select(func.max(GameRow.id))) or 0, FIRST_BOARD - 1) + 1
            now = store.clock()
            row = GameRow(id=board, variant=rules.variant, options=json.dumps(rules.options()),
                          seed=seed, players=json.dumps(given or names), status="waiting",
                          created_at=now, last_move_at=now, live=live, private=private,
                          invite=invite, clock_seconds=clock, move_count=0, last_event=0)
            session.add(row)
            seats = [SeatRow(game_id=board, seat=i, name=name,
                             controller=name.split("-")[0] if is_bot(name) else name,
                             resigned=False, connected=False,
                             joined=given is not None or is_bot(name) or i == mine)
                     for i, name in enumerate(names)]
            if mine is not None and creator is not None:
                seats[mine].name = seats[mine].controller = creator
            session.add_all(seats)
            session.flush()
            b = Board(session, row, seats, None, now)
            b.emit({"type": "table_created", "variant": rules.variant,
                    "seats": [s.name or OPEN_SEAT for s in seats]})
            if all(s.joined for s in seats):
                self._start(b)
            store.finish_write(b)
        store.after_commit(b)
        return board


def _rules(name: str, options: dict[str, Any]) -> Rules:
    try:
        return variant(name, **options)
    except (RulesError, TypeError, ValueError) as exc:
        raise BadRequest(str(exc)) from None


def _check_count(rules: Rules, players: int) -> None:
    try:
        rules.check_players(players)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def _seat_names(seats: list[str]) -> list[str]:
    """Seat entries as stored names: ``open`` -> empty, bots made distinct
    (``bot:random``, ``bot:random-2``), userids as given."""
    names: list[str] = []
    seen: dict[str, int] = {}
    for entry in seats:
        if not isinstance(entry, str):
            raise BadRequest("a seat is a userid, 'open' or 'bot:NAME'")
        if entry == OPEN_SEAT:
            names.append(OPEN)
            continue
        if is_bot(entry):
            if entry[len(BOT_PREFIX):] not in bots.NAMES:
                raise BadRequest(f"unknown computer player {entry!r}; computer players are "
                                 + ", ".join(BOT_PREFIX + n for n in bots.NAMES))
            seen[entry] = seen.get(entry, 0) + 1
            names.append(entry if seen[entry] == 1 else f"{entry}-{seen[entry]}")
            continue
        if not USERID.fullmatch(entry):
            raise BadRequest(f"unknown user {entry!r}")
        if entry in names:
            raise BadRequest("a player may take only one seat")
        names.append(entry)
    return names


def _was_invited(b: Board, seat: int) -> bool:
    """Whether the table was created naming this seat's player."""
    return b.seats[seat].name in json.loads(b.row.players)


def _same(given: str | None, expected: str | None) -> bool:
    return given is not None and expected is not None and secrets.compare_digest(
        given.encode(), expected.encode())


__all__ = ["CLOCK_RANGE", "OPEN_SEAT", "Tables"]
