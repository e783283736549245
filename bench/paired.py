"""Two versions of a `bench/bots.py` run on the same deals, compared deal by deal.

Each side is one or more run files (`bench/bots.py`'s output, read by `bench/runs.py`),
joined with commas, for example a run's two halves.  It prints each side's margin a hand
(mean and 95% interval over its deals) and the difference of the two, paired by deal: the
same cards played by both versions, so the luck of the deal cancels.  Deals are matched by
their number and must hold the same cards on both sides (the same ``--seed``); a side's
deal missing on the other is left out of the pairing::

    .venv/bin/python bench/paired.py RUN_A0.jsonl,RUN_A50.jsonl RUN_B0.jsonl,RUN_B50.jsonl
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from blackout.arena import Interval, mean_interval
from runs import RunFileError, deal_records, print_for_reader  # bench/ is on the path as a script


class DealMismatch(ValueError):
    """The two sides' deal of the same number holds different cards."""


def read_side(paths: list[str]) -> dict[int, dict[str, Any]]:
    """Every deal of a side's run files, by its number (a later file's deal of the same
    number is refused: the files should be a run's parts)."""
    deals: dict[int, dict[str, Any]] = {}
    for path in paths:
        for record in deal_records([path]):
            if record["deal"] in deals:
                raise DealMismatch(f"deal {record['deal']} is in {path} and in an "
                                   "earlier file of the same side")
            deals[record["deal"]] = record
    return deals


def _cards(record: dict[str, Any]) -> tuple[Any, Any, Any]:
    game = record["games"][0]
    return tuple(game["hands"]), game["turn_up"], game["dealer"]


def compare(first: dict[int, dict[str, Any]], second: dict[int, dict[str, Any]]
            ) -> dict[str, Interval]:
    """Each side's margin and their difference over the deals both played."""
    common = sorted(first.keys() & second.keys())
    for deal in common:
        if _cards(first[deal]) != _cards(second[deal]):
            raise DealMismatch(f"deal {deal} holds different cards on the two sides "
                               "(runs of different seeds?)")
    return {
        "first": mean_interval([first[d]["margin"] for d in sorted(first)]),
        "second": mean_interval([second[d]["margin"] for d in sorted(second)]),
        "paired": mean_interval([first[d]["margin"] - second[d]["margin"] for d in common]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="run files of the first version, comma-separated")
    parser.add_argument("second", help="run files of the second version, comma-separated")
    args = parser.parse_args()
    try:
        found = compare(read_side(args.first.split(",")), read_side(args.second.split(",")))
    except (OSError, DealMismatch, RunFileError) as error:
        print(f"paired.py: {error}", file=sys.stderr)
        return 2
    except (KeyError, IndexError, TypeError) as error:
        print(f"paired.py: not bench/bots.py output ({error!r})", file=sys.stderr)
        return 2
    lines = []
    for name, interval in found.items():
        label = "first - second" if name == "paired" else name
        lines.append(f"{label:>15}: {interval.mean:+.2f} ± {interval.half_width:.2f} "
                     f"over {interval.n} deals")
    print_for_reader("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
