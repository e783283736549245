"""The arithmetic of one hand: points from bids and tricks, for every scoring rule.

Pure functions, shared by the game engine and the score sheet.

>>> from blackout.core.rules import variant
>>> hand_points(variant("potomac"), 13, [Bid(3), Bid(2), Bid(2), Bid(3)], [3, 2, 2, 6], declarer=0)
(11, 7, 7, -3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from blackout.core.actions import Bid, BidAction, Board, Nil
from blackout.core.rules import Rules

__all__ = ["NIL_BOARD_POINTS", "TeamContract", "hand_points", "player_points", "team_contract"]

#: Seed 000: a made nil or board scores 40, a failed one loses 10.
NIL_BOARD_POINTS = (40, -10)


@dataclass(frozen=True, slots=True)
class TeamContract:
    """What a partnership undertook: ``kind`` is ``"number"``, ``"board"`` or ``"nil"``.

    ``tricks`` is the capped total for a number contract; ``nil_seat`` the nil bidder.
    """

    kind: str
    tricks: int = 0
    nil_seat: int | None = None

    def __str__(self) -> str:
        return str(self.tricks) if self.kind == "number" else self.kind


def team_contract(rules: Rules, bids: Sequence[BidAction | None], team: int) -> TeamContract:
    """The contract of team ``team`` (seats ``team`` and ``team + 2``).

    A board or nil bid voids the partner's number bid (seed 000); number bids add up,
    capped at ``rules.team_bid_cap``.
    """
    seats = (team, team + 2)
    for seat in seats:
        if isinstance(bids[seat], Board):
            return TeamContract("board", 13)
    for seat in seats:
        if isinstance(bids[seat], Nil):
            return TeamContract("nil", 0, nil_seat=seat)
    total = sum(b.tricks for b in (bids[s] for s in seats) if isinstance(b, Bid))
    return TeamContract("number", min(total, rules.team_bid_cap))


def _team_points(rules: Rules, contract: TeamContract, cards: int,
                 tricks: Sequence[int], team: int) -> int:
    made, failed = NIL_BOARD_POINTS
    taken = tricks[team] + tricks[team + 2]
    if contract.kind == "board":
        return made if taken == cards else failed
    if contract.kind == "nil":
        assert contract.nil_seat is not None
        return made if tricks[contract.nil_seat] == 0 else failed
    ok = taken >= contract.tricks if rules.team_bid == "at_least" else taken == contract.tricks
    return 10 + contract.tricks if ok else 0


def player_points(rules: Rules, cards: int, bid: int, took: int,
                  is_declarer: bool = False) -> int:
    """Points of one player of an individually scored game who bid ``bid`` and took
    ``took`` tricks in a hand of ``cards`` cards each."""
    exact = bid == took
    match rules.scoring:
        case "ten_plus_bid":
            return 10 + bid if exact else 0
        case "five_plus_cards":
            return 5 + cards if exact else 0
        case "nullo":
            if not exact:
                return 0
            return 5 + cards if bid == 0 else 10 + took
        case "tricks_plus_ten":
            return took + (10 if exact else 0)
        case "potomac":
            if not exact:
                return -abs(bid - took)
            return 5 + (2 * bid if is_declarer else bid)
    raise AssertionError(rules.scoring)


def hand_points(rules: Rules, cards: int, bids: Sequence[BidAction | None],
                tricks: Sequence[int], declarer: int | None = None) -> tuple[int, ...]:
    """Points each seat scores for one hand of ``cards`` cards each.

    In partnership both partners are given their team's points.
    """
    if rules.teams:
        team = [_team_points(rules, team_contract(rules, bids, t), cards, tricks, t)
                for t in (0, 1)]
        return tuple(team[seat % 2] for seat in range(len(bids)))
    return tuple(
        player_points(rules, cards, _tricks_bid(bid), took, seat == declarer)
        for seat, (bid, took) in enumerate(zip(bids, tricks, strict=True))
    )


def made_bid(rules: Rules, bids: Sequence[BidAction | None], tricks: Sequence[int],
             seat: int) -> bool:
    """Whether ``seat`` (its team, in partnership) made its bid exactly this hand."""
    if rules.teams:
        contract = team_contract(rules, bids, seat % 2)
        taken = tricks[seat % 2] + tricks[seat % 2 + 2]
        if contract.kind == "nil":
            return tricks[contract.nil_seat or 0] == 0
        if contract.kind == "board":
            return taken == sum(tricks)
        if rules.team_bid == "at_least":
            return taken >= contract.tricks
        return taken == contract.tricks
    return _tricks_bid(bids[seat]) == tricks[seat]


def _tricks_bid(bid: BidAction | None) -> int:
    if not isinstance(bid, Bid):
        raise ValueError(f"{bid} is not a number bid")
    return bid.tricks
