"""Actions and their notation: the one place where moves are parsed and printed.

Every decision a player makes is one small immutable action:

========================  ==================  ===========================
action                    notation            meaning
========================  ==================  ===========================
``Bid(7)``                ``7``               bid seven tricks
``NIL``                   ``nil``             partnership nil bid
``BOARD``                 ``board``           partnership board bid
``Play(Card.parse("AD"))``  ``AD``            play the ace of diamonds
``ChooseTrump(Suit.HEARTS)``  ``trump H``     declarer names hearts trump
``ChooseTrump(None)``     ``trump NT``        declarer names no trump
========================  ==================  ===========================

``str(action)`` always gives the notation back, and :func:`parse_action` reads it
(case-insensitive; ``TC`` for ``10C``; ``pass``/``nullo``/``zero`` for ``0``; ``nt``
or ``notrump`` for ``trump NT``).

>>> parse_action("10c"), parse_action("3"), parse_action("trump nt")
(Play(10C), Bid(3), ChooseTrump(NT))
>>> str(parse_action("trump hearts"))
'trump H'
"""

from __future__ import annotations

from dataclasses import dataclass

from blackout.core.cards import CARDS, Card, Suit, parse_suit

__all__ = [
    "BOARD",
    "NIL",
    "Action",
    "Bid",
    "BidAction",
    "Board",
    "ChooseTrump",
    "IllegalAction",
    "Nil",
    "Play",
    "parse_action",
]


class IllegalAction(ValueError):
    """An action that is not legal now, or text that is not an action at all.

    The message is meant for the player: ``"you must follow hearts"``.
    The game is unchanged when this is raised.
    """


@dataclass(frozen=True, slots=True)
class Bid:
    """A number bid: the tricks this player means to take (for partnership, toward the team)."""

    tricks: int

    def __str__(self) -> str:
        return str(self.tricks)

    def __repr__(self) -> str:
        return f"Bid({self.tricks})"


@dataclass(frozen=True, slots=True)
class Nil:
    """Partnership *nil*: this player alone will take no trick."""

    def __str__(self) -> str:
        return "nil"

    def __repr__(self) -> str:
        return "NIL"


@dataclass(frozen=True, slots=True)
class Board:
    """Partnership *board*: the team will take every trick."""

    def __str__(self) -> str:
        return "board"

    def __repr__(self) -> str:
        return "BOARD"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the current trick."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)

    def __repr__(self) -> str:
        return f"Play({self.card})"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The declarer names trump (``suit``) or no trump (``None``)."""

    suit: Suit | None

    def __str__(self) -> str:
        return "trump NT" if self.suit is None else f"trump {self.suit.letter}"

    def __repr__(self) -> str:
        return f"ChooseTrump({'NT' if self.suit is None else self.suit.letter})"


NIL = Nil()
BOARD = Board()
BidAction = Bid | Nil | Board
Action = Bid | Nil | Board | Play | ChooseTrump

#: Pre-built actions, so hot loops never allocate: ``PLAYS[card]``, ``BIDS[n]``.
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(53))
TRUMP_CHOICES: tuple[ChooseTrump, ...] = (*(ChooseTrump(s) for s in Suit), ChooseTrump(None))

_ZERO_WORDS = {"PASS", "NULLO", "NULLLO", "ZERO"}
_NO_TRUMP_WORDS = {"NT", "N", "NOTRUMP", "NOTRUMPS", "NO TRUMP", "NO TRUMPS", "NONE"}
_NOT_NOTATION = "{text!r} is not a move: bid a number (7), nil or board, play a card (AD, 10C), " \
    "or name trump (trump H, trump NT)"


#: Seed 004's words, for rules with ``pass_bid=False``.
NO_PASS = "it is not possible to pass, but you can bid zero (0)"


def parse_action(text: str, pass_bid: bool = True) -> Action:
    """Read one action from its notation; raise :class:`IllegalAction` if it is not one.
    ``pass_bid=False``: the word ``pass`` is refused (seed 004), not read as 0."""
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} is not a move")
    word = " ".join(text.split()).upper()
    if word == "PASS" and not pass_bid:
        raise IllegalAction(NO_PASS)
    if word.isascii() and word.isdigit():
        # ASCII only: str.isdigit() also accepts "²", which int() rejects.  The length
        # test comes first because int() refuses strings of thousands of digits.
        if len(word) > 2 or int(word) > 52:
            raise IllegalAction(f"{text!r} is not a possible bid")
        return BIDS[int(word)]
    if word in _ZERO_WORDS:
        return BIDS[0]
    if word == "NIL":
        return NIL
    if word == "BOARD":
        return BOARD
    if word == "TRUMP" or word.startswith("TRUMP "):
        return _parse_trump(text, word[5:].strip())
    try:
        return PLAYS[Card.parse(word)]
    except ValueError:
        raise IllegalAction(_NOT_NOTATION.format(text=text)) from None


def _parse_trump(text: str, rest: str) -> ChooseTrump:
    if rest in _NO_TRUMP_WORDS:
        return TRUMP_CHOICES[4]
    try:
        return TRUMP_CHOICES[parse_suit(rest)]
    except ValueError:
        raise IllegalAction(f"{text!r}: name a trump suit (trump C, D, H, S) or trump NT") from None
