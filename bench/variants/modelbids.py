"""The expert guessing each bid still to come, for a seat it does not take for a basic
bot, as the mean of the learnt bid model for the sampled hand, shifted by that player's
habit (``inference.Habits``: how far its bids lay from the model's), rounded, and moved
off the hook as ``expert._guess_bid`` moves it; instead of the rounded hand estimate
(bench/RESULTS.md, "Twentieth session")."""

from __future__ import annotations

from typing import Any

from blackout.bots import expert
from blackout.bots.inference import BidModel, Models, bid_features, bid_is_telling
from blackout.core.actions import BIDS, Bid
from blackout.core.procedure import hooked_bid

_shipped = expert._guess_bid
#: seat -> its bid model, as its habit shifts it, for the decision under way.
_MODELS: dict[int, BidModel] = {}


def _guess(view: Any, seat: int, hand: int, trump: int | None, bids: list[Any],
           last: bool) -> Any:
    model = _MODELS.get(seat)
    if model is None or view.rules.teams or trump is None:
        return _shipped(view, seat, hand, trump, bids, last)
    first = view.bidding_order[0] == seat
    row = bid_features(hand, trump, view.players_count, first, last, view.rules)
    cards = view.cards_dealt
    guess = max(0, min(cards, round(model.mean(row))))
    total = sum(b.tricks for b in bids if isinstance(b, Bid))
    if guess == hooked_bid(view.rules, cards, total, last):
        guess += 1 if guess == 0 else -1
    return BIDS[guess]


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        models = Models.shipped()
        habits = self._watch.habits
        _MODELS.clear()
        if models is not None and view.phase == "bid" and bid_is_telling(view):
            for seat in range(view.players_count):
                if seat != view.seat:
                    offset = 0.0 if habits is None else habits.habit(seat).offset
                    _MODELS[seat] = models.bid.shifted(offset)
        expert._guess_bid = _guess
        try:
            return super()._search(view, also)
        finally:
            expert._guess_bid = _shipped
