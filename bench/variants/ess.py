"""The shipped expert tempering its pool's weights so the pool keeps an effective sample
size of at least a quarter of its deals: where the others' plays make a few deals far
likelier than the rest (a sharp model of a player's cards), the weights are raised to
the largest power at most 1 that leaves (sum w)^2 / sum w^2 >= 0.25 x the pool
(bench/RESULTS.md, "Twenty-first session")."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from typing import Any

from blackout.bots import expert
from blackout.bots import tree as _tree
from blackout.bots.sampling import Sampler

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


def _deals(view: Any, search: Any, fits: Any, deadline: float, iterations: int | None,
           plays: Any = None, pool_size: int = _tree.POOL_DEALS) -> Callable[[], list[int]]:
    """A copy of ``tree._deals`` whose pool weights are tempered (see the module)."""
    sampler, rng = Sampler(view), search.rng
    if fits is None and plays is None:
        return lambda: sampler.sample(rng)
    timed = iterations is None
    if iterations is not None:
        pool_size = max(1, min(pool_size, iterations))
    pool: list[list[int]] = []
    logs: list[float] = []
    started = time.monotonic()
    enough = started + (deadline - started) / 2
    while len(pool) < pool_size and not (pool and timed and time.monotonic() > enough):
        deal = (sampler.sample(rng) if fits is None else
                sampler.sample_fitting(rng, fits, until=enough if timed else None))
        pool.append(deal)
        if plays is not None:
            logs.append(plays(deal))
    if plays is not None and len(pool) > 1:
        top = max(logs)
        shifted = [log - top for log in logs]
        power = _power(shifted, ESS_SHARE * len(pool))
        pool = rng.choices(pool, [math.exp(power * s) for s in shifted], k=len(pool))
    in_turn = itertools.cycle(pool)
    return lambda: list(next(in_turn))


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        shipped = _tree._deals
        _tree._deals = _deals
        try:
            return super()._search(view, also)
        finally:
            _tree._deals = shipped
