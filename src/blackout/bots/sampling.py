"""Guessing the hidden hands: deals consistent with everything a seat has seen.

A :class:`Sampler` is built from a :class:`~blackout.core.view.View` alone.  Each
:meth:`~Sampler.sample` gives every seat whose hand the view hides as many unseen cards
as it still holds, never a card of a suit it has shown void in, and is otherwise
uniform: a shuffle dealt seat by seat, the seats with least room to spare first, and
where shuffles seldom keep the voids (late in a hand, several seats void), a deal drawn
suit by suit among all those that keep them (:meth:`Sampler.sample_by_suits`).

:meth:`Sampler.sample_fitting` deals the hidden seats one by one, each hand kept with
a chance a caller's test gives it: what a seat's bid and cards say about its hand (see
:mod:`blackout.bots.inference` and :mod:`blackout.bots.expert`).
:meth:`Sampler.sample_weighted` does the same with each hand drawn card by card, in
proportion to ``exp`` of a log weight of each card in that seat, and says how likely its
draws were, so that a caller can weigh the deal by how much likelier it finds it.

With the C accelerator (see :mod:`blackout.bots.playout`) the deals are drawn in C from a
seed taken from the caller's generator: the same seed gives the same deals on every
build with the accelerator, and other (equally valid) deals on one without.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence

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
        # The seats with the least room to spare choose first, so the others can take
        # what is left.
        self.hidden.sort(
            key=lambda s: (self.unseen & self.allowed[s]).bit_count() - self.counts[s])
        self._deals_left: dict[tuple[int, tuple[int, ...]], int] = {}
        self._fast_arguments = (
            tuple(h or 0 for h in self.known), tuple(self.hidden), tuple(self.counts),
            tuple(self.allowed), self.unseen, _VOID_TRIES)

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's unplayed cards in one deal consistent with the view."""
        if _fast is not None:
            hands = _fast.sample(rng.getrandbits(64), *self._fast_arguments)
            return self.sample_by_suits(rng) if hands is None else hands
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
        return self._seat_by_seat(rng, fits, {}, tries, until)[0]

    def sample_weighted(self, rng: random.Random, terms: Mapping[int, Sequence[float]],
                        fits: Fits | None = None, tries: int = _FIT_TRIES,
                        until: float | None = None) -> tuple[list[int], float]:
        """:meth:`sample_fitting` with each hand of a seat in ``terms`` drawn in
        proportion to ``exp`` of the sum of its cards' terms (``terms[seat][card]``, a
        log weight; ``-inf``: never) among the cards left, the other seats' uniformly;
        and the log chance of those draws (each seat's, among the cards the seats
        before it left; how often ``fits`` turned a hand away is not counted), by which
        a caller weighing the deal divides to undo the terms.  Where no whole deal is
        found seat by seat, :meth:`sample`'s deal comes with a log chance of 0."""
        return self._seat_by_seat(rng, fits, terms, tries, until)

    def _seat_by_seat(self, rng: random.Random, fits: Fits | None,
                      terms: Mapping[int, Sequence[float]], tries: int,
                      until: float | None) -> tuple[list[int], float]:
        kept = None
        for _ in range(_VOID_TRIES):
            hands = [h or 0 for h in self.known]
            taken = 0
            log_chance = 0.0
            every_seat_fits = True
            for seat in self.hidden:
                cards = self.unseen & self.allowed[seat] & ~taken
                want = self.counts[seat]
                if cards.bit_count() < want or (until is not None and time.monotonic() > until):
                    break
                row = terms.get(seat)
                weighted = None if row is None else _WeightedDraws(cards, want, row)
                if weighted is None:
                    draws = _draws(rng, cards, want, tries)
                    log_chance -= math.log(math.comb(cards.bit_count(), want))
                else:
                    if weighted.total <= 0:
                        break  # no hand the terms allow: deal again
                    draws = weighted.draws(rng, tries)
                hand = 0
                for hand in draws:
                    chance = 1.0 if fits is None else fits(seat, hand)
                    # No draw for a sure answer: a yes-or-no test uses no randomness.
                    if chance >= 1 or (chance > 0 and rng.random() < chance):
                        break
                else:
                    every_seat_fits = False
                if weighted is not None:
                    log_chance += weighted.log_chance(hand)
                hands[seat] = hand
                taken |= hand
            else:
                if every_seat_fits:
                    return hands, log_chance
                kept = kept or (hands, log_chance)
        return kept or (self.sample(rng), 0.0)

    def sample_python(self, rng: random.Random) -> list[int]:
        """:meth:`sample` in Python: the reference for the C version."""
        for _ in range(_VOID_TRIES):
            hands = self._try_deal(rng, respect_voids=True)
            if hands is not None:
                return hands
        return self.sample_by_suits(rng)

    def sample_by_suits(self, rng: random.Random) -> list[int]:
        """A deal that keeps every void, drawn uniformly among all such deals, for when
        shuffling seldom keeps them (the tight end of a hand, several seats void): how
        many cards of each suit each seat gets is drawn first, suit by suit, each choice
        in proportion to the deals it leaves possible; then which cards."""
        takers = [*self.hidden, -1]  # -1: the cards nobody holds (a stock)
        room = [*(self.counts[s] for s in self.hidden),
                self.unseen.bit_count() - sum(self.counts[s] for s in self.hidden)]
        if self._deals(0, tuple(room)) == 0:
            # Unreachable for a view from a real game; kept so a search never stalls.
            anyhow = self._try_deal(rng, respect_voids=False)
            assert anyhow is not None
            return anyhow
        hands = [h or 0 for h in self.known]
        for suit in range(4):
            cards = list(cards_in(self.unseen & SUIT_MASKS[suit]))
            splits = list(self._splits(suit, len(cards), tuple(room)))
            weights = [_arrangements(split) * self._deals(suit + 1, _less(room, split))
                       for split in splits]
            split = rng.choices(splits, weights)[0]
            rng.shuffle(cards)
            for taker, count in zip(takers, split, strict=True):
                if taker >= 0:
                    hands[taker] |= sum(1 << card for card in cards[:count])
                cards = cards[count:]
            room = list(_less(room, split))
        return hands

    def _deals(self, suit: int, room: tuple[int, ...]) -> int:
        """How many ways the unseen cards of ``suit`` and the suits after it can fill
        exactly the room each taker has left."""
        if suit == 4:
            return int(not any(room))
        key = (suit, room)
        found = self._deals_left.get(key)
        if found is None:
            count = (self.unseen & SUIT_MASKS[suit]).bit_count()
            found = self._deals_left[key] = sum(
                _arrangements(split) * self._deals(suit + 1, _less(room, split))
                for split in self._splits(suit, count, room))
        return found

    def _splits(self, suit: int, count: int, room: tuple[int, ...]
                ) -> Iterable[tuple[int, ...]]:
        """Every way to share ``count`` cards of ``suit`` among the takers (the hidden
        seats, then the stock): no more than each one's room, none to a seat void in it."""
        may = [room[i] if self.allowed[seat] & SUIT_MASKS[suit] else 0
               for i, seat in enumerate(self.hidden)] + [room[-1]]

        def share(i: int, left: int) -> Iterable[tuple[int, ...]]:
            if i == len(may) - 1:
                if left <= may[i]:
                    yield (left,)
                return
            for take in range(min(may[i], left) + 1):
                for rest in share(i + 1, left - take):
                    yield (take, *rest)

        return share(0, count)

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


