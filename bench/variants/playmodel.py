"""A learnt model of how a player chooses its card, and the deals it makes likelier.

``card_features`` describes each legal card of a hand in a trick (rank, trump, whether
it takes the trick so far, highest or lowest of the legal cards, top of its suit among
the cards not yet played, each against whether the player still needs tricks); the
chance of playing a card is a softmax of ``COEFFICIENTS`` over those features (a
conditional logit, fitted by ``fit_plays.py`` to the expert's self-play).
``Plays(view)`` holds the public side of every card a hidden seat has played this hand, and
``Plays.log_likelihood(deal)`` is the log chance of those plays with the deal's hands
(each seat's hand at a play: its cards left in the deal and those it played from then
on)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from blackout.bots.playout import _shed_key
from blackout.core.actions import Bid
from blackout.core.game import beats, playable, trick_winner_position
from blackout.core.view import View

FULL = (1 << 52) - 1
NAMES = (
    "rank", "trump", "lead_rank", "lead_trump", "wins", "wins_need", "wins_last_need",
    "wins_last_done", "highest", "lowest", "highest_need", "lowest_done", "discard_rank",
    "ruff", "lead_need_rank", "top", "top_need", "top_lead",
)
#: Fitted to 14,941 card choices (with more than one legal card) of the expert in
#: self-play (600 hands of 7 and 12 cards, 100 iterations a candidate): held-out log
#: loss 1.132 a choice against 1.246 for a uniform choice among the legal cards.
COEFFICIENTS = [1.3845, 0.6435, -2.357, 0.2417, -2.8466, 4.1843, 0.4012, -0.3986, -0.1284,
                0.7363, -0.5365, -0.2677, 0.0568, 0.4018, 2.5714, 0.1177, -0.1357, 0.5404]


def card_features(hand: int, trick: Sequence[int], trump: int, need: int, last: bool,
                  unplayed: int) -> tuple[list[int], list[list[float]]]:
    """The legal cards of ``hand`` in ``trick`` and each one's features."""
    legal = playable(hand, trick)
    cards = []
    while legal:
        low = legal & -legal
        legal ^= low
        cards.append(low.bit_length() - 1)
    keys = [_shed_key(c, trump) for c in cards]
    high, low_key = max(keys), min(keys)
    leading = not trick
    best = trick[trick_winner_position(trick, trump)] if trick else -1
    wants = 1.0 if need > 0 else 0.0
    done = 1.0 - wants
    others = unplayed & ~hand
    rows = []
    for card, key in zip(cards, keys, strict=True):
        suit, rank = divmod(card, 13)
        r = rank / 12
        is_trump = 1.0 if suit == trump else 0.0
        wins = 1.0 if trick and beats(card, best, trump) else 0.0
        following = bool(trick) and suit == trick[0] // 13
        higher = others & (((1 << 13) - 1) << (13 * suit)) & ~((2 << card) - 1)
        top = 1.0 if not higher else 0.0
        rows.append([
            r, is_trump, r * leading, is_trump * leading, wins, wins * wants,
            wins * last * wants, wins * last * done, float(key == high), float(key == low_key),
            float(key == high) * wants, float(key == low_key) * done,
            r * (not leading and not following and not is_trump),
            is_trump * (not leading and not following), r * leading * wants,
            top, top * wants, top * leading,
        ])
    return cards, rows


def log_chance(card: int, cards: list[int], rows: list[list[float]],
               weights: Sequence[float]) -> float:
    scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
    top = max(scores)
    total = sum(math.exp(s - top) for s in scores)
    return scores[cards.index(card)] - top - math.log(total)


class Plays:
    """The public side of every card the view's hidden seats have played this hand."""

    def __init__(self, view: View) -> None:
        n = view.players_count
        trump = -1 if not view.trump_decided or view.trump is None else int(view.trump)
        self.trump = trump
        bids = [b.tricks if isinstance(b, Bid) else None for b in view.bids]
        won = [0] * n
        unplayed = FULL
        # (seat, card, trick before it, need, last to play, unplayed before it)
        self.plays: list[tuple[int, int, list[int], int, bool, int]] = []
        tricks = [(t.leader, list(t.cards)) for t in view.tricks]
        if view.trick:
            tricks.append((view.trick[0][0], [c for _, c in view.trick]))
        for leader, cards in tricks:
            for position, card in enumerate(cards):
                seat = (leader + position) % n
                if view.hands[seat] is None and bids[seat] is not None:
                    need = bids[seat] - won[seat]  # type: ignore[operator]
                    self.plays.append((seat, card, cards[:position], need,
                                       position == n - 1, unplayed))
                unplayed &= ~(1 << card)
            if len(cards) == n:
                won[(leader + trick_winner_position(cards, trump)) % n] += 1

    def log_likelihood(self, hands: Sequence[int], weights: Sequence[float] = COEFFICIENTS
                       ) -> float:
        total = 0.0
        later = [0] * len(hands)  # each seat's cards played after the play at hand
        for seat, card, trick, need, last, unplayed in reversed(self.plays):
            later[seat] |= 1 << card
            hand = hands[seat] | later[seat]
            cards, rows = card_features(hand, trick, self.trump, need, last, unplayed)
            total += log_chance(card, cards, rows, weights)
        return total
