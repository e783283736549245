"""Cards, suits and hands as bit masks.

A card is an integer 0..51: ``suit * 13 + rank_index`` where suits are ordered
clubs < diamonds < hearts < spades (the order seed 002 uses to break ties in the
draw for first dealer) and ``rank_index`` 0 is the two and 12 the ace.  A hand is
an ``int`` bit mask with bit ``card`` set for every card held, so following suit,
counting and removing cards are single integer operations.

Notation is the play-by-email server's: rank then suit letter, ``AD``, ``10C``,
``KH``, ``2S``.  Parsing also accepts ``T`` for ten, lower case and the suit
symbols; formatting always prints ``10C``.

>>> card = Card.parse("10c")
>>> card, card.suit, card.rank
(Card('10C'), Suit.CLUBS, 10)
>>> str(Card.parse("TC"))
'10C'
>>> format_mask(mask_of(["AS", "2S", "KH"]))
'KH AS 2S'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from enum import IntEnum
from typing import ClassVar, TypeVar

__all__ = [
    "CARDS",
    "FULL_DECK",
    "RANK_NAMES",
    "SUIT_MASKS",
    "Card",
    "Suit",
    "cards_in",
    "count",
    "format_mask",
    "mask_of",
    "parse_suit",
    "suit_tables",
]


class Suit(IntEnum):
    """The four suits, in the order clubs < diamonds < hearts < spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def plural(self) -> str:
        """The suit's name as players say it: ``"hearts"``."""
        return self.name.lower()

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SUIT_BY_TEXT = {
    **{s.letter: s for s in Suit},
    **{s.symbol: s for s in Suit},
    **{s.plural.upper(): s for s in Suit},
    **{s.plural.upper()[:-1]: s for s in Suit},
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
}


def parse_suit(text: str) -> Suit:
    """Parse a suit letter, symbol or name (``"H"``, ``"♥"``, ``"hearts"``).

    >>> parse_suit("h"), parse_suit("Spades")
    (Suit.HEARTS, Suit.SPADES)
    """
    try:
        return _SUIT_BY_TEXT[text.strip().upper()]
    except KeyError:
        raise ValueError(f"{text!r} is not a suit (use C, D, H or S)") from None


#: Rank names indexed by rank index: ``RANK_NAMES[0] == "2"``, ``RANK_NAMES[12] == "A"``.
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_BY_TEXT = {name: i for i, name in enumerate(RANK_NAMES)} | {"T": 8}


class Card(int):
    """One of the 52 cards; an ``int`` 0..51 that prints in server notation.

    Instances are cached, so ``Card(5) is Card(5)``; use :meth:`parse` for text.

    >>> Card.parse("AS") > Card.parse("KS") > Card.parse("AH")
    True
    """

    __slots__ = ()
    _cache: ClassVar[list[Card]] = []

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index {index} is out of range 0..51")
        if cls._cache:
            return cls._cache[index]
        return super().__new__(cls, index)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"AD"``, ``"10C"``, ``"tc"``, ``"Q♥"``; raise ``ValueError`` otherwise."""
        raw = text.strip().upper()
        if len(raw) < 2:
            raise ValueError(f"{text!r} is not a card (cards look like AD, 10C, KH, 2S)")
        rank = _RANK_BY_TEXT.get(raw[:-1])
        suit = _SUIT_BY_TEXT.get(raw[-1])
        if rank is None or suit is None:
            raise ValueError(f"{text!r} is not a card (cards look like AD, 10C, KH, 2S)")
        return CARDS[suit * 13 + rank]

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank_index(self) -> int:
        """0 for the two up to 12 for the ace."""
        return self % 13

    @property
    def rank(self) -> int:
        """The face value, 2..14 (jack 11, queen 12, king 13, ace 14)."""
        return self % 13 + 2

    @property
    def mask(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANK_NAMES[self % 13] + "CDHS"[self // 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
Card._cache = list(CARDS)

#: Bit mask of every card of a suit, indexed by suit.
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_DECK: int = (1 << 52) - 1


def mask_of(cards: Iterable[int | str]) -> int:
    """The bit mask of some cards given as :class:`Card`, index or notation.

    Raises ``ValueError`` on bad notation or a card listed twice.
    """
    mask = 0
    for item in cards:
        card = Card.parse(item) if isinstance(item, str) else CARDS[item]
        if mask >> card & 1:
            raise ValueError(f"{card} is listed twice")
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a mask, lowest index first (clubs 2 up to the spade ace)."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def count(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


def format_mask(mask: int) -> str:
    """Cards of a mask as text, grouped by suit (clubs, diamonds, hearts, spades), high first."""
    return " ".join(str(c) for c in sorted(cards_in(mask), key=lambda c: (c.suit, -c)))


T = TypeVar("T")


def suit_tables(item: Callable[[int], T]) -> tuple[tuple[tuple[T, ...], ...], ...]:
    """For each suit, ``item(card)`` for the cards of every 13-bit set of that suit's
    cards, lowest card first: ``tables[suit][bits]``.  Hot loops read a hand's cards
    from these four tables instead of walking its bits.

    >>> clubs = suit_tables(str)[Suit.CLUBS]
    >>> clubs[0b1000000000101]
    ('2C', '4C', 'AC')
    """
    tables = []
    for suit in range(4):
        table: list[tuple[T, ...]] = [()] * 8192
        for bits in range(1, 8192):
            high = bits.bit_length() - 1
            table[bits] = (*table[bits ^ (1 << high)], item(CARDS[13 * suit + high]))
        tables.append(tuple(table))
    return tuple(tables)
