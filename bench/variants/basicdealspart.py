"""``basicdeals`` on one side of the evidence only (``BLACKOUT_BASIC_DEALS``): ``bids``,
every other seat dealt only hands with which the basic bot would have bid as it did, its
cards judged by the learnt play model as shipped; ``plays``, only hands with which the
basic bot would have played its cards as it did, its bid judged by the learnt bid model
as shipped.  Which of the two gives ``basicdeals`` its gain."""

from __future__ import annotations

import os
from array import array

from blackout.bots import expert
from blackout.bots.playout import BASIC
from blackout.bots.tree import Fits, PlayEvidence
from blackout.core.view import View


class _Both:
    """The basic bot's test on one side, the shipped evidence's chance on the other."""

    def __init__(self, basic: Fits, shipped: Fits | None) -> None:
        self.basic = basic
        self.shipped = shipped

    def __call__(self, seat: int, hand: int) -> float:
        if not self.basic(seat, hand):
            return 0.0
        return 1.0 if self.shipped is None else self.shipped(seat, hand)


class ExpertBot(expert.ExpertBot):
    def _evidence(self, view: View, models: tuple[int, ...]
                  ) -> tuple[Fits | None, PlayEvidence | None, int]:
        side = os.environ.get("BLACKOUT_BASIC_DEALS", "bids")
        every_basic = tuple(BASIC if seat != view.seat else model
                            for seat, model in enumerate(models))
        basic = expert._bids_test(view, every_basic)
        fits, plays, pool = super()._evidence(view, models)
        if basic is None:
            return fits, plays, pool
        if side == "bids":  # the basic bot's bids, no test of its cards
            basic.plays = {seat: [] for seat in basic.plays}
            basic._packed = {seat: array("q").tobytes() for seat in basic._packed}
            return _Both(basic, fits), plays, pool
        # the basic bot's cards, no test of its bid
        basic._bid_fits = _Always()
        return _Both(basic, fits), None, expert.LEARNT_POOL


class _Always(dict[tuple[int, int], bool]):
    def get(self, key: object, default: object = None) -> bool:
        return True
