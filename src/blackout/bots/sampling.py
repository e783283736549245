"""Guessing the hidden hands: deals consistent with everything a seat has seen.

A :class:`Sampler` is built from a :class:`~blackout.core.view.View` alone.  Each
:meth:`~Sampler.sample` gives every seat whose hand the view hides as many unseen cards
as it still holds, never a card of a suit it has shown void in, and is otherwise
uniform.

:meth:`Sampler.sample_fitting` deals the hidden seats one by one, each hand kept with
a chance a caller's test gives it: what a seat's bid and cards say about its hand (see
:mod:`blackout.bots.inference` and :mod:`blackout.bots.expert`).

With the C accelerator (see :mod:`blackout.bots.playout`) the deals are drawn in C from a
seed taken from the caller's generator: the same seed gives the same deals on every
build with the accelerator, and other (equally valid) deals on one without.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable

from blackout.bots.playout import SUIT_MASKS, _fast
from blackout.core.cards import cards_in
from blackout.core.view import View

__all__ = ["Fits", "Sampler"]

# Deals drawn to satisfy the void constraints before giving up on them.
_VOID_TRIES = 50
# Draws of one seat's hand for sample_fitting before keeping one that does not fit
# (late in a hand one draw in hundreds may fit; in C a draw and its test take a
# microsecond or two, in Python some twenty).
_FIT_TRIES = 40 if _fast is None else 200


#: ``fits(seat, hand)``: the chance (0 to 1; ``True`` and ``False`` will do) to keep
#: ``hand`` (unplayed cards) for the hidden ``seat``, by what the searching seat knows
#: beyond the cards: that seat's bid and play, as a model of the player would have
#: chosen them with that hand.
Fits = Callable[[int, int], float]


class Sampler:
    """Deals of the hidden cards of one view (see the module docstring)."""

    def __init__(self, view: View) -> None:
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

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's unplayed cards in one deal consistent with the view."""
        if _fast is not None:
            return _fast.sample(rng.getrandbits(64), *self._fast_arguments)
        return self.sample_python(rng)

    def sample_fitting(self, rng: random.Random, fits: Fits, tries: int = _FIT_TRIES,
                       until: float | None = None) -> list[int]:
        """A deal in which every hidden seat's hand passes ``fits(seat, hand)``: the
        seats are dealt one by one, each redrawn from the cards left until one is kept
        (with the chance ``fits`` gives it; at most ``tries`` times, else the deal starts
        again; after as many fresh starts as for the voids, or once the monotonic clock
        passes ``until``, the first whole deal is kept).

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
                    chance = fits(seat, hand)
                    # No draw for a sure answer: a yes-or-no test uses no randomness.
                    if chance >= 1 or (chance > 0 and rng.random() < chance):
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
