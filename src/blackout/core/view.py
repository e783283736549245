"""What one seat may know: the observation a player (or a bot) decides from.

A :class:`View` is an immutable snapshot.  It holds the seat's own hand, never an
opponent's unplayed cards (except pbmserv's blind first hand, where a seat sees every
hand but its own), plus everything public: bids, trump, the turned-up card, the cards
played so far, tricks taken and scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from blackout.core.actions import Action, BidAction
from blackout.core.cards import SUIT_MASKS, Card, Suit, cards_in
from blackout.core.events import TrickTaken
from blackout.core.procedure import first_leader
from blackout.core.rules import Rules

__all__ = ["HandResult", "Phase", "PlayMade", "Trick", "View", "trick_winner",
           "trick_winner_position"]


class Phase(StrEnum):
    """Whose decision of what kind the game waits for.  A ``StrEnum``: each member
    equals its value, so ``view.phase == "bid"`` still holds."""

    BID = "bid"
    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"


def trick_winner_position(cards: Sequence[int], trump: int) -> int:
    """The position (0 = the lead) of the card that wins a trick: the highest trump, else
    the highest card of the suit led.  ``trump`` is a suit number, or -1 for no trump."""
    best = cards[0]
    best_pos = 0
    for pos in range(1, len(cards)):
        card = cards[pos]
        if card // 13 == best // 13:
            if card > best:
                best, best_pos = card, pos
        elif card // 13 == trump:
            best, best_pos = card, pos
    return best_pos


def trick_winner(leader: int, cards: Sequence[int], trump: Suit | None, players: int) -> int:
    """The seat that wins a trick led by ``leader`` (so far, for an unfinished trick)."""
    position = trick_winner_position(cards, -1 if trump is None else int(trump))
    return (leader + position) % players



#: A finished trick (who led, the cards in play order, who won) is the event that took it.
Trick = TrickTaken


class PlayMade(NamedTuple):
    """A card played this hand, with what everyone had seen when it was played: how a
    bot judges a hidden player's choice."""

    seat: int
    card: Card
    trick: tuple[Card, ...]  # the cards before it in its trick
    won: int  # the tricks the seat had taken before it
    unplayed: int  # mask of the cards not played before it (the turned-up card included)
    last: bool  # the last card of its trick


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand, as a score sheet row.

    ``bids`` holds ``None`` for a partnership player who was skipped; ``totals`` are the
    running scores after this hand; ``extra`` marks a tie-break hand.
    """

    number: int
    cards: int
    dealer: int
    declarer: int | None
    trump: Suit | None
    turn_up: Card | None
    bids: tuple[BidAction | None, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    made: tuple[bool, ...]
    extra: bool = False


@dataclass(frozen=True, slots=True)
class View:
    """Everything seat ``seat`` may know now, and nothing more; with ``seat`` None,
    what a spectator may know (every hand hidden, no legal actions).

    ``hands[s]`` is a bit mask of seat ``s``'s unplayed cards when this seat may see
    them, else ``None``: normally only ``hands[seat]`` is known; in pbmserv's blind
    first hand it is the other way round.  ``trick`` is the trick in progress as
    ``(seat, card)`` pairs, ``tricks`` the finished tricks of this hand.
    ``legal_actions`` is what this seat may do now (empty when it has nothing to do).
    ``hooked_bid`` is the bid the hook forbids the seat to move and the rules' sentence
    why; ``changeable`` the seat that may still change its bid (Potomac);
    ``winners`` the winning seats once the game is over.
    """

    rules: Rules
    seat: int | None
    players: tuple[str, ...]
    phase: Phase
    hand_number: int
    cards_dealt: int
    dealer: int
    to_move: int | None
    hands: tuple[int | None, ...]
    bids: tuple[BidAction | None, ...]
    bidding_order: tuple[int, ...]
    turn_up: Card | None
    trump: Suit | None
    trump_decided: bool
    declarer: int | None
    leader: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    hands_played: tuple[HandResult, ...]
    legal_actions: tuple[Action, ...]
    blind: bool = False
    hooked_bid: tuple[int, str] | None = None
    changeable: int | None = None
    winners: tuple[int, ...] = ()

    @property
    def own_seat(self) -> int:
        """The seat this view belongs to: what a player's code reads where it needs a
        seat (``ValueError`` for a spectator's view, which belongs to none)."""
        if self.seat is None:
            raise ValueError("a spectator's view belongs to no seat")
        return self.seat

    @property
    def hand(self) -> int:
        """This seat's own cards as a mask (0 when it cannot see them: the blind hand,
        or a spectator's view)."""
        return 0 if self.seat is None else self.hands[self.seat] or 0

    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat still holds: public, whoever may see the cards."""
        played = [0] * len(self.players)
        for trick in self.tricks:
            for position in range(len(trick.cards)):
                played[trick.seat_of(position, len(self.players))] += 1
        for seat, _ in self.trick:
            played[seat] += 1
        if self.phase == Phase.OVER:
            return tuple(0 for _ in self.players)
        return tuple(self.cards_dealt - p for p in played)

    def winning(self) -> int | None:
        """The seat winning the trick in progress so far (None before its first card)."""
        if not self.trick:
            return None
        return trick_winner(self.trick[0][0], [c for _, c in self.trick], self.trump,
                            len(self.players))

    @property
    def my_cards(self) -> list[Card]:
        return list(cards_in(self.hand))

    @property
    def players_count(self) -> int:
        return len(self.players)

    @property
    def first_leader(self) -> int:
        """The seat that leads (or will lead) this hand's first trick, by the rules'
        procedure: what a player imagining the hand needs before any card is led."""
        return first_leader(self.rules, self.dealer, self.bidding_order, len(self.players))

    @property
    def turn_up_mask(self) -> int:
        """The turned-up card's mask (0: none): a card every player has seen."""
        return 0 if self.turn_up is None else 1 << self.turn_up

    @property
    def played(self) -> int:
        """Mask of every card played this hand, finished tricks and the current one."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for _, card in self.trick:
            mask |= 1 << card
        return mask

    def played_by(self) -> list[int]:
        """For each seat, the mask of the cards it has played this hand."""
        n = len(self.players)
        played = [0] * n
        for trick in self.tricks:
            for position, card in enumerate(trick.cards):
                played[trick.seat_of(position, n)] |= 1 << card
        for seat, card in self.trick:
            played[seat] |= 1 << card
        return played

    def plays_made(self) -> list[PlayMade]:
        """Every card played this hand, in order, each with what had been seen then."""
        n = len(self.players)
        won = [0] * n
        unplayed = (1 << 52) - 1
        made = []
        tricks = [(t.leader, t.cards, t.winner) for t in self.tricks]
        if self.trick:
            tricks.append((self.trick[0][0], tuple(c for _, c in self.trick), -1))
        for leader, cards, winner in tricks:
            for position, card in enumerate(cards):
                seat = (leader + position) % n
                made.append(PlayMade(seat, card, cards[:position], won[seat], unplayed,
                                     position == n - 1))
                unplayed &= ~(1 << card)
            if winner >= 0:
                won[winner] += 1
        return made

    def voids(self) -> tuple[frozenset[Suit], ...]:
        """For each seat, the suits it has shown it holds none of (failed to follow)."""
        shown: list[set[Suit]] = [set() for _ in self.players]
        for made in self.plays_made():
            if made.trick and made.card.suit != made.trick[0].suit:
                shown[made.seat].add(made.trick[0].suit)
        return tuple(frozenset(s) for s in shown)

    def unseen(self) -> int:
        """Mask of the cards this seat has not seen: neither in a visible hand, played,
        nor the turned-up card.  Hidden hands are drawn from these."""
        mask = (1 << 52) - 1
        for hand in self.hands:
            if hand is not None:
                mask &= ~hand
        return mask & ~self.played & ~self.turn_up_mask

    def suit_count(self, suit: Suit) -> int:
        return (self.hand & SUIT_MASKS[suit]).bit_count()
