"""The shipped expert that, once its own exact bid is out of reach (it has taken more
tricks than it bid, or needs more than are left), plays the rest of the hand for its
points less its rivals' average (``BLACKOUT_SPOIL_RIVALRY``, default 1) instead of for
its points alone: what is left to win is a point a trick, what is left to spoil is a
rival's bonus, so "if you can't make yours, break theirs".  Only the deciding seat's
value changes; the others are still searched as playing for their own points (the
shipped ``rivalry``), and nothing changes while its bid can still be made."""

from __future__ import annotations

import os
from typing import Any

from _swap import swapped

from blackout.bots import expert, tree
from out_of_reach import out_of_reach  # bench/ is on the path (bench/bots.py, ab.py)

SPOIL_RIVALRY = float(os.environ.get("BLACKOUT_SPOIL_RIVALRY", "1"))


class _SpoilingSearch(tree._Search):
    def __init__(self, view: Any, *args: Any) -> None:
        super().__init__(view, *args)
        self.spoiling = out_of_reach(view)

    def values(self, points: tuple[int, ...]) -> list[float]:
        values = super().values(points)
        if self.spoiling:
            me, n = self.me, self.players
            values[me] = points[me] - SPOIL_RIVALRY * (sum(points) - points[me]) / (n - 1)
            self.low = min(self.low, values[me])
            self.high = max(self.high, values[me])
        return values


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(tree, _Search=_SpoilingSearch):
            return super()._search(view, also)
