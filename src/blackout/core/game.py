"""The game: dealing, bidding, naming trump, playing tricks and scoring, hand after hand.

A :class:`Game` is a state machine.  ``to_move`` says whose decision it is,
``legal_actions()`` lists it, ``apply(action)`` makes it.  Chance (the shuffle, the
draw for first dealer, seating, a tie-breaking coin flip) comes from the game's seed,
or from prearranged :class:`Deal` values, so a game is fully reproduced by its rules,
players, seed or deals and its list of decisions: see :meth:`Game.record`.

>>> from blackout.core.rules import variant
>>> game = Game.new(variant("standard", schedule=[2]), ["ann", "bob", "cy"], deals=[
...     Deal(hands=[["AS", "2H"], ["KS", "3H"], ["QS", "4H"]], turn_up="5D", dealer=2)])
>>> game.to_move, [str(a) for a in game.legal_actions()]
(0, ['0', '1', '2'])
>>> events = [event for move in ["1", "1", "0", "AS", "KS", "QS", "2H", "3H"]
...           for event in game.apply(move)]
>>> [type(event).__name__ for event in game.apply("4H")]
['CardPlayed', 'TrickTaken', 'HandScored', 'GameOver']
>>> game.is_over, game.scores, game.winners
(True, [7, 0, 0], [0])

``apply`` returns the events the move caused (see :mod:`blackout.core.events`);
:meth:`Game.opening_events` gives the first hand's deal.
"""

from __future__ import annotations

import random
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from blackout.core import procedure
from blackout.core.actions import (
    BIDS,
    BOARD,
    NIL,
    PLAYS,
    TRUMP_CHOICES,
    Action,
    Bid,
    BidAction,
    Board,
    ChooseTrump,
    IllegalAction,
    Nil,
    Play,
    parse_action,
)
from blackout.core.cards import CARDS, SUIT_MASKS, Card, Suit, cards_in, mask_of, suit_tables
from blackout.core.events import (
    BidChanged,
    BidMade,
    CardPlayed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    TrumpNamed,
    prebuilt,
)
from blackout.core.procedure import declarer_seat, first_leader
from blackout.core.rules import Rules
from blackout.core.scoring import hand_points, made_bid
from blackout.core.view import (
    HandResult,
    Phase,
    Trick,
    View,
    trick_winner,
    trick_winner_position,
)

__all__ = ["BIDDING", "CHOOSING_TRUMP", "GAME_OVER", "PLAYING", "Deal", "Game", "Move", "Phase",
           "beats", "hook_refusal", "playable", "trick_winner", "trick_winner_position"]

#: The phases under their older names.
BIDDING, CHOOSING_TRUMP, PLAYING, GAME_OVER = Phase.BID, Phase.TRUMP, Phase.PLAY, Phase.OVER
Events = tuple[Event, ...]


@dataclass(frozen=True)
class Deal:
    """A prearranged deal: ``hands`` in seat order, the ``turn_up`` card or ``None``,
    and optionally the ``dealer`` seat (else the deal passes on as usual).

    >>> Deal(hands=[["AS"], ["10h"]], turn_up="TC").to_dict()
    {'hands': [['AS'], ['10H']], 'turn_up': '10C', 'dealer': None}
    """

    hands: Sequence[Sequence[str | int]]
    turn_up: str | int | None = None
    dealer: int | None = None
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            masks = tuple(mask_of(hand) for hand in self.hands)
            turn = _card(self.turn_up) if self.turn_up is not None else None
        except (ValueError, IndexError, TypeError) as exc:
            raise ValueError(f"bad deal: {exc}") from None
        seen = 0
        for mask in masks:
            if seen & mask:
                raise ValueError(f"bad deal: {next(cards_in(seen & mask))} is dealt twice")
            seen |= mask
        if turn is not None and seen >> turn & 1:
            raise ValueError(f"bad deal: the turned-up card {turn} is also in a hand")
        if len({m.bit_count() for m in masks}) > 1:
            raise ValueError("bad deal: every hand must have the same number of cards")
        object.__setattr__(self, "masks", masks)
        object.__setattr__(self, "turn_up", turn)

    @property
    def size(self) -> int:
        return self.masks[0].bit_count() if self.masks else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [[str(c) for c in cards_in(m)] for m in self.masks],
            "turn_up": None if self.turn_up is None else str(self.turn_up),
            "dealer": self.dealer,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Deal:
        return Deal(hands=data["hands"], turn_up=data.get("turn_up"), dealer=data.get("dealer"))


