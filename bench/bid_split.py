"""Where a `bench/bots.py` margin comes from: the bids or the play.

Every deal of `bench/bots.py` is played twice with the same cards, so each seat's
cards are held once by the expert and once by ISMCTS.  This compares the two on the
same cards, seat by seat: where both bid the same, any difference is the play's (and
the other seats'); where they bid differently, the bid is where they parted.  For each
group it prints how often it happens, how often each side made its bid exactly, and the
expert's points less ISMCTS's on those cards (OpenSpiel's `oh_hell` scoring, as the core
scores `bench/ab.py`'s `oh_hell_rules`: a point a trick, 10 more for an exact bid), with a
95% interval over deals.  It also prints each side's mean points a seat-hand over all of
them: between runs on the same deals, whether a margin moved with the expert's own
points or with ISMCTS's::

    .venv/bin/python bench/bid_split.py RUN.jsonl [RUN.jsonl ...]

The files are `bench/bots.py`'s output, read by `bench/runs.py`.
Runs on the same deals are pooled as independent deals.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ab import oh_hell_rules  # bench/ is on the path when run as a script
from blackout.arena import mean_interval
from blackout.core.scoring import player_points
from runs import answer, deal_records

GROUPS = ("same bid", "expert bid higher", "expert bid lower")


def split(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Each group's seat-hands, exact bids and points difference per deal."""
    by_deal: dict[str, list[float]] = defaultdict(list)  # per deal: the group's total
    seats: dict[str, int] = defaultdict(int)
    exact: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    points = {"expert": 0, "ismcts": 0}  # every seat-hand's points, by who held the cards
    deals = 0
    for record in records:
        deals += 1
        totals: dict[str, float] = defaultdict(float)
        first, second = record["games"]
        cards = sum(first["tricks"])
        rules = oh_hell_rules(cards)
        for seat in range(len(first["bids"])):
            ours, theirs = (first, second) if seat in first["experts"] else (second, first)
            our_bid, our_tricks = ours["bids"][seat], ours["tricks"][seat]
            their_bid, their_tricks = theirs["bids"][seat], theirs["tricks"][seat]
            group = GROUPS[0 if our_bid == their_bid else 1 if our_bid > their_bid else 2]
            ours_points = player_points(rules, cards, our_bid, our_tricks)
            theirs_points = player_points(rules, cards, their_bid, their_tricks)
            totals[group] += ours_points - theirs_points
            points["expert"] += ours_points
            points["ismcts"] += theirs_points
            seats[group] += 1
            exact[group][0] += our_bid == our_tricks
            exact[group][1] += their_bid == their_tricks
        for group in GROUPS:
            by_deal[group].append(totals[group])
    result: dict[str, dict[str, float]] = {}
    all_seats = sum(seats.values())
    for group in GROUPS:
        if not seats[group]:
            continue
        interval = mean_interval(by_deal[group])
        result[group] = {
            "share": round(seats[group] / all_seats, 3),
            "exact_expert": round(exact[group][0] / seats[group], 3),
            "exact_ismcts": round(exact[group][1] / seats[group], 3),
            # The group's points difference a deal, over every deal (0 where it did not
            # occur): the three add up to the four seats' difference a deal, about 4 ×
            # the run's margin (which weighs the lone seat of each game more).
            "points_a_deal": round(interval.mean, 2),
            "ci95": round(interval.half_width, 2),
            "points_a_seat_hand": round(sum(by_deal[group]) / seats[group], 2),
        }
    # Whether a margin comes from the expert's own points or from ISMCTS's: compare runs
    # on the same deals.
    means = {side: round(total / all_seats, 2) for side, total in points.items()}
    return {"deals": deals, "seat_hands": all_seats, "points_a_seat_hand": means,
            "groups": result}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="bench/bots.py output files (JSON lines)")
    args = parser.parse_args()
    return answer("bid_split.py", parser, lambda: split(deal_records(args.runs)), indent=1)


if __name__ == "__main__":
    sys.exit(main())
