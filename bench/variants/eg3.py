"""The shipped expert solving the last 3 tricks of every play-out exactly."""

from typing import Any

from blackout.bots import expert


class ExpertBot(expert.ExpertBot):
    def __init__(self, **options: Any) -> None:
        options.setdefault("endgame", 3)
        super().__init__(**options)
