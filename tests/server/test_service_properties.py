"""Stateful properties of the service layer (``blackout.service.Services``), called
directly, on a real database: SQLite (a temporary file) and, with
``BLACKOUT_TEST_POSTGRES_URL``, PostgreSQL (a new database per example).

A hypothesis state machine signs people up, logs them in and out, creates tables of every
preset with random seats (people, ``bot:basic``, open), private or not, with or without a
move clock, and mail games (``challenge``); players join, leave, move (legal and illegal
actions, with the right, a stale or a future ``expect`` number), queue, resign and chat;
the runner plays the computer players and the clocks; time passes; spectators look.

Every request is checked against an oracle built from the rules core alone (the game is
rebuilt from the stored rows with ``Game.new`` and the moves, never through the service's
position cache): it succeeds exactly when the core and the documented checks say it
should, and a refusal is one of the typed errors that applies.  After every step:

* a refused request changed nothing: the boards, seats, moves, queued moves, event log,
  outbox, accounts and sessions are identical before and after, and nothing was
  published on the bus;
* each board's event log is numbered 1..N with no gap or repeat, ``last_event`` is N, the
  bus last published N, the game events in the log are exactly the core's events for the
  stored moves (codec JSON), and folding the decoded events gives the public view;
* every view the service returns (to a seat, to a spectator, in a reply) is the core's
  ``view(seat)`` / ``public_view()`` of the stored game; no event names a card still in
  an unplayed hand; no seed in any view, event, record or mail;
* moves are numbered 1..M, M is the board's move count; a finished game has a result, no
  queued moves and nothing due for the runner, and the runner leaves no turn due.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import shutil
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import create_engine, make_url, select, text

from blackout.core import codec
from blackout.core.actions import IllegalAction, parse_action
from blackout.core.cards import cards_in
from blackout.core.game import Game
from blackout.core.rules import PRESETS, VARIANTS, variant
from blackout.mail import mail_notices
from blackout.service import Services, errors
from blackout.service import tables as tables_module
from blackout.service.accounts import (
    FREE_ACCOUNT_FAILURES,
    FREE_FAILURES,
    FREE_SOURCE_FAILURES,
)
from blackout.service.tables import MAX_CHAT
from blackout.storage import Database, EventRow, GameRow, MoveRow, QueuedMove, SeatRow

POSTGRES_ENV = "BLACKOUT_TEST_POSTGRES_URL"
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get(POSTGRES_ENV) else [])

#: Accounts every example starts with, each logged in once.
PEOPLE = {"ann": "ann-pw-1", "bob": "bob-pw-1", "cy": "cy-pw-1", "di": "di-pw-1"}
#: Userids a rule may sign up during an example.
NEWCOMERS = {"eve": "eve-pw-1", "fay": "fay-pw-1"}
BOT = "bot:basic"
#: Short games of every preset: options making a game last a few dozen moves at most.
SHORT: dict[str, list[dict[str, Any]]] = {
    "pbmserv": [{"schedule": [1, 2]}, {"schedule": [2]}],
    "standard": [{"schedule": [1, 2]}, {"schedule": [2]}],
    "nullo": [{"schedule": [2]}, {"schedule": [1, 2]}],
    "partnership": [{"max_cards": 2, "max_hands": 1}],
    "potomac": [{"schedule": [2, 1]}, {"schedule": [1]}],
}
#: Tables seat at most this many (games stay short).
MOST_SEATS = 4
#: Tables (and mail games) an example makes at most: the invariants look at every one.
MOST_BOARDS = 4
#: Rows that must not change on a refused request (columns left out: counted on a
#: wrong password, or touched when a session is used).
WATCHED = {
    "games": (), "seats": (), "moves": (), "queued_moves": (), "events": (), "outbox": (),
    "accounts": ("failures", "locked_until"), "sessions": ("last_used_at",),
}
GAME_EVENTS = set(codec.EVENT_TYPES.values())

assert set(SHORT) == set(VARIANTS), "a new preset needs a short game here"


# -- databases: a migrated template with the accounts, copied for every example ------------

@dataclass
class Template:
    url: str
    tokens: dict[str, str]


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def _fill(url: str) -> Template:
    services = Services(Database(url), clock=Clock())
    try:
        for userid, password in PEOPLE.items():
            services.accounts.signup(userid, f"{userid}@example.org", password)
        tokens = {userid: services.sessions.login(userid, password, None)
                  for userid, password in PEOPLE.items()}
    finally:
        services.close()
    return Template(url, tokens)


def _postgres_database(base: str, template: str | None = None) -> Iterator[str]:
    """A new PostgreSQL database (a copy of ``template``'s), dropped afterwards."""
    name = f"blackout_props_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    copy = f' TEMPLATE "{make_url(template).database}"' if template else ""
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def template(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[tuple[str, Template]]:
    if request.param == "sqlite":
        folder = tmp_path_factory.mktemp("props")
        yield "sqlite", _fill(f"sqlite:///{folder / 'template.db'}")
        return
    made = _postgres_database(os.environ[POSTGRES_ENV])
    try:
        yield "postgresql", _fill(next(made))
    finally:
        next(made, None)


def _copies(backend: str, made: Template, folder: Path) -> Callable[[], Iterator[str]]:
    """A function giving, per example, a fresh copy of the template database."""
    def copy() -> Iterator[str]:
        if backend == "sqlite":
            target = folder / f"{uuid.uuid4().hex[:8]}.db"
            shutil.copyfile(make_url(made.url).database or "", target)
            yield f"sqlite:///{target}"
            target.unlink(missing_ok=True)
            return
        yield from _postgres_database(os.environ[POSTGRES_ENV], template=made.url)
    return copy


# -- the oracle: the game from the stored rows, through the core only ----------------------

@dataclass
class Stored:
    row: GameRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    events: list[EventRow]
    queued: list[QueuedMove]

    def seat_of(self, userid: str) -> int | None:
        """The seat ``userid`` plays (docs/api.md: joined and not handed to a bot)."""
        for seat in self.seats:
            if seat.controller == userid and seat.joined:
                return seat.seat
        return None

    def game(self, upto: int | None = None) -> tuple[Game, list[dict[str, Any]]]:
        """The game after the first ``upto`` stored moves (all: None) and the codec JSON
        of every event the core made on the way."""
        row = self.row
        game = Game.new(variant(row.variant, **json.loads(row.options)),
                        json.loads(row.players), seed=row.seed)
        happened = [codec.event_to_json(e) for e in game.opening_events()]
        for move in self.moves[:upto]:
            happened += [codec.event_to_json(e)
                         for e in game.apply(parse_action(move.action), seat=move.seat)]
        return game, happened


def load(db: Database, board: int) -> Stored | None:
    with db.transaction() as session:
        row = session.get(GameRow, board)
        if row is None:
            return None
        where = (lambda model: select(model).where(model.game_id == board))  # noqa: E731
        return Stored(row, list(session.scalars(where(SeatRow).order_by(SeatRow.seat))),
                      list(session.scalars(where(MoveRow).order_by(MoveRow.number))),
                      list(session.scalars(where(EventRow).order_by(EventRow.number))),
                      list(session.scalars(where(QueuedMove).order_by(QueuedMove.id))))


def dump(db: Database) -> dict[str, list[str]]:
    """Every watched row, as text, to compare before and after a refused request."""
    out: dict[str, list[str]] = {}
    with db.engine.connect() as connection:
        for table, skip in WATCHED.items():
            result = connection.execute(text(f"SELECT * FROM {table}"))
            keys = [k for k in result.keys() if k not in skip]  # noqa: SIM118
            out[table] = sorted(repr(tuple(row._mapping[k] for k in keys)) for row in result)
    return out


def legal_for(game: Game, seat: int, action: str) -> bool:
    """Whether the core accepts ``action`` from ``seat`` now (on a copy)."""
    try:
        game.copy().apply(parse_action(action, game.rules.pass_bid), seat=seat)
    except IllegalAction:
        return False
    return True


def fold(events: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """What a spectator knows from the game events alone, in the view's JSON shape."""
    state: dict[str, Any] = {"scores": [0] * players, "hands_played": [], "winners": []}
    for event in events:
        kind = event["type"]
        if kind == "hand_dealt":
            state.update(hand_number=event["hand_number"], cards_dealt=event["cards"],
                         dealer=event["dealer"], turn_up=event["turn_up"],
                         trump=event["trump"],
                         trump_decided=codec.trump_from_json(event["trump"])[1],
                         bids=[None] * players, trick=[], tricks=[], tricks_won=[0] * players)
        elif kind in ("bid", "bid_changed"):
            state["bids"][event["seat"]] = event["bid"]
        elif kind == "trump":
            state.update(trump=event["trump"], trump_decided=True)
        elif kind == "card":
            state["trick"].append({"seat": event["seat"], "card": event["card"]})
        elif kind == "trick":
            state["trick"] = []
            state["tricks"].append({"leader": event["leader"], "cards": event["cards"],
                                    "winner": event["winner"]})
            state["tricks_won"][event["winner"]] += 1
        elif kind == "hand_scored":
            state["hands_played"].append(event["result"])
            state["scores"] = list(event["result"]["totals"])
        elif kind == "game_over":
            state.update(scores=event["scores"], winners=event["winners"])
    if "cards_dealt" in state:
        done = len(state["tricks"])
        played = {entry["seat"] for entry in state["trick"]}
        state["hand_sizes"] = [state["cards_dealt"] - done - (s in played)
                               for s in range(players)]
    return state


def cards_named(value: Any) -> set[str]:
    """Every card string in a JSON value (chat text left out: people type anything)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "text":
                found |= cards_named(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_named(item)
    elif isinstance(value, str):
        with contextlib.suppress(ValueError):
            found.add(str(codec.card_from_json(value)))
    return found


# -- the machine ----------------------------------------------------------------------------

class Refused(Exception):
    """Raised by :meth:`ServiceMachine.request` when the request was refused."""


class ServiceMachine(RuleBasedStateMachine):
    #: Set by the test: per example, a fresh database URL (a generator: cleanup after).
    copies: Callable[[], Iterator[str]]
    template: Template

    def __init__(self) -> None:
        super().__init__()
        # Tables' seeds (hence deals and the bots' choices) and invite codes come from a
        # seed the example draws: a failing example replays, and shrinks, exactly.
        self.luck = random.Random(0)
        self._secrets = tables_module.secrets
        tables_module.secrets = SimpleNamespace(  # type: ignore[assignment,unused-ignore]
            randbits=lambda bits: self.luck.getrandbits(bits),
            token_urlsafe=lambda size: f"invite-{self.luck.getrandbits(48):012x}",
            compare_digest=secrets.compare_digest)
        self._copy = self.copies()
        self.db = Database(next(self._copy))
        self.clock = Clock()
        self.services = Services(self.db, clock=self.clock, bot_iterations=20,
                                 takeover_bot=BOT)
        self.services.mail_with(mail_notices)
        self.published: list[tuple[int, int]] = []
        self.services.bus.subscribe(lambda board, n: self.published.append((board, n)))
        self.passwords = dict(PEOPLE)
        self.accounts = set(PEOPLE)
        self.tokens: dict[str, list[str]] = {u: [t] for u, t in self.template.tokens.items()}
        self.revoked: list[str] = []
        self.failures: dict[tuple[str | None, ...], int] = {}
        self.boards: list[int] = []
        self.seeds: dict[int, int] = {}

    @initialize(seed=st.integers(0, 2**32))
    def deal_from(self, seed: int) -> None:
        self.luck.seed(seed)

    def teardown(self) -> None:
        tables_module.secrets = self._secrets
        self.services.close()
        next(self._copy, None)

    # -- requests and their oracle ----------------------------------------------------------

    def request(self, call: Callable[[], Any], refusals: set[type[errors.ServiceError]],
                succeeds: bool) -> Any:
        """Make the request; it must succeed iff ``succeeds``, and a refusal must be one
        of ``refusals`` and change nothing."""
        before = dump(self.db)
        published = len(self.published)
        try:
            answer = call()
        except errors.ServiceError as exc:
            assert not succeeds, f"refused ({type(exc).__name__}: {exc.message})"
            assert type(exc) in refusals, (f"{type(exc).__name__} ({exc.message}); expected "
                                           f"one of {sorted(r.__name__ for r in refusals)}")
            assert dump(self.db) == before, f"refused ({exc.message}) but changed"
            assert self.published[published:] == [], "refused, yet published"
            raise Refused from None
        assert succeeds, f"accepted; expected one of {sorted(r.__name__ for r in refusals)}"
        return answer

    def who(self, data: st.DataObject) -> tuple[str | None, str]:
        """A party to act: (userid, token) of a session, or (None, a revoked token)."""
        live = [(u, t) for u, ts in sorted(self.tokens.items()) for t in ts]
        if not live or (self.revoked and data.draw(st.integers(0, 9), label="stale session") == 0):
            return None, data.draw(st.sampled_from(self.revoked), label="revoked token")
        return data.draw(st.sampled_from(live), label="player")

    def as_user(self, token: str, act: Callable[[str], Any]) -> Callable[[], Any]:
        """The request as a front end makes it: the session first, then the act."""
        return lambda: act(self.services.sessions.userid_for(token))

    def board_for(self, data: st.DataObject, status: str | None = None) -> int:
        """A board of this example (mostly one with ``status`` if there is one), now and
        then one that does not exist."""
        if not self.boards or data.draw(st.integers(0, 15), label="missing board") == 0:
            return 999_999
        if status is not None and data.draw(st.integers(0, 3), label="any status") != 0:
            fitting = [b for b in self.boards if self.status(b) == status]
            if fitting:
                return data.draw(st.sampled_from(fitting), label="board")
        return data.draw(st.sampled_from(self.boards), label="board")

    def status(self, board: int) -> str | None:
        stored = load(self.db, board)
        return None if stored is None else stored.row.status

    def after_change(self, board: int) -> None:
        stored = load(self.db, board)
        assert stored is not None
        if stored.row.last_event:
            mine = [n for b, n in self.published if b == board]
            assert mine and mine[-1] == stored.row.last_event, "the bus missed the commit"

    def check_reply(self, board: int, userid: str | None, state: dict[str, Any]) -> None:
        """A table state returned by a request: the core's view of the stored game as of
        the reply's move number, for the caller's seat (or a spectator's)."""
        stored = load(self.db, board)
        assert stored is not None
        assert state["board"] == board
        if state["view"] is None:
            assert state["status"] == "waiting" or stored.row.status == "waiting"
            return
        game, _ = stored.game(state["next_move"] - 1)
        seat = state["you"]["seat"] if state["you"] else None
        expected = game.view(seat) if seat is not None else game.public_view()
        assert state["view"] == codec.view_to_json(expected), "the reply's view is not the core's"
        self.no_seed(board, state)

    def no_seed(self, board: int, value: Any) -> None:
        seed = self.seeds.get(board)
        shown = json.dumps(value)
        assert '"seed"' not in shown and '"deals"' not in shown
        if seed is not None and seed >= 10**6:  # a short number may appear by chance
            assert str(seed) not in shown

    # -- accounts and sessions ----------------------------------------------------------------

    @rule(data=st.data())
    def sign_up(self, data: st.DataObject) -> None:
        userid = data.draw(st.sampled_from(sorted({**PEOPLE, **NEWCOMERS})), label="userid")
        email = data.draw(st.sampled_from([f"{userid}@example.org", "not-an-address"]))
        password = (PEOPLE | NEWCOMERS)[userid]
        ok = userid not in self.accounts and "@" in email
        with contextlib.suppress(Refused):
            self.request(lambda: self.services.accounts.signup(userid, email, password),
                         {errors.BadRequest}, ok)
            self.accounts.add(userid)
            self.passwords[userid] = password

    @rule(data=st.data(), right=st.booleans(), source=st.sampled_from([None, "10.0.0.7"]))
    def log_in(self, data: st.DataObject, right: bool, source: str | None) -> None:
        """The login throttle (accounts.py): wrong passwords are counted per account and
        source, per source and per account; past the free ones a source may be locked
        out (for a while: the clock moves, so a lock may also have run out)."""
        userid = data.draw(st.sampled_from(sorted(self.accounts | set(NEWCOMERS))))
        password = self.passwords.get(userid, "guess-1") if right else "wrong-pw"
        ok = right and userid in self.accounts
        counts = self.failures
        maybe_locked = (counts.get(("pair", userid, source), 0) >= FREE_FAILURES
                        or counts.get(("source", source), 0) >= FREE_SOURCE_FAILURES
                        or counts.get(("account", userid), 0) >= FREE_ACCOUNT_FAILURES)
        before = dump(self.db)
        try:
            token = self.services.sessions.login(userid, password, source)
        except (errors.Unauthorized, errors.Locked) as exc:
            if isinstance(exc, errors.Locked):
                assert maybe_locked, "locked out before the free failures were used"
            else:
                assert not ok, f"the right password refused: {exc.message}"
                for key in (("pair", userid, source), ("source", source)) + (
                        (("account", userid),) if userid in self.accounts else ()):
                    counts[key] = counts.get(key, 0) + 1
            # A wrong password is counted (accounts.failures, login_throttle); nothing
            # else changes.
            assert dump(self.db) == before
            return
        assert ok, "a wrong password was accepted"
        counts.pop(("pair", userid, source), None)
        counts.pop(("account", userid), None)
        assert self.services.sessions.userid_for(token) == userid
        self.tokens.setdefault(userid, []).append(token)

    @precondition(lambda self: any(self.tokens.values()))
    @rule(data=st.data())
    def log_out(self, data: st.DataObject) -> None:
        userid, token = data.draw(st.sampled_from(
            [(u, t) for u, ts in sorted(self.tokens.items()) for t in ts]))
        self.services.sessions.logout(token)
        self.tokens[userid].remove(token)
        self.revoked.append(token)
        with pytest.raises(errors.Unauthorized):
            self.services.sessions.userid_for(token)

    # -- tables -------------------------------------------------------------------------------

    @precondition(lambda self: len(self.boards) < MOST_BOARDS)
    @rule(data=st.data(), name=st.sampled_from(sorted(VARIANTS)))
    def create(self, data: st.DataObject, name: str) -> None:
        userid, token = self.who(data)
        preset = PRESETS[name]
        count = data.draw(st.integers(preset.min_players, min(preset.max_players, MOST_SEATS)),
                          label="seats")
        others = [p for p in ["ann", "bob", "cy", "di", "eve", "fay"]
                  if p != userid and (p in self.accounts or p == "eve")]
        seats = []
        for kind in data.draw(st.lists(st.sampled_from(["me", "open", "bot", "other"]),
                                       min_size=count, max_size=count), label="seat kinds"):
            if kind == "me" and userid is not None and userid not in seats:
                seats.append(userid)
            elif kind == "bot":
                seats.append(BOT)
            elif kind == "other" and others:
                seats.append(others.pop(data.draw(st.integers(0, len(others) - 1))))
            else:
                seats.append("open")
        if data.draw(st.integers(0, 7), label="bad seat") == 0:
            seats[data.draw(st.integers(0, count - 1))] = data.draw(st.sampled_from(
                ["nobody-here", "bad name!", "bot:nobody", "ann"]), label="bad entry")
        options = dict(data.draw(st.sampled_from(SHORT[name]), label="options"))
        if data.draw(st.integers(0, 9), label="bad option") == 0:
            options["no_such_option"] = 1
        private = data.draw(st.booleans(), label="private")
        clock = data.draw(st.sampled_from([None, None, None, 10.0, 10.0, 1.0]), label="clock")
        people = [s for s in seats if s not in ("open", BOT)]
        ok = (userid is not None and "no_such_option" not in options and clock != 1.0
              and len(set(people)) == len(people) and "bad name!" not in seats
              and "bot:nobody" not in seats and all(p in self.accounts for p in people))
        refusals: set[type[errors.ServiceError]] = {errors.Unauthorized, errors.BadRequest,
                                                   errors.NotFound}
        with contextlib.suppress(Refused):
            made = self.request(self.as_user(token, lambda u: self.services.tables.create(
                u, name, options, seats, private=private, clock=clock)), refusals, ok)
            board = made["board"]
            self.boards.append(board)
            assert (made["invite"] is not None) == private
            stored = load(self.db, board)
            assert stored is not None
            self.seeds[board] = stored.row.seed
            self.after_change(board)
            if userid in seats:  # a seated player sees the invite again
                assert self.services.queries.table(board, userid)["invite"] == made["invite"]

    @precondition(lambda self: len(self.boards) < MOST_BOARDS)
    @rule(data=st.data(), name=st.sampled_from(sorted(VARIANTS)))
    def challenge(self, data: st.DataObject, name: str) -> None:
        """A mail game (the command language's ``challenge``): everyone seated at once."""
        preset = PRESETS[name]
        count = data.draw(st.integers(preset.min_players, min(preset.max_players, MOST_SEATS)))
        pool = sorted(p for p in self.accounts if p in PEOPLE) + [BOT] * count
        players = data.draw(st.permutations(pool), label="players")[:count]
        if all(p == BOT for p in players):
            players[0] = "ann"
        options = data.draw(st.sampled_from(SHORT[name]))
        board = self.services.tables.challenge(players, variant(name, **options),
                                               seed=data.draw(st.integers(10**15, 2**62)))
        self.boards.append(board)
        stored = load(self.db, board)
        assert stored is not None and stored.row.status == "active"
        self.seeds[board] = stored.row.seed
        self.after_change(board)

    @rule(data=st.data())
    def join(self, data: st.DataObject) -> None:
        userid, token = self.who(data)
        board = self.board_for(data, "waiting")
        seat = data.draw(st.sampled_from([None, None, 0, 1, 2, 3, 9]), label="seat")
        stored = load(self.db, board)
        invite = stored.row.invite if stored else None
        invite = data.draw(st.sampled_from([invite, invite, None, "wrong-code"]),
                           label="invite")
        refusals: set[type[errors.ServiceError]] = set()
        if userid is None:
            refusals.add(errors.Unauthorized)
        if stored is None:
            refusals.add(errors.NotFound)
        already = stored is not None and userid is not None and stored.seat_of(userid) is not None
        if stored is not None and not already:
            invited = [s.seat for s in stored.seats if s.name == userid]
            free = invited or [s.seat for s in stored.seats if s.name == ""]
            if stored.row.status != "waiting":
                refusals.add(errors.Forbidden)
            if stored.row.private and invite != stored.row.invite:
                refusals.add(errors.Forbidden)
            if seat is not None and not 0 <= seat < len(stored.seats):
                refusals.add(errors.BadRequest)
            elif seat is not None and seat not in free:
                refusals.add(errors.Forbidden)
            if not free:
                refusals.add(errors.Forbidden)
        before = load(self.db, board)
        with contextlib.suppress(Refused):
            state = self.request(self.as_user(token, lambda u: self.services.tables.join(
                board, u, seat, invite)), refusals, not refusals)
            assert userid is not None and stored is not None and before is not None
            self.check_reply(board, userid, state)
            after = load(self.db, board)
            assert after is not None
            if already:
                assert len(after.events) == len(before.events), "joined twice"
            else:
                assert after.seat_of(userid) is not None
                assert state["you"]["seat"] == after.seat_of(userid)
                self.after_change(board)
            if all(s.joined for s in after.seats):
                assert after.row.status != "waiting", "every seat is taken: the game starts"

    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        userid, token = self.who(data)
        board = self.board_for(data, "waiting")
        stored = load(self.db, board)
        refusals: set[type[errors.ServiceError]] = set()
        if userid is None:
            refusals.add(errors.Unauthorized)
        if stored is None:
            refusals.add(errors.NotFound)
        else:
            if stored.row.status != "waiting":
                refusals.add(errors.BadRequest)
            if userid is None or stored.seat_of(userid) is None:
                refusals.add(errors.Forbidden)
        with contextlib.suppress(Refused):
            state = self.request(self.as_user(token, lambda u: self.services.tables.leave(
                board, u)), refusals, not refusals)
            assert userid is not None
            self.check_reply(board, userid, state)
            after = load(self.db, board)
            assert after is not None and after.seat_of(userid) is None
            self.after_change(board)

    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        board = self.board_for(data, "active")
        stored = load(self.db, board)
        game = stored.game()[0] if stored is not None and stored.row.status != "waiting" \
            else None
        userid, token = self.who(data)
        if (game is not None and game.to_move is not None and stored is not None
                and data.draw(st.booleans(), label="the mover")):
            # Mostly the person whose turn it is: wrong numbers matter most there.
            mover = stored.seats[game.to_move].controller
            live = self.tokens.get(mover)
            if live:
                userid, token = mover, live[0]
        seat = None if stored is None or userid is None else stored.seat_of(userid)
        following = 1 if stored is None else stored.row.move_count + 1
        # A legal action of the mover (or of this seat: a Potomac bid change), an
        # action some seat could make but maybe not this one, or nonsense.
        candidates = ["AS", "0", "7", "nil", "trump H", "pass", "hello"]
        if game is not None:
            turn = game.to_move if game.to_move is not None else 0
            candidates += [str(a) for a in game.legal_actions(turn)]
            if seat is not None:
                candidates += [str(a) for a in game.legal_actions(seat)] * 3
        action = data.draw(st.sampled_from(candidates), label="action")
        expect = data.draw(st.sampled_from([following, following, following, None,
                                            following - 1, following + 1, following + 5, 0]),
                           label="expect")
        refusals: set[type[errors.ServiceError]] = set()
        if userid is None:
            refusals.add(errors.Unauthorized)
        if stored is None:
            refusals.add(errors.NotFound)
        elif stored.row.status != "active":
            refusals.add(errors.Illegal)
        if stored is not None and seat is None:
            refusals.add(errors.Forbidden)
        if stored is not None and expect is not None and expect != following:
            refusals.add(errors.Stale)
        if game is not None and seat is not None and stored is not None \
                and stored.row.status == "active":
            if seat != game.to_move and not game.legal_actions(seat):
                refusals.add(errors.Stale)
            elif not legal_for(game, seat, action):
                refusals.add(errors.Illegal)
        with contextlib.suppress(Refused):
            state = self.request(self.as_user(token, lambda u: self.services.tables.move(
                board, u, action, expect)), refusals, not refusals)
            assert stored is not None and userid is not None
            after = load(self.db, board)
            assert after is not None
            assert after.row.move_count >= following  # queued moves may follow it
            mine = after.moves[following - 1]
            assert (mine.number, mine.seat, mine.kind) == (following, seat, "player")
            assert game is not None
            assert mine.action == str(parse_action(action, game.rules.pass_bid))
            self.check_reply(board, userid, state)
            self.after_change(board)

    @rule(data=st.data())
    def queue(self, data: st.DataObject) -> None:
        userid, token = self.who(data)
        board = self.board_for(data, "active")
        stored = load(self.db, board)
        game = stored.game()[0] if stored is not None and stored.row.status != "waiting" \
            else None
        seat = None if stored is None or userid is None else stored.seat_of(userid)
        candidates = ["AS", "0", "1", "nil", "hello", "trump S"]
        if game is not None:
            for s in range(game.n):
                candidates += [str(a) for a in game.legal_actions(s)]
            if seat is not None:
                candidates += [str(c) for c in cards_in(game.hands[seat])]
        action = data.draw(st.sampled_from(candidates), label="action")
        refusals: set[type[errors.ServiceError]] = set()
        if userid is None:
            refusals.add(errors.Unauthorized)
        if stored is None:
            refusals.add(errors.NotFound)
        elif stored.row.status != "active":
            refusals.add(errors.Illegal)
        if stored is not None and seat is None:
            refusals.add(errors.Forbidden)
        try:
            parse_action(action, game.rules.pass_bid if game else True)
        except IllegalAction:
            refusals.add(errors.Illegal)
        if (game is not None and seat is not None and seat == game.to_move
                and not legal_for(game, seat, action)):
            refusals.add(errors.Illegal)
        with contextlib.suppress(Refused):
            state = self.request(self.as_user(token, lambda u: self.services.tables.queue(
                board, u, action)), refusals, not refusals)
            assert userid is not None
            self.check_reply(board, userid, state)
            after = load(self.db, board)
            assert after is not None and stored is not None
            assert (after.row.move_count > stored.row.move_count
                    or len(after.queued) == len(stored.queued) + 1)

    @rule(data=st.data())
    def resign(self, data: st.DataObject) -> None:
        userid, token = self.who(data)
        board = self.board_for(data, "active")
        stored = load(self.db, board)
        refusals: set[type[errors.ServiceError]] = set()
        if userid is None:
            refusals.add(errors.Unauthorized)
        if stored is None:
            refusals.add(errors.NotFound)
        else:
            if stored.row.status != "active":
                refusals.add(errors.Illegal)
            if userid is None or stored.seat_of(userid) is None:
                refusals.add(errors.Forbidden)
        with contextlib.suppress(Refused):
            state = self.request(self.as_user(token, lambda u: self.services.tables.resign(
                board, u)), refusals, not refusals)
            assert userid is not None and stored is not None
            seat = stored.seat_of(userid)
            after = load(self.db, board)
            assert after is not None and seat is not None
            assert after.seats[seat].controller == BOT and after.seats[seat].resigned
            assert not [q for q in after.queued if q.seat == seat]
            assert after.seat_of(userid) is None
            self.check_reply(board, userid, state)
            self.after_change(board)

    @rule(data=st.data(), line=st.sampled_from(["gg", "  well   played AS  ", "", "   ",
                                                 "x" * (MAX_CHAT + 1), "KH? 10C!"]))
    def chat(self, data: st.DataObject, line: str) -> None:
        userid, token = self.who(data)
        board = self.board_for(data)
        stored = load(self.db, board)
        refusals: set[type[errors.ServiceError]] = set()
        if userid is None:
            refusals.add(errors.Unauthorized)
        if not line.strip() or len(" ".join(line.split())) > MAX_CHAT:
            refusals.add(errors.BadRequest)
        if stored is None:
            refusals.add(errors.NotFound)
        with contextlib.suppress(Refused):
            self.request(self.as_user(token, lambda u: self.services.tables.chat(
                board, u, line)), refusals, not refusals)
            assert stored is not None
            last = self.services.queries.events(board, stored.row.last_event)
            assert [e["event"]["type"] for e in last] == ["chat"]
            assert last[0]["event"]["text"] == " ".join(line.split())
            assert last[0]["event"]["player"] == userid
            self.after_change(board)

    @precondition(lambda self: bool(self.boards))
    @rule(data=st.data(), turns=st.integers(1, 40))
    def take_turns(self, data: st.DataObject, turns: int) -> None:
        """Play on, ``turns`` times: a person (logged in) takes a seat at a waiting
        table, the person to move makes a legal move with the right number (or none),
        or the runner plays the computer players."""
        playing = [b for b in self.boards if self.status(b) in ("waiting", "active")]
        if not playing:
            return
        board = data.draw(st.sampled_from(playing), label="board")
        for _ in range(turns):
            stored = load(self.db, board)
            assert stored is not None
            if stored.row.status == "waiting":
                if not self.take_seat(data, board, stored):
                    return
                continue
            if stored.row.status != "active":
                return
            game, _ = stored.game()
            assert game.to_move is not None
            controller = stored.seats[game.to_move].controller
            if controller.startswith("bot:"):
                self.run_bots()
                continue
            if stored.row.clock_seconds and stored.row.live and data.draw(
                    st.integers(0, 2), label="the clock runs out") == 0:
                self.clock.advance(stored.row.clock_seconds + 1)
                self.run_bots()  # a computer player makes that one move
                after = load(self.db, board)
                assert after is not None and len(after.moves) > len(stored.moves)
                ran_out = after.moves[len(stored.moves)]
                assert (ran_out.seat, ran_out.kind) == (game.to_move, "clock")
                assert after.seats[game.to_move].controller == controller  # still theirs
                continue
            token = self.token_of(controller)
            if token is None:
                return  # locked out: the move waits (or the clock runs out)
            action = data.draw(st.sampled_from([str(a) for a in game.legal_actions()]),
                               label="legal action")
            following = stored.row.move_count + 1
            expect = data.draw(st.sampled_from([following, following, None]), label="expect")
            def play(u: str, a: str = action, e: int | None = expect) -> Any:
                return self.services.tables.move(board, u, a, e)

            state = self.request(self.as_user(token, play), set(), True)
            self.check_reply(board, controller, state)
            self.after_change(board)

    def take_seat(self, data: st.DataObject, board: int, stored: Stored) -> bool:
        """Someone not at the table takes an open or invited seat."""
        seated = {s.name for s in stored.seats}
        candidates = [s.name for s in stored.seats
                      if s.name and not s.joined and s.name in self.accounts]
        if any(s.name == "" for s in stored.seats):
            candidates += sorted(self.accounts - seated)
        if not candidates:
            return False
        userid = data.draw(st.sampled_from(candidates), label="joins")
        token = self.token_of(userid)
        if token is None:
            return False
        state = self.request(self.as_user(token, lambda u: (
            self.services.tables.join(board, u, None, stored.row.invite))), set(), True)
        self.check_reply(board, userid, state)
        self.after_change(board)
        return True

    def token_of(self, userid: str) -> str | None:
        """A session of ``userid``; one who logged out logs in again (None: locked out)."""
        if self.tokens.get(userid):
            return self.tokens[userid][0]
        try:
            token = self.services.sessions.login(userid, self.passwords[userid], None)
        except errors.Locked:
            assert self.failures.get(("pair", userid, None), 0) >= FREE_FAILURES or \
                self.failures.get(("source", None), 0) >= FREE_SOURCE_FAILURES
            return None
        self.failures.pop(("pair", userid, None), None)
        self.failures.pop(("account", userid), None)
        self.tokens.setdefault(userid, []).append(token)
        return token

    # -- the runner, time, spectators ---------------------------------------------------------

    @rule()
    def run_bots(self) -> None:
        made = self.services.runner.run_due()
        assert made >= 0
        wait = self.services.runner.next_due()
        assert wait is None or wait > 0, "the runner left a turn due"
        for board in self.boards:
            stored = load(self.db, board)
            assert stored is not None
            if stored.row.status == "active":
                game = stored.game()[0]
                assert game.to_move is not None
                assert not stored.seats[game.to_move].controller.startswith("bot:"), \
                    "a computer player's turn is left after the runner ran"

    @rule(seconds=st.sampled_from([1.0, 11.0, 3600.0]))
    def time_passes(self, seconds: float) -> None:
        self.clock.advance(seconds)

    @rule(data=st.data())
    def spectate(self, data: st.DataObject) -> None:
        board = self.board_for(data)
        stored = load(self.db, board)
        if stored is None:
            with contextlib.suppress(Refused):
                self.request(lambda: self.services.queries.table(board, None),
                             {errors.NotFound}, False)
            return
        state = self.services.queries.table(board, None)
        assert state["you"] is None and state["invite"] is None
        self.check_reply(board, None, state)
        record = self.services.queries.record(board, None)
        if stored.row.status in ("waiting", "active"):
            self.no_seed(board, record)
            if stored.row.status == "active":
                game, _ = stored.game()
                assert record["view"] == codec.view_to_json(game.public_view())
        after = data.draw(st.integers(0, stored.row.last_event + 1), label="after")
        events = self.services.queries.events(board, after)
        assert [e["n"] for e in events] == list(range(after + 1, stored.row.last_event + 1))

    # -- after every step ---------------------------------------------------------------------

    @invariant()
    def boards_are_consistent(self) -> None:
        for board in self.boards:
            stored = load(self.db, board)
            assert stored is not None
            self.check_board(board, stored)
        with self.db.engine.connect() as connection:
            mails = [row[0] for row in connection.execute(text("SELECT body FROM outbox"))]
        for board in self.boards:
            self.no_seed(board, mails)

    def check_board(self, board: int, stored: Stored) -> None:
        row = stored.row
        numbers = [e.number for e in stored.events]
        assert numbers == list(range(1, len(numbers) + 1)), f"event numbers {numbers}"
        assert row.last_event == len(numbers)
        assert [m.number for m in stored.moves] == list(range(1, len(stored.moves) + 1))
        assert row.move_count == len(stored.moves)
        mine = [n for b, n in self.published if b == board]
        assert mine == sorted(set(mine)) and mine[-1] == row.last_event
        logged = [json.loads(e.body) for e in stored.events]
        self.no_seed(board, logged)
        game_events = [e for e in logged if e["type"] in GAME_EVENTS]
        if row.status == "waiting":
            assert not game_events and not stored.moves
            state = self.services.queries.table(board, None)
            assert state["view"] is None
            return
        game, happened = stored.game()
        # The log's game events are exactly what the core says the stored moves did...
        assert game_events == happened, "the event log is not the core's events"
        for body in game_events:
            assert codec.event_to_json(codec.event_from_json(body)) == body
        # ... and a spectator folding them knows what the public view shows.
        public = codec.view_to_json(game.public_view())
        folded = fold(game_events, game.n)
        for key, value in folded.items():
            assert public[key] == value, f"{key}: events say {value}, the view {public[key]}"
        # No event names a card that is still in someone's unplayed hand.
        dealt = max(i for i, e in enumerate(logged) if e["type"] == "hand_dealt")
        unplayed = {str(c) for hand in game.hands for c in cards_in(hand)}
        assert not cards_named(logged[dealt:]) & unplayed, "an event shows a hidden card"
        # Every view: the core's, for that seat or for a spectator.
        assert self.services.queries.table(board, None)["view"] == public
        for seat in stored.seats:
            if seat.joined and not seat.controller.startswith("bot:"):
                state = self.services.queries.table(board, seat.controller)
                assert state["view"] == codec.view_to_json(game.view(seat.seat))
                self.no_seed(board, state)
        if row.status == "active":
            assert not game.is_over and row.result is None
        else:
            assert row.result is not None and row.finished_at is not None
            result = json.loads(row.result)
            assert result["scores"] == list(game.scores)
            assert not stored.queued, "a finished game keeps queued moves"
            assert row.claimed_move is None and row.due_at is None


def test_a_stale_number_on_a_game_just_ended_is_stale(database, clock, people) -> None:
    """Found by the state machine at the API (tests/web/test_api_properties.py, race):
    two clients of the mover post the same last move with the same number; one gets 200,
    the other 422 "The game has ended".  Every other stale number is a 409."""
    services = Services(database, clock=clock, takeover_bot=BOT)
    board = services.tables.challenge(["ann", "bob"], variant("standard", schedule=[1]),
                                      seed=5)
    last: tuple[str, str, int] | None = None
    while (state := services.queries.table(board, None))["status"] == "active":
        userid = state["view"]["players"][state["view"]["to_move"]]
        mine = services.queries.table(board, userid)
        last = (userid, mine["view"]["legal_actions"][0], mine["next_move"])
        services.tables.move(board, *last)
    assert last is not None
    with pytest.raises(errors.Stale) as refused:  # the same request again: now stale
        services.tables.move(board, *last)
    assert refused.value.next_move == last[2] + 1
    services.close()


@pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason="PostgreSQL's READ COMMITTED")
def test_a_read_never_mixes_two_moments() -> None:
    """Found by the API state machine on PostgreSQL (racing clients all got 409 "move #7
    is stale: board at #8": the table said next_move 7 but showed the position after
    move 7, so the clients raced with a number already taken)."""
    made = _postgres_database(os.environ[POSTGRES_ENV])
    url = next(made)
    try:
        _fill(url)
        reader = Services(Database(url), clock=Clock())
        writer = Services(Database(url), clock=Clock())  # another server process
        board = writer.tables.challenge(["ann", "bob"], variant("standard", schedule=[2]),
                                        seed=7)

        def move() -> None:
            state = writer.queries.table(board, None)
            mover = state["view"]["players"][state["view"]["to_move"]]
            legal = writer.queries.table(board, mover)["view"]["legal_actions"]
            writer.tables.move(board, mover, legal[0], state["next_move"])

        move()
        with reader.db.transaction() as session:
            row = session.get(GameRow, board)  # as Store.load reads it: move count 1
            assert row is not None and row.move_count == 1
            move()  # committed meanwhile, by another process
            game = reader.store.cache.game(session, row)  # this process has not cached it
        assert len(game.history) == row.move_count == 1
        reader.close()
        writer.close()
    finally:
        next(made, None)


def _settings(examples: int, steps: int) -> settings:
    return settings(max_examples=examples, stateful_step_count=steps, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=True)


def test_the_service_keeps_its_promises(template, tmp_path) -> None:
    backend, made = template

    class Machine(ServiceMachine):
        pass

    Machine.copies = staticmethod(_copies(backend, made, tmp_path))
    Machine.template = made
    run_state_machine_as_test(Machine, settings=_settings(
        8 if backend == "sqlite" else 4, 40))
