"""The expert with ``others="policy"`` told, in its tree only, that every other seat plays
by the basic bot's rules (``playout.basic_card``: its card followed, not searched); the
play-outs below stay the policy's and the deals and bids are judged as by the learnt
models.  With ``basicplayouts`` (the play-outs only), where a perfect model of the others'
cards pays against ``basic`` (bench/RESULTS.md, "Twentieth session")."""

from __future__ import annotations

from typing import Any

from blackout.bots import expert, tree
from blackout.bots.playout import BASIC, POLICY

_tree: Any = tree  # its _Search.__init__ and play_out are swapped in for one decision


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        shipped_init, shipped_play_out = _tree._Search.__init__, _tree.play_out
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

        _tree._Search.__init__, _tree.play_out = init, play_out
        try:
            return super()._search(view, also)
        finally:
            _tree._Search.__init__, _tree.play_out = shipped_init, shipped_play_out
