"""How well a bid model names OpenSpiel ISMCTS's bids (an opponent we did not write).

``generate``: four fair ISMCTS seats (8 redealt roots, 2000 simulations a decision, the
settings of ``bench/bots.py``) bid OpenSpiel ``oh_hell`` deals of ``--cards`` cards; one
JSON line a bid, with the bid features of the bidder's hand as
:func:`~blackout.bots.inference.view_bid_features` gives them now.  ``score``: the mean log
chance each model file (an ``inference.json``) gives those bids, as the search uses it
(the spread times ``--scales``, mixed with :data:`~blackout.bots.inference.ANY_BID`); a
model of the features before ``hand_tricks`` is read without that column::

    .venv/bin/python bench/ismcts_bids.py generate --cards 7 --deals 400 > ism7.jsonl
    .venv/bin/python bench/ismcts_bids.py score ism7.jsonl OLD.json src/blackout/bots/inference.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import Any

from blackout import Game
from blackout.bots.inference import (
    ANY_BID,
    BID_FEATURES,
    SPREAD_FEATURES,
    BidModel,
    view_bid_features,
)
from blackout.core.actions import Bid


def generate(cards: int, deals: int, seed: int) -> None:
    import pyspiel

    from ab import oh_hell_rules  # bench/ is on the path when run as a script
    from bots import ISMCTS, PLAYERS, deal_openspiel, mirror_deal, os_action_to_ours

    os_game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": cards})
    for index in range(deals):
        state = deal_openspiel(os_game, random.Random(seed * 100003 + index))
        game = Game.new(oh_hell_rules(cards), [f"p{i}" for i in range(PLAYERS)],
                        deals=[mirror_deal(state, cards)])
        bots = {s: ISMCTS(index * 10 + s, 0.0, uct_c=5.0, final_policy="MAX_VISIT_COUNT",
                          rollouts=1, simulations=2000, redeals=8) for s in range(PLAYERS)}
        while (view := game.view(state.current_player())).phase == "bid":
            seat = view.own_seat
            move = bots[seat].step(os_game, state, view)
            action = os_action_to_ours(move)
            assert isinstance(action, Bid)
            row = view_bid_features(view, seat, view.hand)
            print(json.dumps({"deal": index, "row": row, "bid": action.tricks,
                              "cards": cards}), flush=True)
            state.apply_action(move)
            game.apply(action)


def score(bids_file: str, models: list[str], scales: list[float]) -> None:
    with open(bids_file) as lines:
        bids = [json.loads(line) for line in lines]
    print(f"{len(bids)} bids; mean log loss a bid at spread x " + ", ".join(map(str, scales)))
    for path in models:
        with open(path) as model_file:
            model = _bid_model(json.load(model_file)["bid"])
        losses = []
        for scale in scales:
            sharpened = model.sharpened(scale)
            total = 0.0
            for bid in bids:
                chance = sharpened.chance(bid["bid"], bid["row"], bid["cards"])
                total -= math.log(ANY_BID + (1 - ANY_BID) * chance)
            losses.append(total / len(bids))
        print(path, " ".join(f"{loss:.3f}" for loss in losses))


def _bid_model(data: dict[str, Any]) -> BidModel:
    """The bid model of an ``inference.json``'s ``"bid"`` entry, over today's
    :data:`BID_FEATURES`: a feature the file does not name (an older model's) weighs 0."""
    if tuple(data["spread_features"]) != SPREAD_FEATURES:
        raise SystemExit("the model's spread reads other features than SPREAD_FEATURES")
    weights = dict(zip(data["features"], data["coefficients"], strict=True))
    coefficients = tuple(weights.pop(name, 0.0) for name in BID_FEATURES)
    if weights:
        raise SystemExit(f"the model reads features this version lacks: {sorted(weights)}")
    return BidModel(coefficients, tuple(data["spread"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate")
    make.add_argument("--cards", type=int, default=7)
    make.add_argument("--deals", type=int, default=400)
    make.add_argument("--seed", type=int, default=91)
    judge = commands.add_parser("score")
    judge.add_argument("bids")
    judge.add_argument("models", nargs="+")
    judge.add_argument("--scales", type=float, nargs="+", default=[0.6, 0.7, 0.8, 0.9, 1.0])
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.cards, args.deals, args.seed)
    else:
        score(args.bids, args.models, args.scales)
    return 0


if __name__ == "__main__":
    sys.exit(main())
