"""The shipped expert shown every hand when it bids only (``bench/bots.py`` and
``bench/ab.py`` pass the game along to a bot with ``choose_seeing_all``): what knowing
the hidden cards is worth at the bids."""

import dataclasses
from typing import Any

from blackout.bots import expert


class ExpertBot(expert.ExpertBot):
    cheat_phases = ("bid",)

    def choose_seeing_all(self, view: Any, game: Any) -> Any:
        if view.phase in self.cheat_phases:
            hands = tuple(game.view(s).hands[s] for s in range(game.n))
            view = dataclasses.replace(view, hands=hands)
        return self.choose(view)
