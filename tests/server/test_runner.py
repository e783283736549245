"""The runner finds its work through ``games.due_at``: every change keeps it (bot turn at
the pace, move clock, an absent player's grace, claims, game over), ``run_due`` reads only
the boards that are due, and two runners on one database split the work without ever
playing a turn twice."""

from __future__ import annotations

import multiprocessing
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, select, update

from blackout import variant
from blackout.service import Services
from blackout.storage import Database, GameRow, MoveRow, SeatRow

PACE = 2.0
GRACE = 30.0
CLOCK = 60.0


@pytest.fixture
def services(database: Database, clock, people) -> Any:
    parts = Services(database, clock=clock, bot_iterations=20, bot_pace=PACE, grace=GRACE,
                     takeover_bot="bot:random")
    yield parts
    parts.bus.close()


def stored(database: Database, board: int) -> datetime | None:
    with database.transaction() as session:
        row = session.get(GameRow, board)
        assert row is not None
        return row.due_at


def expected(services: Services, database: Database, board: int,
             clock_seconds: float | None = CLOCK) -> datetime | None:
    """What due_at must be, worked out here from the rows and the public view (an
    oracle independent of the service's own definition; no claim may be live)."""
    with database.transaction() as session:
        row = session.get(GameRow, board)
        assert row is not None
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == board)
                                     .order_by(SeatRow.seat)))
        assert row.claimed_move is None or row.claimed_move <= row.move_count
    if row.status != "active":
        return None
    seat = seats[services.queries.table(board, None)["view"]["to_move"]]
    if seat.controller.startswith("bot:"):
        return row.last_move_at + timedelta(seconds=PACE if row.live else 0)
    if not row.live:
        return None
    times = []
    if clock_seconds is not None:
        times.append(row.last_move_at + timedelta(seconds=clock_seconds))
    if not seat.connected and seat.disconnected_at is not None:
        times.append(seat.disconnected_at + timedelta(seconds=GRACE))
    return min(times) if times else None


def person_to_move(services: Services, board: int) -> str | None:
    """Who is to move on ``board`` when it is a person (not a bot, not a resigned seat)."""
    b = services.store.read(board)
    seat = b.to_move()
    if seat is None or b.controller(seat).startswith("bot:"):
        return None
    return b.controller(seat)


def test_due_at_follows_every_kind_of_change(services, database, clock):
    runner = services.runner
    # bot:expert thinks off the transaction: its turns are claimed (instant bots' are not)
    board = services.tables.create("ann", "standard", {"schedule": [2, 1]},
                                   ["ann", "open", "bot:expert"], clock=CLOCK)["board"]
    assert stored(database, board) is None  # waiting for a player
    services.tables.leave(board, "ann")
    services.tables.join(board, "ann")
    assert stored(database, board) is None
    services.tables.join(board, "bob")  # the table starts
    assert stored(database, board) == expected(services, database, board) is not None
    steps: dict[str, int] = {}
    for _ in range(200):
        if services.queries.table(board, None)["status"] != "active":
            break
        userid = person_to_move(services, board)
        if userid is None:  # the bot's turn: due at its pace, not before
            due = stored(database, board)
            assert due == expected(services, database, board)
            assert runner.run_due() == 0 and stored(database, board) == due
            assert runner.next_due() == pytest.approx((due - clock()).total_seconds())
            clock.now = due
            if "claim" not in steps:  # a claimed turn is due at the lease's end
                claimed, played = runner.claim_due(10)
                assert [c.board for c in claimed] == [board] and played == 0
                assert stored(database, board) == clock() + runner.lease
                assert runner.run_due() == 0
                assert runner.next_due() == pytest.approx(runner.lease.total_seconds())
                assert runner._play(claimed[0]) == 1
                steps["claim"] = 1
            else:
                assert runner.run_due() == 1
            assert stored(database, board) == expected(services, database, board)
            continue
        clock.advance(seconds=1)
        if "away" not in steps:  # the player to move leaves, comes back, leaves again
            services.tables.presence(board, userid, True)
            assert stored(database, board) == expected(services, database, board)
            clock.advance(seconds=5)
            services.tables.presence(board, userid, False)
            assert stored(database, board) == clock() + timedelta(seconds=GRACE)
            assert stored(database, board) == expected(services, database, board)
            services.tables.presence(board, userid, True)
            assert stored(database, board) == expected(services, database, board)
            services.tables.presence(board, userid, False)
            clock.now = stored(database, board)  # the grace ends: the runner plays for them
            assert runner.run_due() >= 1
            assert any(m.kind == "away" for m in moves_of(database, board))
            services.tables.presence(board, userid, True)
            steps["away"] = 1
        elif "clock" not in steps:  # the move clock runs out
            clock.now = stored(database, board)
            assert stored(database, board) == expected(services, database, board)
            assert runner.run_due() >= 1
            assert any(m.kind == "clock" for m in moves_of(database, board))
            steps["clock"] = 1
        elif "resign" not in steps:  # a computer player takes the seat, at the bots' pace
            services.tables.resign(board, userid)
            assert person_to_move(services, board) is None
            assert stored(database, board) == expected(services, database, board)
            steps["resign"] = 1
        else:
            state = services.queries.table(board, userid)
            services.tables.move(board, userid, state["view"]["legal_actions"][0],
                                 state["next_move"])
            steps["move"] = steps.get("move", 0) + 1
        assert stored(database, board) == expected(services, database, board)
    assert services.queries.table(board, None)["status"] == "over"
    assert stored(database, board) is None  # the game is over
    assert set(steps) == {"claim", "away", "clock", "resign", "move"}, steps


