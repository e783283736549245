"""The shipped expert judging a bid by play-outs of the whole hand by the policy: no
play tree under a bid (cards are searched as shipped)."""

from typing import Any

from blackout.bots import expert, tree


class _FlatLine(tree._Line):
    def iterate(self, hands: list[int]) -> tuple[int, tree.Outcome]:
        won = list(self.won)
        remaining = 0
        for hand in hands:
            remaining |= hand
        deck = self.search.unseen & ~remaining
        tree.play_out(hands, self.trump, self.leader, list(self.trick), won, self.goals,
                      self.search.models, deck, self.endgame, self.search.weights)
        return -1, self._outcome(tuple(won))


_shipped_line = tree._Line
_shipped_search = expert.search_before_play


def _search_before_play(*args: Any, **options: Any) -> Any:
    tree._Line = _FlatLine  # type: ignore[misc]
    try:
        return _shipped_search(*args, **options)
    finally:
        tree._Line = _shipped_line  # type: ignore[misc]


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        expert.search_before_play = _search_before_play
        try:
            return super()._search(view, also)
        finally:
            expert.search_before_play = _shipped_search
