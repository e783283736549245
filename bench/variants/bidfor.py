"""The shipped expert guessing every bid still to come by basic's rule
(:func:`blackout.bots.basic.bid_for`: the bid with the best average points for the
hand's trick distribution), not only the bids of players it takes for basic bots;
the rounded hand estimate (``expert._guess_bid``) only where that rule does not apply
(partnership, trump not yet named)."""

from typing import Any

from _swap import swapped

from blackout.bots import expert
from blackout.bots.basic import bid_for
from blackout.bots.playout import NO_TRUMP
from blackout.core.actions import BIDS, Bid
from blackout.core.cards import Suit

_shipped = expert._guess_bid


def _guess(view: Any, seat: int, hand: int, trump: int | None, bids: list[Any],
           last: bool) -> Any:
    if view.rules.teams or trump is None:
        return _shipped(view, seat, hand, trump, bids, last)
    others = sum(b.tricks for b in bids if isinstance(b, Bid))
    suit = None if trump == NO_TRUMP else Suit(trump)
    return BIDS[bid_for(view, seat, hand, suit, others)]


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(expert, _guess_bid=_guess):
            return super()._search(view, also)
