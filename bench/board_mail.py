"""What composing the board mail costs inside a move's transaction, against the length of
the game: :func:`blackout.mail.mail_notices` (the notifier every front end's writes call)
at move 10, 300 and 1000 of one long Potomac game between four people (SQLite file), for
a mail game (a board for each player, told from the game's events) and for a live (web)
table (no board mail: it must cost nothing).

Each run makes the next move in a transaction of its own (row locked, position from the
process's cache, as :meth:`Store.write <blackout.service.store.Store.write>` does), times
the mail about it, and rolls back: every run composes the mail of the same move, with
what the process kept from the moves before it (all made by this process).

    .venv/bin/python bench/board_mail.py [--runs 20]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from datetime import datetime

from blackout import variant
from blackout.mail.notices import mail_notices
from blackout.service import Service
from blackout.service.server import Reader
from blackout.storage import Account, Database, GameRow

PEOPLE = ["ann", "bob", "cy", "di"]
MARKS = (10, 300, 1000)


class Rollback(Exception):
    """Ends a run's transaction without committing its move."""


def compose(service: Service, board: int, runs: int) -> tuple[float, float]:
    """min and median ms of composing the mail about the board's next move, inside the
    move's transaction."""
    store = service.parts.store
    times = []
    for _ in range(runs):
        with contextlib.suppress(Rollback), service.db.transaction() as session:
            loaded = store.load(session, board, lock=True)
            game = loaded.game
            assert game is not None and game.to_move is not None
            store.play(loaded, game.to_move, game.legal_actions()[0], "player")
            start = time.perf_counter()
            mail = mail_notices(Reader(session, loaded), loaded.notices)
            times.append(time.perf_counter() - start)
            assert len(mail) == (0 if loaded.row.live else len(PEOPLE))
            raise Rollback
    return min(times) * 1000, statistics.median(times) * 1000


def set_live(service: Service, board: int, live: bool) -> None:
    with service.db.transaction() as session:
        row = session.get(GameRow, board)
        assert row is not None
        row.live = live


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    db = Database(f"sqlite:///{tempfile.mkdtemp()}/bench.db")
    with db.transaction() as session:
        # Confirmed addresses: an unconfirmed one gets no board mail (nothing to compose).
        session.add_all(Account(userid=u, email=f"{u}@example.org", password_hash="-",
                                failures=0, created_at=datetime(2026, 1, 1),
                                email_confirmed_at=datetime(2026, 1, 1)) for u in PEOPLE)
    service = Service(db, notifier=mail_notices)
    rules = variant("potomac", schedule=[13] * 40, inorder=True)
    board = service.challenge(PEOPLE, rules, seed=5).board
    for number in range(1, max(MARKS) + 1):
        game = service.parts.store.read(board).game
        assert game is not None and game.to_move is not None
        service.parts.tables.make_move(board, PEOPLE[game.to_move],
                                       str(game.legal_actions()[0]), None)
        if number in MARKS:
            mail = compose(service, board, args.runs)
            set_live(service, board, True)
            live = compose(service, board, args.runs)
            set_live(service, board, False)
            print(f"move {number}: mail game {mail[0]:.1f} ms (median {mail[1]:.1f}), "
                  f"live table {live[0]:.2f} ms (median {live[1]:.2f})")
    db.dispose()


if __name__ == "__main__":
    main()
