"""The shipped expert tempering its pool's weights so the pool keeps an effective sample
size of at least a quarter of its deals: where the others' plays make a few deals far
likelier than the rest (a sharp model of a player's cards), the weights are raised to
the largest power at most 1 that leaves (sum w)^2 / sum w^2 >= 0.25 x the pool
(bench/RESULTS.md, "Twenty-first session")."""

from __future__ import annotations

import math
import random
from typing import Any

from _swap import swapped

from blackout.bots import expert, tree

ESS_SHARE = 0.25


def _ess(shifted: list[float], power: float) -> float:
    weights = [math.exp(power * s) for s in shifted]
    return sum(weights) ** 2 / sum(w * w for w in weights)


def _power(shifted: list[float], target: float) -> float:
    """The largest power at most 1 whose weights keep an effective sample of ``target``
    (bisection)."""
    if _ess(shifted, 1.0) >= target:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(12):
        middle = (low + high) / 2
        if _ess(shifted, middle) >= target:
            low = middle
        else:
            high = middle
    return low


def _resampled(pool: list[list[int]], logs: list[float], rng: random.Random
               ) -> list[list[int]]:
    """``tree._resampled`` with the log weights times the power (see the module)."""
    top = max(logs)
    shifted = [log - top for log in logs]
    power = _power(shifted, ESS_SHARE * len(pool))
    return rng.choices(pool, [math.exp(power * s) for s in shifted], k=len(pool))


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(tree, _resampled=_resampled):
            return super()._search(view, also)
