"""The service layer against a real database (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import text

from blackout import variant
from blackout.core.cards import cards_in
from blackout.service import (
    GameEnded,
    GameForfeited,
    MoveAccepted,
    QueuedMoveRefused,
    Reminder,
    SeatTakenOver,
    Service,
    ServiceError,
    ratings,
    standings,
)
from blackout.storage import Database

from .helpers import dump, play_until_turn_of_nobody

PBM = variant("pbmserv", inorder=True)


# -- accounts ------------------------------------------------------------------------------


def test_signup_stores_an_argon2_hash_never_the_password(service, database):
    service.signup("ann", "ann@example.org", "sesame-42")
    with database.engine.connect() as connection:
        stored = connection.execute(text("SELECT * FROM accounts")).one()._mapping
    assert stored["password_hash"].startswith("$argon2id$")
    assert "sesame-42" not in repr(dict(stored))


@pytest.mark.parametrize(("userid", "email", "password", "message"), [
    ("ann", "ann@example.org", "pw12", "already taken"),
    ("9lives", "x@example.org", "pw12", "bad userid"),
    ("bot:x", "x@example.org", "pw12", "bad userid"),
    ("zed", "not-an-address", "pw12", "bad e-mail"),
    ("zed", "zed@example.org", "no", "a password is"),
    ("zed", "zed@example.org", "has space", "a password is"),
])
def test_signup_refusals_change_nothing(service, database, userid, email, password, message):
    service.signup("ann", "ann@example.org", "pw12")
    before = dump(database)
    with pytest.raises(ServiceError, match=message):
        service.signup(userid, email, password)
    assert dump(database) == before


def test_password_and_address_changes(service, people):
    service.change_password("ann", "ann-pw", "new-pw")
    with pytest.raises(ServiceError, match="Invalid password/userid entered"):
        service.change_password("ann", "ann-pw", "other")
    service.change_address("ann", "new-pw", "ann@new.example.org")
    assert service.email_of("ann") == "ann@new.example.org"
    with pytest.raises(ServiceError, match="bad e-mail"):
        service.change_address("ann", "new-pw", "nowhere")


def test_wrong_passwords_lock_the_account_and_the_lock_is_persisted(service, people, clock,
                                                                     db_url):
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=1).board
    for _ in range(5):
        with pytest.raises(ServiceError, match="Invalid password"):
            service.move(board, "ann", "guess", "0")
    # Now even the right password is refused, by a fresh service on the same database.
    again = Service(Database(db_url), clock=clock)
    with pytest.raises(ServiceError, match="too many wrong passwords for ann"):
        again.move(board, "ann", "ann-pw", "0")
    clock.advance(minutes=2)
    assert again.move(board, "ann", "ann-pw", "0").events[0].number == 1
    again.db.dispose()


# -- challenges ------------------------------------------------------------------------------


def test_challenge_numbers_boards_from_101_and_shuffles_from_the_seed(service, people):
    first = service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv"), seed=11)
    second = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=11)
    assert (first.board, second.board) == (101, 102)
    assert [s.name for s in service.snapshot(102).seats] == ["ann", "bob", "cy", "di"]
    shuffled = [s.name for s in service.snapshot(101).seats]
    assert sorted(shuffled) == ["ann", "bob", "cy", "di"]
    from blackout import Game

    assert shuffled == list(Game.new(variant("pbmserv"), ["ann", "bob", "cy", "di"],
                                     seed=11).players)


@pytest.mark.parametrize(("players", "rules", "message"), [
    (["ann", "bob", "cy", "zed"], PBM, "unknown user zed"),
    (["ann", "bob", "cy"], PBM, "pbmserv needs exactly 4 players, not 3"),
    (["ann", "bob", "cy", "ann"], PBM, "only one seat"),
    (["ann", "bob", "cy", "bot:genius"], PBM, "unknown computer player 'bot:genius'"),
])
def test_bad_challenges_are_refused_and_change_nothing(service, people, database, players,
                                                       rules, message):
    before = dump(database)
    with pytest.raises(ServiceError, match=message):
        service.challenge(players, rules)
    assert dump(database) == before


def test_computer_players_move_by_themselves(service, people):
    outcome = service.challenge(["bot:random", "ann", "bot:random", "bob"],
                                variant("pbmserv", inorder=True), seed=3)
    snap = service.snapshot(outcome.board)
    assert [s.name for s in snap.seats] == ["bot:random", "ann", "bot:random-2", "bob"]
    assert snap.game.to_move == 1  # the bot in seat 0 has bid already
    assert [(m.seat, m.kind) for m in snap.moves] == [(0, "bot")]
    assert any(isinstance(e, MoveAccepted) and e.kind == "bot" for e in outcome.events)


# -- moves -------------------------------------------------------------------------------------


def test_move_errors_come_in_pbmserv_order_and_write_nothing(service, people, database):
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    before = dump(database, skip=("failures", "locked_until"))
    cases = [
        ((999, "ed", "wrong", "xx"), "board 999 not found"),
        ((board, "ed", "wrong", "xx"), "Invalid password/userid entered"),
        ((board, "nobody", "x", "xx"), "Invalid password/userid entered"),
        ((board, "ed", "ed-pw", "xx"), "You are NOT playing this game"),
        ((board, "bob", "bob-pw", "xx"), "It is not your move"),
        ((board, "ann", "ann-pw", "xx"), "not a"),
        ((board, "ann", "ann-pw", "AS"), "it is time to bid, not to play AS"),
        ((board, "ann", "ann-pw", "2"), "bids are 0 to 1"),
    ]
    for args, message in cases:
        with pytest.raises(ServiceError, match=message):
            service.move(*args)
    assert dump(database, skip=("failures", "locked_until")) == before


def test_a_finished_game_refuses_moves_after_the_password_check(service, people):
    rules = variant("pbmserv", inorder=True, schedule=[1])
    board = service.challenge(["ann", "bob", "cy", "di"], rules, seed=4).board
    play_until_turn_of_nobody(service, board, people)
    assert service.snapshot(board).row.status == "over"
    with pytest.raises(ServiceError, match="Invalid password"):
        service.move(board, "ann", "bad", "1")
    with pytest.raises(ServiceError, match="The game has ended"):
        service.move(board, "ed", "ed-pw", "1")


def test_stale_move_number_is_refused(service, people):
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    service.move(board, "ann", "ann-pw", "0", expected=1)
    with pytest.raises(ServiceError, match="move #1 is stale: board 101 is at move #2"):
        service.move(board, "bob", "bob-pw", "0", expected=1)
    assert service.move(board, "bob", "bob-pw", "0", expected=2).events[0].number == 2


def test_potomac_bid_change_by_the_previous_bidder(service, people):
    rules = variant("potomac", schedule=[3, 2], first_dealer=1)
    board = service.challenge(["ann", "bob", "cy"], rules, seed=5).board
    snap = service.snapshot(board)
    first = snap.controller(snap.game.to_move)
    service.move(board, first, people[first], "1")
    service.move(board, first, people[first], "2")  # out of turn: a change of bid
    snap = service.snapshot(board)
    seat = snap.seat_of(first)
    assert str(snap.game.bids[seat]) == "2"
    assert [m.action for m in snap.moves] == ["1", "2"]
    nxt = snap.controller(snap.game.to_move)
    service.move(board, nxt, people[nxt], "0")
    with pytest.raises(ServiceError, match="It is not your move"):
        service.move(board, first, people[first], "3")


def test_queued_move_is_played_when_the_turn_comes(service, people):
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    assert "queued 0" in service.queue(board, "cy", "cy-pw", "0").message
    assert "queued 0" in service.queue(board, "di", "di-pw", "0").message
    service.move(board, "ann", "ann-pw", "0")
    events = service.move(board, "bob", "bob-pw", "0").events
    kinds = [(e.player, e.action, e.kind) for e in events if isinstance(e, MoveAccepted)]
    assert kinds[:3] == [("bob", "0", "player"), ("cy", "0", "queued"), ("di", "0", "queued")]


def test_queued_move_no_longer_legal_is_dropped_and_the_player_told(service, people):
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    service.queue(board, "di", "di-pw", "1")  # the hook will forbid it
    service.move(board, "ann", "ann-pw", "0")
    service.move(board, "bob", "bob-pw", "0")
    events = service.move(board, "cy", "cy-pw", "0").events
    refused = [e for e in events if isinstance(e, QueuedMoveRefused)]
    assert refused and refused[0].userid == "di" and "may not bid 1" in refused[0].reason
    assert service.snapshot(board).game.to_move == 3


def test_moves_queued_past_the_end_of_the_game_are_dropped_with_it(service, people):
    board = service.challenge(["ann", "bob", "cy", "di"], variant("pbmserv", schedule=[1]),
                              seed=2).board
    (card,) = cards_in(service.snapshot(board).game.hands[3])  # di's one card
    for action in ("0", str(card), "0"):  # a bid, the one card, and one more than the game has
        service.queue(board, "di", "di-pw", action)
    play_until_turn_of_nobody(service, board, people)
    assert service.snapshot(board).row.status == "over"
    with service.db.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM queued_moves")).scalar() == 0


def test_resign_hands_the_seat_to_a_computer_player_and_counts_as_a_loss(service, people):
    rules = variant("pbmserv", inorder=True, schedule=[1, 2])
    board = service.challenge(["ann", "bob", "cy", "di"], rules, seed=8).board
    service.resign(board, "ann", "ann-pw")
    service.resign(board, "bob", "bob-pw")
    events = service.resign(board, "cy", "cy-pw").events
    assert any(isinstance(e, SeatTakenOver) and e.userid == "cy" for e in events)
    with pytest.raises(ServiceError, match="You are NOT playing this game"):
        service.snapshot_as(board, "cy", "cy-pw")  # the seat's cards are the bot's now
    play_until_turn_of_nobody(service, board, people)
    snap = service.snapshot(board)
    assert snap.row.status == "over"
    result = json.loads(snap.row.result)
    assert result["resigned"] == [0, 1, 2]
    assert set(result["winners"]) <= {3}
    table = {s.player: s for s in standings(service.finished_games())}
    assert table["ann"].won == 0 and table["di"].played == 1
    rated = ratings(service.finished_games())
    # Resigning loses to di; against bob and cy (who resigned too) the scores decide.
    assert rated["di"] > 1500 and rated["di"] > max(rated["ann"], rated["bob"], rated["cy"])


def test_comments_reach_the_other_players_with_the_next_board(service, people):
    from blackout.commands import board_text

    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    service.move(board, "ann", "ann-pw", "0", comment="fingers crossed")
    snap = service.snapshot(board)
    assert "fingers crossed" in board_text(snap, 1)
    assert "fingers crossed" in board_text(snap, None)
    service.move(board, "bob", "bob-pw", "0")
    assert "fingers crossed" not in board_text(service.snapshot(board), 1)


def test_replay_rebuilds_the_position_after_move_n(service, people):
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    service.move(board, "ann", "ann-pw", "0")
    service.move(board, "bob", "bob-pw", "1")
    after_one = service.snapshot(board, upto=1).game
    assert [str(b) if b else None for b in after_one.bids] == ["0", None, None, None]
    with pytest.raises(ServiceError, match="has moves 0 to 2, not 3"):
        service.snapshot(board, upto=3)


# -- timeouts ---------------------------------------------------------------------------------


def test_idle_player_is_reminded_once_then_replaced(service, people, clock):
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    remind, give_up = timedelta(hours=24), timedelta(hours=72)
    assert service.check_timeouts(clock.advance(hours=23), remind, give_up) == []
    assert service.check_timeouts(clock.advance(hours=2), remind, give_up) == [
        Reminder(board, "ann")]
    assert service.check_timeouts(clock.advance(hours=2), remind, give_up) == []
    events = service.check_timeouts(clock.advance(hours=50), remind, give_up)
    assert SeatTakenOver(board, "ann", "bot:random", "timeout") in events
    snap = service.snapshot(board)
    assert snap.controller(0) == "bot:random" and snap.game.to_move == 1
    with pytest.raises(ServiceError, match="You are NOT playing this game"):
        service.move(board, "ann", "ann-pw", "0")


def test_idle_player_forfeits_when_asked(service, people, clock):
    board = service.challenge(["ann", "bob", "cy", "di"], PBM, seed=2).board
    events = service.check_timeouts(clock.advance(days=8), timedelta(days=1),
                                    timedelta(days=7), forfeit=True)
    assert events == [GameForfeited(board, "ann")]
    assert service.snapshot(board).row.status == "forfeited"
    with pytest.raises(ServiceError, match="The game has ended"):
        service.move(board, "bob", "bob-pw", "0")
    assert json.loads(service.snapshot(board).row.result)["winners"] == [1, 2, 3]
    # Nothing to analyse in a game that never reached its end.
    with pytest.raises(ServiceError, match="The game ended early: only a game played to the "
                       "end can be analysed"):
        service.parts.analyses.get(board)


@pytest.mark.parametrize("name", ["pbmserv", "standard", "nullo", "partnership", "potomac"])
def test_full_game_of_every_preset_with_people_and_bots(service, people, name):
    options = {
        "pbmserv": {"schedule": [1, 2]},
        "standard": {"schedule": [1, 2]},
        "nullo": {"schedule": [1, 2]},
        "partnership": {"max_cards": 2, "max_hands": 1},
        "potomac": {"schedule": [2, 1]},
    }[name]
    players = ["ann", "bot:random", "bob", "bot:random"]
    board = service.challenge(players, variant(name, **options), seed=21).board
    last_events = play_until_turn_of_nobody(service, board, people)
    snap = service.snapshot(board)
    assert snap.row.status == "over" and snap.game.is_over
    ended = json.loads(snap.row.result)
    assert ended["scores"] == snap.game.scores and ended["winners"] == snap.game.winners
    winners = tuple(snap.game.players[s] for s in snap.game.winners)
    assert last_events[-1] == GameEnded(board, winners)
