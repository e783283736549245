"""The expert whose own bid is chosen by the search's make chance corrected: the search
foresees its bids of two or more made less often than it then makes them (its play-outs
play worse than its searched cards), so each candidate's mean points are moved by ten
times the difference between a make chance mapped by a logistic fitted on self-play
and the one foreseen.  Only for ``tricks_plus_ten`` scoring (OpenSpiel's ``oh_hell``,
where an exact bid is worth ten points more); the map's coefficients are
``BLACKOUT_MADE_CALIBRATION`` (``a,b,c,d``: logit of the made chance is
a + b·logit(foreseen) + c·bid/cards + d·[bid is 0])."""

from __future__ import annotations

import math
import os
from typing import Any

from blackout.bots import expert
from blackout.core.actions import Bid
from foresight import features  # bench/ is on the path, as for ab.py

_DEFAULT = "0.245,0.646,1.041,-0.421"
# Candidates searched less than this share of the most searched one are left as they are:
# their foreseen chance is too noisy to move.
_MIN_SHARE = 0.1


def calibrated(foreseen: float, bid: int, cards: int, coefficients: list[float]) -> float:
    """The make chance the map gives (its inputs as `bench/foresight.py` fits it)."""
    z = sum(c * x for c, x in zip(coefficients, features(foreseen, bid, cards), strict=True))
    return 1 / (1 + math.exp(-z))


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        verdict = super()._search(view, also)
        if view.phase != "bid" or view.rules.scoring != "tricks_plus_ten" or not verdict.found:
            return verdict
        coefficients = [float(x) for x in
                        os.environ.get("BLACKOUT_MADE_CALIBRATION", _DEFAULT).split(",")]
        most = max(stats.visits for stats in verdict.found.values())

        def score(action: Any) -> float:
            stats = verdict.found[action]
            mean = stats.points / stats.visits
            if not isinstance(action, Bid):
                return mean
            foreseen = stats.made / stats.visits
            return mean + 10 * (calibrated(foreseen, action.tricks, view.cards_dealt,
                                           coefficients) - foreseen)

        searched = [a for a, stats in verdict.found.items() if stats.visits >= _MIN_SHARE * most]
        best = max(searched, key=score)
        return expert._Verdict(best, verdict.found)
