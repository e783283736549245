"""Action notation: bids, nil, board, cards and trump choices, parsed and printed."""

import pytest

from blackout import BOARD, NIL, Bid, Card, ChooseTrump, IllegalAction, Play, Suit, parse_action


@pytest.mark.parametrize(("text", "action"), [
    ("0", Bid(0)),
    ("7", Bid(7)),
    (" 13 ", Bid(13)),
    ("52", Bid(52)),
    ("pass", Bid(0)),        # seed 002: 'He may also bid zero or say "pass"'
    ("nullo", Bid(0)),       # seed 003: 'they bid "nulllo"'
    ("NULLLO", Bid(0)),      # ... spelt with three l's in the seed
    ("zero", Bid(0)),
    ("nil", NIL),
    ("Board", BOARD),
    ("AD", Play(Card.parse("AD"))),
    ("10C", Play(Card.parse("10C"))),
    ("tc", Play(Card.parse("10C"))),
    ("K♥", Play(Card.parse("KH"))),
    ("trump H", ChooseTrump(Suit.HEARTS)),
    ("trump hearts", ChooseTrump(Suit.HEARTS)),
    ("TRUMP  s", ChooseTrump(Suit.SPADES)),
    ("trump NT", ChooseTrump(None)),
    ("trump no trumps", ChooseTrump(None)),
    ("trump notrump", ChooseTrump(None)),
])
def test_parse(text: str, action: object) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(("action", "notation"), [
    (Bid(0), "0"), (Bid(12), "12"), (NIL, "nil"), (BOARD, "board"),
    (Play(Card.parse("AD")), "AD"), (Play(Card.parse("TC")), "10C"),
    (ChooseTrump(Suit.CLUBS), "trump C"), (ChooseTrump(None), "trump NT"),
])
def test_str_is_the_notation_and_parses_back(action: object, notation: str) -> None:
    assert str(action) == notation
    assert parse_action(notation) == action


@pytest.mark.parametrize("text", ["", "   ", "hello", "53", "-1", "1.5", "A", "bid 3", "11C",
                                  "²", "٣", "9" * 5000])
def test_text_that_is_not_a_move_is_illegal_action(text: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_action(text)
    message = str(caught.value)
    assert "\n" not in message
    assert "is not a" in message


def test_bad_trump_name_says_how_to_name_trump() -> None:
    with pytest.raises(IllegalAction, match=r"name a trump suit \(trump C, D, H, S\) or trump NT"):
        parse_action("trump purple")


def test_non_text_is_refused() -> None:
    with pytest.raises(IllegalAction, match="is not a move"):
        parse_action(7)  # type: ignore[arg-type]


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)
