"""Guessing the hidden hands: deals consistent with everything a seat has seen.

A :class:`Sampler` is built from a :class:`~blackout.core.view.View` alone.  Each
sample gives every seat whose hand the view hides as many unseen cards as it still
holds, never a card of a suit it has shown void in, and prefers deals that agree with
the bids already made: a deal is kept with a probability that falls off with the gap
between a player's bid and what its dealt hand looks worth.

With the C accelerator (see :mod:`blackout.bots.playout`) the deals are drawn in C from a
seed taken from the caller's generator: the same seed gives the same deals on every
build with the accelerator, and other (equally valid) deals on one without.
"""

from __future__ import annotations

import math
import random

from blackout.bots.playout import NO_TRUMP, SUIT_MASKS, _fast, estimate_tricks
from blackout.core.actions import Bid
from blackout.core.view import View

__all__ = ["Sampler"]

# How far (in tricks) a bid may stray from the estimate before a deal looks unlikely.
_BID_SPREAD = 1.2
# Deals drawn per sample before settling for the most plausible one seen.
_TRIES = 6
# Deals drawn to satisfy the void constraints before giving up on them.
_VOID_TRIES = 50


class Sampler:
    """Deals of the hidden cards of one view (see the module docstring)."""

    def __init__(self, view: View) -> None:
        n = view.players_count
        self.players = n
        played = [0] * n
        for trick in view.tricks:
            for position, card in enumerate(trick.cards):
                played[(trick.leader + position) % n] |= 1 << card
        for seat, card in view.trick:
            played[seat] |= 1 << card
        self.played = played
        self.known = list(view.hands)
        self.hidden = [s for s in range(n) if view.hands[s] is None]
        self.counts = [view.cards_dealt - played[s].bit_count() for s in range(n)]
        voids = view.voids()
        self.allowed = [
            ~sum(SUIT_MASKS[suit] for suit in voids[s]) & ((1 << 52) - 1) for s in range(n)
        ]
        self.unseen = view.unseen()
        self.trump = NO_TRUMP if view.trump is None else int(view.trump)
        # Only number bids made with a known trump tell much about the hand.
        self.bids = [
            bid.tricks if isinstance(bid, Bid) and view.trump_decided else None
            for bid in view.bids
        ]
        # The most constrained seats choose first, so the others can take what is left.
        self.hidden.sort(key=lambda s: self.allowed[s].bit_count())
        self._fast_arguments = (
            tuple(h or 0 for h in self.known), tuple(self.hidden), tuple(self.counts),
            tuple(self.allowed), tuple(played), tuple(-1 if b is None else b for b in self.bids),
            self.trump, self.unseen, _TRIES, _VOID_TRIES, _BID_SPREAD)

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's unplayed cards in one deal consistent with the view."""
        if _fast is not None:
            return _fast.sample(rng.getrandbits(64), *self._fast_arguments)
        return self.sample_python(rng)

    def sample_python(self, rng: random.Random) -> list[int]:
        """:meth:`sample` in Python: the reference for the C version."""
        best: list[int] | None = None
        best_weight = -1.0
        for _ in range(_TRIES):
            hands = self._deal(rng)
            weight = self._weight(hands)
            if rng.random() < weight:
                return hands
            if weight > best_weight:
                best, best_weight = hands, weight
        assert best is not None
        return best

    def _deal(self, rng: random.Random) -> list[int]:
        for _ in range(_VOID_TRIES):
            hands = self._try_deal(rng, respect_voids=True)
            if hands is not None:
                return hands
        # Unreachable for a view from a real game; kept so a search never stalls.
        hands = self._try_deal(rng, respect_voids=False)
        assert hands is not None
        return hands

    def _try_deal(self, rng: random.Random, respect_voids: bool) -> list[int] | None:
        pool = []
        mask = self.unseen
        while mask:
            low = mask & -mask
            pool.append(low.bit_length() - 1)
            mask ^= low
        rng.shuffle(pool)
        hands = [h or 0 for h in self.known]
        taken = 0
        for seat in self.hidden:
            allowed = self.allowed[seat] if respect_voids else (1 << 52) - 1
            want = self.counts[seat]
            hand = 0
            for card in pool:
                if want == 0:
                    break
                bit = 1 << card
                if allowed & bit and not taken & bit:
                    hand |= bit
                    want -= 1
            if want:
                return None
            taken |= hand
            hands[seat] = hand
        return hands

    def _weight(self, hands: list[int]) -> float:
        """How well a deal fits the bids: 1 for a perfect fit, falling off smoothly."""
        misfit = 0.0
        for seat in self.hidden:
            bid = self.bids[seat]
            if bid is None:
                continue
            dealt = hands[seat] | self.played[seat]
            gap = bid - estimate_tricks(dealt, self.trump, self.players)
            misfit += gap * gap
        return math.exp(-misfit / (2 * _BID_SPREAD ** 2))
