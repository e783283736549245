"""``bidrich`` whose deals also explain the others' cards: a decision draws ``CANDIDATES``
deals that fit the bids (as ``bidrich``) and keeps a pool of ``POOL`` drawn from them in
proportion to the chance of the cards each hidden seat has played, by the learnt play
model of ``playmodel``, raised to the power ``SHARPNESS``.  (The candidates are drawn
whatever the time budget, and every seat is searched by the policy: no seat is taken for
a basic bot; enough for the runs against ISMCTS, not for a shipped bot.)"""

from __future__ import annotations

import itertools
import math
from typing import Any

import bidrich
import playmodel

from blackout.bots import expert, tree
from blackout.bots.sampling import Sampler

CANDIDATES = 128
POOL = 128
SHARPNESS = 1.0


def _make_deals(sharpness: float) -> Any:
    def deals(view: Any, search: Any, fits: Any, deadline: float, timed: bool,
              card_weights: Any = None) -> Any:
        sampler, rng = Sampler(view), search.rng
        candidates = [sampler.sample_fitting(rng, fits) if fits is not None
                      else sampler.sample(rng) for _ in range(CANDIDATES)]
        plays = playmodel.Plays(view)
        if plays.plays:
            logs = [sharpness * plays.log_likelihood(deal) for deal in candidates]
            top = max(logs)
            pool = rng.choices(candidates, [math.exp(log - top) for log in logs], k=POOL)
        else:
            pool = candidates[:POOL]
        in_turn = itertools.cycle(pool)
        return lambda: list(next(in_turn))
    return deals


class ExpertBot(expert.ExpertBot):
    sharpness = SHARPNESS

    def _search(self, view: Any, also: Any = None) -> Any:
        shipped_test, shipped_deals = expert._bids_test, tree._deals
        expert._bids_test = bidrich._bids_test
        tree._deals = _make_deals(self.sharpness)
        try:
            return super()._search(view, also)
        finally:
            expert._bids_test = shipped_test
            tree._deals = shipped_deals