def _card(item: str | int) -> Card:
    return Card.parse(item) if isinstance(item, str) else CARDS[item]


class Move(NamedTuple):
    """One entry of the game's history: who did what; ``auto`` marks a move the rules
    made by themselves (pbmserv's blind hand plays itself)."""

    seat: int
    action: Action
    auto: bool = False


_C, _D, _H, _S = _SUIT_PLAYS = suit_tables(PLAYS.__getitem__)


def plays_of(mask: int) -> list[Play]:
    """The :class:`Play` actions for the cards of a mask, lowest card first."""
    return [*_C[mask & 0x1FFF], *_D[mask >> 13 & 0x1FFF], *_H[mask >> 26 & 0x1FFF],
            *_S[mask >> 39]]


def _seeded(seed: int, purpose: str) -> random.Random:
    # A string seed is hashed the same way on every run and platform.
    return random.Random(f"blackout:{seed}:{purpose}")


def _shuffled_deck(rng: random.Random) -> list[int]:
    # Sorting by 52 random 64-bit keys is a uniform shuffle (a tie has odds of about
    # 1e-16) and several times faster than rng.shuffle: all 52 keys come from one call.
    keys = _KEYS.unpack(rng.getrandbits(52 * 64).to_bytes(52 * 8, "little"))
    return sorted(range(52), key=keys.__getitem__)


_KEYS = struct.Struct("<52Q")  # little-endian whatever the machine: the same deal everywhere


_BITS = tuple(1 << c for c in range(52))


