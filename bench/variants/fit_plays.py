"""Fit ``playmodel``'s model of card choices to the expert's self-play.

Plays ``--hands`` single hands of OpenSpiel's ``oh_hell`` rules (``ab.oh_hell_rules``;
two hands in three of 7 cards, one of 12), the expert in every seat (``others="policy"``,
``--iterations`` a candidate), records the features of every legal card at each card
choice with more than one (``playmodel.card_features``, from the player's own hand),
fits the conditional logit by L-BFGS (scipy, with an L2 penalty of 1/2 |w|^2) on four
choices in five and prints the held-out log loss a choice against a uniform choice among
the legal cards.  ``playmodel.COEFFICIENTS`` came from (about 2 minutes)::

    PYTHONPATH=bench:bench/variants .venv/bin/python bench/variants/fit_plays.py \\
        --hands 600 --iterations 100
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np
import playmodel
from scipy.optimize import minimize

from ab import oh_hell_rules
from blackout import Game, bots
from blackout.core.actions import Bid, Play


def choices(hands: int, iterations: int) -> list[tuple[list[list[float]], int]]:
    found = []
    for index in range(hands):
        rng = random.Random(f"play:{index}")
        game = Game.new(oh_hell_rules(7 if index % 3 else 12), list("abcd"),
                        seed=rng.getrandbits(32))
        seats = [bots.create("expert", seed=rng.getrandbits(32), iterations=iterations,
                             others="policy") for _ in range(4)]
        while not game.is_over:
            view = game.view(game.to_move)
            action = seats[game.to_move].choose(view)
            if isinstance(action, Play):
                trump = -1 if view.trump is None else int(view.trump)
                bid = view.bids[view.seat]
                need = (bid.tricks if isinstance(bid, Bid) else 0) - view.tricks_won[view.seat]
                trick = [card for _, card in view.trick]
                unplayed = playmodel.FULL & ~view.played
                cards, rows = playmodel.card_features(view.hand, trick, trump, need,
                                                      len(trick) == 3, unplayed)
                if len(cards) > 1:
                    found.append((rows, cards.index(action.card)))
            game.apply(action)
    return found


def pack(found: list[tuple[list[list[float]], int]]) -> tuple[np.ndarray, ...]:
    width = max(len(rows) for rows, _ in found)
    x = np.zeros((len(found), width, len(playmodel.NAMES)))
    mask = np.full((len(found), width), -1e9)
    for i, (rows, _) in enumerate(found):
        x[i, :len(rows)] = rows
        mask[i, :len(rows)] = 0.0
    return x, mask, np.array([chosen for _, chosen in found])


def loss(w: np.ndarray, x: np.ndarray, mask: np.ndarray, y: np.ndarray
         ) -> tuple[float, np.ndarray]:
    """Summed negative log chance of the chosen cards (without the penalty), gradient."""
    scores = x @ w + mask
    top = scores.max(1, keepdims=True)
    exp = np.exp(scores - top)
    total = exp.sum(1, keepdims=True)
    rows = np.arange(len(y))
    log_chance = scores[rows, y] - top[:, 0] - np.log(total[:, 0])
    gradient = x[rows, y] - ((exp / total)[:, :, None] * x).sum(1)
    return float(-log_chance.sum()), -gradient.sum(0)


def penalised(w: np.ndarray, *data: np.ndarray) -> tuple[float, np.ndarray]:
    value, gradient = loss(w, *data)
    return value + 0.5 * float(w @ w), gradient + w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--iterations", type=int, default=100)
    args = parser.parse_args()
    found = choices(args.hands, args.iterations)
    train = pack([c for i, c in enumerate(found) if i % 5])
    test = pack([c for i, c in enumerate(found) if i % 5 == 0])
    w = minimize(penalised, np.zeros(len(playmodel.NAMES)), args=train, jac=True,
                 method="L-BFGS-B").x
    print(json.dumps({
        "choices": len(found),
        "coefficients": [round(float(v), 4) for v in w],
        "held-out log loss a choice": round(loss(w, *test)[0] / len(test[2]), 4),
        "uniform": round(float(np.log((test[1] == 0).sum(1)).mean()), 4)}))


if __name__ == "__main__":
    main()
