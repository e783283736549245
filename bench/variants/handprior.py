"""The shipped expert whose play tree biases each other seat's choice towards the cards
the learnt play model (:class:`blackout.bots.inference.PlayModel`) would play from the
hand that seat holds in the iteration's deal (progressive bias, Chaslot et al. 2008): a
child's UCB score gains ``BLACKOUT_PRIOR_WEIGHT`` (default 1) times the node's
exploration constant times the card's chance by the model, divided by the child's
visits + 1, and a node's untried cards are expanded most likely first.

The single-observer tree keeps one set of statistics for another seat's node whatever
that seat holds, so what it backs up is the card that seat plays on average over the
deals, not the card it plays with the cards it holds; the bias makes each seat's choice
lean, deal by deal, on its own hand, a cheap step towards a tree per player.

The shipped tree asks ``_Line._modelled`` how a seat plays just before it searches that
seat's reply with ``_Line._select``; the variant wraps the first to keep the seat's hand
and the second to use it, so the tree's own loop is the shipped one."""

from __future__ import annotations

import math
import os
from typing import Any

from _swap import swapped

from blackout.bots import expert, tree
from blackout.bots.inference import Models
from blackout.bots.playout import _fast, play_features
from blackout.core.cards import cards_in

_MODELS = Models.shipped()
assert _MODELS is not None, "needs the learnt models shipped with the package"
_WEIGHTS = list(_MODELS.play.weights)
_PRIOR = float(os.environ.get("BLACKOUT_PRIOR_WEIGHT", "1"))


def _python_play_scores(hand: int, others: int, trick: list[int], trump: int, need: int,
                        last: bool, weights: list[float]) -> list[float]:
    _cards, rows = play_features(hand, trick, trump, need, last, hand | others)
    return [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]


_play_scores = _python_play_scores if _fast is None else _fast.play_scores


# The shipped methods, called by the wrapped ones.
_shipped_modelled = tree._Line._modelled
_shipped_select = tree._Line._select


def _chances(line: Any, seat: int, hand: int, trick: list[int], won: list[int],
             others: int, legal: int) -> dict[int, float]:
    """Each legal card's chance by the learnt play model for ``seat`` holding ``hand``."""
    need = line.goals.targets[seat] - won[seat]
    last = len(trick) == line.search.players - 1
    scores = _play_scores(hand, others, trick, line.trump, need, last, _WEIGHTS)
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return {card: e / total for card, e in zip(cards_in(legal), exps, strict=True)}


def _modelled(self: Any, seat: int, hand: int, trick: list[int], won: list[int],
              others: int) -> int:
    """The shipped ``_Line._modelled``; when another seat's reply is to be searched, what
    it holds is kept for the ``_select`` the tree calls next."""
    card = _shipped_modelled(self, seat, hand, trick, won, others)
    if card < 0 and seat != self.search.me:
        self.held = (seat, hand, trick, won, others)
    return card


def _select(self: Any, node: int, legal: int, seat: int) -> tuple[int, int, bool]:
    """``_Line._select`` with the bias, for a seat whose hand ``_modelled`` kept (``legal``
    is then every card that hand may play)."""
    held, self.held = getattr(self, "held", None), None
    if held is None:
        return _shipped_select(self, node, legal, seat)
    held_seat, hand, trick, won, others = held
    chances = _chances(self, held_seat, hand, trick, won, others, legal)
    search = self.search
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
                 + bias * chances[card] / (tried + 1))
        if score > best_score:
            best_score, best = score, card
    if untried:
        top = max(chances[card] for card in untried)
        likeliest = [card for card in untried if chances[card] == top]
        card = likeliest[search.rng.randrange(len(likeliest))]
        child = children[card] = t.add()
        return card, child, True
    return best, children[best], False


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(tree._Line, _modelled=_modelled, _select=_select):
            return super()._search(view, also)
