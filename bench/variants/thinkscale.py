"""The shipped expert given ``BLACKOUT_THINK_SCALE`` (default 0.5) times the time a
decision that the bench gives every bot: against ISMCTS on its full budget, what the
expert's search time is worth (at 0.5, what halving it costs; "Forty-first session")."""

from __future__ import annotations

import os
from typing import Any

from blackout.bots import expert

THINK_SCALE = float(os.environ.get("BLACKOUT_THINK_SCALE", "0.5"))


class ExpertBot(expert.ExpertBot):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.think *= THINK_SCALE  # the shipped default too, not a copy of it
