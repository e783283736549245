"""A direct model of where each hidden card is (after Solinas, Rebstock and Buro, AAAI
2019), against and on top of the expert's deals.

The expert learns what the others' bids and cards say about their hands through models
of how a player bids and plays (:mod:`blackout.bots.inference`): deals are drawn to
explain the bids and weighed by the chance of the cards played.  The Skat programs learn
the other way round: a model that reads the bidding and play so far and says, for each
hidden card, where it is.  This fits such a model, a conditional logit over each hidden
card's places (a hidden seat the card may be in, or out of play), and scores it on the
cards' true places as ``bench/inference.py`` does, on the card positions of
``bench/bots.py`` records.

A place's features (:data:`FEATURES`) are public: the log share of the deals of a pool
that put the card there (``--pool-version``, any of ``bench/inference.py``'s versions:
``uniform`` gives the model nothing but the counts and voids, ``shipped`` the expert's
own deals, so the model then says what it adds to them), and, for a seat, the card's
trump and rank, what the seat still wants (from its bid and tricks so far) and how
often it has followed, led, ruffed or thrown away that suit, passed up taking a trick
the card would have taken, or taken one with a higher card than it needed.  Fitted by
L-BFGS on the ``--train`` records, scored on the ``--test`` records (other deals).  To
learn from the expert's own games rather than from the opponents it is measured against,
``--self-play N --out FILE`` first writes ``N`` hands of four shipped experts (300
iterations a candidate, one worker, seeded by hand number) in ``bench/bots.py``'s record
format::

    .venv/bin/python bench/locations.py --self-play 500 --cards 7 --out self.jsonl
    .venv/bin/python bench/locations.py --train self.jsonl --test runs.jsonl --pool-version shipped

It prints the test log loss of the pool alone and of three fits, the mean over every
hidden card of the test positions (``bench/inference.py`` means each position's cards
first, so its figures differ) and over those a hidden seat holds, with their weights:
the *calibration* fits only the pool share's weight and a seat's (how far to trust a
pool of that size, no more knowledge); the *model* fits every weight; the *correction*
keeps the pool share's at 1, so that the rest is a term of each card in each seat by
which the pool's deals may be weighed (``bench/variants/direct.py``: each deal times
``exp`` of the sum of its hidden cards' terms; ``--save FILE`` writes those weights).
numpy and scipy are needed (``pip install -e '.[train]'``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
from scipy.optimize import minimize  # type: ignore[import-untyped]

from ab import oh_hell_rules  # bench/ is on the path when run as a script
from bids import PLAYERS
from blackout import Game
from blackout.bots.expert import ExpertBot
from blackout.bots.inference import tricks_wanted
from blackout.core.actions import Play
from blackout.core.game import beats, trick_winner_position
from blackout.core.view import View
from inference import OUT, holder, shares, version
from regret import positions

FEATURES = (
    "log pool share", "seat", "trump", "rank", "trump x rank",
    "wants tricks", "tricks wanted", "wants x rank", "wants x trump",
    "done x rank", "done x trump",
    "followed suit", "led suit", "passed it up", "passed it up wanting",
    "ruffed x trump", "threw suit", "cards left", "took above it",
)
#: The chance of an even split over a card's places mixed into the pool's shares, so
#: that a place no deal gave has a finite log (as ``bench/inference.py --floor``).
FLOOR = 0.02
PLACES = 4  # three hidden seats and out of play, at most
PENALTY = 1e-3  # L2 on every weight but the pool share's


class SeatPlays:
    """What one view's played cards show of each seat's ways with each suit and card."""

    def __init__(self, view: View) -> None:
        n = view.players_count
        trump = view.trump if view.trump_decided and view.trump is not None else -1
        self.trump = int(trump)
        self.followed = [Counter[int]() for _ in range(n)]  # seat -> suit -> times
        self.led = [Counter[int]() for _ in range(n)]
        self.threw = [Counter[int]() for _ in range(n)]
        self.ruffed = [0] * n
        self.passed = [Counter[int]() for _ in range(n)]  # seat -> card -> times
        self.passed_wanting = [Counter[int]() for _ in range(n)]
        self.took_above = [Counter[int]() for _ in range(n)]
        self.bids = [tricks_wanted(b, view.cards_dealt) or 0 for b in view.bids]
        self.left = [view.cards_dealt - played.bit_count() for played in view.played_by()]
        for made in view.plays_made():
            self._see(made.seat, int(made.card), [int(c) for c in made.trick],
                      made.unplayed, self.bids[made.seat] > made.won)

    def _see(self, seat: int, card: int, trick: list[int], unplayed: int,
             wanting: bool) -> None:
        if not trick:
            self.led[seat][card // 13] += 1
            return
        suit = trick[0] // 13
        if card // 13 != suit:
            if card // 13 == self.trump:
                self.ruffed[seat] += 1
            else:
                self.threw[seat][card // 13] += 1
            return
        self.followed[seat][suit] += 1
        best = trick[trick_winner_position(trick, self.trump)]
        took = beats(card, best, self.trump)
        # Every other card of the suit still out that would have taken the trick: had
        # the seat held it, it chose not to play it.
        for other in range(13 * suit, 13 * suit + 13):
            if other == card or not unplayed >> other & 1 or not beats(other, best, self.trump):
                continue
            if not took:
                self.passed[seat][other] += 1
                self.passed_wanting[seat][other] += wanting
            elif other < card:
                self.took_above[seat][other] += 1

    def row(self, view: View, seat: int, card: int) -> list[float]:
        """The features of ``card`` in ``seat``'s hand, but the pool share."""
        trump = 1.0 if card // 13 == self.trump else 0.0
        rank = card % 13 / 12
        wanted = self.bids[seat] - view.tricks_won[seat]
        wants = 1.0 if wanted > 0 else 0.0
        suit = card // 13
        return [1.0, trump, rank, trump * rank, wants, max(-2, min(3, wanted)) / 3,
                wants * rank, wants * trump, (1 - wants) * rank, (1 - wants) * trump,
                self.followed[seat][suit] / 3, self.led[seat][suit] / 3,
                self.passed[seat][card], self.passed_wanting[seat][card],
                self.ruffed[seat] * trump, self.threw[seat][suit] / 3,
                self.left[seat] / view.cards_dealt, self.took_above[seat][card]]