class _WeightedDraws:
    """Hands of ``want`` cards of the mask ``cards``, each drawn in proportion to the
    product of its cards' weights (``exp`` of ``terms[card]``): conditional Poisson
    sampling, card by card, from the weight of the ways to complete the hand."""

    def __init__(self, cards: int, want: int, terms: Sequence[float]) -> None:
        self.cards = list(cards_in(cards))
        self.terms = terms
        # Weights taken relative to the likeliest card's, so that a hand of cards all
        # very unlikely does not underflow; every hand's weight is scaled alike.
        self.shift = max((terms[card] for card in self.cards), default=0.0)
        if not math.isfinite(self.shift):
            self.shift = 0.0
        self.weights = [math.exp(terms[card] - self.shift) for card in self.cards]
        self.want = want
        # ways[i][j]: the total weight of the ways to choose j of the cards from i on
        count = len(self.cards)
        self.ways = ways = [[0.0] * (want + 1) for _ in range(count + 1)]
        ways[count][0] = 1.0
        for i in range(count - 1, -1, -1):
            after, here, weight = ways[i + 1], ways[i], self.weights[i]
            here[0] = 1.0
            for j in range(1, want + 1):
                here[j] = after[j] + weight * after[j - 1]
        self.total = ways[0][want]

    def draws(self, rng: random.Random, count: int) -> Iterable[int]:
        for _ in range(count):
            hand, want = 0, self.want
            for i, card in enumerate(self.cards):
                if want == 0:
                    break
                if rng.random() * self.ways[i][want] < self.weights[i] * self.ways[i + 1][want - 1]:
                    hand |= 1 << card
                    want -= 1
            yield hand

    def log_chance(self, hand: int) -> float:
        """The log chance of drawing ``hand``."""
        return (sum(self.terms[card] for card in cards_in(hand)) - self.want * self.shift
                - math.log(self.total))


def _arrangements(split: tuple[int, ...]) -> int:
    """The ways to hand out ``sum(split)`` distinct cards, ``split[i]`` to taker ``i``."""
    ways, dealt = 1, 0
    for count in split:
        dealt += count
        ways *= math.comb(dealt, count)
    return ways


def _less(room: Sequence[int], split: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(r - k for r, k in zip(room, split, strict=True))


def _draws(rng: random.Random, cards: int, want: int, count: int) -> Iterable[int]:
    """``count`` hands of ``want`` cards drawn from the mask ``cards``: all at once in C,
    one at a time in Python (where the first few usually do)."""
    if _fast is not None:
        return _fast.draw(rng.getrandbits(64), cards, want, count)
    pool = list(cards_in(cards))
    return (sum(1 << card for card in rng.sample(pool, want)) for _ in range(count))
