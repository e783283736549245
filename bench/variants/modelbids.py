"""The expert guessing each bid still to come, for a seat it does not take for a basic
bot, as the mean of the learnt bid model for the sampled hand, shifted by that player's
habit (``inference.Habits``: how far its bids lay from the model's), rounded, and moved
off the hook (``expert._off_the_hook``, as ``expert._guess_bid`` does); instead of the
rounded hand estimate (bench/RESULTS.md, "Twentieth session")."""

from __future__ import annotations

from typing import Any

from _swap import swapped

from blackout.bots import expert
from blackout.bots.inference import BidModel, Models, bid_features, bid_is_telling

_shipped = expert._guess_bid
#: seat -> its bid model, as its habit shifts it, for the decision under way.
_MODELS: dict[int, BidModel] = {}


def _guess(view: Any, seat: int, hand: int, trump: int | None, bids: list[Any],
           last: bool) -> Any:
    model = _MODELS.get(seat)
    if model is None or view.rules.teams or trump is None:
        return _shipped(view, seat, hand, trump, bids, last)
    first = view.bidding_order[0] == seat
    leads = seat == view.first_leader
    row = bid_features(hand, trump, view.players_count, first, last, view.rules, leads,
                       view.turn_up_mask)
    guess = max(0, min(view.cards_dealt, round(model.mean(row))))
    return expert._off_the_hook(view, guess, bids, last)


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
        with swapped(expert, _guess_bid=_guess):
            return super()._search(view, also)
