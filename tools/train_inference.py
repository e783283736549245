"""Train the hidden-card model of :mod:`blackout.bots.inference` from self-play.

Plays single hands of every preset (random hand sizes and table sizes) with the
``expert`` bot in every seat (a small fixed budget, ``others="policy"``), takes a view of
the seat to move at random decisions, and records, for every (hidden seat, unseen card)
pair of that view, the features and whether the seat really held the card.  Then fits
a logistic regression by Newton's method (numpy, at training time only) on 80% of the
hands and reports the log loss on the other 20% against the uniform chance.  The
same ``--seed`` gives the same hands, rows and weights::

    nice -n 15 .venv/bin/python tools/train_inference.py --hands 1500 --seed 1 \\
        --out src/blackout/bots/inference.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

from blackout import Game, bots, variant
from blackout.bots.inference import FEATURES, card_features

PRESETS = ("standard", "pbmserv", "nullo", "potomac", "partnership")


def _rules_and_players(rng: random.Random):
    preset = PRESETS[rng.randrange(len(PRESETS))]
    if preset == "partnership":
        rules = variant(preset, max_hands=1)
    else:
        base = variant(preset)
        players = rng.randint(base.min_players, min(base.max_players, 6))
        rules = variant(preset, schedule=[rng.randint(2, min(13, 52 // players - 1))],
                        blind_first_hand=False)
        return rules, players
    return rules, 4


def play_hand(index: int, seed: int, iterations: int, share: float
              ) -> tuple[list[list[float]], list[int]]:
    """One self-play hand; the feature rows and labels of its sampled views."""
    rng = random.Random(f"train-inference:{seed}:{index}")
    rules, players = _rules_and_players(rng)
    game = Game.new(rules, [f"p{s}" for s in range(players)], seed=rng.getrandbits(32))
    seats = [bots.create("expert", seed=rng.getrandbits(32), iterations=iterations,
                         others="policy") for _ in range(players)]
    rows: list[list[float]] = []
    labels: list[int] = []
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        if game.phase in ("bid", "play") and rng.random() < share:
            for (other, card), row in card_features(view).items():
                rows.append(row)
                labels.append(game.hands[other] >> card & 1)
        game.apply(seats[seat].choose(view))
    return rows, labels


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 25) -> np.ndarray:
    """Logistic regression by Newton's method with a small L2 penalty."""
    w = np.zeros(x.shape[1])
    w[1] = 1.0  # start from the uniform chance (the prior logit)
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=8,
                        help="the self-play expert's simulations per candidate (default 8)")
    parser.add_argument("--share", type=float, default=0.25,
                        help="share of decisions whose view is recorded (default 0.25)")
    parser.add_argument("--out", help="write the model here (JSON)")
    args = parser.parse_args()
    started = time.monotonic()
    train: tuple[list[list[float]], list[int]] = ([], [])
    test: tuple[list[list[float]], list[int]] = ([], [])
    for index in range(args.hands):
        rows, labels = play_hand(index, args.seed, args.iterations, args.share)
        part = test if index % 5 == 4 else train
        part[0].extend(rows)
        part[1].extend(labels)
        if index % 100 == 99:
            print(f"{index + 1} hands, {len(train[1]) + len(test[1])} rows, "
                  f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    x, y = np.array(train[0]), np.array(train[1], dtype=float)
    xt, yt = np.array(test[0]), np.array(test[1], dtype=float)
    w = fit(x, y)
    prior = np.zeros(len(FEATURES))
    prior[1] = 1.0
    report = {
        "features": list(FEATURES),
        "weights": [round(float(v), 6) for v in w],
        "trained_on": {"hands": args.hands, "seed": args.seed, "iterations": args.iterations,
                       "share": args.share, "rows": len(y), "test_rows": len(yt)},
        "test_log_loss": {"model": round(log_loss(xt, yt, w), 5),
                          "uniform": round(log_loss(xt, yt, prior), 5)},
        "seconds": round(time.monotonic() - started),
    }
    text = json.dumps(report, indent=1)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
