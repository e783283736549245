"""Cards and their notation (seed 001: "Specify cards using their rank and suit
abbreviation": AD, 10C, KH, 2S)."""

import pickle

import pytest

from blackout import Card, Suit
from blackout.core.cards import (
    CARDS,
    FULL_DECK,
    SUIT_MASKS,
    cards_in,
    count,
    format_mask,
    mask_of,
    parse_suit,
)


@pytest.mark.parametrize(("text", "suit", "rank"), [
    ("AD", Suit.DIAMONDS, 14),
    ("10C", Suit.CLUBS, 10),
    ("KH", Suit.HEARTS, 13),
    ("2S", Suit.SPADES, 2),
    ("TC", Suit.CLUBS, 10),
    ("tc", Suit.CLUBS, 10),
    ("10c", Suit.CLUBS, 10),
    ("qh", Suit.HEARTS, 12),
    (" jS ", Suit.SPADES, 11),
    ("A♠", Suit.SPADES, 14),
    ("Q♥", Suit.HEARTS, 12),
    ("3♦", Suit.DIAMONDS, 3),
    ("4♣", Suit.CLUBS, 4),
    ("5♡", Suit.HEARTS, 5),
])
def test_parse_server_notation_and_friendly_forms(text: str, suit: Suit, rank: int) -> None:
    card = Card.parse(text)
    assert (card.suit, card.rank) == (suit, rank)


@pytest.mark.parametrize(("text", "printed"), [
    ("TC", "10C"), ("10c", "10C"), ("ad", "AD"), ("K♥", "KH"), ("2s", "2S"),
])
def test_str_prints_server_notation(text: str, printed: str) -> None:
    assert str(Card.parse(text)) == printed
    assert repr(Card.parse(text)) == f"Card({printed!r})"


def test_every_card_round_trips_through_its_notation() -> None:
    assert [Card.parse(str(card)) for card in CARDS] == list(range(52))
    assert len({str(card) for card in CARDS}) == 52


def test_card_index_is_suit_then_rank_clubs_lowest() -> None:
    assert Card.parse("2C") == 0
    assert Card.parse("AC") == 12
    assert Card.parse("2D") == 13
    assert Card.parse("AS") == 51
    assert Card.parse("AS") > Card.parse("KS") > Card.parse("AH")
    assert Card(5) is Card(5) is CARDS[5]
    assert pickle.loads(pickle.dumps(Card.parse("10H"))) is Card.parse("10H")


@pytest.mark.parametrize("text", ["", "A", "1C", "11C", "AX", "ZZ", "10", "A D", "♠A", "0S"])
def test_bad_card_text_is_a_clear_value_error(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a card \(cards look like AD, 10C, KH, 2S\)"):
        Card.parse(text)


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_card_index_out_of_range(index: int) -> None:
    with pytest.raises(ValueError, match=r"out of range 0\.\.51"):
        Card(index)


def test_suits() -> None:
    assert list(Suit) == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert Suit.HEARTS.plural == "hearts"
    assert str(Suit.SPADES) == "S"
    assert parse_suit("h") is Suit.HEARTS
    assert parse_suit("Spades") is Suit.SPADES
    assert parse_suit("club") is Suit.CLUBS
    assert parse_suit("♦") is Suit.DIAMONDS
    with pytest.raises(ValueError, match="is not a suit"):
        parse_suit("X")


def test_masks() -> None:
    hand = mask_of(["AS", "2S", "KH", 0])
    assert count(hand) == 4
    assert [str(c) for c in cards_in(hand)] == ["2C", "KH", "2S", "AS"]
    assert format_mask(hand) == "2C KH AS 2S"
    assert SUIT_MASKS[Suit.HEARTS] & hand == Card.parse("KH").mask
    assert count(FULL_DECK) == 52
    assert sum(SUIT_MASKS) == FULL_DECK
    assert mask_of([]) == 0


def test_mask_of_refuses_a_card_listed_twice_or_bad_text() -> None:
    with pytest.raises(ValueError, match="AS is listed twice"):
        mask_of(["AS", "as"])
    with pytest.raises(ValueError, match="is not a card"):
        mask_of(["AS", "XX"])
