"""Guessing the hidden hands: deals consistent with everything a seat has seen.

A :class:`Sampler` is built from a :class:`~blackout.core.view.View` alone.  Each
sample gives every seat whose hand the view hides as many unseen cards as it still
holds, never a card of a suit it has shown void in, and is otherwise uniform: the bids
are not used to guess who holds what.  (Until the fourth session deals were weighted
by how well each hand's estimated worth fitted its owner's bid; against OpenSpiel's
ISMCTS, as shipped, that cost 0.8 points a hand, see bench/RESULTS.md.)

A sampler given ``card_weights`` (a model's log-odds of who holds each card, see
:mod:`blackout.bots.inference`) can also draw a few such deals and keep one in
proportion to how likely the model finds it (:meth:`Sampler.sample_weighted`).

With the C accelerator (see :mod:`blackout.bots.playout`) the deals are drawn in C from a
seed taken from the caller's generator: the same seed gives the same deals on every
build with the accelerator, and other (equally valid) deals on one without.
"""

from __future__ import annotations

import math
import random
import time
from array import array
from collections.abc import Callable, Iterable

from blackout.bots.playout import SUIT_MASKS, _fast
from blackout.core.cards import cards_in
from blackout.core.view import View

__all__ = ["CardWeights", "Sampler"]

# Deals drawn to satisfy the void constraints before giving up on them.
_VOID_TRIES = 50
# Draws of one seat's hand for sample_fitting before keeping one that does not fit
# (late in a hand one draw in hundreds may fit; in C a draw and its test take a
# microsecond or two, in Python some twenty).
_FIT_TRIES = 40 if _fast is None else 200


#: ``card_weights[seat][card]``: the log of how much likelier than uniform a model finds
#: it that ``seat`` holds ``card``.
CardWeights = list[list[float]]


class Sampler:
    """Deals of the hidden cards of one view (see the module docstring)."""

    def __init__(self, view: View, card_weights: CardWeights | None = None) -> None:
        n = view.players_count
        self.players = n
        played = view.played_by()
        self.known = list(view.hands)
        self.hidden = [s for s in range(n) if view.hands[s] is None]
        self.counts = [view.cards_dealt - played[s].bit_count() for s in range(n)]
        voids = view.voids()
        self.allowed = [
            ~sum(SUIT_MASKS[suit] for suit in voids[s]) & ((1 << 52) - 1) for s in range(n)
        ]
        self.unseen = view.unseen()
        # The most constrained seats choose first, so the others can take what is left.
        self.hidden.sort(key=lambda s: self.allowed[s].bit_count())
        self._fast_arguments = (
            tuple(h or 0 for h in self.known), tuple(self.hidden), tuple(self.counts),
            tuple(self.allowed), self.unseen, _VOID_TRIES)
        self.card_weights = card_weights
        # The weights as C reads them: seat * 52 + card.
        self._packed_weights = (None if card_weights is None else
                                array("d", (w for row in card_weights for w in row)))

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's unplayed cards in one deal consistent with the view."""
        if _fast is not None:
            return _fast.sample(rng.getrandbits(64), *self._fast_arguments)
        return self.sample_python(rng)

    def sample_weighted(self, rng: random.Random, choices: int) -> list[int]:
        """One of ``choices`` deals drawn as by :meth:`sample`, chosen in proportion to
        how likely the sampler's ``card_weights`` find it (the product over the hidden
        hands' cards of each card's weight).

        In C when the accelerator is there; the deals and the choice are then those of
        :meth:`sample_weighted_python`, and ``rng`` is left in the same state.
        """
        if self._packed_weights is None:
            raise ValueError("sample_weighted needs a sampler made with card_weights")
        if _fast is None:
            return self.sample_weighted_python(rng, choices)
        seeds = [rng.getrandbits(64) for _ in range(choices)]
        return _fast.sample_weighted(seeds, *self._fast_arguments, self._packed_weights,
                                     rng.random())

    def sample_weighted_python(self, rng: random.Random, choices: int) -> list[int]:
        """:meth:`sample_weighted` in Python: the reference for the C version."""
        if self.card_weights is None:
            raise ValueError("sample_weighted needs a sampler made with card_weights")
        deals = [self.sample(rng) for _ in range(choices)]
        logs = [self.card_log_weight(deal) for deal in deals]
        top = max(logs)
        return rng.choices(deals, [math.exp(log - top) for log in logs])[0]

    def card_log_weight(self, deal: list[int]) -> float:
        """The sum of ``card_weights`` over the hidden hands' cards of ``deal`` (seats in
        the sampler's order, cards upwards: the order the C version adds them in)."""
        assert self.card_weights is not None
        total = 0.0
        for seat in self.hidden:
            row, hand = self.card_weights[seat], deal[seat]
            while hand:
                low = hand & -hand
                hand ^= low
                total += row[low.bit_length() - 1]
        return total

    def sample_fitting(self, rng: random.Random, fits: Callable[[int, int], bool],
                       tries: int = _FIT_TRIES, until: float | None = None) -> list[int]:
        """A deal in which every hidden seat's hand passes ``fits(seat, hand)``: the
        seats are dealt one by one, each redrawn from the cards left until it passes
        (at most ``tries`` times, else the deal starts again; after as many fresh
        starts as for the voids, or once the monotonic clock passes ``until``, the
        first whole deal is kept).

        This is not exactly the deal drawn at random among those where every seat
        passes (a seat's draw ignores what it leaves the seats after it), but it needs
        a few draws a seat where that needs a few per seat multiplied together.
        """
        kept = None
        for _ in range(_VOID_TRIES):
            hands = [h or 0 for h in self.known]
            taken = 0
            every_seat_fits = True
            for seat in self.hidden:
                cards = self.unseen & self.allowed[seat] & ~taken
                want = self.counts[seat]
                if cards.bit_count() < want or (until is not None and time.monotonic() > until):
                    break
                for hand in _draws(rng, cards, want, tries):
                    if fits(seat, hand):
                        break
                else:
                    every_seat_fits = False
                hands[seat] = hand
                taken |= hand
            else:
                if every_seat_fits:
                    return hands
                kept = kept or hands
        return kept or self.sample(rng)

    def sample_python(self, rng: random.Random) -> list[int]:
        """:meth:`sample` in Python: the reference for the C version."""
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


def _draws(rng: random.Random, cards: int, want: int, count: int) -> Iterable[int]:
    """``count`` hands of ``want`` cards drawn from the mask ``cards``: all at once in C,
    one at a time in Python (where the first few usually do)."""
    if _fast is not None:
        return _fast.draw(rng.getrandbits(64), cards, want, count)
    pool = list(cards_in(cards))
    return (sum(1 << card for card in rng.sample(pool, want)) for _ in range(count))
