"""The expert whose deals give every other seat only hands with which the basic bot would
have bid and played as that seat did (as the shipped expert deals a seat it took for a
basic bot), while it plays and guesses the bids to come as shipped: against ``basic``,
the most a perfect model of the others' hands could give the deals alone."""

from __future__ import annotations

from blackout.bots import expert
from blackout.bots.playout import BASIC
from blackout.bots.tree import Fits, PlayEvidence
from blackout.core.view import View


class ExpertBot(expert.ExpertBot):
    def _evidence(self, view: View, models: tuple[int, ...]
                  ) -> tuple[Fits | None, PlayEvidence | None, int]:
        every_basic = tuple(BASIC if seat != view.seat else model
                            for seat, model in enumerate(models))
        basic = expert._bids_test(view, every_basic)
        if basic is None:
            return super()._evidence(view, models)
        return basic, None, expert.BASIC_POOL
