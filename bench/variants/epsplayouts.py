"""The shipped expert whose play-outs below its trees are ε-greedy: each seat played by
the fast policy plays, with chance ``BLACKOUT_PLAYOUT_EPSILON`` (default 0.2), a legal
card drawn uniformly instead of the policy's card.  A play-out by a deterministic
policy scores every deal as that policy would end it, so the policy's own blind spots
bias every value the tree backs up alike; a little randomness trades that bias for
variance (a common enhancement of Monte Carlo tree search's simulations).  Needs the C
accelerator's bench-only ``set_epsilon``, set for the length of each decision (one
worker, one process)."""

from __future__ import annotations

import os
import random
from typing import Any

from blackout.bots import expert
from blackout.bots.playout import _fast

_EPSILON = float(os.environ.get("BLACKOUT_PLAYOUT_EPSILON", "0.2"))
# Its own generator, seeded once: a fixed-iteration search stays repeatable in one process.
_RNG = random.Random(20261130)


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        set_epsilon = getattr(_fast, "set_epsilon", None)
        assert set_epsilon is not None, "needs the C accelerator's set_epsilon"
        set_epsilon(_EPSILON, _RNG.getrandbits(64))
        try:
            return super()._search(view, also)
        finally:
            set_epsilon(0.0, 1)
