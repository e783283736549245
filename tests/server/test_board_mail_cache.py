"""The board mail is told from a brief story that each process keeps next to the board's
cached position (``PositionCache.telling``) and catches up with the moves it lacks, so
that its cost does not grow with the game.  What the mail says must not depend on it.

Over whole random games of every preset (comments, Potomac bid changes, queued moves,
refused ones, resignations, a computer player, the game's end), with the requests going
at random through two server processes on one database (so each process's kept story
misses the other's moves), the mail of every write is the same told from the kept story
(warm), from none (cold: told from the game's start), and as the full renderer tells
the board from every stored move (``board_text`` of a snapshot loaded in the write's
transaction).  Each process tells a board from its start at most once.  Real service,
real database: SQLite, and PostgreSQL with ``BLACKOUT_TEST_POSTGRES_URL``.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from blackout.commands.render import Story, board_text
from blackout.core.rules import PRESETS, variant
from blackout.mail.notices import BOARD_EVENTS, describe, mail_notices
from blackout.service import Event, MoveAccepted, Services
from blackout.service.server import Reader, load_snapshot
from blackout.service.store import Board, PositionCache, is_bot
from blackout.storage import Database, GameRow

SHORT = {"partnership": {"max_cards": 3, "max_hands": 2}, "standard": {"schedule": [1, 3, 2]},
         "nullo": {"schedule": [3, 2]}, "potomac": {"schedule": [3, 1, 2]},
         "pbmserv": {"schedule": [1, 3, 2]}}
PLAYERS = {"pbmserv": 4, "standard": 3, "nullo": 3, "partnership": 4, "potomac": 3}
COMMENTS = [None, None, None, "hi", "well played", "oops"]


class Checked:
    """A store notifier: composes each write's mail warm (this process's kept story),
    cold (none kept) and checks both against the full renderer."""

    def __init__(self) -> None:
        self.mails = 0

    def __call__(self, board: Board, events: list[Event]) -> None:
        warm = mail_notices(Reader(board.session, board), events)
        cold_board = replace(board, positions=PositionCache(), telling=None)
        cold = mail_notices(Reader(board.session, cold_board), events)
        assert warm == cold
        snap = load_snapshot(board.session, board.number)
        caused = dict(enumerate(snap.game_events()))
        summary = "\n".join(line for event in events if isinstance(event, BOARD_EVENTS)
                            for line in describe(event, caused, snap.game.players))
        for notice in warm:
            if notice.topic is None:
                continue  # not a board (a refused queued move)
            seat = snap.seat_of(notice.to.split("@")[0])
            assert notice.body == board_text(snap, seat)
            assert notice.summary == summary
            self.mails += 1


def services_on(database: Database) -> tuple[Services, Checked]:
    services = Services(database, takeover_bot="bot:random")
    checked = Checked()
    services.store.notifiers.append(checked)
    return services, checked


def turn(services: Services, board: int) -> tuple[int, str, list[str]]:
    """The seat to move on ``board``, who plays it, its legal moves."""
    b = services.store.read(board)
    assert b.game is not None and b.game.to_move is not None
    seat = b.game.to_move
    return seat, b.controller(seat), [str(a) for a in b.game.legal_actions()]


def move_first(services: Services, board: int) -> None:
    _, mover, legal = turn(services, board)
    services.tables.make_move(board, mover, legal[0], None)


def step(services: Services, board: int, rng: random.Random) -> bool:
    """One random request on ``board``; False once the game is over."""
    b = services.store.read(board)
    game = b.game
    if b.row.status != "active" or game is None or game.to_move is None:
        return False
    tables = services.tables
    people = [(s.seat, s.controller) for s in b.seats if not is_bot(s.controller)]
    mover = b.controller(game.to_move)
    changer = game._changeable_seat()
    roll = rng.random()
    if roll < 0.03 and len(people) > 1:
        tables.resign_seat(board, rng.choice(people)[1])
    elif roll < 0.15 and [p for p in people if p[0] != game.to_move]:
        seat, userid = rng.choice([p for p in people if p[0] != game.to_move])
        cards = game.view(seat).my_cards  # maybe not legal when the turn comes: refused
        action = str(rng.choice(cards)) if cards else "0"
        tables.queue_move(board, userid, action, rng.choice(COMMENTS))
    elif roll < 0.25 and changer is not None and not is_bot(b.controller(changer)):
        tables.make_move(board, b.controller(changer),
                         str(rng.choice(game.legal_actions(changer))), None,
                         rng.choice(COMMENTS))
    elif is_bot(mover):
        services.runner.run_board(board)
    else:
        tables.make_move(board, mover, str(rng.choice(game.legal_actions())), b.next_move,
                         rng.choice(COMMENTS))
    return True


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_the_board_mail_is_the_same_warm_cold_and_told_in_full(database, db_url, people,
                                                              name, seed):
    one, checked_one = services_on(database)
    other, checked_other = services_on(Database(db_url))  # another server process
    players = [*["ann", "bob", "cy", "di"][:PLAYERS[name] - 1], "bot:random"]
    rng = random.Random(seed)
    board = one.tables.challenge(players, variant(name, **SHORT[name]), seed=seed)
    steps = 0
    while step(rng.choice([one, other]), board, rng):
        steps += 1
        assert steps < 2000
    with database.transaction() as session:
        row = session.get(GameRow, board)
        assert row is not None and row.status == "over" and row.move_count > 20
    assert checked_one.mails and checked_other.mails
    # A process tells the board from its start only the first time it mails about it
    # (the challenge's write kept the first story in ``one``).
    assert one.store.cache.telling_misses == 0 and other.store.cache.telling_misses == 1
    other.close()


class Boom(Exception):
    pass


def test_a_story_told_in_a_write_that_rolled_back_is_not_kept(database, db_url, people):
    services, checked = services_on(database)
    other, checked_other = services_on(Database(db_url))  # another server process
    store = services.store
    board = services.tables.challenge(["ann", "bob"], variant("standard", schedule=[3, 2]),
                                      seed=3)
    for _ in range(3):
        move_first(services, board)
    seat, mover, legal = turn(services, board)
    with pytest.raises(Boom), store.write(board) as b:  # the mail composed, then a failure
        store.play(b, seat, legal[0], "player", "rolled back")
        mail_notices(Reader(b.session, b), b.notices)
        raise Boom
    # The same move number made otherwise (elsewhere), then one more here: the mail of
    # the later move is told from what was committed, not from the rolled-back move.
    other.tables.make_move(board, mover, legal[-1], None)
    move_first(services, board)
    assert checked.mails == 2 * 5 and checked_other.mails == 2
    assert store.cache.telling_misses == 0
    other.close()


# PostgreSQL only: on SQLite a second writer waits for this transaction to end.
@pytest.mark.parametrize("db_url", ["postgresql"] if os.environ.get("BLACKOUT_TEST_POSTGRES_URL")
                         else [], indirect=True)
def test_a_story_never_mixes_two_moments(database, db_url, people):
    """On PostgreSQL (READ COMMITTED) a move committed by another process after this
    transaction read the board's row must not enter the story told in it."""
    reader, _ = services_on(database)
    writer, _ = services_on(Database(db_url))
    board = writer.tables.challenge(["ann", "bob"], variant("standard", schedule=[2]), seed=7)
    move_first(writer, board)
    with database.transaction() as session:
        row = session.get(GameRow, board)
        assert row is not None and row.move_count == 1
        move_first(writer, board)  # committed meanwhile
        game, story, caused = reader.store.cache.telling(session, row, Story, 1)
    assert story.count == len(game.history) == 1 and list(caused) == [1]
    writer.close()


def test_the_mail_about_a_move_told_already_tells_what_it_caused(database, people):
    """The kept story has told the move: the mail about it again (in a later
    transaction) is told from the start, so that what the move caused is known."""
    services, checked = services_on(database)
    store = services.store
    board = services.tables.challenge(["ann", "bob"], variant("standard", schedule=[1]),
                                      seed=2)
    while store.read(board).row.status == "active":
        move_first(services, board)
    with database.transaction() as session:
        b = store.load(session, board)
        last = MoveAccepted(board, b.row.move_count, 0, b.game.players[0], "x", "player")
        checked(b, [last])
    # the start, four moves, the mail again
    assert checked.mails == 2 * (1 + 4 + 1) and store.cache.telling_misses == 1
