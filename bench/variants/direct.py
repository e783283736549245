"""The shipped expert whose deals are also weighed by a direct model of where each hidden
card is (``bench/locations.py``): each deal of the learnt pool times ``exp`` of the sum,
over the hidden seats' cards in it, of the model's term for that card in that seat.  The
weights are ``bench/locations.py --save FILE``'s, named by ``BLACKOUT_LOCATIONS=FILE``
(bench/RESULTS.md, "Nineteenth session")."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from blackout.bots import expert
from blackout.bots.tree import PlayEvidence
from blackout.core.cards import cards_in
from blackout.core.view import View
from inference import OUT, places
from locations import FEATURES, SeatPlays


@cache
def _weights() -> tuple[float, ...]:
    """The weights of every feature but the pool share's."""
    path = os.environ.get("BLACKOUT_LOCATIONS")
    if not path:
        raise SystemExit("direct: name the weights with BLACKOUT_LOCATIONS=FILE "
                         "(bench/locations.py --save FILE)")
    try:
        with open(path) as saved:
            data = json.load(saved)
    except (OSError, ValueError) as error:
        raise SystemExit(f"direct: cannot read the weights in {path}: {error}") from None
    if tuple(data["features"]) != FEATURES:
        raise SystemExit("direct: the saved weights are for other features")
    return tuple(data["weights"][1:])


def card_terms(view: View) -> dict[int, dict[int, float]]:
    """Each hidden seat's term for each card it may hold."""
    seen = SeatPlays(view)
    weights = _weights()
    terms: dict[int, dict[int, float]] = {
        s: {} for s in range(view.players_count) if view.hands[s] is None}
    for card, allowed in places(view).items():
        for seat in allowed:
            if seat != OUT:
                terms[seat][card] = sum(w * x for w, x in zip(
                    weights, seen.row(view, seat, card), strict=True))
    return terms


class ExpertBot(expert.ExpertBot):
    def _evidence(self, view: Any, models: tuple[int, ...]) -> Any:
        fits, plays, pool = super()._evidence(view, models)
        if pool != expert.LEARNT_POOL:
            return fits, plays, pool
        terms = card_terms(view)
        return fits, _Weighed(plays, terms), pool


class _Weighed:
    """The shipped play evidence (if any), each deal's weight also times ``exp`` of
    its hidden cards' terms (the deals still drawn card by card by the plays alone)."""

    def __init__(self, plays: PlayEvidence | None, terms: dict[int, dict[int, float]]
                 ) -> None:
        self.plays = plays
        self.terms = terms

    def deal_log_weight(self, hands: Sequence[int]) -> float:
        total = 0.0 if self.plays is None else self.plays.deal_log_weight(hands)
        for seat, term in self.terms.items():
            total += sum(term[card] for card in map(int, cards_in(hands[seat])))
        return total

    def card_terms(self, unseen: int, allowed: Sequence[int]
                   ) -> Mapping[int, Sequence[float]]:
        return {} if self.plays is None else self.plays.card_terms(unseen, allowed)
