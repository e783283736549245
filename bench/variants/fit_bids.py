"""Fit ``bidrich``'s bid model to the bids in ``bench/bots.py`` records.

The bid is a rounded normal (censored at 0 and at the hand size) around a line in
``bidrich.features`` of the bidder's hand; the line and the spread are fitted by maximum
likelihood (scipy, at fitting time only) to one side's bids (``--side expert``, the
default: the expert's own; or ``ismcts``), and the fit printed with its log loss a bid on
both sides' bids (a model of the expert's bids that also names ISMCTS's is one that
carries to players we did not write).  The coefficients in ``bidrich.py`` came from::

    PYTHONPATH=bench/variants .venv/bin/python bench/variants/fit_bids.py \\
        base.jsonl base2.jsonl bidlik.jsonl bidonly.jsonl bidonly2.jsonl it1000.jsonl

(the runs of bench/RESULTS.md, "Eleventh session", 7 cards, seed 61: 5760 of the
expert's bids, each deal's four expert seats in its two games).
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from bidrich import features
from scipy.optimize import minimize
from scipy.stats import norm


def bids_of(paths: list[str], side: str, cards: int) -> tuple[np.ndarray, np.ndarray]:
    rows, bids = [], []
    for path in paths:
        with open(path) as lines:
            for line in lines:
                deal = json.loads(line)
                for game in deal.get("games", []):
                    trump = game["turn_up"] // 13
                    for seat in range(4):
                        if (seat in game["experts"]) != (side == "expert"):
                            continue
                        position = (seat - game["dealer"] - 1) % 4
                        rows.append(features(game["hands"][seat], trump, 4, position == 0,
                                             position == 3))
                        bids.append(game["bids"][seat])
    return np.array(rows, dtype=float), np.array(bids, dtype=float)


def log_loss(theta: np.ndarray, x: np.ndarray, y: np.ndarray, cards: int) -> float:
    mean, spread = x @ theta[:-1], np.exp(theta[-1])
    low = np.where(y == 0, 0.0, norm.cdf((y - 0.5 - mean) / spread))
    high = np.where(y >= cards, 1.0, norm.cdf((y + 0.5 - mean) / spread))
    return float(-np.mean(np.log(np.maximum(high - low, 1e-12))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--side", choices=["expert", "ismcts"], default="expert")
    parser.add_argument("--cards", type=int, default=7)
    args = parser.parse_args()
    x, y = bids_of(args.records, args.side, args.cards)
    fitted = minimize(log_loss, np.zeros(x.shape[1] + 1), args=(x, y, args.cards),
                      method="BFGS").x
    other = "ismcts" if args.side == "expert" else "expert"
    x2, y2 = bids_of(args.records, other, args.cards)
    # The same fit on the hand estimate alone (bias and estimate_tricks), for comparison.
    alone = minimize(log_loss, np.zeros(3), args=(x[:, :2], y, args.cards), method="BFGS").x
    print(json.dumps({
        "bids": len(y), "coefficients": [round(float(v), 4) for v in fitted[:-1]],
        "spread": round(float(np.exp(fitted[-1])), 4),
        f"log loss a bid, {args.side}": round(log_loss(fitted, x, y, args.cards), 4),
        f"log loss a bid, {other}": round(log_loss(fitted, x2, y2, args.cards), 4),
        "estimate alone": {
            f"log loss a bid, {args.side}": round(log_loss(alone, x[:, :2], y, args.cards), 4),
            f"log loss a bid, {other}": round(log_loss(alone, x2[:, :2], y2, args.cards), 4)}}))


if __name__ == "__main__":
    main()
