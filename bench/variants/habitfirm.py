"""The deals of a player the search plays by its own habit judged as the search plays it:
each of its cards played is the habit's best card with chance 1 - ε and otherwise drawn
from the habit's model, ε = ``BLACKOUT_HABIT_EPS`` (default 0.1), instead of the habit
model's chance alone (the pool's weights and the card-by-card draw both; tempered as
shipped)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from blackout.bots import expert
from blackout.bots.inference import HandEvidence, PlayModel, log_softmax
from blackout.bots.playout import HABIT
from blackout.bots.tree import Fits, PlayEvidence
from blackout.core.view import View


@dataclass(frozen=True, slots=True)
class _Firm(PlayModel):
    """A habit's model whose best card is played with chance 1 - ε at least."""

    eps: float = 0.1

    def log_chance(self, card: int, cards: list[int], rows: list[list[float]]) -> float:
        scores = self.scores(rows)
        index = cards.index(card)
        chance = self.eps * math.exp(log_softmax(scores, index))
        if scores[index] == max(scores):
            chance += 1 - self.eps
        return math.log(chance)


class ExpertBot(expert.ExpertBot):
    def _evidence(self, view: View, models: tuple[int, ...]
                  ) -> tuple[Fits | None, PlayEvidence | None, int]:
        fits, plays, pool = super()._evidence(view, models)
        if isinstance(plays, HandEvidence):
            eps = float(os.environ.get("BLACKOUT_HABIT_EPS", "0.1"))
            for seat, model in enumerate(models):
                own = self._own_habit(view, seat) if model == HABIT else None
                if own is not None and seat in plays.play_models:
                    plays.play_models[seat] = _Firm(own.weights, eps)
        return fits, plays, pool
