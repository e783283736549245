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

from rich.table import Table

from blackout.core.actions import Action, Bid, BidAction, ChooseTrump, Play
from blackout.core.cards import RANK_NAMES, SUIT_MASKS, Card, Suit, cards_in
from blackout.core.view import HandResult

__all__ = ["bid_text", "card_text", "hand_text", "move_text", "score_table",
           "total_bid", "trump_text", "verb"]

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


def move_text(player: str, action: Action, changed: bool = False) -> str:
    """``"bob bids 2"``, ``"bob plays A♠"``, ``"bob names ♥ hearts trump"``."""
    if isinstance(action, Play):
        return f"{verb(player, 'play')} {card_text(action.card)}"
    if isinstance(action, ChooseTrump):
        return f"{verb(player, 'name')} {trump_text(action.suit)}" + (
            " trump" if action.suit is not None else "")
    if changed:
        return f"{verb(player, 'change')} the bid to {action}"
    return f"{verb(player, 'bid')} {action}"


def score_table(players: Sequence[str], rows: Sequence[HandResult],
                declarer_column: bool = False) -> Table:
    """The score sheet: per hand and player ``bid/took points total``."""
    table = Table(title="Score sheet", show_lines=False)
    for heading in ("Hand", "Cards", "Dealer", *(["Declarer"] if declarer_column else []),
                    "Trump"):
        table.add_column(heading)
    for name in players:
        table.add_column(f"{name}\nbid/took pts total", justify="right")
    for row in rows:
        left = [str(row.number), str(row.cards), players[row.dealer]]
        if declarer_column:
            left.append("" if row.declarer is None else players[row.declarer])
        left.append(trump_text(row.trump))
        cells = [f"{bid_text(b)}/{t} {p:+d} {total}" for b, t, p, total in
                 zip(row.bids, row.tricks, row.points, row.totals, strict=True)]
        table.add_row(*left, *cells)
    return table


def total_bid(bids: Sequence[BidAction | None]) -> int:
    return sum(b.tricks for b in bids if isinstance(b, Bid))

