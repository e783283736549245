"""The shipped expert judging a bid by play-outs of the whole hand by the policy: no
play tree under a bid (cards are searched as shipped)."""

from typing import Any

from _swap import swapped

from blackout.bots import expert, tree
from blackout.bots.playout import play_out
from blackout.bots.tree import search_before_play as _shipped_search


class _FlatLine(tree._Line):
    def iterate(self, hands: list[int]) -> tuple[int, tree.Outcome]:
        won = list(self.won)
        remaining = 0
        for hand in hands:
            remaining |= hand
        deck = self.search.unseen & ~remaining
        play_out(hands, self.trump, self.leader, list(self.trick), won, self.goals,
                 self.search.models, deck, self.endgame, self.search.weights)
        return -1, self._outcome(tuple(won))


def _search_before_play(*args: Any, **options: Any) -> Any:
    with swapped(tree, _Line=_FlatLine):
        return _shipped_search(*args, **options)


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(expert, search_before_play=_search_before_play):
            return super()._search(view, also)
