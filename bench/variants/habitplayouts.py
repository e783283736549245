"""The shipped expert searching, in its tree, the replies of each player it plays by its
own habit (``playout.HABIT``), as it searches any player's not taken for a basic bot: the
habit plays that player's cards in the play-outs only (the first step of the
twenty-third session, bench/RESULTS.md)."""

from __future__ import annotations

from typing import Any

from blackout.bots import tree
from blackout.bots.expert import ExpertBot
from blackout.bots.playout import HABIT

__all__ = ["ExpertBot"]

_line: Any = tree._Line  # its _modelled is swapped for good
_shipped = _line._modelled


def _modelled(self: Any, seat: int, hand: int, trick: list[int], won: list[int],
              others: int) -> int:
    if self.search.models[seat] == HABIT:
        return -1
    return int(_shipped(self, seat, hand, trick, won, others))


_line._modelled = _modelled
