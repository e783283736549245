"""Who wins a trick: highest trump, else highest card of the suit led; nothing else counts."""

import pytest

from blackout.core.cards import Card, Suit
from blackout.core.game import trick_winner


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


@pytest.mark.parametrize(
    ("leader", "played", "trump", "winner"),
    [
        (0, "2H 2C", None, 0),  # at no trump a club discard never wins (every suit, not just one)
        (0, "2H 2D", None, 0),
        (0, "2H 2S", None, 0),
        (0, "2H 2C", Suit.CLUBS, 1),
        (1, "2H AH 3S", Suit.SPADES, 0),  # seat 0 played the third card, the only trump
        (1, "2H AH 3S", None, 2),
        (2, "KD AD 2D 10D", Suit.HEARTS, 3),
        (0, "5S 2S AS KS", Suit.SPADES, 2),
        (0, "5C 2S 3S 4H", Suit.SPADES, 2),  # highest of several trumps
    ],
)
def test_trick_winner(leader: int, played: str, trump: Suit | None, winner: int) -> None:
    hand = cards(played)
    assert trick_winner(leader, hand, trump, len(hand)) == winner
