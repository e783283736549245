"""The shipped expert letting, in its tree, each player whose habit is weights of its own
(``inference.Habits``: its cards predicted better by them than by the learnt model
scaled) play a card drawn from that model, instead of searching that player's reply by
UCB; the play-outs below as shipped (the policy's until the twenty-third session, since
then that player's habit; bench/RESULTS.md, "Twentieth session")."""

from __future__ import annotations

import math
import random
from typing import Any

from _swap import swapped

from blackout.bots import expert, tree
from blackout.bots.inference import PlayModel
from blackout.bots.playout import BASIC, play_features

#: seat -> the model its cards are drawn from, for the decision under way.
_PREDICTED: dict[int, PlayModel] = {}
#: The turned-up card of the decision under way (counted among the unplayed cards).
_TURN_UP = [0]


def _drawn(model: PlayModel, hand: int, trick: list[int], trump: int, need: int, last: bool,
           unplayed: int, rng: random.Random) -> int:
    cards, rows = play_features(hand, trick, trump, need, last, unplayed)
    if len(cards) == 1:
        return cards[0]
    scores = model.scores(rows)
    top = max(scores)
    return rng.choices(cards, [math.exp(s - top) for s in scores])[0]


def _modelled(self: Any, seat: int, hand: int, trick: list[int], won: list[int],
              others: int) -> int:
    search = self.search
    target = self.goals.targets[seat]
    if seat not in _PREDICTED or search.models[seat] == BASIC or target < 0:
        return int(_SHIPPED(self, seat, hand, trick, won, others))
    return _drawn(_PREDICTED[seat], hand, trick, self.trump, target - won[seat],
                  len(trick) == search.players - 1, hand | others | _TURN_UP[0], search.rng)


_SHIPPED = tree._Line._modelled


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        habits = self._watch.habits
        _PREDICTED.clear()
        if habits is not None and not view.rules.teams:
            for seat, seen in habits._plays.items():
                play = habits.habit(seat).play
                if seat != view.seat and play is not None and play is seen.own:
                    _PREDICTED[seat] = play
        if not _PREDICTED:
            return super()._search(view, also)
        _TURN_UP[0] = view.turn_up_mask
        with swapped(tree._Line, _modelled=_modelled):
            return super()._search(view, also)
