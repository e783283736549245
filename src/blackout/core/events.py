"""What happens in a game, as small immutable events.

:meth:`Game.apply <blackout.core.game.Game.apply>` returns the events its move caused,
in order, and :meth:`Game.opening_events <blackout.core.game.Game.opening_events>` the
ones that started the game (the first hand's deal).  Every event is public by
construction: it holds only what every seat and every spectator may know (a card is in
an event only once it is played), so a front end may forward events to anyone.

===================  ================================================================
event                when
===================  ================================================================
:class:`HandDealt`   a hand is dealt (public part only: sizes, dealer, turn-up, trump)
:class:`BidMade`     a seat bids in turn
:class:`BidChanged`  a seat changes its bid (Potomac, out of turn)
:class:`TrumpNamed`  the declarer names trump (or no trump)
:class:`CardPlayed`  a card is played (``auto``: pbmserv's blind hand playing itself)
:class:`TrickTaken`  the last card of a trick is played: who led, the cards, who won
:class:`HandScored`  the last trick of a hand is taken: the score sheet row
:class:`GameOver`    the game ends: final scores and winners
===================  ================================================================

A card that ends a hand gives ``CardPlayed, TrickTaken, HandScored`` followed by the
next hand's ``HandDealt`` or by ``GameOver``.

>>> from blackout.core.game import Deal, Game
>>> from blackout.core.rules import variant
>>> rules = variant("standard", schedule=[1], last_hand_no_trump=False)
>>> game = Game.new(rules, ["ann", "bob"],
...                 deals=[Deal(hands=[["AS"], ["KS"]], turn_up="2D", dealer=1)])
>>> game.opening_events()  # doctest: +NORMALIZE_WHITESPACE
(HandDealt(hand_number=1, cards=1, dealer=1, turn_up=Card('2D'), trump=Suit.DIAMONDS,
           trump_decided=True),)
>>> game.apply("1"), game.apply("1")
((BidMade(seat=0, bid=Bid(1)),), (BidMade(seat=1, bid=Bid(1)),))
>>> game.apply("AS")
(CardPlayed(seat=0, card=Card('AS'), auto=False),)
>>> [type(e).__name__ for e in game.apply("KS")]
['CardPlayed', 'TrickTaken', 'HandScored', 'GameOver']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from blackout.core.actions import BIDS, BidAction
from blackout.core.cards import CARDS, Card, Suit

if TYPE_CHECKING:
    from blackout.core.view import HandResult

__all__ = [
    "BidChanged",
    "BidMade",
    "CardPlayed",
    "Event",
    "GameOver",
    "HandDealt",
    "HandScored",
    "Prebuilt",
    "TrickTaken",
    "TrumpNamed",
    "prebuilt",
]


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A hand was dealt: ``cards`` each, by ``dealer``, with the ``turn_up`` card shown.

    ``trump`` is the hand's trump suit, ``None`` for no trump; while the declarer has
    still to name it (Potomac) ``trump_decided`` is False and ``trump`` is ``None``.
    The hands themselves are never in the event.
    """

    hand_number: int
    cards: int
    dealer: int
    turn_up: Card | None
    trump: Suit | None
    trump_decided: bool = True


@dataclass(frozen=True, slots=True)
class BidMade:
    """``seat`` bid ``bid`` in turn."""

    seat: int
    bid: BidAction


@dataclass(frozen=True, slots=True)
class BidChanged:
    """``seat`` changed its bid from ``previous`` to ``bid`` (out of turn, Potomac)."""

    seat: int
    bid: BidAction
    previous: BidAction


@dataclass(frozen=True, slots=True)
class TrumpNamed:
    """The declarer ``seat`` named ``trump`` (``None``: no trump)."""

    seat: int
    trump: Suit | None


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card``; ``auto`` when the rules played it (pbmserv's blind hand)."""

    seat: int
    card: Card
    auto: bool = False


class TrickTaken(NamedTuple):
    """A trick is complete: ``leader`` led, ``cards`` in play order, ``winner`` took it.

    The game keeps these as its finished tricks too (``view.tricks``; ``Trick`` is this
    class): a named tuple, so making one costs the engine as little as a tuple.
    """

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, position: int, players: int) -> int:
        """The seat that played the ``position``-th card of this trick."""
        return (self.leader + position) % players


@dataclass(frozen=True, slots=True)
class HandScored:
    """A hand is over; ``result`` is its score sheet row."""

    result: HandResult


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game is over: final ``scores`` by seat and the ``winners``' seats."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = HandDealt | BidMade | BidChanged | TrumpNamed | CardPlayed | TrickTaken | HandScored \
    | GameOver


class Prebuilt(NamedTuple):
    """The events of the commonest moves for one table size, built once and shared, so
    the engine's hot path allocates none: ``cards[seat][card]`` is the one-event tuple
    an ordinary play returns, ``bids[seat][tricks]`` the one a number bid returns."""

    cards: tuple[tuple[tuple[CardPlayed], ...], ...]
    bids: tuple[tuple[tuple[BidMade], ...], ...]


_PREBUILT: dict[int, Prebuilt] = {}


def prebuilt(players: int) -> Prebuilt:
    """The shared :class:`Prebuilt` events for a table of ``players`` seats."""
    table = _PREBUILT.get(players)
    if table is None:
        table = _PREBUILT[players] = Prebuilt(
            tuple(tuple((CardPlayed(seat, card),) for card in CARDS) for seat in range(players)),
            tuple(tuple((BidMade(seat, bid),) for bid in BIDS) for seat in range(players)))
    return table
