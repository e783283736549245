"""The expert with ``others="policy"`` told, in its tree only, that every other seat plays
by the basic bot's rules (``playout.basic_card``: its card followed, not searched); the
play-outs below stay the policy's and the deals and bids are judged as by the learnt
models.  With ``basicplayouts`` (the play-outs only), where a perfect model of the others'
cards pays against ``basic`` (bench/RESULTS.md, "Twentieth session")."""

from __future__ import annotations

from typing import Any

from _swap import swapped

from blackout.bots import expert, tree
from blackout.bots.playout import BASIC, POLICY
from blackout.bots.playout import play_out as shipped_play_out


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        shipped_init = tree._Search.__init__
        me = view.seat

        def init(search: Any, *args: Any, **kwargs: Any) -> None:
            shipped_init(search, *args, **kwargs)
            search.models = tuple(BASIC if s != me else m for s, m in enumerate(search.models))

        def play_out(hands: Any, trump: Any, leader: Any, trick: Any, won: Any, goals: Any,
                     models: Any = None, deck: int = 0, endgame: Any = None,
                     weights: Any = None) -> Any:
            policy = (POLICY,) * len(hands)
            return shipped_play_out(hands, trump, leader, trick, won, goals, policy, deck,
                                    endgame)

        with swapped(tree._Search, __init__=init), swapped(tree, play_out=play_out):
            return super()._search(view, also)
