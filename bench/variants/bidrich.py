"""Deals drawn so each hidden seat's hand explains its bid, by a richer bid model.

Each hidden seat that has bid gets a hand drawn seat by seat (``Sampler.sample_fitting``)
and kept with the chance the model gives its bid with that hand (the cards it still
holds in the deal and those it has played): exact rejection sampling of each seat's
hand given its bid, seat by seat.  The bid model is a rounded normal, censored at 0 and
at the hand size, around a line in features of the hand (``playout.estimate_tricks``,
trump length and honours, plain aces, kings, queens, voids and singletons beside a
trump, first bidder, last bidder), fitted by maximum likelihood to the expert's own bids
in the 7-card runs against ISMCTS (5760 bids; ``fit_bids.py``).  The learnt card model
is not used.  A decision's deals are a pool of ``POOL`` such deals used in turn."""

from __future__ import annotations

import random
from typing import Any

from bidlik import rounded_normal_chance

from blackout.bots import expert, tree
from blackout.bots.playout import estimate_tricks
from blackout.core.actions import Bid
from blackout.core.view import View

COEFFICIENTS = (-1.2882, 1.2378, 0.7443, -0.4206, -0.387, -0.2626, -0.1564, -0.3402,
                -0.2641, -0.2173, -0.2163, -0.0876, 0.084, 0.0727)
SPREAD = 0.3919
POOL = 128


def features(hand: int, trump: int, players: int, first: bool, last: bool) -> list[float]:
    trumps = hand >> (13 * trump) & 0x1FFF if trump >= 0 else 0
    aces = kings = queens = voids = singletons = 0
    for suit in range(4):
        if suit == trump:
            continue
        bits = hand >> (13 * suit) & 0x1FFF
        length = bits.bit_count()
        aces += bits >> 12 & 1
        kings += bits >> 11 & 1 and length >= 2
        queens += bits >> 10 & 1 and length >= 3
        voids += length == 0
        singletons += length == 1
    has_trump = trumps != 0
    return [1.0, estimate_tricks(hand, trump, players), trumps.bit_count(), trumps >> 12 & 1,
            trumps >> 11 & 1, trumps >> 10 & 1, trumps >> 9 & 1, aces, kings, queens,
            voids * has_trump, singletons * has_trump, float(last), float(first)]


def bid_chance(bid: int, row: list[float], cards: int) -> float:
    mean = sum(w * x for w, x in zip(COEFFICIENTS, row, strict=True))
    return rounded_normal_chance(bid, mean, SPREAD, cards)


class BidEvidence:
    """``self(seat, hand)``: keep this hand for the seat, with the chance of its bid."""

    def __init__(self, view: View, rng: random.Random) -> None:
        self.rng = rng
        self.cards = view.cards_dealt
        self.players = view.players_count
        self.trump = -1 if not view.trump_decided or view.trump is None else int(view.trump)
        played = view.played_by()
        order = view.bidding_order
        self.bids = {}
        for position, seat in enumerate(order):
            bid = view.bids[seat]
            if view.hands[seat] is None and isinstance(bid, Bid):
                self.bids[seat] = (played[seat], bid.tricks, position == 0,
                                   position == len(order) - 1)

    def __call__(self, seat: int, hand: int) -> bool:
        if seat not in self.bids:
            return True
        played, bid, first, last = self.bids[seat]
        row = features(hand | played, self.trump, self.players, first, last)
        return self.rng.random() < bid_chance(bid, row, self.cards)


def _bids_test(view: View, models: tuple[int, ...]) -> Any:
    evidence = BidEvidence(view, random.Random(f"bidrich:{expert._decision_key(view)}"))
    return evidence if evidence.bids else None


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        shipped, shipped_pool = expert._bids_test, tree.POOL_DEALS
        expert._bids_test = _bids_test
        tree.POOL_DEALS = POOL
        try:
            return super()._search(view, also)
        finally:
            expert._bids_test = shipped
            tree.POOL_DEALS = shipped_pool