def table(paths: list[str], pool_version: str, pool: int
          ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Every hidden card of every card position: its places' features (cards x places
    x features), which places it may be in, and the index of its true place."""
    draw = version(pool_version)
    rows: list[list[list[float]]] = []
    truths: list[int] = []
    for key, view, truth in positions(paths, bids=False):
        seen = SeatPlays(view)
        deals = draw(view, random.Random(key), pool)
        for card, (allowed, share) in shares(view, deals).items():
            rows.append([
                [math.log((1 - FLOOR) * share[p] + FLOOR / len(allowed))]
                + ([0.0] * (len(FEATURES) - 1) if p == OUT else seen.row(view, p, card))
                for p in allowed])
            truths.append(allowed.index(holder(card, allowed, truth)))
    features = np.zeros((len(rows), PLACES, len(FEATURES)))
    allowed_places = np.zeros((len(rows), PLACES), dtype=bool)
    for i, places in enumerate(rows):
        features[i, :len(places)] = places
        allowed_places[i, :len(places)] = True
    return features, allowed_places, np.array(truths)


def log_chances(weights: np.ndarray[Any, Any], features: np.ndarray[Any, Any],
                allowed: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Each card's log chance of each place (cards x places; ``-inf`` where not allowed)."""
    scores = np.where(allowed, features @ weights, -np.inf)
    top = scores.max(axis=1, keepdims=True)
    logs: np.ndarray[Any, Any] = scores - top - np.log(
        np.exp(scores - top).sum(axis=1, keepdims=True))
    return logs


def loss(weights: np.ndarray[Any, Any], features: np.ndarray[Any, Any],
         allowed: np.ndarray[Any, Any], truth: np.ndarray[Any, Any], free: np.ndarray[Any, Any]
         ) -> tuple[float, np.ndarray[Any, Any]]:
    """The penalised mean log loss and its gradient, none for the weights not ``free``
    (they stay where they start)."""
    cards = np.arange(len(truth))
    logs = log_chances(weights, features, allowed)
    chances = np.exp(logs)
    expected = (chances[:, :, None] * np.where(allowed[:, :, None], features, 0)).sum(axis=1)
    penalised = weights.copy()
    penalised[0] = 0.0
    value = -logs[cards, truth].mean() + PENALTY / 2 * (penalised ** 2).sum()
    gradient = -(features[cards, truth] - expected).mean(axis=0) + PENALTY * penalised
    gradient[~free] = 0.0
    return float(value), gradient