def playable(hand: int, trick: Sequence[int]) -> int:
    """The cards of ``hand`` (a mask) that may be played to ``trick`` (its cards so
    far): those of the suit led if the hand holds any, else all of them."""
    if trick:
        follow = hand & SUIT_MASKS[trick[0] // 13]
        if follow:
            return follow
    return hand


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card``, played to a trick that ``best`` is winning, takes it over
    (``trump`` a suit number or -1): :func:`trick_winner_position` of the two."""
    return trick_winner_position((best, card), trump) == 1


def hook_refusal(dealer_bids: bool, bid: int, cards: int) -> str:
    """The rules' sentence for a bid the hook forbids."""
    role = "the dealer" if dealer_bids else "the last bidder"
    return f"{role} may not bid {bid}: bids would total {cards}"


class Game:
    """A game of Blackout in progress.  Create one with :meth:`new` or :meth:`replay`."""

    # -- creation ---------------------------------------------------------------------

    def __init__(self, rules: Rules, players: Sequence[str], seed: int,
                 deals: Sequence[Deal] = ()) -> None:
        self.rules = rules
        self.given_players = tuple(players)
        self.seed = seed
        self.deals = tuple(deals)
        n = len(self.given_players)
        rules.check_players(n)
        if len(set(self.given_players)) != n:
            raise ValueError("every player needs a different name")
        self.n = n
        self._sizes = rules.hand_sizes(n)
        self._largest = max(self._sizes)
        self._extra_hands = 0
        self._check_deals()
        seats = list(self.given_players)
        if not rules.inorder and not self.deals:
            _seeded(seed, "seats").shuffle(seats)
        self.players: tuple[str, ...] = tuple(seats)
        self.first_dealer_draw: tuple[Card, ...] | None = None
        self.scores: list[int] = [0] * n
        self.hands_played: list[HandResult] = []
        self._moves: list[tuple[int, Action, bool]] = []
        self.winners: list[int] = []
        self.is_over = False
        self._exact = [0] * n
        self._card_events, self._bid_events = prebuilt(n)
        #: What undo() needs to take back a hand's last card: the state at the end of
        #: each finished hand, newest first, as immutable linked tuples that copies share.
        self._finished: _Finished | None = None
        self._start_hand(0, self._first_dealer())
        # The first deal's public facts; opening_events() makes the event when asked.
        self._opening = self._deal_facts()

    @classmethod
    def new(cls, rules: Rules, players: Sequence[str], seed: int | None = None,
            deals: Sequence[Deal] | None = None) -> Game:
        """Start a game.  ``seed`` drives every shuffle (random when omitted; 0 when
        ``deals`` are given).  ``deals`` play prearranged cards for the first hands, with
        seats exactly as listed; hands after the given deals are dealt from the seed."""
        if seed is None:
            seed = 0 if deals else secrets.randbits(63)
        return cls(rules, players, seed, tuple(deals or ()))

    def _check_deals(self) -> None:
        for index, deal in enumerate(self.deals):
            if len(deal.masks) != self.n:
                raise ValueError(
                    f"deal {index + 1} has {len(deal.masks)} hands for {self.n} players")
            expected = self._expected_size(index)
            if expected is not None and deal.size != expected:
                raise ValueError(f"deal {index + 1} has {deal.size} cards a hand; "
                                 f"hand {index + 1} is played with {expected}")
            if deal.dealer is not None and not 0 <= deal.dealer < self.n:
                raise ValueError(f"deal {index + 1}: dealer {deal.dealer} is not a seat")

    def _expected_size(self, index: int) -> int | None:
        """Cards each player holds in hand ``index``, or None when that depends on play
        (a tie-break hand after a ``target`` score ended the schedule early)."""
        rules = self.rules
        if rules.schedule == "constant":
            return self._largest
        scheduled = min(len(self._sizes), rules.max_hands or len(self._sizes))
        if index < scheduled:
            return self._sizes[index]
        # Tie-break hands run 1, 2, 3... from the end of the schedule (see _size_of_hand).
        if rules.target is not None:
            return None
        return rules.extra_hand_size(self.n, index - scheduled + 1)

    def _first_dealer(self) -> int:
        if self.deals and self.deals[0].dealer is not None:
            return self.deals[0].dealer
        first = self.rules.first_dealer
        if first == "draw":
            drawn = _seeded(self.seed, "draw").sample(CARDS, self.n)
            self.first_dealer_draw = tuple(drawn)
            # High card deals; equal ranks are split by suit, clubs lowest (seed 002).
            return max(range(self.n), key=lambda s: (drawn[s].rank, drawn[s].suit))
        return first % self.n

    # -- hands --------------------------------------------------------------------------

    def _size_of_hand(self, index: int) -> int:
        if index < len(self.deals):
            return self.deals[index].size
        if self._extra_hands:
            return self.rules.extra_hand_size(self.n, self._extra_hands)
        if self.rules.schedule == "constant":
            return self._largest
        return self._sizes[index]

    def _start_hand(self, index: int, dealer: int) -> None:
        n, rules = self.n, self.rules
        self.hand_index = index
        size = self._size_of_hand(index)
        self.cards = size
        deal = self.deals[index] if index < len(self.deals) else None
        if deal is not None and deal.dealer is not None:
            dealer = deal.dealer
        self.dealer = dealer
        if deal is not None:
            self.hands = list(deal.masks)
            next_card = deal.turn_up
        else:
            deck = _shuffled_deck(_seeded(self.seed, f"hand:{index}"))
            dealt = size * n
            self.hands = [0] * n
            # Dealt singly, starting at the dealer's left.
            for k in range(n):
                self.hands[(dealer + 1 + k) % n] = sum(map(_BITS.__getitem__, deck[k:dealt:n]))
            next_card = CARDS[deck[dealt]] if dealt < 52 else None
        self.dealt = tuple(self.hands)
        self.turn_up: Card | None = None
        self.trump: Suit | None = None
        self.trump_decided = True
        no_trump_hand = rules.last_hand_no_trump and size == self._largest
        if not no_trump_hand:
            if rules.trump == "turn_up":
                self.turn_up = next_card
                self.trump = None if next_card is None else next_card.suit
            elif rules.trump == "spades":
                self.trump = Suit.SPADES
            elif rules.trump == "declarer":
                self.trump_decided = False
        self.declarer: int | None = None
        # Only a one-card hand can be bid blind and then play itself.
        self.blind = rules.blind_first_hand and index == 0 and size == 1
        start = rules.first_bidder_seat(dealer, n)
        self.bidding_order = tuple((start + i) % n for i in range(n))
        self.bids: list[BidAction | None] = [None] * n
        self._bid_time = [0] * n
        self._bid_pos = 0
        self.trick_cards: list[Card] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * n
        self.leader: int | None = None
        self.phase: Phase = BIDDING
        self.to_move: int | None = start

    def _redeal(self, deal: Deal) -> None:
        """Deal the hand just started (no move of it made yet) again with ``deal``'s
        cards, which join :attr:`deals` (so the record replays them): how the OpenSpiel
        adapter gives the core the cards its chance nodes dealt."""
        if len(self.deals) != self.hand_index or self.phase != BIDDING or self._bid_pos:
            raise ValueError("only a hand just dealt, after the prearranged ones, is redealt")
        self.deals = (*self.deals, deal)
        self._start_hand(self.hand_index, self.dealer)

    # -- questions ----------------------------------------------------------------------

    def opening_events(self) -> Events:
        """The events that started the game, before any move: the first hand's deal.
        With the events every :meth:`apply` returned, they tell the whole game."""
        return (HandDealt(1, *self._opening),)

    @property
    def history(self) -> list[Move]:
        """Every move so far, in order, automatic ones included."""
        return [Move(*m) for m in self._moves]

    @property
    def hand_number(self) -> int:
        """1 for the first hand."""
        return self.hand_index + 1

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The trick in progress as ``(seat, card)`` pairs."""
        if self.leader is None:
            return []
        return [((self.leader + i) % self.n, c) for i, c in enumerate(self.trick_cards)]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What ``seat`` (default: the seat to move) may do now.

        Another seat may act out of turn only to change its bid where the rules allow.
        """
        to_move = self.to_move
        if to_move is None:
            return []
        if seat is None or seat == to_move:
            seat = to_move
            if self.phase == PLAYING:
                hand = self.hands[seat]
                if self.trick_cards:
                    lead = self.trick_cards[0] // 13
                    bits = hand >> (13 * lead) & 0x1FFF
                    if bits:
                        return list(_SUIT_PLAYS[lead][bits])
                return plays_of(hand)
            if self.phase == BIDDING:
                return self._legal_bids(seat)
            return list(TRUMP_CHOICES)
        if seat == self._changeable_seat():
            current = self.bids[seat]
            return [b for b in self._bid_range() if b != current]
        return []

    def _playable(self, seat: int) -> int:
        return playable(self.hands[seat], self.trick_cards)

    def _bid_range(self) -> list[BidAction]:
        if self.rules.teams:
            top = min(self.rules.team_bid_cap, self.cards)
            return [*BIDS[1:top + 1], NIL, BOARD]
        return list(BIDS[: self.cards + 1])

    def _bid_in_range(self, tricks: int) -> bool:
        if type(tricks) is not int:
            return False
        if self.rules.teams:
            return 1 <= tricks <= min(self.rules.team_bid_cap, self.cards)
        return 0 <= tricks <= self.cards

    def _hooked_bid(self) -> int | None:
        """The bid the hook forbids the seat to move, if any."""
        others = sum(b.tricks for b in self.bids if isinstance(b, Bid))
        return procedure.hooked_bid(self.rules, self.cards, others, self._bid_pos == self.n - 1)

    def _legal_bids(self, seat: int) -> list[Action]:
        bids: list[Action] = list(self._bid_range())
        hooked = self._hooked_bid()
        if hooked is not None:
            bids.remove(BIDS[hooked])
        return bids

    def _changeable_seat(self) -> int | None:
        """The seat that may still change its bid: the last to bid, while the next
        player has not bid (seed 004)."""
        if not self.rules.bid_changes or self.phase != BIDDING or self._bid_pos == 0:
            return None
        return self.bidding_order[self._bid_pos - 1]

    # -- making moves ---------------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> Events:
        """Make a move for ``seat`` (default: the seat to move); return what happened.

        ``action`` is an action or its notation (``"7"``, ``"AD"``, ``"nil"``,
        ``"trump H"``).  The result is the tuple of events the move caused, in order
        (:mod:`blackout.core.events`): a card that ends a trick gives ``CardPlayed``
        and ``TrickTaken``, one that ends a hand also ``HandScored`` and the next
        ``HandDealt`` or ``GameOver``; pbmserv's blind trick plays itself within the
        last bid's events.  Raises :class:`IllegalAction` with a message for the
        player, leaving the game unchanged, if it is not legal now.
        """
        if type(action) is Play and seat is None and self.phase is PLAYING:
            # The hot path: a legal card by the seat to move goes straight in.
            card = action.card
            to_move = self.to_move
            hand = self.hands[to_move]
            trick = self.trick_cards
            if hand >> card & 1 and (not trick or card // 13 == trick[0] // 13
                                     or not hand & SUIT_MASKS[trick[0] // 13]):
                # What _do_play does, inlined: this line runs for nine moves in ten.
                self._moves.append((to_move, action, False))
                self.hands[to_move] = hand ^ (1 << card)
                trick.append(card)
                if len(trick) < self.n:
                    self.to_move = to_move + 1 if to_move + 1 < self.n else 0
                    return self._card_events[to_move][card]
                return self._finish_trick(trick, self._card_events[to_move][card][0])
        if type(action) is str:
            action = parse_action(action, self.rules.pass_bid)
        elif not isinstance(action, Bid | Nil | Board | Play | ChooseTrump):
            raise IllegalAction(f"{action!r} is not a move")
        if self.to_move is None:
            raise IllegalAction("the game is over")
        if seat is not None and seat != self.to_move:
            return self._change_bid(seat, action)
        seat = self.to_move
        if self.phase == PLAYING:
            return self._play(seat, action)
        if self.phase == BIDDING:
            return self._bid(seat, action)
        return self._choose_trump(seat, action)

    def _play(self, seat: int, action: Action) -> Events:
        if type(action) is not Play:
            raise IllegalAction(f"it is time to play a card, not {_describe(action)}")
        card = action.card
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalAction(f"you do not hold {card}")
        trick = self.trick_cards
        if trick:
            lead = trick[0] // 13
            if card // 13 != lead and hand & SUIT_MASKS[lead]:
                raise IllegalAction(f"you must follow {Suit(lead).plural}")
        return self._do_play(seat, card, action)

    def _do_play(self, seat: int, card: Card, action: Play, auto: bool = False) -> Events:
        self._moves.append((seat, action, auto))
        self.hands[seat] ^= 1 << card
        trick = self.trick_cards
        trick.append(card)
        played = CardPlayed(seat, card, True) if auto else self._card_events[seat][card][0]
        if len(trick) < self.n:
            self.to_move = seat + 1 if seat + 1 < self.n else 0
            return (played,)
        return self._finish_trick(trick, played)

    def _finish_trick(self, trick: list[Card], played: CardPlayed) -> Events:
        """Close the full trick; return the last card's event, the trick's (the finished
        trick itself) and what follows it."""
        leader = self.leader
        assert leader is not None
        winner = trick_winner(leader, trick, self.trump, self.n)
        taken = Trick(leader, tuple(trick), winner)
        self.tricks.append(taken)
        self.tricks_won[winner] += 1
        self.trick_cards = []
        self.leader = self.to_move = winner
        if not self.hands[winner]:
            return (played, taken, *self._finish_hand())
        return (played, taken)

    def hooked_bid(self) -> tuple[int, str] | None:
        """The bid the hook forbids the seat to move, with the rules' sentence saying
        why; None when the hook forbids nothing now."""
        hooked = self._hooked_bid()
        if hooked is None or not 0 <= hooked <= self.cards or self.phase != BIDDING:
            return None
        return hooked, hook_refusal(self.to_move == self.dealer, hooked, self.cards)

    def _bid(self, seat: int, action: Action) -> Events:
        self._check_bid(action)
        hooked = self._hooked_bid()
        if isinstance(action, Bid) and action.tricks == hooked:
            raise IllegalAction(hook_refusal(seat == self.dealer, hooked, self.cards))
        self._moves.append((seat, action, False))
        self.bids[seat] = action
        self._bid_time[seat] = len(self._moves)
        self._bid_pos += 1
        self._skip_partners()
        made = self._bid_events[seat][action.tricks] if type(action) is Bid \
            else (BidMade(seat, action),)
        if self._bid_pos < self.n:
            self.to_move = self.bidding_order[self._bid_pos]
            return made
        return made + self._finish_bidding()

    def _check_bid(self, action: Action) -> None:
        if isinstance(action, Play):
            raise IllegalAction(f"it is time to bid, not to play {action.card}")
        if isinstance(action, ChooseTrump):
            raise IllegalAction("trump is named after the bidding, by the highest bidder"
                                if self.rules.trump == "declarer"
                                else "trump is not named by a player in this game")
        if isinstance(action, Nil | Board) and not self.rules.teams:
            raise IllegalAction(f"there is no {action} bid in this game; bid 0 to take no tricks")
        if type(action) is Bid and not self._bid_in_range(action.tricks):
            if self.rules.teams:
                top = min(self.rules.team_bid_cap, self.cards)
                raise IllegalAction(f"bid 1 to {top}, nil or board")
            raise IllegalAction(f"bids are 0 to {self.cards}")

    def _skip_partners(self) -> None:
        """Seed 000: a player whose partner bid board or nil earlier does not bid."""
        if not self.rules.teams:
            return
        while self._bid_pos < self.n:
            seat = self.bidding_order[self._bid_pos]
            if not isinstance(self.bids[(seat + 2) % 4], Nil | Board):
                return
            self._bid_pos += 1

    def _change_bid(self, seat: int, action: Action) -> Events:
        if not 0 <= seat < self.n:
            raise IllegalAction(f"there is no seat {seat}")
        if seat != self._changeable_seat():
            raise IllegalAction(f"it is {self.players[self.to_move or 0]}'s turn, "
                                f"not {self.players[seat]}'s")
        self._check_bid(action)
        previous = self.bids[seat]
        if action == previous:
            raise IllegalAction(f"your bid is already {action}")
        assert previous is not None and not isinstance(action, Play | ChooseTrump)
        self._moves.append((seat, action, False))
        self.bids[seat] = action
        self._bid_time[seat] = len(self._moves)
        return (BidChanged(seat, action, previous),)

    def _finish_bidding(self) -> Events:
        if self.rules.trump == "declarer":
            # Highest bid; on a tie, the player who made that bid first (seed 004).
            self.declarer = declarer_seat(self.bids,
                                          sorted(range(self.n), key=self._bid_time.__getitem__))
        if not self.trump_decided:
            self.phase = CHOOSING_TRUMP
            self.to_move = self.declarer
            return ()
        return self._start_play()

    def _choose_trump(self, seat: int, action: Action) -> Events:
        if not isinstance(action, ChooseTrump):
            raise IllegalAction(f"{self.players[seat]} is declarer and must name trump "
                                "(trump C, D, H, S or NT)")
        self._moves.append((seat, action, False))
        self.trump = action.suit
        self.trump_decided = True
        return (TrumpNamed(seat, action.suit), *self._start_play())

    def _start_play(self) -> Events:
        self.phase = PLAYING
        self.leader = first_leader(self.rules, self.dealer, self.bidding_order, self.n)
        self.to_move = self.leader
        if not self.blind:
            return ()
        # pbmserv: "After all bids are placed, the cards will be played automatically."
        events: list[Event] = []
        while self.phase == PLAYING and self.hand_index == 0:
            seat = self.to_move
            card = next(cards_in(self._playable(seat)))
            events += self._do_play(seat, card, PLAYS[card], auto=True)
        return tuple(events)

    def _finish_hand(self) -> Events:
        rules, n = self.rules, self.n
        self._finished = (len(self._moves), self._hand_state(), self._finished)
        bids = tuple(self.bids)
        tricks = tuple(self.tricks_won)
        points = hand_points(rules, self.cards, bids, tricks, self.declarer)
        made = tuple(made_bid(rules, bids, tricks, s) for s in range(n))
        for seat in range(n):
            self.scores[seat] += points[seat]
            self._exact[seat] += made[seat]
        result = HandResult(
            number=self.hand_number, cards=self.cards, dealer=self.dealer,
            declarer=self.declarer, trump=self.trump, turn_up=self.turn_up, bids=bids,
            tricks=tricks, points=points, totals=tuple(self.scores), made=made,
            extra=self._extra_hands > 0,
        )
        self.hands_played.append(result)
        if self._game_ends():
            self._extra_hands = 0
            self._finish_game()
            return HandScored(result), GameOver(tuple(self.scores), tuple(self.winners))
        if self._extra_hands or self._schedule_done():
            self._extra_hands += 1
        self._start_hand(self.hand_index + 1, (self.dealer + 1) % n)
        return HandScored(result), HandDealt(self.hand_number, *self._deal_facts())

    def _deal_facts(self) -> tuple[int, int, Card | None, Suit | None, bool]:
        """The public facts of the current hand's deal, as HandDealt holds them."""
        return self.cards, self.dealer, self.turn_up, self.trump, self.trump_decided

    def _schedule_done(self) -> bool:
        return self.rules.schedule_done(self.n, len(self.hands_played), max(self.scores))

    def _top_sides(self) -> int:
        """How many sides (players, or teams) share the top score."""
        top = max(self.scores)
        seats = [s for s in range(self.n) if self.scores[s] == top]
        return len({s % 2 for s in seats}) if self.rules.teams else len(seats)

    def _game_ends(self) -> bool:
        if not (self._extra_hands or self._schedule_done()):
            return False
        return self.rules.tiebreak != "extra_hands" or self._top_sides() == 1

    def _finish_game(self) -> None:
        self.is_over = True
        self.phase = GAME_OVER
        self.to_move = None
        top = max(self.scores)
        tied = [s for s in range(self.n) if self.scores[s] == top]
        if self.rules.tiebreak == "exact_bids_then_coin" and len(tied) > 1:
            most = max(self._exact[s] for s in tied)
            tied = [s for s in tied if self._exact[s] == most]
            if len(tied) > 1:
                tied = [_seeded(self.seed, "coin").choice(tied)]
        self.winners = tied

    # -- taking moves back ---------------------------------------------------------------

    def undo(self) -> None:
        """Take back the last move made by a player, and the moves the rules then made by
        themselves (pbmserv's blind hand), across tricks, hands and the end of the game:
        the game is again exactly as it was before that :meth:`apply` (its state, views,
        legal actions, history and scores).  For search, a play/undo pair instead of a
        :meth:`copy`.  Raises ``ValueError`` when no move was made."""
        moves = self._moves
        if not moves:
            raise ValueError("there is no move to take back")
        while True:
            seat, action, auto = moves.pop()
            if type(action) is Play:
                self._undo_play(seat, action.card)
            elif type(action) is ChooseTrump:
                self.phase, self.trump, self.trump_decided = CHOOSING_TRUMP, None, False
                self.leader, self.to_move = None, seat
            else:
                self._undo_bid(seat)
            if not auto:
                return

    def _undo_play(self, seat: int, card: Card) -> None:
        finished = self._finished
        if finished is not None and finished[0] == len(self._moves) + 1:
            # This card ended a hand: back to the moment its last trick was taken.
            self._finished = finished[2]
            self._restore_hand_state(finished[1])
        if not self.trick_cards:  # this card ended a trick
            taken = self.tricks.pop()
            self.tricks_won[taken.winner] -= 1
            self.trick_cards = list(taken.cards)
            self.leader = taken.leader
        self.trick_cards.pop()
        self.hands[seat] |= 1 << card
        self.to_move = seat

    def _undo_bid(self, seat: int) -> None:
        # The bids of the hand in progress are the last moves (a finished hand ends with
        # cards); an earlier one by the same seat means this move changed that bid.
        moves = self._moves
        for index in range(len(moves) - 1, -1, -1):
            earlier_seat, earlier, _ = moves[index]
            if not isinstance(earlier, Bid | Nil | Board):
                break
            if earlier_seat == seat:
                self.bids[seat] = earlier
                self._bid_time[seat] = index + 1
                return
        self.bids[seat] = None
        self._bid_time[seat] = 0
        self._bid_pos = self.bidding_order.index(seat)
        self.phase, self.to_move, self.leader, self.declarer = BIDDING, seat, None, None

    def _hand_state(self) -> tuple[Any, ...]:
        """The state a finished hand's scoring and the next deal replace."""
        saved = (getattr(self, name) for name in _HAND_STATE)
        return (*(tuple(value) if type(value) is list else value for value in saved),
                len(self.hands_played))

    def _restore_hand_state(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(_HAND_STATE, state, strict=False):
            setattr(self, name, list(value) if name in _LISTS else value)
        del self.hands_played[state[-1]:]

    # -- views and copies -------------------------------------------------------------

    def view(self, seat: int) -> View:
        """Exactly what ``seat`` may know now (see :class:`View`)."""
        if not 0 <= seat < self.n:
            raise ValueError(f"there is no seat {seat}")
        if self.blind and self.phase == BIDDING:
            hands = tuple(None if s == seat else self.hands[s] for s in range(self.n))
        else:
            hands = tuple(self.hands[s] if s == seat else None for s in range(self.n))
        return self._view(seat, hands, tuple(self.legal_actions(seat)))

    def public_view(self) -> View:
        """What a spectator may know now: the view with ``seat`` None, every hand hidden
        (in pbmserv's blind hand too) and no legal actions."""
        return self._view(None, (None,) * self.n, ())

    def _view(self, seat: int | None, hands: tuple[int | None, ...],
              legal: tuple[Action, ...]) -> View:
        return View(
            rules=self.rules, seat=seat, players=self.players, phase=self.phase,
            hand_number=self.hand_number, cards_dealt=self.cards, dealer=self.dealer,
            to_move=self.to_move, hands=hands, bids=tuple(self.bids),
            bidding_order=self.bidding_order, turn_up=self.turn_up,
            trump=self.trump if self.trump_decided else None,
            trump_decided=self.trump_decided, declarer=self.declarer, leader=self.leader,
            trick=tuple(self.trick), tricks=tuple(self.tricks),
            tricks_won=tuple(self.tricks_won), scores=tuple(self.scores),
            hands_played=tuple(self.hands_played),
            legal_actions=legal,
            blind=self.blind and self.phase == BIDDING,
            hooked_bid=self.hooked_bid(), changeable=self._changeable_seat(),
            winners=tuple(self.winners),
        )

    def copy(self) -> Game:
        """An independent copy (for search): mutating it leaves this game alone."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        for name in ("scores", "hands_played", "_moves", "winners", "_exact", "hands",
                     "bids", "_bid_time", "trick_cards", "tricks", "tricks_won"):
            setattr(twin, name, list(getattr(self, name)))
        return twin

    # -- records ----------------------------------------------------------------------------

    def record(self, public: bool = False) -> dict[str, Any]:
        """A JSON-able record of the game (see ``docs/record-format.md``); ``public``
        leaves out the seed and deals, so a running game's record tells no hidden card."""
        from blackout.core.record import make_record

        return make_record(self, public)

    @classmethod
    def replay(cls, record: dict[str, Any]) -> Game:
        """Rebuild the game a :meth:`record` describes, checking every move."""
        from blackout.core.record import replay_record

        return replay_record(record, engine=cls)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"hand {self.hand_number}, {self.phase}"
        return f"<Game {self.rules.variant} {list(self.players)} {state}>"


#: The attributes a hand's end changes (scoring, the end of the game, the next deal).
_HAND_STATE = ("hand_index", "cards", "dealer", "hands", "dealt", "turn_up", "trump",
               "trump_decided", "declarer", "blind", "bidding_order", "bids", "_bid_time",
               "_bid_pos", "trick_cards", "tricks", "tricks_won", "leader", "phase",
               "to_move", "scores", "_exact", "_extra_hands", "is_over", "winners")
_LISTS = frozenset(("hands", "bids", "_bid_time", "trick_cards", "tricks", "tricks_won",
                    "scores", "_exact", "winners"))
#: (moves made when a hand ended, the state then, the hand before's), newest first.
_Finished = tuple[int, tuple[Any, ...], Any]


def _describe(action: Action) -> str:
    if isinstance(action, ChooseTrump):
        return "to name trump"
    return f"to bid {action}"
