"""Where the hidden cards are: a learnt model of each unseen card's owner.

For one seat's :class:`~blackout.core.view.View`, :func:`card_features` describes every
(other seat, unseen card) pair by what is public and what the seat sees: the card's
rank and whether it is a trump, the other seat's bid and the tricks it still needs,
what it has played of that suit and led, how many unseen cards of the suit beat the
card, and the uniform chance that seat holds it.  :class:`CardModel` is a logistic
regression on those features, trained on self-play records of every preset by
``tools/train_inference.py`` (reproducible from its seed) and shipped as package data
(``inference.json``).  Pure Python at run time: a decision needs a few thousand
multiplications.

The search uses it to choose among sampled deals (see
:mod:`blackout.bots.tree`): each deal is weighted by the product, over the cards it
gives each hidden seat, of the model's chance of that card in that hand over the
uniform chance.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources

from blackout.core.actions import Bid, Board
from blackout.core.cards import SUIT_MASKS
from blackout.core.view import View

__all__ = ["FEATURES", "CardModel", "card_features"]

FEATURES = (
    "bias", "prior_logit", "rank", "trump", "trump_rank", "has_bid", "bid_share",
    "bid_rank", "bid_trump", "need", "need_rank", "need_trump", "need_trump_rank",
    "suit_played", "suit_played_rank", "suit_led", "higher_unseen", "need_higher",
)
_CLIP = 0.999


def _logit(p: float) -> float:
    p = min(_CLIP, max(1 - _CLIP, p))
    return math.log(p / (1 - p))


def card_features(view: View) -> dict[tuple[int, int], list[float]]:
    """The features (in :data:`FEATURES` order) of every pair (seat, card) where the seat's
    hand is hidden from the view and the card is unseen and of a suit the seat has not
    shown void in."""
    n = view.players_count
    unseen = view.unseen()
    unseen_count = max(1, unseen.bit_count())
    trump = -1 if not view.trump_decided or view.trump is None else int(view.trump)
    played = view.played_by()
    voids = view.voids()
    led = [[0] * 4 for _ in range(n)]
    for trick in view.tricks:
        led[trick.leader][trick.cards[0] // 13] += 1
    if view.trick:
        led[view.trick[0][0]][view.trick[0][1] // 13] += 1
    rows: dict[tuple[int, int], list[float]] = {}
    for seat in range(n):
        if view.hands[seat] is not None:
            continue
        held = view.cards_dealt - played[seat].bit_count()
        if held <= 0:
            continue
        prior = _logit(held / unseen_count)
        bid = view.bids[seat]
        tricks = (bid.tricks if isinstance(bid, Bid)
                  else view.cards_dealt if isinstance(bid, Board) else 0)
        has_bid = 1.0 if bid is not None else 0.0
        bid_share = tricks / view.cards_dealt if bid is not None else 0.0
        need = 0.0
        if bid is not None:
            need = max(-1.0, min(1.0, (tricks - view.tricks_won[seat]) / held))
        count_played = max(1, played[seat].bit_count())
        allowed = unseen & ~sum(SUIT_MASKS[s] for s in voids[seat])
        while allowed:
            low = allowed & -allowed
            allowed ^= low
            card = low.bit_length() - 1
            suit = card // 13
            rank = (card % 13) / 12
            is_trump = 1.0 if suit == trump else 0.0
            suit_played = (played[seat] & SUIT_MASKS[suit]).bit_count() / count_played
            higher = (unseen & SUIT_MASKS[suit] & ~((2 << card) - 1)).bit_count() / 12
            rows[seat, card] = [
                1.0, prior, rank, is_trump, is_trump * rank, has_bid, bid_share,
                bid_share * rank, bid_share * is_trump, need, need * rank, need * is_trump,
                need * is_trump * rank, suit_played, suit_played * rank,
                min(1.0, led[seat][suit] / 2), higher, need * higher,
            ]
    return rows


class CardModel:
    """A logistic regression over :func:`card_features`: ``weights`` in
    :data:`FEATURES` order."""

    def __init__(self, weights: list[float]) -> None:
        if len(weights) != len(FEATURES):
            raise ValueError(f"{len(weights)} weights for {len(FEATURES)} features")
        self.weights = list(weights)

    @staticmethod
    @cache
    def shipped() -> CardModel | None:
        """The model shipped with the package, or ``None`` if it is missing."""
        try:
            text = resources.files("blackout.bots").joinpath("inference.json").read_text()
        except (FileNotFoundError, OSError):
            return None
        data = json.loads(text)
        if tuple(data["features"]) != FEATURES:
            return None
        return CardModel(data["weights"])

    def log_ratios(self, view: View) -> dict[tuple[int, int], float]:
        """For every (hidden seat, unseen card) pair: log of the model's chance that the
        seat holds the card over the uniform chance."""
        weights = self.weights
        ratios = {}
        for key, row in card_features(view).items():
            z = sum(w * x for w, x in zip(weights, row, strict=True))
            p = 1 / (1 + math.exp(-z)) if z > -30 else 1e-13
            prior = 1 / (1 + math.exp(-row[1]))
            ratios[key] = math.log(max(p, 1e-9) / prior)
        return ratios
