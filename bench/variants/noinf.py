"""The shipped expert with the learnt card model off."""

from typing import Any

from blackout.bots import expert


class ExpertBot(expert.ExpertBot):
    def __init__(self, **options: Any) -> None:
        options.setdefault("inference", False)
        super().__init__(**options)
