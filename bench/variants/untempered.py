"""The shipped expert weighing its pool's deals by the full chance of the others' plays,
as before the nineteenth session (power 1, not ``inference.PLAY_EVIDENCE_POWER``;
bench/RESULTS.md, "Nineteenth session")."""

from __future__ import annotations

from typing import Any

from blackout.bots import expert
from blackout.bots.inference import PLAY_EVIDENCE_POWER


class ExpertBot(expert.ExpertBot):
    def _evidence(self, view: Any, models: tuple[int, ...]) -> Any:
        fits, plays, pool = super()._evidence(view, models)
        if plays is None:
            return fits, plays, pool
        return fits, lambda deal: plays(deal) / PLAY_EVIDENCE_POWER, pool
