"""No view a user can obtain shows a card that user may not see.

Games of several presets are played move by move; at every position each view is
checked: ``show`` and ``replay`` (an outsider: no unplayed card at all), ``showas`` and
the board mailed to each player (their own hand only; in pbmserv's blind first hand,
everyone's card but their own), the mail's summary of what happened and ``history``
(played cards only).
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from blackout import variant
from blackout.commands import board_text, execute, history_text
from blackout.core.actions import Play
from blackout.core.cards import cards_in
from blackout.mail import Gateway, GatewayConfig
from blackout.service import Service
from blackout.storage import OutboxMail

CARD = re.compile(r"^(10|[2-9JQKA])[CDHS]$")


def card_words(text: str) -> set[str]:
    """Every word of the text that names a card."""
    return {w for w in re.split(r"[\s,;:()]+", text) if CARD.match(w)}


def hidden_from(game, seat: int | None) -> set[str]:
    """Unplayed cards ``seat`` (None: an outsider) may not see now."""
    visible = game.view(seat).hands if seat is not None else (None,) * game.n
    return {str(card) for s in range(game.n) if visible[s] is None
            for card in cards_in(game.hands[s])}


def current_hand(history: str, game) -> str:
    """The history of the hand in progress (cards of earlier hands are dealt again)."""
    header = f"\nHand {game.hand_number}:\n"
    return history.split(header)[1] if header in history else ""


GAMES = [
    ("pbmserv", {"schedule": [1, 2, 3], "inorder": True}, ["ann", "bob", "cy", "di"]),
    ("potomac", {"schedule": [3, 2], "inorder": True}, ["ann", "bob", "cy"]),
    ("partnership", {"max_cards": 3, "max_hands": 1, "inorder": True},
     ["ann", "bob", "cy", "di"]),
    ("nullo", {"schedule": [2], "inorder": True}, ["ann", "bob", "bot:random"]),
]


def mailed_boards(service: Service) -> dict[str, str]:
    """Recipient -> the board in the outbox mail to them."""
    with service.db.transaction() as session:
        return {row.recipient: row.body for row in session.scalars(select(OutboxMail))}


def mailed_summaries(service: Service) -> str:
    """What the unsent mails say happened (moves, tricks, results since the first)."""
    with service.db.transaction() as session:
        return "\n".join(row.summary or "" for row in session.scalars(select(OutboxMail)))


def played(game) -> set[str]:
    """Every card played so far in the game, in any hand."""
    return {str(m.action) for m in game.history if isinstance(m.action, Play)}


@pytest.mark.parametrize(("name", "options", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_no_view_shows_a_hidden_card(service: Service, people, name, options, players):
    Gateway(service, GatewayConfig())  # boards are mailed (to the outbox) after each move
    board = service.challenge(players, variant(name, **options), seed=31).board
    checked_commands = False
    for _ in range(200):
        snap = service.snapshot(board)
        game = snap.game
        outsider = hidden_from(game, None)
        assert not card_words(board_text(snap)) & outsider
        assert not card_words(current_hand(history_text(snap), game)) & outsider
        for seat, _userid in snap.humans:
            assert not card_words(board_text(snap, seat)) & hidden_from(game, seat)
        # Unsent board mail keeps the newest board (nothing is delivered here).
        mails = mailed_boards(service)
        assert len(mails) == len(snap.humans)
        for seat, userid in snap.humans:
            assert not card_words(mails[f"{userid}@example.org"]) & hidden_from(game, seat)
        # The mail's account of what happened names played cards only.
        assert card_words(mailed_summaries(service)) <= played(game)
        if game.to_move is None:
            break
        if not checked_commands:  # the commands and mails render through the same views
            checked_commands = True
            for seat, userid in snap.humans:
                shown = execute(service, ["showas", str(board), userid, people[userid]]).text
                assert shown == board_text(snap, seat)
                assert not card_words(shown) & hidden_from(game, seat)
        seat = game.to_move
        userid = snap.controller(seat)
        if userid.startswith("bot:"):  # with the gateway, bots move after the request
            service.play_bots(board)
            continue
        action = game.legal_actions()[-1]
        service.move(board, userid, people[userid], str(action))
    snap = service.snapshot(board)
    assert snap.game.is_over
    # Replays of earlier positions are outsider views too.
    for number in range(0, len(snap.moves) + 1, 3):
        past = service.snapshot(board, upto=number)
        text = execute(service, ["replay", f"{board}#{number}"]).text
        assert not card_words(text) & hidden_from(past.game, None)


def test_the_checker_sees_cards_when_they_are_there(service: Service, people):
    """Guard against a checker that cannot fail: a seat's own board names its cards."""
    board = service.challenge(["ann", "bob", "cy"], variant("potomac", schedule=[3]),
                              seed=2).board
    snap = service.snapshot(board)
    own = {str(c) for c in cards_in(snap.game.hands[0])}
    assert own <= card_words(board_text(snap, 0))
    assert own <= hidden_from(snap.game, 1)
