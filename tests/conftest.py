"""Helpers shared by the rules-core tests: prearranged deals, scripted bidding and play,
and a snapshot of everything a refused action must leave unchanged.

The tests run against the default engine, ``blackout.Game``: the compiled one when it
was built, else the pure-Python reference; ``BLACKOUT_ENGINE=reference`` (or
``compiled``) chooses (see :mod:`blackout.core.fast`).  tests/test_engine_suite.py runs
the core tests again against the other engine.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping

import pytest

import blackout
from blackout import Action, Deal, Game, HandResult, IllegalAction
from blackout.core.cards import RANK_NAMES

SUIT_LETTERS = "CDHS"


def pytest_report_header() -> str:
    return f"blackout engine: {blackout.Game.__module__}.{blackout.Game.__qualname__}"


def top_cards(suit: str, size: int) -> list[str]:
    """The ``size`` highest cards of a suit: ``top_cards("S", 3) == ["AS", "KS", "QS"]``."""
    return [RANK_NAMES[12 - i] + suit for i in range(size)]


def suit_deal(size: int, suits: str = "CDHS", turn_up: str | None = None,
              dealer: int | None = None) -> Deal:
    """Seat ``i`` holds the top ``size`` cards of suit ``suits[i]`` and nothing else.

    With one suit each nobody can follow anybody: the leader's card wins unless a
    trump is played, so the tricks of a hand are known before it is played.
    """
    return Deal(hands=[top_cards(s, size) for s in suits], turn_up=turn_up, dealer=dealer)


def random_deal(size: int, players: int, seed: int, dealer: int | None = None) -> Deal:
    """A shuffled deal of ``size`` cards each, with a turn-up card when one is left."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hands = [deck[i * size:(i + 1) * size] for i in range(players)]
    left = deck[players * size:]
    return Deal(hands=hands, turn_up=left[0] if left else None, dealer=dealer)


def bid_all(game: Game, bids: Mapping[int, str | Action]) -> None:
    """Make the bids of one hand, each seat bidding ``bids[seat]`` when its turn comes."""
    hand = game.hand_number
    while game.phase == "bid" and game.hand_number == hand:
        game.apply(bids[game.to_move])


def play_lowest(game: Game) -> HandResult:
    """Play the current hand out, each seat playing its lowest legal card."""
    hand = game.hand_number
    while not game.is_over and game.hand_number == hand:
        assert game.phase == "play", game.phase
        game.apply(game.legal_actions()[0])
    return game.hands_played[-1]


def play_hand(game: Game, bids: Mapping[int, str | Action],
              trump: str | None = None) -> HandResult:
    """Bid, name trump when asked, and play the hand out with the lowest legal cards."""
    bid_all(game, bids)
    if game.phase == "trump":
        assert trump is not None, "this hand needs a trump choice"
        game.apply(trump)
    return play_lowest(game)


def snapshot(game: Game) -> tuple[str, tuple[object, ...], tuple[object, ...]]:
    """Everything observable about a game: its record, every seat's view, and the
    state behind them."""
    views = tuple(game.view(seat) for seat in range(game.n))
    state = (game.phase, game.to_move, tuple(game.scores), tuple(game.history),
             tuple(game.hands), tuple(game.bids), tuple(game.hands_played))
    return json.dumps(game.record(), sort_keys=True), views, state


def assert_refused(game: Game, action: str | Action, message: str,
                   seat: int | None = None) -> None:
    """``apply`` raises IllegalAction whose message contains ``message``, and the game
    is exactly as it was."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as caught:
        game.apply(action, seat=seat)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert snapshot(game) == before


def random_move(game: Game, rng: random.Random) -> tuple[Action, int | None]:
    """A random legal move: usually the seat to move, sometimes a bid change by the
    seat allowed one (Potomac)."""
    others = [s for s in range(game.n) if s != game.to_move and game.legal_actions(s)]
    if others and rng.random() < 0.2:
        seat = rng.choice(others)
        return rng.choice(game.legal_actions(seat)), seat
    return rng.choice(game.legal_actions()), None


def play_randomly(game: Game, rng: random.Random,
                  each_step: Callable[[Game], None] | None = None) -> Game:
    """Play random legal moves to the end of the game."""
    while not game.is_over:
        action, seat = random_move(game, rng)
        game.apply(action, seat=seat)
        if each_step is not None:
            each_step(game)
    return game


def names(players: int) -> list[str]:
    return [f"p{i}" for i in range(players)]
