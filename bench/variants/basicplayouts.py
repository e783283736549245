"""The expert with ``others="policy"`` told, in its play-outs only, that every other seat
plays by the basic bot's rules (``playout.basic_card``): the tree still searches their
replies and the deals and bids are judged as by the learnt models.  Against ``basic``,
the most a perfect model of the others' cards in the play-outs could be worth
(bench/RESULTS.md, "Twentieth session")."""

from __future__ import annotations

from typing import Any

from _swap import swapped

from blackout.bots import expert, tree
from blackout.bots.playout import BASIC
from blackout.bots.playout import play_out as shipped_play_out


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        me = view.seat

        def play_out(hands: Any, trump: Any, leader: Any, trick: Any, won: Any, goals: Any,
                     models: Any = None, deck: int = 0, endgame: Any = None,
                     weights: Any = None) -> Any:
            basic = tuple(BASIC if s != me else m for s, m in enumerate(models))
            return shipped_play_out(hands, trump, leader, trick, won, goals, basic, deck, endgame)

        with swapped(tree, play_out=play_out):
            return super()._search(view, also)
