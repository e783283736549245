"""Who leads, what the hook forbids, who declares: the table's procedure as pure functions.

The game engine calls these, and so do the computer players when they imagine how a
hand would go on, so a rule changed here changes both.

>>> from blackout.core.rules import variant
>>> hooked_bid(variant("pbmserv"), cards=5, others=3, last=True)
2
>>> first_leader(variant("potomac"), dealer=2, bidding_order=(2, 3, 0, 1), players=4)
2
>>> from blackout.core.actions import BIDS
>>> declarer_seat([BIDS[3], BIDS[4], BIDS[4]], bid_order=[2, 1, 0])
2
"""

from __future__ import annotations

from collections.abc import Sequence

from blackout.core.actions import Bid, BidAction
from blackout.core.rules import Rules

__all__ = ["declarer_seat", "first_leader", "hooked_bid"]


def hooked_bid(rules: Rules, cards: int, others: int, last: bool) -> int | None:
    """The bid the hook forbids: for the ``last`` bidder, the one that would make the
    bids total ``cards`` when the earlier bids add up to ``others``; ``None`` when the
    rules have no hook, the bidder is not last, or no legal bid would do it."""
    if not rules.hook or not last:
        return None
    hooked = cards - others
    return hooked if 0 <= hooked <= cards else None


def first_leader(rules: Rules, dealer: int, bidding_order: Sequence[int], players: int) -> int:
    """The seat that leads the first trick of a hand."""
    if rules.leader == "dealer":
        return dealer
    if rules.leader == "first_bidder":
        return bidding_order[0]
    return (dealer + 1) % players


def declarer_seat(bids: Sequence[BidAction | None], bid_order: Sequence[int]) -> int:
    """Potomac's declarer: the highest bid; on a tie, the player who made that bid
    first.  ``bid_order`` lists the seats by when they made their current bid, earliest
    first."""
    when = {seat: position for position, seat in enumerate(bid_order)}

    def key(seat: int) -> tuple[int, int]:
        bid = bids[seat]
        return (bid.tricks if isinstance(bid, Bid) else -1, -when.get(seat, len(when)))

    return max(range(len(bids)), key=key)
