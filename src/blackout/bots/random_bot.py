"""Uniformly random legal play, for tests and as a baseline."""

from __future__ import annotations

import random

from blackout.core.actions import Action
from blackout.core.view import View


class RandomBot:
    """Picks uniformly among the legal actions; never changes a bid out of turn."""

    name = "random"
    instant = True  # decides in microseconds (see blackout.bots.base.Bot)

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Action | None:
        if view.to_move != view.seat or not view.legal_actions:
            return None
        return self._rng.choice(view.legal_actions)
