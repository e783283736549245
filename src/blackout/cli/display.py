"""Drawing cards, hands, moves and score sheets with ``rich`` (shared by play and replay).

Functions return ``rich`` markup strings or renderables; colour is dropped by ``rich``
when the output is not a terminal.

>>> from blackout.core.cards import Card, mask_of
>>> card_text(Card.parse("10H"))
'[red]10♥[/red]'
>>> hand_text(mask_of(["AS", "2S", "KH", "3C"]))
'♠ A 2   [red]♥ K[/red]   ♣ 3'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table

from blackout.core.actions import Bid, BidAction
from blackout.core.cards import RANK_NAMES, SUIT_MASKS, Card, Suit, cards_in
from blackout.core.events import BidChanged, BidMade, CardPlayed, TrumpNamed
from blackout.core.view import HandResult

__all__ = ["Deed", "bid_text", "card_text", "deed_text", "display_sorted", "hand_text",
           "score_table", "total_bid", "trump_short", "trump_text", "verb"]

#: The events that are something a player did.
Deed = BidMade | BidChanged | TrumpNamed | CardPlayed

#: Suits as shown, black and red alternating.
DISPLAY_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_RED = (Suit.HEARTS, Suit.DIAMONDS)


def _coloured(suit: Suit, text: str) -> str:
    return f"[red]{text}[/red]" if suit in _RED else text


def card_text(card: Card) -> str:
    return _coloured(card.suit, RANK_NAMES[card.rank_index] + card.suit.symbol)


def hand_text(mask: int) -> str:
    """A hand grouped by suit, high cards first: ``♠ A 2   ♥ K``."""
    groups = []
    for suit in DISPLAY_ORDER:
        ranks = [RANK_NAMES[c.rank_index] for c in sorted(cards_in(mask & SUIT_MASKS[suit]),
                                                           reverse=True)]
        if ranks:
            groups.append(_coloured(suit, f"{suit.symbol} {' '.join(ranks)}"))
    return "   ".join(groups) if groups else "(no cards)"


def trump_text(trump: Suit | None) -> str:
    return "no trump" if trump is None else _coloured(trump, f"{trump.symbol} {trump.plural}")


def bid_text(bid: BidAction | None) -> str:
    return "-" if bid is None else str(bid)


def verb(player: str, base: str) -> str:
    """``"bob bids"`` but ``"you bid"``."""
    return f"{player} {base}" if player.lower() == "you" else f"{player} {base}s"


def deed_text(player: str, event: Deed) -> str:
    """``"bob bids 2"``, ``"bob changes the bid to 3"``, ``"bob plays A♠"``,
    ``"bob names ♥ hearts trump"``."""
    if isinstance(event, CardPlayed):
        return f"{verb(player, 'play')} {card_text(event.card)}"
    if isinstance(event, TrumpNamed):
        return f"{verb(player, 'name')} {trump_text(event.trump)}" + (
            " trump" if event.trump is not None else "")
    if isinstance(event, BidChanged):
        return f"{verb(player, 'change')} the bid to {event.bid}"
    return f"{verb(player, 'bid')} {event.bid}"


def score_table(players: Sequence[str], rows: Sequence[HandResult],
                declarer_column: bool = False, trump_column: bool = True) -> Table:
    """The score sheet: a row per hand with each player's ``bid/took points``, the totals
    underneath.  Fits 80 columns for up to seven short names; rich wraps wider sheets.
    ``trump_column=False`` for sheets that never learn the trump (a turned-up card)."""
    totals = rows[-1].totals if rows else (0,) * len(players)
    table = Table(title="Score sheet", caption="each player: bid/took points",
                  box=box.SIMPLE, padding=0, show_edge=False, show_footer=True)
    table.add_column("Hand", footer="Total")
    for heading in ("Cards", "Dealer", *(["Declarer"] if declarer_column else []),
                    *(["Trump"] if trump_column else [])):
        table.add_column(heading)
    for name, total in zip(players, totals, strict=True):
        table.add_column(name, footer=str(total), justify="right")
    for row in rows:
        left = [str(row.number), str(row.cards), players[row.dealer]]
        if declarer_column:
            left.append("" if row.declarer is None else players[row.declarer])
        if trump_column:
            left.append(trump_short(row.trump))
        cells = [f"{bid_text(b)}/{t} {p:+d}" for b, t, p in
                 zip(row.bids, row.tricks, row.points, strict=True)]
        table.add_row(*left, *cells)
    return table


def trump_short(trump: Suit | None) -> str:
    """``♥`` or ``NT``, for narrow columns."""
    return "NT" if trump is None else _coloured(trump, trump.symbol)


def display_sorted(cards: Sequence[Card]) -> list[Card]:
    """Cards in the order :func:`hand_text` shows them: by suit as displayed, high first."""
    return sorted(cards, key=lambda c: (DISPLAY_ORDER.index(c.suit), -c.rank_index))


def total_bid(bids: Sequence[BidAction | None]) -> int:
    return sum(b.tricks for b in bids if isinstance(b, Bid))

