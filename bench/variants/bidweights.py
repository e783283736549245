"""Each player's bid habit as coefficients of its own: the bid model's mean refitted to
the bids seen of that player (and of every other player too when the search plays the
seat by the table's play weights: a table of players of one habit), by least squares
held to the learnt coefficients by a Gaussian prior (precision ``BLACKOUT_BID_PRECISION``
a coefficient, default 4, in bids² units), and its spread the refit's residual spread
(at least a quarter of a trick), instead of the learnt mean shifted by an offset with the
learnt spread scaled.  Used where the deals are judged by the bids (``HandEvidence``)."""

from __future__ import annotations

import math
import os
from typing import Any

from _habits import watch_with

from blackout.bots import expert, inference
from blackout.bots.inference import BidModel, Habits, HandEvidence, Models, _solve
from blackout.bots.tree import Fits, PlayEvidence
from blackout.core.view import View

__all__ = ["ExpertBot"]

_LEAST_SPREAD = 0.25


class BidHabits(Habits):
    def __init__(self, models: Models) -> None:
        super().__init__(models)
        self.rows: dict[int, list[tuple[list[float], int]]] = {}

    def learn(self, view: View) -> None:
        played = view.played_by()
        known = {s for s in range(view.players_count)
                 if s != view.seat and played[s].bit_count() == view.cards_dealt}
        if known:
            evidence = HandEvidence(view, known, self.models)
            for seat, (_, bid, *_) in evidence.bids.items():
                self.rows.setdefault(seat, []).append((evidence.bid_row(seat, 0), bid))
        super().learn(view)

    def bid_model(self, seat: int) -> BidModel | None:
        data = list(self.rows.get(seat, []))
        if self._table_is_followed(seat):
            data = [pair for rows in self.rows.values() for pair in rows]
        if len(data) < 3:
            return None
        learnt = self.models.bid
        prior = learnt.coefficients
        precision = float(os.environ.get("BLACKOUT_BID_PRECISION", "4"))
        width = len(prior)
        matrix = [[precision if j == k else 0.0 for k in range(width)] for j in range(width)]
        vector = [precision * p for p in prior]
        for row, bid in data:
            for j in range(width):
                if row[j]:
                    vector[j] += row[j] * bid
                    for k in range(width):
                        matrix[j][k] += row[j] * row[k]
        coefficients = tuple(_solve(matrix, vector))
        refit = BidModel(coefficients, learnt.spread)
        residual = math.sqrt(sum((bid - refit.mean(row)) ** 2 for row, bid in data) / len(data))
        deviation = sum(learnt.deviation(row) for row, _ in data) / len(data)
        return refit.sharpened(max(residual, _LEAST_SPREAD) / deviation)

    def _table_is_followed(self, seat: int) -> bool:
        return self._table_play(seat) is not None


class ExpertBot(expert.ExpertBot):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._watch = watch_with(BidHabits)

    def _evidence(self, view: View, models: tuple[int, ...]
                  ) -> tuple[Fits | None, PlayEvidence | None, int]:
        fits, plays, pool = super()._evidence(view, models)
        habits = self._watch.habits
        learnt = plays if isinstance(plays, HandEvidence) else getattr(fits, "learnt", None)
        if isinstance(habits, BidHabits) and isinstance(learnt, HandEvidence):
            table = inference.bid_features(0, learnt.trump, view.players_count, False, False,
                                           view.rules, False, learnt.seen)
            table[inference.BID_FEATURES.index("cards")] = view.cards_dealt / 13
            for seat, (played, bid, _, first, last) in list(learnt.bids.items()):
                model = habits.bid_model(seat)
                if model is not None:
                    learnt.bid_models[seat] = model
                    best = model.best_chance(bid, table, view.cards_dealt)
                    learnt.bids[seat] = (played, bid, best, first, last)
        return fits, plays, pool
