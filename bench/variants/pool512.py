"""The shipped expert drawing a pool of 512 deals (instead of 128) when the learnt
models choose them (bench/regret.py, RESULTS.md "Eighteenth session")."""

from __future__ import annotations

from typing import Any

from blackout.bots import expert


def with_pool(size: int) -> type[expert.ExpertBot]:
    """The shipped expert with a learnt pool of ``size`` deals."""

    class ExpertBot(expert.ExpertBot):
        def _evidence(self, view: Any, models: tuple[int, ...]) -> Any:
            fits, plays, pool = super()._evidence(view, models)
            return fits, plays, size if pool == expert.LEARNT_POOL else pool

    return ExpertBot


ExpertBot = with_pool(512)