def self_play(hands: int, cards: int, first: int) -> Iterator[dict[str, Any]]:
    """``bench/bots.py``-style lines of ``hands`` hands of four shipped experts."""
    for number in range(first, first + hands):
        game = Game.new(oh_hell_rules(cards), [f"p{s}" for s in range(PLAYERS)],
                        seed=number)
        dealt = [game.view(s).hands[s] or 0 for s in range(PLAYERS)]
        bots = [ExpertBot(seed=PLAYERS * number + s, iterations=300, workers=1)
                for s in range(PLAYERS)]
        plays = []
        while not game.is_over:
            seat = game.to_move
            assert seat is not None  # the game is not over
            action = bots[seat].choose(game.view(seat))
            assert action is not None  # the seat to move has a choice to make
            game.apply(action)
            if isinstance(action, Play):
                plays.append(int(action.card))
        hand = game.hands_played[0]
        yield {"deal": number, "games": [{
            "dealer": hand.dealer, "hands": dealt, "turn_up": hand.turn_up,
            "bids": [getattr(b, "tricks", None) for b in hand.bids],
            "tricks": list(hand.tricks), "experts": list(range(PLAYERS)), "plays": plays}]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-play", type=int, metavar="N",
                        help="write N hands of expert self-play to --out, and stop")
    parser.add_argument("--cards", type=int, default=7, help="the self-play's hand size")
    parser.add_argument("--first", type=int, default=0, help="the self-play's first hand")
    parser.add_argument("--out", help="where --self-play writes its records")
    parser.add_argument("--train", nargs="+", help="bench/bots.py records")
    parser.add_argument("--test", nargs="+", help="other deals' records")
    parser.add_argument("--pool-version", default="shipped",
                        help="bench/inference.py's version whose deals give the pool share")
    parser.add_argument("--pool", type=int, default=128, help="deals a position")
    parser.add_argument("--save", help="write the correction's weights here (JSON), for "
                        "bench/variants/direct.py")
    args = parser.parse_args()
    if args.self_play and not args.out:
        parser.error("--self-play needs --out")
    if not args.self_play and (not args.train or not args.test):
        parser.error("--train and --test are needed (or --self-play)")
    try:
        if args.self_play:
            with open(args.out, "w") as out:
                for line in self_play(args.self_play, args.cards, args.first):
                    out.write(json.dumps(line) + "\n")
                    out.flush()
            return 0
        found, correction = fit_and_score(args.train, args.test, args.pool_version, args.pool)
        print(json.dumps(found, indent=1))
        if args.save:
            with open(args.save, "w") as out:
                json.dump({"features": FEATURES, "weights": correction}, out)
    except OSError as error:
        parser.error(f"cannot read or write {error.filename}: {error.strerror}")
    return 0


def fit_and_score(train_paths: list[str], test_paths: list[str], pool_version: str,
                  pool: int) -> tuple[dict[str, Any], list[float]]:
    """The three fits' test scores and weights, and the correction's weights."""
    train = table(train_paths, pool_version, pool)
    features, allowed, truth = table(test_paths, pool_version, pool)
    pool_only = np.zeros(len(FEATURES))
    pool_only[0] = 1.0
    index = np.arange(len(FEATURES))  # the pool share's weight is the first
    fits = {name: minimize(loss, pool_only, args=(*train, free), jac=True,
                           method="L-BFGS-B").x
            for name, free in (("calibration", index < 2), ("model", index >= 0),
                               ("correction", index > 0))}
    held = truth != allowed.sum(axis=1) - 1  # out of play is each card's last place
    found: dict[str, Any] = {"train cards": len(train[2]), "test cards": len(truth)}
    for name, weights in (("pool", pool_only), *fits.items()):
        losses = -log_chances(weights, features, allowed)[np.arange(len(truth)), truth]
        found[name] = {"log loss": round(float(losses.mean()), 4),
                       "held cards' log loss": round(float(losses[held].mean()), 4)}
    for name, weights in fits.items():
        found[f"{name}'s weights"] = {feature: round(float(w), 3)
                                      for feature, w in zip(FEATURES, weights, strict=True)}
    return found, [float(w) for w in fits["correction"]]


if __name__ == "__main__":
    sys.exit(main())
