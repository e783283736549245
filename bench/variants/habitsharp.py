"""The shipped expert judging the deals of a player it plays by its own habit
(``playout.HABIT``) by that habit made surer: its scores times ``BLACKOUT_HABIT_SHARPNESS``
(default 2) when the pool's deals are weighed and drawn by the player's plays, as the
search does for a player it takes for a basic bot, whose every play must fit
(twenty-fourth session)."""

from __future__ import annotations

import os
from typing import Any

from _swap import swapped

from blackout.bots import expert, inference

__all__ = ["ExpertBot"]

_SHARPNESS = float(os.environ.get("BLACKOUT_HABIT_SHARPNESS", "2"))


class _Evidence(inference.HandEvidence):
    def __init__(self, view: Any, seats: Any, models: Any, habits: Any = None) -> None:
        super().__init__(view, seats, models, habits)
        if habits is None:
            return
        for seat in self.play_models:
            own = habits.own_play(seat)
            if own is not None:
                self.play_models[seat] = own.sharpened(_SHARPNESS)


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(expert, HandEvidence=_Evidence):
            return super()._search(view, also)
