"""Train the bid and play models of :mod:`blackout.bots.inference` from self-play.

Plays single hands of every preset (random table and hand sizes) with the ``expert`` bot
in every seat (``--iterations`` a candidate, ``others="policy"``, its own models off so
the data do not depend on the models being trained), and records every bid the bid model
covers (:func:`~blackout.bots.inference.bid_is_telling`, plain bids) with the features of
the bidder's hand, and every card played from two or more legal ones as the player saw
it (hand, trick, trump, tricks wanted, unplayed cards; the features of each legal card are
computed when fitting, so kept records serve a changed feature set).  Then fits, on four
hands in five:

* the bid model by maximum likelihood (scipy's BFGS);
* the play model, a conditional logit, by L-BFGS with an L2 penalty of |w|^2 / 2;

and reports each one's log loss on the other hands against a simpler model (the bid: a
line in the hand estimate alone; the play: a uniform choice among the legal cards).
Besides the presets, OpenSpiel's ``oh_hell`` rules are played (:data:`OPTIONS`), so every
scoring the bid model names has its own data.  The same ``--seed`` gives the same hands,
data and weights; the hands are shared between ``--processes`` (each hand is seeded by
its number, so the count does not change them); ``--data`` keeps the records to refit
from::

    nice -n 15 .venv/bin/python tools/train_inference.py --hands 2000 --seed 1 \\
        --out src/blackout/bots/inference.json

``--bids-only`` plays only the bidding of each hand (a few times faster) and replaces the
bid model of ``--out``, keeping its play model; the shipped bid model was refitted so
(bench/RESULTS.md, "Twenty-eighth session").

numpy and scipy are needed here only (``pip install -e '.[train]'``), not at run time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from multiprocessing import Pool
from typing import Any

from blackout import Game, bots, variant
from blackout.bots.inference import (
    BID_FEATURES,
    PLAY_FEATURES,
    SPREAD_FEATURES,
    bid_is_telling,
    play_features,
    tricks_wanted,
    view_bid_features,
)
from blackout.core.actions import Bid, Play
from blackout.core.rules import Rules

PRESETS = ("standard", "pbmserv", "nullo", "potomac", "partnership")
#: Tables besides the presets' own rules: OpenSpiel's ``oh_hell`` (tricks plus ten for
#: an exact bid, the hook), so every scoring the bid model names is played.
OPTIONS: dict[str, dict[str, Any]] = {
    "oh_hell": {"scoring": "tricks_plus_ten", "hook": True, "last_hand_no_trump": False},
}

#: One bid: (features, bid, hand size).  One card choice as the player saw it: (hand,
#: trick so far, trump or -1, tricks still wanted, last to play, cards unplayed, the card
#: played), so a refit from kept records computes the features anew.
BidRow = tuple[list[float], int, int]
PlayRecord = tuple[int, list[int], int, int, bool, int, int]
#: One card choice as the model reads it: (each legal card's features, the index of the
#: one played).
PlayRow = tuple[list[list[float]], int]


def _rules_and_players(rng: random.Random) -> tuple[Rules, int]:
    tables = PRESETS + tuple(OPTIONS)
    table = tables[rng.randrange(len(tables))]
    if table == "partnership":
        return variant(table, max_hands=1), 4
    preset, options = ("standard", OPTIONS[table]) if table in OPTIONS else (table, {})
    base = variant(preset)
    players = rng.randint(base.min_players, min(base.max_players, 6))
    rules = variant(preset, schedule=[rng.randint(2, min(13, 52 // players - 1))],
                    blind_first_hand=False, **options)
    return rules, players


def play_hand(index: int, seed: int, iterations: int, bids_only: bool = False
              ) -> tuple[list[BidRow], list[PlayRecord]]:
    """One self-play hand: its bids, as the bid model reads them, and its choices of a
    card among two or more (none with ``bids_only``: the hand stops at its first card)."""
    rng = random.Random(f"train-inference:{seed}:{index}")
    rules, players = _rules_and_players(rng)
    game = Game.new(rules, [f"p{s}" for s in range(players)], seed=rng.getrandbits(32))
    seats = [bots.create("expert", seed=rng.getrandbits(32), iterations=iterations,
                         others="policy", inference=False) for _ in range(players)]
    bids: list[BidRow] = []
    plays: list[PlayRecord] = []
    while not game.is_over:
        seat = game.to_move
        assert seat is not None  # a game not over waits for someone
        view = game.view(seat)
        action = seats[seat].choose(view)
        assert action is not None  # a bot always answers the seat to move
        if bids_only and isinstance(action, Play):
            break
        if isinstance(action, Bid) and bid_is_telling(view) and view.trump_decided:
            bids.append((view_bid_features(view, seat, view.hand), action.tricks,
                         view.cards_dealt))
        elif isinstance(action, Play):
            trump = -1 if view.trump is None else int(view.trump)
            wanted = tricks_wanted(view.bids[seat], view.cards_dealt) or 0
            if len(view.legal_actions) > 1:
                trick = [int(card) for _, card in view.trick]
                plays.append((view.hand, trick, trump, wanted - view.tricks_won[seat],
                              len(trick) == players - 1, ((1 << 52) - 1) & ~view.played,
                              int(action.card)))
        game.apply(action)
    return bids, plays


def _play_hand(job: tuple[int, int, int, bool]) -> tuple[list[BidRow], list[PlayRecord]]:
    return play_hand(*job)


_SPREAD_COLUMNS = [BID_FEATURES.index(name) for name in SPREAD_FEATURES]


def bid_loss(theta: Any, x: Any, y: Any, cards: Any) -> float:
    """Mean negative log chance of the bids ``y`` (rows ``x``, hand sizes ``cards``)
    under the bid model ``theta`` (coefficients, then the spread's)."""
    import numpy as np
    from scipy.stats import norm  # type: ignore[import-untyped]

    width = x.shape[1]
    mean = x @ theta[:width]
    spread = np.exp(x[:, _SPREAD_COLUMNS] @ theta[width:])
    low = np.where(y <= 0, 0.0, norm.cdf((y - 0.5 - mean) / spread))
    high = np.where(y >= cards, 1.0, norm.cdf((y + 0.5 - mean) / spread))
    return float(-np.mean(np.log(np.maximum(high - low, 1e-12))))


def fit_bids(train: list[BidRow], test: list[BidRow]) -> dict[str, Any]:
    import numpy as np
    from scipy.optimize import minimize  # type: ignore[import-untyped]

    def arrays(rows: list[BidRow]) -> tuple[Any, Any, Any]:
        return (np.array([r for r, _, _ in rows], dtype=float),
                np.array([b for _, b, _ in rows], dtype=float),
                np.array([c for _, _, c in rows], dtype=float))

    x, y, cards = arrays(train)
    xt, yt, ct = arrays(test)
    width = len(BID_FEATURES)
    start = np.zeros(width + len(SPREAD_FEATURES))
    start[BID_FEATURES.index("estimate")] = 1.0
    theta = minimize(bid_loss, start, args=(x, y, cards), method="BFGS").x
    # For comparison: a line in the hand estimate alone, one spread for every table.
    alone = np.zeros(width + len(SPREAD_FEATURES))
    on = [0, 1, width]
    alone[on] = minimize(lambda t: bid_loss(_placed(t, on, width), x, y, cards),
                         np.array([0.0, 1.0, 0.0]), method="BFGS").x
    return {
        "features": list(BID_FEATURES),
        "coefficients": [round(float(v), 5) for v in theta[:width]],
        "spread_features": list(SPREAD_FEATURES),
        "spread": [round(float(v), 5) for v in theta[width:]],
        "bids": len(train), "test_bids": len(test),
        "test_log_loss": round(bid_loss(theta, xt, yt, ct), 4),
        "test_log_loss_estimate_alone": round(bid_loss(alone, xt, yt, ct), 4),
    }


def _placed(values: Any, at: list[int], width: int) -> Any:
    """A full parameter vector with ``values`` at ``at`` and zeros elsewhere."""
    import numpy as np

    theta = np.zeros(width + len(SPREAD_FEATURES))
    theta[at] = values
    return theta


def _pack(found: list[PlayRow]) -> tuple[Any, Any, Any]:
    import numpy as np

    width = max(len(rows) for rows, _ in found)
    x = np.zeros((len(found), width, len(PLAY_FEATURES)))
    mask = np.full((len(found), width), -1e9)
    for i, (rows, _) in enumerate(found):
        x[i, :len(rows)] = rows
        mask[i, :len(rows)] = 0.0
    return x, mask, np.array([chosen for _, chosen in found])


def play_loss(w: Any, x: Any, mask: Any, y: Any) -> tuple[float, Any]:
    """Summed negative log chance of the chosen cards, and its gradient."""
    import numpy as np

    scores = x @ w + mask
    top = scores.max(1, keepdims=True)
    exp = np.exp(scores - top)
    total = exp.sum(1, keepdims=True)
    rows = np.arange(len(y))
    log_chance = scores[rows, y] - top[:, 0] - np.log(total[:, 0])
    gradient = x[rows, y] - ((exp / total)[:, :, None] * x).sum(1)
    return float(-log_chance.sum()), -gradient.sum(0)


def play_row(record: PlayRecord) -> PlayRow:
    """A card choice as the play model reads it."""
    hand, trick, trump, need, last, unplayed, card = record
    cards, rows = play_features(hand, trick, trump, need, last, unplayed)
    return rows, cards.index(card)


def fit_plays(train_records: list[PlayRecord], test_records: list[PlayRecord]
              ) -> dict[str, Any]:
    import numpy as np
    from scipy.optimize import minimize

    train = [play_row(r) for r in train_records]
    test = [play_row(r) for r in test_records]

    def penalised(w: Any, *data: Any) -> tuple[float, Any]:
        value, gradient = play_loss(w, *data)
        return value + 0.5 * float(w @ w), gradient + w

    data, held_out = _pack(train), _pack(test)
    w = minimize(penalised, np.zeros(len(PLAY_FEATURES)), args=data, jac=True,
                 method="L-BFGS-B").x
    return {
        "features": list(PLAY_FEATURES),
        "weights": [round(float(v), 5) for v in w],
        "choices": len(train), "test_choices": len(test),
        "test_log_loss": round(play_loss(w, *held_out)[0] / len(test), 4),
        "test_log_loss_uniform": round(float(np.log((held_out[1] == 0).sum(1)).mean()), 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=60,
                        help="the self-play expert's simulations a candidate")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", help="write the models here (default: print them)")
    parser.add_argument("--data", help="keep the self-play records in this JSON file: "
                        "read them from it if it exists (to refit without replaying)")
    parser.add_argument("--bids-only", action="store_true",
                        help="play only the bidding of each hand and refit the bid model "
                        "alone: the play model is kept from --out")
    args = parser.parse_args(argv)
    if args.bids_only and not (args.out and os.path.exists(args.out)):
        parser.error("--bids-only keeps the play model of --out, which must exist")
    started = time.monotonic()
    if args.data and os.path.exists(args.data):
        with open(args.data) as records:
            hands = json.load(records)
    else:
        jobs = [(index, args.seed, args.iterations, args.bids_only)
                for index in range(args.hands)]
        with Pool(args.processes) as pool:
            hands = pool.map(_play_hand, jobs, chunksize=8)
        if args.data:
            with open(args.data, "w") as records:
                json.dump(hands, records)
    train = [hand for index, hand in enumerate(hands) if index % 5]
    test = [hand for index, hand in enumerate(hands) if index % 5 == 0]
    trained_on = {"hands": args.hands, "seed": args.seed, "iterations": args.iterations}
    bid = fit_bids([b for bids, _ in train for b in bids], [b for bids, _ in test for b in bids])
    if args.bids_only:
        with open(args.out) as kept:
            models: dict[str, Any] = json.load(kept)
        models["bid"] = {**bid, "trained_on": trained_on,
                         "seconds": round(time.monotonic() - started)}
    else:
        models = {
            "bid": bid,
            "play": fit_plays([p for _, plays in train for p in plays],
                              [p for _, plays in test for p in plays]),
            "trained_on": trained_on,
            "seconds": round(time.monotonic() - started),
        }
    text = json.dumps(models, indent=1)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text + "\n")
    print(text if not args.out else json.dumps({k: {n: v for n, v in m.items()
                                                    if "loss" in n or n in ("bids", "choices")}
                                                for k, m in models.items()
                                                if k in ("bid", "play")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