def test_a_mail_game_is_due_only_for_its_bots(services, database, clock):
    rules = variant("pbmserv", inorder=True, schedule=[2])
    board = services.tables.challenge(["ann", "bot:basic", "bob", "cy"], rules, seed=3)
    for _ in range(100):
        assert stored(database, board) == expected(services, database, board, None)
        userid = person_to_move(services, board)
        if userid is None:
            if services.queries.table(board, None)["status"] != "active":
                break
            assert stored(database, board) == services.store.read(board).row.last_move_at
            assert services.runner.run_due() >= 1
        else:
            assert stored(database, board) is None  # a person by mail: check-timeouts
            state = services.queries.table(board, userid)
            services.tables.move(board, userid, state["view"]["legal_actions"][0],
                                 state["next_move"])
            clock.advance(hours=1)
    assert stored(database, board) is None


def moves_of(database: Database, board: int) -> list[MoveRow]:
    with database.transaction() as session:
        return list(session.scalars(select(MoveRow).where(MoveRow.game_id == board)
                                    .order_by(MoveRow.number)))


class Statements:
    """Every SQL statement the engine runs while counting, with its parameters."""

    def __init__(self, database: Database) -> None:
        self.seen: list[tuple[str, Any]] = []
        self.on = False
        event.listen(database.engine, "before_cursor_execute", self._record)

    def _record(self, _conn: Any, _cursor: Any, statement: str, parameters: Any,
                *_: Any) -> None:
        if self.on:
            self.seen.append((statement, parameters))

    def count(self) -> Statements:
        self.seen, self.on = [], True
        return self

    def __enter__(self) -> Statements:
        return self

    def __exit__(self, *_: object) -> None:
        self.on = False

    def selects(self) -> list[str]:
        return [s for s, _ in self.seen if s.lstrip().upper().startswith("SELECT")]

    def mention(self, value: int) -> bool:
        def flat(parameters: Any) -> list[Any]:
            if isinstance(parameters, dict):
                return list(parameters.values())
            if isinstance(parameters, list | tuple):
                return [x for p in parameters for x in flat(p)] if any(
                    isinstance(p, list | tuple | dict) for p in parameters) else list(parameters)
            return [parameters]
        return any(value in flat(p) for _, p in self.seen)


def test_run_due_reads_only_the_due_boards(services, database, clock):
    """Twelve tables where a person is to move (no clock) and one where a bot is: the
    runner's queries never name an idle board, and with nothing due a round is one
    query whatever the number of tables."""
    idle = [services.tables.create("ann", "standard", {"schedule": [1]},
                                   ["ann", "bob"])["board"] for _ in range(12)]
    for board in idle:
        services.tables.join(board, "bob")
    idle = [b for b in idle if person_to_move(services, b) is not None]
    assert len(idle) == 12
    services.runner.catch_up()  # the one-off pass (a process's first round) is done
    statements = Statements(database)
    with statements.count():
        assert services.runner.run_due() == 0
        assert services.runner.next_due() is None
    assert len(statements.selects()) <= 2, statements.seen
    busy = services.tables.create("ann", "standard", {"schedule": [2]},
                                  ["bot:random", "bot:random", "bot:random"])["board"]
    with statements.count():
        assert services.runner.next_due() == PACE
        assert services.runner.run_due() == 0  # not yet: the pace
    assert len(statements.selects()) <= 2
    clock.advance(seconds=PACE)
    with statements.count():
        assert services.runner.run_due() == 1
    assert statements.mention(busy)
    assert not any(statements.mention(board) for board in idle), statements.seen
    for _ in range(100):
        clock.advance(seconds=PACE)
        if services.runner.run_due() == 0:
            break
    assert services.queries.table(busy, None)["status"] == "over"
    assert services.runner.next_due() is None


