"""The shipped expert letting, in its tree, each player whose habit is weights of its own
(``inference.Habits``: its cards predicted better by them than by the learnt model
scaled) play a card drawn from that model, instead of searching that player's reply by
UCB; the play-outs below stay the policy's (bench/RESULTS.md, "Twentieth session")."""

from __future__ import annotations

import math
import random
from typing import Any

from blackout.bots import expert, tree
from blackout.bots.inference import PlayModel, play_features
from blackout.bots.playout import BASIC, model_card, next_turn, play_out
from blackout.core.game import playable

_tree: Any = tree  # its _Line.iterate and _Search.__init__ are swapped in for one decision
#: seat -> the model its cards are drawn from, for the decision under way.
_PREDICTED: dict[int, PlayModel] = {}


def _drawn(model: PlayModel, hand: int, trick: list[int], trump: int, need: int, last: bool,
           unplayed: int, rng: random.Random) -> int:
    cards, rows = play_features(hand, trick, trump, need, last, unplayed)
    if len(cards) == 1:
        return cards[0]
    scores = model.scores(rows)
    top = max(scores)
    return rng.choices(cards, [math.exp(s - top) for s in scores])[0]


def _iterate(self: Any, hands: list[int]) -> tuple[int, Any]:
    """A copy of ``tree._Line.iterate`` with one branch more: the predicted seats' cards
    drawn from their models."""
    search = self.search
    n, trump = search.players, self.trump
    trick, leader, won = list(self.trick), self.leader, list(self.won)
    seat = (leader + len(trick)) % n
    remaining = 0
    for hand in hands:
        remaining |= hand
    models = search.models
    deck = search.unseen & ~remaining
    node = self.root
    path: list[tuple[int, int]] = []
    first_card = -1
    while remaining:
        hand = hands[seat]
        legal = playable(hand, trick)
        if first_card < 0:
            card, node, grown = self._select(node, legal & self.first, seat)
            first_card = card
        elif models[seat] == BASIC:
            card = model_card(hand, remaining & ~hand | deck, trick, trump,
                              self.goals.targets[seat] - won[seat], len(trick) == n - 1)
            node, grown = self._follow(node, card)
        elif seat in _PREDICTED and self.goals.targets[seat] >= 0:
            card = _drawn(_PREDICTED[seat], hand, trick, trump,
                          self.goals.targets[seat] - won[seat], len(trick) == n - 1,
                          remaining | deck | search.turn_up, search.rng)
            node, grown = self._follow(node, card)
        else:
            card, node, grown = self._select(node, legal, seat)
        path.append((node, seat))
        hands[seat] = hand & ~(1 << card)
        remaining &= ~(1 << card)
        trick.append(card)
        trick, leader, seat = next_turn(trick, leader, won, trump, n)
        if grown:
            break
    if remaining:
        play_out(hands, trump, leader, trick, won, self.goals, models, deck, self.endgame)
    outcome = self._outcome(tuple(won))
    values = outcome.values
    visits, total = search.tree.visits, search.tree.total
    for visited, mover in path:
        visits[visited] += 1
        total[visited] += values[mover]
    return first_card, outcome


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
        shipped_iterate, shipped_init = _tree._Line.iterate, _tree._Search.__init__
        turn_up = 0 if view.turn_up is None else 1 << int(view.turn_up)

        def init(search: Any, *args: Any, **kwargs: Any) -> None:
            shipped_init(search, *args, **kwargs)
            search.turn_up = turn_up

        _tree._Line.iterate, _tree._Search.__init__ = _iterate, init
        try:
            return super()._search(view, also)
        finally:
            _tree._Line.iterate, _tree._Search.__init__ = shipped_iterate, shipped_init
