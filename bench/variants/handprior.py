"""The shipped expert whose play tree biases each seat's choice towards the cards the
learnt play model (:class:`blackout.bots.inference.PlayModel`) would play from the hand
that seat holds in the iteration's deal (progressive bias, Chaslot et al. 2008): a
child's UCB score gains ``BLACKOUT_PRIOR_WEIGHT`` (default 1) times the node's
exploration constant times the card's chance by the model, divided by the child's
visits + 1, and a node's untried cards are expanded most likely first.

The single-observer tree keeps one set of statistics for another seat's node whatever
that seat holds, so what it backs up is the card that seat plays on average over the
deals, not the card it plays with the cards it holds; the bias makes each seat's choice
lean, deal by deal, on its own hand, a cheap step towards a tree per player.
``BLACKOUT_PRIOR_SEATS`` = ``others`` (default) biases the other seats only, ``all``
the deciding seat's own cards too (the one it decides and its later ones; not measured)."""

from __future__ import annotations

import math
import os
from typing import Any

from _swap import swapped

from blackout.bots import expert, tree
from blackout.bots.inference import Models
from blackout.bots.playout import _fast, next_turn, play_features, play_out
from blackout.core.game import playable

_MODELS = Models.shipped()
assert _MODELS is not None, "needs the learnt models shipped with the package"
_WEIGHTS = list(_MODELS.play.weights)
_PRIOR = float(os.environ.get("BLACKOUT_PRIOR_WEIGHT", "1"))
_ALL_SEATS = os.environ.get("BLACKOUT_PRIOR_SEATS", "others") == "all"


def _python_play_scores(hand: int, others: int, trick: list[int], trump: int, need: int,
                        last: bool, weights: list[float]) -> list[float]:
    _cards, rows = play_features(hand, trick, trump, need, last, hand | others)
    return [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]


_play_scores = _python_play_scores if _fast is None else _fast.play_scores


def _chances(line: Any, seat: int, hand: int, trick: list[int], won: list[int],
             others: int, legal: int) -> dict[int, float]:
    """Each legal card's chance by the learnt play model for ``seat`` holding ``hand``."""
    need = line.goals.targets[seat] - won[seat]
    last = len(trick) == line.search.players - 1
    scores = _play_scores(hand, others, trick, line.trump, need, last, _WEIGHTS)
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    cards = []
    while legal:
        low = legal & -legal
        legal ^= low
        cards.append(low.bit_length() - 1)
    return {card: e / total for card, e in zip(cards, exps, strict=True)}


def _select(line: Any, node: int, legal: int, seat: int,
            chances: dict[int, float]) -> tuple[int, int, bool]:
    """``_Line._select`` with the bias (``legal`` here is the playable cards, all of
    which ``chances`` covers unless the root limits them)."""
    search = line.search
    t = search.tree
    children, visits, avail, total = t.children[node], t.visits, t.avail, t.total
    untried = []
    best_score = -math.inf
    best = -1
    explore = search.explore(seat)
    bias = _PRIOR * explore
    while legal:
        low = legal & -legal
        legal ^= low
        card = low.bit_length() - 1
        child = children.get(card)
        if child is None:
            untried.append(card)
            continue
        avail[child] += 1
        tried = visits[child]
        score = (total[child] / tried + explore * math.sqrt(math.log(avail[child]) / tried)
                 + bias * chances.get(card, 0.0) / (tried + 1))
        if score > best_score:
            best_score, best = score, card
    if untried:
        top = max(chances.get(card, 0.0) for card in untried)
        likeliest = [card for card in untried if chances.get(card, 0.0) == top]
        card = likeliest[search.rng.randrange(len(likeliest))]
        child = children[card] = t.add()
        return card, child, True
    return best, children[best], False


def _iterate(self: Any, hands: list[int]) -> tuple[int, Any]:
    """``_Line.iterate`` with each searched seat's choice biased by its hand."""
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
        others = remaining & ~hand | deck
        if first_card < 0:
            if _ALL_SEATS:
                chances = _chances(self, seat, hand, trick, won, others, legal)
                card, node, grown = _select(self, node, legal & self.first, seat, chances)
            else:
                card, node, grown = self._select(node, legal & self.first, seat)
            first_card = card
        elif (card := self._modelled(seat, hand, trick, won, others)) >= 0:
            node, grown = self._follow(node, card)
        elif seat != search.me or _ALL_SEATS:
            chances = _chances(self, seat, hand, trick, won, others, legal)
            card, node, grown = _select(self, node, legal, seat, chances)
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
        play_out(hands, trump, leader, trick, won, self.goals, models, deck, self.endgame,
                 search.weights)
    outcome = self._outcome(tuple(won))
    values = outcome.values
    visits, total = search.tree.visits, search.tree.total
    for visited, mover in path:
        visits[visited] += 1
        total[visited] += values[mover]
    return first_card, outcome


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(tree._Line, iterate=_iterate):
            return super()._search(view, also)