def test_boards_from_before_due_at_are_worked_out_once_at_start(services, database, clock):
    """A bot's turn stored without due_at (a row from before migration 0005) is found by
    a new runner's first round."""
    board = services.tables.create("ann", "standard", {"schedule": [2]},
                                   ["bot:random", "bot:random", "bot:random"])["board"]
    with database.transaction() as session:
        session.execute(update(GameRow).where(GameRow.id == board).values(due_at=None))
    fresh = Services(database, clock=clock, bot_iterations=20, bot_pace=PACE, grace=GRACE)
    try:
        assert fresh.runner.next_due() == PACE  # the pass ran first
        assert stored(database, board) == expected(fresh, database, board)
        clock.advance(seconds=PACE)
        assert fresh.runner.run_due() == 1
    finally:
        fresh.bus.close()


# -- two runners on one database ------------------------------------------------------------


def _runner_process(url: str, barrier: Any, results: Any) -> None:
    services = Services(Database(url, migrate=False), bot_iterations=10,
                        takeover_bot="bot:random")
    thought: list[tuple[int, int]] = []
    runner = services.runner
    think, at_once = runner._think, runner._play_at_once

    def counted(due: Any) -> Any:  # an expert's turn, claimed then thought about
        thought.append((due.board, due.move))
        return think(due)

    def counted_at_once(b: Any, due: Any, bot: Any) -> bool:  # an instant bot's turn
        played = at_once(b, due, bot)
        if played:
            thought.append((due.board, due.move))
        return played

    runner._think = counted  # type: ignore[method-assign]
    runner._play_at_once = counted_at_once  # type: ignore[method-assign]
    made = 0
    try:
        barrier.wait(timeout=60)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            made += services.runner.run_due()
            wait = services.runner.next_due()
            if wait is None:
                break
            time.sleep(min(wait, 0.01))
        results.put(("ok", made, thought))
    except Exception as exc:  # anything is a bug the test must show
        results.put(("crash", repr(exc), []))
    finally:
        services.bus.close()
        services.db.dispose()


@pytest.mark.parametrize("bot", ["bot:random", "bot:expert"])
def test_two_runners_split_the_due_boards_and_never_play_a_turn_twice(database, db_url,
                                                                        people, bot):
    """Two processes run ``run_due`` over the same sixteen computer-player tables: both
    make moves, every move number of every board is thought about and written by
    exactly one of them (instant bots decide in the transaction that finds the turn
    due; the expert's turns are claimed, thought about, then written)."""
    services = Services(database, bot_iterations=10, takeover_bot="bot:random")
    boards = [services.tables.create("ann", "standard", {"schedule": [3, 2]},
                                     [bot] * 4)["board"] for _ in range(16)]
    services.bus.close()
    database.dispose()  # no connection shared across fork
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    results = context.Queue()
    workers = [context.Process(target=_runner_process, args=(db_url, barrier, results))
               for _ in range(2)]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=180) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    assert [status for status, _, _ in outcomes] == ["ok", "ok"], outcomes
    written = []
    with database.transaction() as session:
        for board in boards:
            row = session.get(GameRow, board)
            assert row is not None and row.status == "over" and row.due_at is None
            written += [(board, n) for n in session.scalars(
                select(MoveRow.number).where(MoveRow.game_id == board))]
    thought = outcomes[0][2] + outcomes[1][2]
    assert len(set(thought)) == len(thought)  # no turn thought about twice
    assert sorted(thought) == sorted(written)  # and each written by its thinker
    assert outcomes[0][1] + outcomes[1][1] == len(written)
    if not database.is_sqlite:
        # SKIP LOCKED splits the due boards.  On SQLite the two queue for the one write
        # lock, which SQLite's busy handler does not hand out in turn: one process may
        # well play every batch of instant bots, and that is correct too.
        assert outcomes[0][1] > 0 and outcomes[1][1] > 0, "both runners make progress"
    print(f"two runners {db_url.split(':')[0]}: {outcomes[0][1]} and {outcomes[1][1]} "
          f"of {len(written)} moves")


