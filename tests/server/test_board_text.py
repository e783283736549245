"""The server's board text (``show``, ``showas``, the board mail) shows the last trick
and who won it, also once its hand is over until the next hand's first card and after
the game's end, with the hand's result; its score sheet lines up whatever the names and
the scores (issue 19.15).  Real service, real database (SQLite, and PostgreSQL with
``BLACKOUT_TEST_POSTGRES_URL``), mail written to the real outbox."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from blackout import variant
from blackout.commands import board_text, execute, history_text
from blackout.core.actions import Play
from blackout.core.rules import PRESETS
from blackout.mail import Gateway, GatewayConfig
from blackout.service import Service
from blackout.storage import Account, OutboxMail

from .test_render import check_sheet, oracle_tricks, result_line, sheet_lines, trick_line


def outbox(service: Service) -> dict[str, tuple[str, str]]:
    """Recipient -> (summary, board) of the unsent board mail to them."""
    with service.db.transaction() as session:
        return {row.recipient: (row.summary or "", row.body)
                for row in session.scalars(select(OutboxMail))}


def move_first(service: Service, board: int, passwords: dict[str, str],
               greedy: str = "") -> None:
    """The seat to move makes its first legal move (``greedy``: its last, the highest
    bid, so that it misses and scores below zero)."""
    snap = service.snapshot(board)
    userid = snap.controller(snap.game.to_move)
    legal = snap.game.legal_actions()
    service.move(board, userid, passwords[userid], str(legal[-1 if userid == greedy else 0]))


def shown(service: Service, board: int, people: dict[str, str]) -> list[str]:
    """The board as everyone gets it: ``show``, each player's ``showas`` and mail."""
    texts = [execute(service, ["show", str(board)]).text]
    texts += [execute(service, ["showas", str(board), userid, people[userid]]).text
              for userid in ("ann", "bob", "cy")]
    texts += [body for _, body in outbox(service).values()]
    return texts


def test_the_last_trick_stays_on_the_board_until_the_next_hands_first_card(service, people):
    Gateway(service, GatewayConfig())  # boards are mailed (to the outbox) after each move
    board = service.challenge(["ann", "bob", "cy"],
                              variant("standard", schedule=[1, 2], inorder=True,
                                      last_hand_no_trump=False), seed=7).board
    for _ in range(6):  # three bids, then the one trick of hand 1
        move_first(service, board, people)
    game = service.snapshot(board).game
    assert game.hand_number == 2 and len(game.hands_played) == 1
    names = game.players
    (trick,) = oracle_tricks(game)[0]
    hand_one = game.hands_played[0]
    assert hand_one.tricks[trick[2]] == 1  # the game says the winner took the trick
    last = f"Last trick of hand 1: {trick_line(trick, names)}"
    result = result_line(hand_one, names)
    texts = shown(service, board, people)
    assert len(texts) == 7
    for text in texts:
        assert last in text.splitlines() and result in text.splitlines(), text
    # The mail also says what the last card caused.
    for summary, _ in outbox(service).values():
        assert f"  Trick: {trick_line(trick, names)}" in summary.splitlines()
        assert f"  {result}" in summary.splitlines()
    # Still there while hand 2 is bid...
    for _ in range(3):
        move_first(service, board, people)
        assert service.snapshot(board).game.phase == ("play" if _ == 2 else "bid")
        for text in shown(service, board, people):
            assert last in text, text
    # ...gone once its first card is led.
    move_first(service, board, people)
    for text in shown(service, board, people):
        assert "Last trick" not in text and "Hand 1 result" not in text, text
        assert "\nTrick in progress: " in text, text
    for _ in range(2):  # the first trick of hand 2: the hand's own last trick
        move_first(service, board, people)
    game = service.snapshot(board).game
    first_of_two = oracle_tricks(game)[1][0]
    for text in shown(service, board, people):
        assert f"Last trick: {trick_line(first_of_two, names)}" in text.splitlines(), text
    for _ in range(3):  # the game's last trick
        move_first(service, board, people)
    game = service.snapshot(board).game
    assert game.is_over
    final = oracle_tricks(game)[1][-1]
    for text in shown(service, board, people)[:1] + [b for _, b in outbox(service).values()]:
        lines = text.splitlines()
        assert lines[2].startswith("The game has ended.")
        assert lines[3] == f"Last trick of hand 2: {trick_line(final, names)}"
        assert lines[4] == result_line(game.hands_played[1], names)


def test_score_rows_line_up_with_long_and_short_names_and_negative_scores(
        service, people, database, clock, password_hashes):
    long = "averyverylongname_to_fit"
    with database.transaction() as session:
        session.add_all(Account(userid=userid, email=f"{userid}@example.org",
                                password_hash=password_hashes["ann"], failures=0,
                                created_at=clock()) for userid in (long, "x"))
    passwords = {**people, long: people["ann"], "x": people["ann"]}
    board = service.challenge(["x", long, "ann"], variant("potomac", schedule=[3, 2, 1],
                                                          inorder=True), seed=3).board
    for _ in range(200):
        snap = service.snapshot(board)
        if snap.game.is_over:
            break
        move_first(service, board, passwords, greedy="x")
    game = service.snapshot(board).game
    assert game.is_over and min(game.scores) < 0 < max(game.scores)
    before_last = service.snapshot(board, upto=len(snap.moves) - 1).game
    for text, played in (
            (execute(service, ["show", str(board)]).text, game.hands_played),
            (execute(service, ["showas", str(board), long, passwords[long]]).text,
             game.hands_played),
            (execute(service, ["replay", f"{board}#{len(snap.moves) - 1}"]).text,
             before_last.hands_played)):
        assert played
        check_sheet(sheet_lines(text), game.players, played)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_stored_games_of_every_preset_tell_what_the_game_says(service, name):
    """Bots play a short game of each preset through the service; the board text and
    the history of every tenth position (replays) name each trick's winner as the game's
    history and the trick rule do, and the hands' results as the game's score sheet."""
    players = {"pbmserv": 4, "partnership": 4}.get(name, 3)
    short = {"partnership": {"max_cards": 3, "max_hands": 2}, "potomac": {"schedule": [3, 2]},
             "pbmserv": {"schedule": [1, 2]}, "standard": {"schedule": [2, 1]},
             "nullo": {"schedule": [2, 3]}}[name]
    seats = ["bot:random"] * players
    board = service.challenge(seats, variant(name, inorder=True, **short), seed=11).board
    service.play_bots(board)
    snap = service.snapshot(board)
    assert snap.game.is_over
    for number in [*range(0, len(snap.moves), 10), len(snap.moves)]:
        past = service.snapshot(board, upto=number)
        game, names = past.game, past.game.players
        tricks = oracle_tricks(game)
        text = execute(service, ["replay", f"{board}#{number}"]).text
        check_sheet(sheet_lines(text), names, game.hands_played)
        history = history_text(past)
        told = re.findall(r"^ +Trick: (.*)$", history, re.MULTILINE)
        assert told == [trick_line(t, names) for hand in tricks for t in hand]
        results = re.findall(r"^ +(Hand \d+ result: .*)$", history, re.MULTILINE)
        assert results == [result_line(r, names) for r in game.hands_played]
        plays = sum(isinstance(m.action, Play) for m in game.history)
        assert plays >= sum(len(t[1]) for hand in tricks for t in hand)
    assert board_text(snap).splitlines()[3].startswith("Last trick of hand ")
