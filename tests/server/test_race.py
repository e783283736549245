"""Moves racing on one board from several processes: exactly one is applied.

Each round, 8 processes wait at a barrier and then all try to move for the player whose
turn it is, each with a different legal move.  The database (SQLite: BEGIN IMMEDIATE and
a busy timeout; PostgreSQL: a row lock on the game plus the unique move number) must
let exactly one in and refuse the others with a clear message.
"""

from __future__ import annotations

import multiprocessing
import time

from blackout import variant
from blackout.service import Service, ServiceError
from blackout.storage import Database

PROCESSES = 8
ROUNDS = 3


def _attempt(url: str, board: int, userid: str, password: str, action: str,
             barrier: multiprocessing.synchronize.Barrier,
             results: multiprocessing.queues.Queue) -> None:
    service = Service(Database(url, migrate=False))
    barrier.wait(timeout=60)
    try:
        outcome = service.move(board, userid, password, action)
        results.put(("ok", action, outcome.events[0].number))
    except ServiceError as exc:
        results.put(("refused", action, str(exc)))
    except Exception as exc:  # anything else is a bug the test must show
        results.put(("crash", action, repr(exc)))
    finally:
        service.db.dispose()


def test_simultaneous_moves_apply_exactly_once(service, people, database, db_url):
    board = service.challenge(["ann", "bob", "cy", "di"],
                              variant("pbmserv", inorder=True, hook=False), seed=9).board
    database.dispose()  # no connection shared across fork
    context = multiprocessing.get_context("fork")
    for _round in range(ROUNDS):
        snap = service.snapshot(board)
        seat = snap.game.to_move
        userid = snap.controller(seat)
        legal = [str(a) for a in snap.game.legal_actions()]
        attempts = [legal[i % len(legal)] for i in range(PROCESSES)]
        barrier = context.Barrier(PROCESSES)
        results = context.Queue()
        workers = [context.Process(target=_attempt, args=(
            db_url, board, userid, people[userid], action, barrier, results))
            for action in attempts]
        started = time.perf_counter()
        for worker in workers:
            worker.start()
        outcomes = [results.get(timeout=120) for _ in workers]
        for worker in workers:
            worker.join(timeout=60)
        elapsed = time.perf_counter() - started
        accepted = [o for o in outcomes if o[0] == "ok"]
        refused = [o for o in outcomes if o[0] == "refused"]
        assert len(accepted) == 1, outcomes
        assert len(refused) == PROCESSES - 1, outcomes
        for _, _, message in refused:
            assert message in ("It is not your move",) or "changed while your move" in message
        after = service.snapshot(board)
        assert len(after.moves) == len(snap.moves) + 1
        assert after.moves[-1].action == accepted[0][1]
        assert after.moves[-1].number == accepted[0][2] == len(after.moves)
        reasons = sorted({message for _, _, message in refused})
        print(f"race {db_url.split(':')[0]} round {_round + 1}: 1 applied, "
              f"{len(refused)} refused {reasons} in {elapsed:.2f}s")
