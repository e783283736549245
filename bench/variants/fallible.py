"""The shipped expert expecting the others to err: in its play trees, a node where
another seat chooses explores ``BLACKOUT_THEIR_EXPLORATION`` (default 2) times as much
as the bot's own nodes, so the value it backs up is an average over more of their
replies instead of their best reply (the shipped tree takes every seat for as careful a
searcher as itself)."""

import os
from typing import Any

from blackout.bots import expert, tree
from blackout.bots.playout import BASIC, model_card, next_turn, play_out
from blackout.core.game import playable

THEIRS = float(os.environ.get("BLACKOUT_THEIR_EXPLORATION", "2"))
_shipped_iterate = tree._Line.iterate


def _iterate(self: Any, hands: list[int]) -> tuple[int, Any]:
    """tree._Line.iterate with the others' nodes explored THEIRS times as much."""
    n, trump = self.search.players, self.trump
    trick, leader, won = list(self.trick), self.leader, list(self.won)
    seat = (leader + len(trick)) % n
    me = self.search.me
    remaining = 0
    for hand in hands:
        remaining |= hand
    models = self.search.models
    deck = self.search.unseen & ~remaining
    node = self.root
    path: list[tuple[int, int]] = []
    first_card = -1
    while remaining:
        hand = hands[seat]
        legal = playable(hand, trick)
        if first_card < 0:
            allowed = legal & self.first
            card, node, grown = (self._select(node, allowed) if seat == me
                                 else _select_theirs(self, node, allowed))
            first_card = card
        elif models[seat] == BASIC:
            card = model_card(hand, remaining & ~hand | deck, trick, trump,
                              self.goals.targets[seat] - won[seat], len(trick) == n - 1)
            node, grown = self._follow(node, card)
        elif seat == me:
            card, node, grown = self._select(node, legal)
        else:
            card, node, grown = _select_theirs(self, node, legal)
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
    visits, total = self.search.tree.visits, self.search.tree.total
    for visited, mover in path:
        visits[visited] += 1
        total[visited] += values[mover]
    return first_card, outcome


def _select_theirs(self: Any, node: int, legal: int) -> tuple[int, int, bool]:
    search = self.search
    shipped = search.exploration
    search.exploration = shipped * THEIRS
    try:
        return self._select(node, legal)
    finally:
        search.exploration = shipped


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        shipped_init = tree._Search.__init__

        def init(search: Any, v: Any, *args: Any, **kwargs: Any) -> None:
            shipped_init(search, v, *args, **kwargs)
            search.me = v.own_seat

        tree._Line.iterate = _iterate
        tree._Search.__init__ = init
        try:
            return super()._search(view, also)
        finally:
            tree._Line.iterate = _shipped_iterate
            tree._Search.__init__ = shipped_init

