"""A shipped expert's watch of the table, learning with another kind of habits: for a
variant that changes what the habits keep or how they are fitted."""

from __future__ import annotations

from blackout.bots import expert
from blackout.bots.inference import Habits, Models

__all__ = ["watch_with"]


def watch_with(habits: type[Habits]) -> expert._Watch:
    """A new watch whose habits are ``habits`` (fed the shipped models)."""

    class _Watch(expert._Watch):
        @staticmethod
        def _new_habits() -> Habits | None:
            models = Models.shipped()
            return None if models is None else habits(models)

    return _Watch()
