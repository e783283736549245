"""Computer players think with no transaction open and write each move in a short one,
guarded by the move number it was worked out for."""

from __future__ import annotations

import multiprocessing
import threading
import time
from datetime import datetime

from sqlalchemy import update

from blackout import variant
from blackout.service import MoveAccepted, Service
from blackout.storage import Account, Database, SeatRow

RULES = variant("pbmserv", inorder=True, schedule=[1, 2, 3])
# Experts with a fixed search (repeatable, a few hundredths of a second a decision) so
# that both workers are often thinking about the same move at once.
BOTS = ["bot:expert"] * 4
ITERATIONS = 100


def _stalled_board(service: Service, database: Database) -> int:
    """A board whose every seat a bot took over, with the bots' moves not yet made (as
    after a crash between a commit and the bots' moves)."""
    board = service.challenge(["ann", "bob", "cy", "di"], RULES, seed=17).board
    with database.transaction() as session:
        for seat, bot in enumerate(BOTS):
            session.execute(update(SeatRow).where(SeatRow.game_id == board,
                                                  SeatRow.seat == seat)
                            .values(controller=bot, resigned=True))
    return board


def _counting(service: Service) -> list[int]:
    """Count the turns ``service``'s runner thinks about (written or not)."""
    thought: list[int] = []
    think = service.parts.runner._think

    def counted(due):
        thought.append(due.move)
        return think(due)

    service.parts.runner._think = counted  # type: ignore[method-assign]
    return thought


def _drive(url: str, board: int, barrier, results) -> None:
    service = Service(Database(url, migrate=False), bot_iterations=ITERATIONS)
    thought = _counting(service)
    barrier.wait(timeout=60)
    try:
        events = service.play_bots(board)
        while service.snapshot(board).row.status == "active":  # the other one is thinking
            time.sleep(0.01)
            events += service.play_bots(board)
        results.put(("ok", [e.number for e in events if isinstance(e, MoveAccepted)],
                     thought))
    except Exception as exc:  # anything is a bug the test must show
        results.put(("crash", repr(exc), []))
    finally:
        service.db.dispose()


def test_two_workers_driving_the_same_bots_write_each_move_once(people, database, db_url):
    """Two processes run the bots of one board at once: every move number is written
    once, and no turn is thought about twice (the claim)."""
    service = Service(database, bot_iterations=ITERATIONS)
    alone = _stalled_board(service, database)
    raced = _stalled_board(service, database)
    service.play_bots(alone)  # one worker: the reference game's length
    reference = service.snapshot(alone)
    assert reference.row.status == "over" and len(reference.moves) > 20

    database.dispose()  # no connection shared across fork
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    results = context.Queue()
    workers = [context.Process(target=_drive, args=(db_url, raced, barrier, results))
               for _ in range(2)]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    assert [status for status, _, _ in outcomes] == ["ok", "ok"], outcomes
    after = service.snapshot(raced)  # rebuilt move by move: every stored move is legal
    assert after.row.status == "over"
    written = sorted(outcomes[0][1] + outcomes[1][1])
    assert written == list(range(1, len(after.moves) + 1))  # each number by one worker
    assert all(m.kind == "bot" for m in after.moves)
    thought = sorted(outcomes[0][2] + outcomes[1][2])
    assert thought == written  # no turn thought about by both
    print(f"bot race {db_url.split(':')[0]}: moves written by each worker "
          f"{len(outcomes[0][1])} and {len(outcomes[1][1])}")


def test_a_thinking_bot_holds_no_lock_and_rethinks_after_a_bid_change(tmp_path,
                                                                     password_hashes):
    """Potomac: ann bids, the expert dealer thinks; meanwhile SQLite takes other writes
    (its write lock is free), and ann changes her bid, so the bot's first answer is stale
    and not used.  (SQLite only: the lock is SQLite's; the guard is shared code, raced
    on both databases above.)"""
    database = Database(f"sqlite:///{tmp_path / 'lock.db'}")
    with database.transaction() as session:
        session.add_all(Account(userid=userid, email=f"{userid}@example.org",
                                password_hash=password_hashes[userid], failures=0,
                                created_at=datetime(2026, 1, 1)) for userid in ("ann", "bob"))
    service = Service(database, bot_think=4.0)  # room for two argon2 checks on a busy machine
    rules = variant("potomac", inorder=True, first_dealer=1, schedule=[2])
    board = service.challenge(["ann", "bot:expert"], rules, seed=5).board
    first = threading.Thread(target=service.move, args=(board, "ann", "ann-pw", "1"))
    first.start()
    while not service.snapshot(board).moves:  # ann's bid is committed, the bot thinks
        time.sleep(0.02)
    service.change_address("bob", "bob-pw", "bob@new.example.org")
    # The write went through before the bot answered: had the bot held the lock while
    # thinking, the write would have waited for its bid to be committed.
    assert len(service.snapshot(board).moves) == 1
    events = service.move(board, "ann", "ann-pw", "2").events  # the bot has not bid yet
    first.join(timeout=30)
    assert not first.is_alive()
    moves = service.snapshot(board).moves
    assert [(m.number, m.seat, m.action) for m in moves[:2]] == [(1, 0, "1"), (2, 0, "2")]
    assert moves[2].seat == 1 and moves[2].kind == "bot" and moves[2].action != "0"  # hook
    assert [m.number for m in moves] == list(range(1, len(moves) + 1))
    assert len([m for m in moves if m.seat == 1 and m.action.isdigit()]) == 1  # one bid
    assert next(e.number for e in events if isinstance(e, MoveAccepted)) == 2
    database.dispose()