def test_an_instant_bot_moves_in_the_transaction_that_finds_its_turn(services, database,
                                                                     clock):
    """bot:basic's turn is played where it is found due: one write transaction, no
    claim left behind, the move logged with its events like any other."""
    board = services.tables.create("ann", "standard", {"schedule": [2]},
                                   ["bot:basic"] * 3)["board"]
    clock.advance(seconds=PACE)
    from blackout.storage.database import READ_ONLY

    commits: list[object] = []  # of write transactions (SQLite looks first, read-only)

    def committed(connection: Any) -> None:
        if not connection.get_execution_options().get(READ_ONLY):
            commits.append(connection)

    event.listen(database.engine, "commit", committed)
    try:
        claimed, played = services.runner.claim_due(10)
    finally:
        event.remove(database.engine, "commit", committed)
    assert (claimed, played) == ([], 1)
    assert len(commits) == 1
    with database.read() as session:
        row = session.get(GameRow, board)
        assert row is not None and row.move_count == 1 and row.claimed_move is None
        assert row.due_at == clock() + timedelta(seconds=PACE)  # the next bot, at its pace
        assert [m.kind for m in moves_of(database, board)] == ["bot"]
    assert [e["event"]["type"] for e in services.queries.events(board, 0)][-1] == "bid"


def test_an_instant_bot_that_fails_changes_nothing_and_its_board_waits(services, database,
                                                                        clock, monkeypatch):
    """A bot that raises: its board is left as it was (no move, no event), leased like a
    failed claim; the other due boards of the batch are played; after the lease it is
    tried again."""
    from blackout.bots.basic import BasicBot

    broken, fine = (services.tables.create("ann", "standard", {"schedule": [2]},
                                           [bot] * 3)["board"]
                    for bot in ("bot:basic", "bot:random"))
    events_before = services.queries.events(broken, 0)
    clock.advance(seconds=PACE)

    def fails(self: BasicBot, view: Any) -> Any:
        raise RuntimeError("a bug in the bot")

    monkeypatch.setattr(BasicBot, "choose", fails)
    assert services.runner.run_due() == 1  # the random bot's board
    assert moves_of(database, broken) == [] and len(moves_of(database, fine)) == 1
    assert services.queries.events(broken, 0) == events_before
    assert stored(database, broken) == clock() + services.runner.lease
    monkeypatch.undo()
    clock.advance(seconds=PACE)
    services.runner.run_due()
    assert moves_of(database, broken) == []  # still leased
    clock.now = stored(database, broken)
    assert services.runner.run_due() >= 1
    assert len(moves_of(database, broken)) == 1


def test_a_process_takes_the_boards_its_clients_watch_and_the_others_only_late(
        services, database, clock):
    """With ``local`` (a web server among several), a due board watched here is played
    at once, and so is one no player watches anywhere; one a player watches through
    another process only when HANDOFF late, and next_due says when that is instead of
    waking the process to find nothing it may take."""
    from blackout.service.runner import HANDOFF

    def new_table() -> int:
        board: int = services.tables.create("ann", "standard", {"schedule": [2]},
                                            ["bot:basic"] * 3)["board"]
        return board

    here, elsewhere = new_table(), new_table()
    # Players have WebSockets open to both: to ``here`` through this process, to
    # ``elsewhere`` through another (what each process's hub records through
    # Tables.presence; the seats here are all bots, so it is set directly).
    with database.transaction() as session:
        session.execute(update(SeatRow).where(SeatRow.game_id.in_([here, elsewhere]),
                                              SeatRow.seat == 0).values(connected=True))
    runner = services.runner
    assert runner.next_due(local={here}) == PACE
    assert runner.next_due(local=set()) == PACE + HANDOFF.total_seconds()
    nowhere = new_table()
    assert runner.next_due(local=set()) == PACE  # nobody watches it: not handed off
    clock.advance(seconds=PACE)
    assert runner.run_due(local={here}) == 2
    assert len(moves_of(database, here)) == len(moves_of(database, nowhere)) == 1
    assert moves_of(database, elsewhere) == []
    clock.advance(seconds=HANDOFF.total_seconds() / 2)
    runner.run_due(local={here})
    assert moves_of(database, elsewhere) == []  # not late enough yet
    clock.advance(seconds=HANDOFF.total_seconds() / 2)
    runner.run_due(local={here})
    assert len(moves_of(database, elsewhere)) == 1
