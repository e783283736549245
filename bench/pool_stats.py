"""How many distinct deals a timed expert really searches: its pool, the pool's cost and
its effective size.

Where the learnt models choose the deals, a search draws a pool of ``LEARNT_POOL`` deals
(each hand to explain its bid, card by card by what its plays say of each card) and then
searches deals drawn from it in proportion to the chance of the others' cards over that
draw's (:func:`blackout.bots.tree._deals`).  With the weights ``w`` of the pool's
deals, ``(sum w)^2 / sum w^2`` is how many equally weighted deals they are worth (the
effective sample size).  This plays four shipped experts against each other on
``bench/ab.py``'s 7-card ``oh_hell`` table, one worker each, and reports by trick the play
searches' iterations, pool and effective size, and by phase how long drawing the pool
took::

    .venv/bin/python bench/pool_stats.py --games 3 --think 0.5 [--pool 512]
"""

from __future__ import annotations

import argparse
import collections
import math
import statistics
import sys
import time
from typing import Any

import blackout
from ab import oh_hell_rules  # bench/ is on the path when run as a script
from blackout.bots import expert, tree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--cards", type=int, default=7)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--pool", type=int, default=expert.LEARNT_POOL,
                        help=f"the learnt pool's size (default {expert.LEARNT_POOL})")
    args = parser.parse_args()
    expert.LEARNT_POOL = args.pool
    build: dict[str, list[float]] = collections.defaultdict(list)
    by_trick: dict[int, list[tuple[int, int, float]]] = collections.defaultdict(list)
    deals, resampled, search_play = tree._deals, tree._resampled, tree.search_play
    drawn: list[tuple[int, float]] = []  # the last pool's size and effective size

    def timed_deals(view: Any, search: Any, fits: Any, deadline: float,
                    iterations: int | None, plays: Any = None,
                    pool_size: int = tree.POOL_DEALS) -> Any:
        drawn[:] = [(0, 0.0)]  # unless the pool is weighed
        started = time.monotonic()
        found = deals(view, search, fits, deadline, iterations, plays, pool_size)
        build[view.phase].append(time.monotonic() - started)
        return found

    def weighing(pool: list[list[int]], logs: list[float], rng: Any,
                 k: int | None = None) -> list[list[int]]:
        drawn[:] = [(len(logs), _effective(logs))]  # the pool is weighed before it is used
        return resampled(pool, logs, rng, k)

    def counted_search(view: Any, *rest: Any) -> Any:
        stats = search_play(view, *rest)
        by_trick[sum(view.tricks_won)].append((sum(s.visits for s in stats), *drawn[0]))
        return stats

    tree._deals = timed_deals
    tree._resampled = weighing
    expert.search_play = counted_search  # type: ignore[attr-defined,assignment]
    for number in range(args.games):
        game = blackout.Game.new(oh_hell_rules(args.cards), "abcd", seed=100 + number)
        players = [expert.ExpertBot(seed=10 * number + s, think=args.think, workers=1)
                   for s in range(4)]
        while not game.is_over:
            seat = game.to_move
            assert seat is not None  # the game is not over
            action = players[seat].choose(game.view(seat))
            assert action is not None  # the seat to move always has a choice to make
            game.apply(action)
    for trick, rows in sorted(by_trick.items()):
        weighed = [row for row in rows if row[1]]  # the searches whose deals were weighed
        print(f"trick {trick + 1}: {len(rows)} searches, iterations (median) "
              f"{statistics.median(row[0] for row in rows):.0f}; {len(weighed)} weighed "
              + (f"a pool of {statistics.median(row[1] for row in weighed):.0f} deals, "
                 f"effective median {statistics.median(row[2] for row in weighed):.1f}, "
                 f"least {min(row[2] for row in weighed):.1f}" if weighed else "none"))
    for phase, seconds in build.items():
        seconds.sort()
        print(f"drawing the pool ({phase}): {len(seconds)} searches, median "
              f"{1000 * statistics.median(seconds):.1f} ms, 90th percentile "
              f"{1000 * seconds[int(0.9 * len(seconds))]:.1f} ms")
    return 0


def _effective(logs: list[float]) -> float:
    """The effective number of deals of weights ``exp(logs)``."""
    if not logs:
        return 0.0
    top = max(logs)
    weights = [math.exp(log - top) for log in logs]
    return sum(weights) ** 2 / sum(w * w for w in weights)


if __name__ == "__main__":
    sys.exit(main())
