"""Each weighted deal also judged, hand by hand, by how likely each hidden seat's bid is
with that hand: the bid modelled as a rounded normal around ``SLOPE`` times the hand's
estimated tricks (``playout.estimate_tricks`` of the cards it was dealt: those it still
holds in the deal and those it has played) plus ``SHIFT``, standard deviation ``SPREAD``.
The learnt card model's weights are kept (``bidlik``) or dropped (module ``bidonly``);
module ``bid8`` chooses each deal among 8 instead of 4."""

from __future__ import annotations

import math
import random
from typing import Any

from blackout.bots import expert, tree
from blackout.bots.playout import estimate_tricks
from blackout.bots.sampling import Sampler
from blackout.core.actions import Bid
from blackout.core.view import View

SLOPE, SHIFT, SPREAD = 0.95, -0.11, 0.85


def _normal_cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def rounded_normal_chance(bid: int, mean: float, spread: float, cards: int) -> float:
    """The chance of ``bid`` when the bid is a normal around ``mean`` rounded to the
    nearest whole number of tricks, censored at 0 and at ``cards``."""
    low = 0.0 if bid == 0 else _normal_cdf((bid - 0.5 - mean) / spread)
    high = 1.0 if bid >= cards else _normal_cdf((bid + 0.5 - mean) / spread)
    return high - low


def bid_log_likelihood(bid: int, estimate: float, cards: int,
                       line: tuple[float, float, float] = (SLOPE, SHIFT, SPREAD)) -> float:
    slope, shift, spread = line
    chance = rounded_normal_chance(bid, slope * estimate + shift, spread, cards)
    return math.log(max(chance, 1e-12))


class BidSampler(Sampler):
    use_cards = True
    line = (SLOPE, SHIFT, SPREAD)

    def __init__(self, view: View, card_weights: Any = None) -> None:
        super().__init__(view, card_weights)
        played = view.played_by()
        trump = -1 if not view.trump_decided or view.trump is None else int(view.trump)
        self.trump = trump
        self.cards_dealt = view.cards_dealt
        self.bidders = [(seat, view.bids[seat].tricks, played[seat])  # type: ignore[union-attr]
                        for seat in self.hidden if isinstance(view.bids[seat], Bid)]

    def sample_weighted(self, rng: random.Random, choices: int) -> list[int]:
        deals = [self.sample(rng) for _ in range(choices)]
        logs = []
        for deal in deals:
            total = 0.0
            if self.use_cards and self.card_weights is not None:
                total = self.card_log_weight(deal)
            for seat, bid, played in self.bidders:
                estimate = estimate_tricks(deal[seat] | played, self.trump, self.players)
                total += bid_log_likelihood(bid, estimate, self.cards_dealt, self.line)
            logs.append(total)
        top = max(logs)
        return rng.choices(deals, [math.exp(log - top) for log in logs])[0]


class CardlessBidSampler(BidSampler):
    use_cards = False


class ExpertBot(expert.ExpertBot):
    sampler: type[Sampler] = BidSampler
    choices = 4

    def _search(self, view: Any, also: Any = None) -> Any:
        shipped, shipped_choices = tree.Sampler, tree.WEIGHED_CHOICES
        tree.Sampler = self.sampler  # type: ignore[misc]
        tree.WEIGHED_CHOICES = self.choices
        try:
            return super()._search(view, also)
        finally:
            tree.Sampler = shipped  # type: ignore[misc]
            tree.WEIGHED_CHOICES = shipped_choices
