"""The shipped expert told which unseen cards are in play, not who holds them: the
knowledge OpenSpiel's ``oh_hell`` resampler leaks to ISMCTS as shipped
(``bench/bots.py --ismcts-root as-is``), given to the expert too, so the two search with
equal information (``bench/bots.py`` and ``bench/ab.py`` pass the game along to a bot
with ``choose_seeing_all``).  A diagnostic, never a player: no real table says this."""

import dataclasses
from typing import Any

from blackout.bots import expert
from blackout.core.view import View


@dataclasses.dataclass(frozen=True, slots=True)
class LeakedView(View):
    """A view whose unseen cards are only those some hidden hand still holds."""

    in_play: int = 0

    def unseen(self) -> int:
        return View.unseen(self) & self.in_play


class ExpertBot(expert.ExpertBot):
    def choose_seeing_all(self, view: Any, game: Any) -> Any:
        in_play = 0
        for seat in range(game.n):
            in_play |= game.view(seat).hands[seat] or 0
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(View)}
        return self.choose(LeakedView(**fields, in_play=in_play))
