"""The shipped expert with each player's play habit found from its own cards only, never
the weights fitted to every other player's cards together (the table's, shipped in the
twenty-fifth session, ``inference.Habits``): the expert as it was before."""

from __future__ import annotations

from typing import Any

from _habits import watch_with

from blackout.bots import expert
from blackout.bots.inference import Habits, PlayModel

__all__ = ["ExpertBot"]


class SeatHabits(Habits):
    def _table_play(self, seat: int) -> PlayModel | None:
        return None


class ExpertBot(expert.ExpertBot):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._watch = watch_with(SeatHabits)
