"""A score sheet for tables that play with real cards: only the arithmetic and checks.

>>> from blackout.core.rules import variant
>>> sheet = ScoreSheet(variant("potomac"), ["Wei-Hwa", "SquashBot", "Twonky", "TrundleBot"])
>>> row = sheet.add_hand(bids=[3, 2, 2, 3], tricks=[3, 2, 2, 6], dealer="TrundleBot",
...                      declarer="Wei-Hwa", trump="NT")
>>> row.points, sheet.totals
((11, 7, 7, -3), [11, 7, 7, -3])
"""

from __future__ import annotations

from collections.abc import Sequence

from blackout.core.actions import BOARD, NIL, Bid, BidAction, IllegalAction, parse_action
from blackout.core.cards import Suit, parse_suit
from blackout.core.rules import Rules
from blackout.core.scoring import hand_points, made_bid
from blackout.core.view import HandResult

__all__ = ["ScoreSheet", "ScoreSheetError"]

_TRUMP_NAMES: dict[Suit | None, str] = {None: "No Trumps", **{s: s.plural.title() for s in Suit}}


class ScoreSheetError(ValueError):
    """A hand that cannot be entered as given (the sheet is unchanged)."""


class ScoreSheet:
    """Running scores for a game played at a real table.

    Hands are entered in order; the number of cards dealt follows the rules' schedule
    (``cards=`` overrides it for house schedules).  Each hand is checked as far as the
    sheet can: bids in range, the hook on the last bidder, tricks adding up to the cards
    dealt, the dealer passing clockwise, the declarer being a highest bidder.
    """

    def __init__(self, rules: Rules, players: Sequence[str]) -> None:
        rules.check_players(len(players))
        if len(set(players)) != len(players):
            raise ScoreSheetError("player names must be different")
        self.rules = rules
        self.players = tuple(players)
        self.rows: list[HandResult] = []
        self.totals: list[int] = [0] * len(players)

    @property
    def next_cards(self) -> int:
        """Cards each player is dealt in the next hand: the schedule's, then the
        engine's tie-break hands (see :meth:`Rules.extra_hand_size`)."""
        if self.next_is_tiebreak:
            extra = self._extra_hands_played() + 1
            return self.rules.extra_hand_size(len(self.players), extra)
        sizes = self.rules.hand_sizes(len(self.players))
        return sizes[len(self.rows) % len(sizes)]

    @property
    def next_is_tiebreak(self) -> bool:
        """The scheduled hands are over: the next hand breaks a tie."""
        return self._schedule_done()

    @property
    def is_over(self) -> bool:
        """The game has ended: the schedule is done and no tie-break hand is due."""
        if not self._schedule_done():
            return False
        if self.rules.tiebreak != "extra_hands":
            return True
        top = max(self.totals)
        leaders = [s for s in range(len(self.players)) if self.totals[s] == top]
        return len({s % 2 for s in leaders} if self.rules.teams else leaders) == 1

    def _schedule_done(self, played: int | None = None) -> bool:
        played = len(self.rows) if played is None else played
        top = max(self.rows[played - 1].totals) if played else 0
        return self.rules.schedule_done(len(self.players), played, top)

    def _extra_hands_played(self) -> int:
        """Hands entered after the schedule ended (tie-break hands)."""
        first_extra = next(i for i in range(len(self.rows) + 1) if self._schedule_done(i))
        return len(self.rows) - first_extra

    def add_hand(self, bids: Sequence[int | str | None], tricks: Sequence[int],
                 dealer: str, declarer: str | None = None, trump: str | None = None,
                 cards: int | None = None) -> HandResult:
        """Score one hand; lists are in seat order.  Returns the new row.

        ``bids`` are numbers (or ``"nil"``/``"board"``, ``None`` for a skipped partner);
        ``trump`` is a suit letter or ``"NT"`` (needed when a declarer names trump).
        """
        n = len(self.players)
        cards = self.next_cards if cards is None else cards
        if len(bids) != n or len(tricks) != n:
            raise ScoreSheetError(f"give {n} bids and {n} trick counts, one per player")
        dealer_seat = self.check_dealer(dealer)
        parsed = self.check_bids(bids, dealer_seat, cards)
        self.check_tricks(tricks, cards)
        declarer_seat = self.check_declarer(declarer, parsed, dealer_seat)
        trump_suit = self.check_trump(trump)
        points = hand_points(self.rules, cards, parsed, tricks, declarer_seat)
        totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        row = HandResult(
            number=len(self.rows) + 1, cards=cards, dealer=dealer_seat, declarer=declarer_seat,
            trump=trump_suit, turn_up=None, bids=tuple(parsed), tricks=tuple(tricks),
            points=points, totals=totals,
            made=tuple(made_bid(self.rules, parsed, tricks, s) for s in range(n)),
            extra=self.next_is_tiebreak,
        )
        self.rows.append(row)
        self.totals = list(totals)
        return row

    # -- one check per field, so a front end can check each answer as it is typed ---------

    def check_dealer(self, name: str) -> int:
        """The dealer's seat; the deal passes clockwise from the last hand's dealer."""
        seat = self._seat(name, "dealer")
        n = len(self.players)
        if self.rows and seat != (self.rows[-1].dealer + 1) % n:
            expected = self.players[(self.rows[-1].dealer + 1) % n]
            raise ScoreSheetError(f"the deal passes clockwise: {expected} deals this hand")
        return seat

    def check_bids(self, bids: Sequence[int | str | None], dealer: int,
                   cards: int | None = None) -> list[BidAction | None]:
        """The bids parsed and checked: each in range, the hook, partnership skips."""
        cards = self.next_cards if cards is None else cards
        if len(bids) != len(self.players):
            raise ScoreSheetError(f"give {len(self.players)} bids, one per player")
        parsed = [self._bid(b, cards) for b in bids]
        self._check_hook(parsed, dealer, cards)
        self._check_skips(parsed, dealer)
        return parsed

    def check_tricks(self, tricks: Sequence[int], cards: int | None = None) -> None:
        """Each count 0..cards and all of them adding up to the cards dealt."""
        cards = self.next_cards if cards is None else cards
        if any(not isinstance(t, int) or t < 0 or t > cards for t in tricks):
            raise ScoreSheetError(f"tricks taken are 0 to {cards} each")
        if sum(tricks) != cards:
            raise ScoreSheetError(f"tricks add up to {sum(tricks)}, but {cards} were played")

    def first_highest_bidder(self, bids: Sequence[BidAction | None], dealer: int) -> int:
        """The declarer: the highest bidder, the first in bidding order on a tie (a bid is
        final once the next player has bid, so bidding order is the order bids were made)."""
        n = len(self.players)
        start = self.rules.first_bidder_seat(dealer, n)
        order = [(start + i) % n for i in range(n)]
        top = max(b.tricks for b in bids if isinstance(b, Bid))
        return next(s for s in order if bids[s] == Bid(top))

    def check_declarer(self, name: str | None, bids: Sequence[BidAction | None],
                       dealer: int) -> int | None:
        if self.rules.trump != "declarer":
            if name is not None:
                raise ScoreSheetError("these rules have no declarer")
            return None
        if name is None:
            raise ScoreSheetError("name the declarer (the highest bidder)")
        seat = self._seat(name, "declarer")
        expected = self.first_highest_bidder(bids, dealer)
        if seat != expected:
            top = bids[expected]
            raise ScoreSheetError(f"the declarer must be the first highest bidder (bid {top}):"
                                  f" {self.players[expected]}")
        return seat

    def _seat(self, name: str, role: str) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise ScoreSheetError(f"the {role} {name!r} is not a player here") from None

    def _bid(self, bid: int | str | None, cards: int) -> BidAction | None:
        if bid is None:
            if self.rules.teams:
                return None
            raise ScoreSheetError("every player must bid")
        try:
            action = parse_action(str(bid), self.rules.pass_bid)
        except IllegalAction as exc:
            raise ScoreSheetError(str(exc)) from None
        if self.rules.teams:
            top = min(self.rules.team_bid_cap, cards)
            if action in (NIL, BOARD) or (isinstance(action, Bid) and 1 <= action.tricks <= top):
                return action
            raise ScoreSheetError(f"bid {bid!r}: bids are 1 to {top}, nil or board")
        if not isinstance(action, Bid) or action.tricks > cards:
            raise ScoreSheetError(f"bid {bid!r}: bids are 0 to {cards}")
        return action

    def _check_hook(self, bids: list[BidAction | None], dealer: int, cards: int) -> None:
        if not self.rules.hook:
            return
        n = len(self.players)
        last = (self.rules.first_bidder_seat(dealer, n) - 1) % n
        if sum(b.tricks for b in bids if isinstance(b, Bid)) == cards:
            raise ScoreSheetError(f"the hook: {self.players[last]}, bidding last, may not "
                                  f"make the bids total {cards}")

    def _check_skips(self, bids: list[BidAction | None], dealer: int) -> None:
        """Seed 000: everyone bids once, from the dealer's left, except a player whose
        partner bid board or nil earlier."""
        if not self.rules.teams:
            return
        for position in range(4):
            seat = (dealer + 1 + position) % 4
            partner = bids[(seat + 2) % 4]
            skipped = position >= 2 and partner in (NIL, BOARD)
            name = self.players[seat]
            if skipped and bids[seat] is not None:
                raise ScoreSheetError(f"{name} is skipped: the partner bid {partner} earlier")
            if not skipped and bids[seat] is None:
                raise ScoreSheetError(f"{name} must bid (only a player whose partner bid "
                                      "board or nil earlier is skipped)")

    def check_trump(self, trump: str | None) -> Suit | None:
        if trump is None:
            if self.rules.trump == "declarer":
                raise ScoreSheetError("name the trump the declarer chose (C, D, H, S or NT)")
            return Suit.SPADES if self.rules.trump == "spades" else None
        if trump.strip().upper() in ("NT", "NO TRUMP", "NO TRUMPS", "NONE"):
            return None
        try:
            return parse_suit(trump)
        except ValueError as exc:
            raise ScoreSheetError(str(exc)) from None

    def render(self) -> str:
        """The sheet as text, laid out like the sample sheet of seed 004: per hand a
        line of bids and points, then a line of tricks taken and running totals."""
        width = max(8, *(len(p) for p in self.players)) + 1
        head = f"{'Cards':>6} {'Dealer':<{width}}"
        if self.rules.trump == "declarer":
            head += f" {'Declarer':<{width}}"
        head += f" {'Trump':<10}"
        lines = [head + "".join(f" {p:>{width}}" for p in self.players)]
        lines.append(" " * len(head) + f" {'Bid Score':>{width}}" * len(self.players))
        lines.append(" " * len(head) + f" {'Took Total':>{width}}" * len(self.players))
        for row in self.rows:
            left = f"{row.cards:>6} {self.players[row.dealer]:<{width}}"
            if self.rules.trump == "declarer":
                name = "" if row.declarer is None else self.players[row.declarer]
                left += f" {name:<{width}}"
            left += f" {_TRUMP_NAMES[row.trump]:<10}"
            first = "".join(f" {_bid_text(b) + ' ' + f'{p:+d}':>{width}}"
                            for b, p in zip(row.bids, row.points, strict=True))
            second = "".join(f" {f'{t} {total}':>{width}}"
                             for t, total in zip(row.tricks, row.totals, strict=True))
            lines.append(left + first)
            lines.append(" " * len(left) + second)
        return "\n".join(lines)


def _bid_text(bid: BidAction | None) -> str:
    return "-" if bid is None else str(bid)
