"""What each version of the expert loses at the bids, judged by an expert shown every hand.

For every bid of the first game of each deal in ``bench/bots.py`` records, after at least
one earlier bid (the first bidder has no bid to learn from), the position is rebuilt in
our engine and each version named (``expert``, the shipped bot, another of ``ab.py``'s
variants such as ``noinf``, or ``module:NAME``, a module of ``bench/variants/`` on
``PYTHONPATH``) bids at ``--iterations``; a judge, the shipped expert shown every hand
at ``--judge`` iterations, values every bid it searches and
each version's choice.  A version's *regret* at a position is the judge's value of its
best bid less its value of the version's bid: the points (as the search would play the
hand, knowing the cards) the version's bid gives away.  The judge's values carry its own
search noise, so even a perfect bidder shows some regret: compare versions on the same
positions (the paired line), not with zero.  Far less noisy than playing the hands out::

    PYTHONPATH=bench/variants .venv/bin/python bench/bid_regret.py runs.jsonl \\
        --versions expert,noinf --positions 600
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from ab import make_bot, oh_hell_rules  # bench/ is on the path when run as a script
from bids import PLAYERS, games
from blackout import Deal, Game
from blackout.arena import mean_interval
from blackout.bots.expert import ExpertBot
from blackout.core.actions import BIDS
from blackout.core.cards import cards_in


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", help="bench/bots.py output (JSON lines)")
    parser.add_argument("--versions", default="expert",
                        help="comma-separated: expert or module:NAME (default expert)")
    parser.add_argument("--cards", type=int, default=7)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--judge", type=int, default=1000,
                        help="the judge's iterations a candidate (default 1000)")
    args = parser.parse_args()
    versions = args.versions.split(",")
    regret: dict[str, list[float]] = {version: [] for version in versions}
    agrees = dict.fromkeys(versions, 0)
    for deal, record in games(args.records):
        if len(regret[versions[0]]) >= args.positions:
            break
        hands = [sorted(cards_in(h)) for h in record["hands"]]
        game = Game.new(oh_hell_rules(args.cards), [f"p{s}" for s in range(PLAYERS)],
                        deals=[Deal(hands=hands, turn_up=record["turn_up"],
                                    dealer=record["dealer"])])
        every_hand = tuple(game.view(s).hands[s] for s in range(PLAYERS))
        for position in range(PLAYERS):
            seat = (record["dealer"] + 1 + position) % PLAYERS
            view = game.view(seat)
            if position and len(regret[versions[0]]) < args.positions:
                key = 1000 * deal["deal"] + seat
                budget: dict[str, Any] = {"iterations": args.iterations}
                chosen = {version: make_bot(version, key, budget).choose(view)
                          for version in versions}
                judged = dataclasses.replace(view, hands=every_hand)
                judge = ExpertBot(seed=key, iterations=args.judge)
                values = judge.evaluate(judged)
                for action in set(chosen.values()) - set(values):
                    values[action] = judge.evaluate(judged, also=action)[action]
                best = max(values, key=values.__getitem__)
                for version, action in chosen.items():
                    regret[version].append(values[best] - values[action])
                    agrees[version] += action == best
            game.apply(BIDS[record["bids"][seat]])
    report: dict[str, Any] = {}
    for version in versions:
        found = mean_interval(regret[version])
        report[version] = {"positions": len(regret[version]),
                           "regret": round(found.mean, 3), "ci95": round(found.half_width, 3),
                           "judge's bid": round(agrees[version] / len(regret[version]), 3)}
    for version in versions[1:]:
        paired = mean_interval([a - b for a, b in zip(regret[version], regret[versions[0]],
                                                      strict=True)])
        report[f"{version} - {versions[0]}"] = {"regret": round(paired.mean, 3),
                                                 "ci95": round(paired.half_width, 3)}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
