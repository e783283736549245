"""What each version of the expert gives away at its bids or cards, judged by an expert
shown every hand.

Every card played with a choice (or, with ``--bids``, every bid after the first: the
first bidder has no bid to learn from) in the records of ``bench/bots.py`` (both games of
each deal, by either side) is a position: the hand is rebuilt in our engine up to it and
each version named (``expert``, the shipped bot, another of ``ab.py``'s variants such as
``noinf``, or ``module:NAME``, a module of ``bench/variants/`` on ``PYTHONPATH``) decides
there, all of them on the same budget: ``--think SECONDS`` (one worker each, one after
the other in this process, so they share the machine alike) or ``--iterations``.  A
judge, the shipped expert shown every hand at ``--judge`` iterations a candidate, values
every action it searches and each version's choice.  A version's *regret* at a position
is the judge's value of its best action less its value of the version's: the points (as
the search would play the rest of the hand, knowing the cards) the version's choice
gives away.  The judge's values carry their own search noise, so even a perfect player
shows some regret: compare versions on the same positions (the paired lines), not with
zero.  Far less noisy than playing the hands out, and the measure for what a budget of
time does and a fixed number of iterations does not show, such as how many distinct
deals a timed search draws::

    PYTHONPATH=bench/variants .venv/bin/python bench/regret.py runs.jsonl \\
        --versions expert,module:pool512 --think 0.5 --positions 400

Two processes on different positions (``--skip``) use both cores; ``--lines FILE`` keeps
every position's regrets (JSON lines) so such runs can be pooled with ``--pool FILE...``.
(``--bids --iterations`` measures as the tenth session's ``bench/bid_regret.py`` did, which
it replaces, with other seeds; that script is at commit 8a092d9.)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from ab import make_bot  # bench/ is on the path when run as a script
from bids import PLAYERS, record_game
from blackout import Game
from blackout.arena import mean_interval
from blackout.bots.expert import ExpertBot
from blackout.core.actions import BIDS, PLAYS, Action
from blackout.core.view import View
from runs import games


def positions(records: list[str], bids: bool) -> Iterator[tuple[int, View, tuple[int | None, ...]]]:
    """(key, view, every seat's unplayed cards) at each bid after the first (``bids``)
    or each card played with a choice, in record order."""
    for deal, record in games(records):
        if not bids and "plays" not in record:
            raise SystemExit("regret: these records hold no plays; make them with this "
                             "version of bench/bots.py")
        game = record_game(record)
        key = 100_000 * deal["deal"] + 1000 * (len(record["experts"]) == 1)
        for position in range(PLAYERS):
            seat = (record["dealer"] + 1 + position) % PLAYERS
            if bids and position:
                yield key + 900 + position, game.view(seat), _every_hand(game)
            game.apply(BIDS[record["bids"][seat]])
        if bids:
            continue
        for index, card in enumerate(record["plays"]):
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            if len(view.legal_actions) > 1:
                yield key + index, view, _every_hand(game)
            game.apply(PLAYS[card])


def _every_hand(game: Game) -> tuple[int | None, ...]:
    return tuple(game.view(s).hands[s] for s in range(PLAYERS))


def judge_values(view: View, every_hand: tuple[int | None, ...], key: int, iterations: int,
                 chosen: set[Action]) -> dict[Action, float]:
    """The judge's mean points for each action it searches and each of ``chosen``."""
    judged = dataclasses.replace(view, hands=every_hand)
    judge = ExpertBot(seed=key, iterations=iterations, workers=1)
    values = judge.evaluate(judged)
    for action in chosen - set(values):
        values[action] = judge.evaluate(judged, also=action)[action]
    return values


def report(versions: list[str], lines: list[dict[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {"positions": len(lines)}
    for version in versions:
        regret = mean_interval([line["regret"][version] for line in lines])
        found[version] = {"regret": round(regret.mean, 3), "ci95": round(regret.half_width, 3),
                          "judge's choice": round(sum(line["regret"][version] == 0
                                                    for line in lines) / len(lines), 3)}
    for version in versions[1:]:
        paired = mean_interval([line["regret"][version] - line["regret"][versions[0]]
                                for line in lines])
        found[f"{version} - {versions[0]}"] = {"regret": round(paired.mean, 3),
                                                "ci95": round(paired.half_width, 3)}
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*", help="bench/bots.py output (JSON lines)")
    parser.add_argument("--versions", default="expert",
                        help="comma-separated: expert, module:NAME, ... (default expert)")
    parser.add_argument("--bids", action="store_true",
                        help="the bids after the first, not the cards")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--skip", type=int, default=0, help="positions passed over first")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--think", type=float, help="seconds a decision for every version")
    budget.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--judge", type=int, default=1000,
                        help="the judge's iterations a candidate (default 1000)")
    parser.add_argument("--lines", help="write each position's regrets here (JSON lines)")
    parser.add_argument("--pool", nargs="+", help="report on these --lines files instead")
    args = parser.parse_args()
    versions = args.versions.split(",")
    try:
        found: list[dict[str, Any]] = []
        if args.pool:
            for path in args.pool:
                with open(path) as lines:
                    found += [json.loads(line) for line in lines]
        else:
            with open(args.lines or os.devnull, "w") as out:
                found = measure(args, versions, out)
        if not found:
            parser.error("no positions in these files")
        print(json.dumps(report(versions, found)))
    except OSError as error:
        parser.error(f"cannot read or write {error.filename}: {error.strerror}")
    except (ValueError, KeyError, TypeError) as error:
        print(f"regret: not bench/bots.py records, or --pool lines of other "
              f"--versions: {error!r}", file=sys.stderr)
        return 2
    return 0


def measure(args: argparse.Namespace, versions: list[str], out: TextIO
            ) -> list[dict[str, Any]]:
    """Every chosen position's regrets, each also written to ``out`` as it is found."""
    budget: dict[str, Any] = ({"think": args.think, "workers": 1} if args.think
                              else {"iterations": args.iterations})
    lines: list[dict[str, Any]] = []
    found = positions(args.records, args.bids)
    for number, (key, view, every_hand) in enumerate(found):
        if len(lines) >= args.positions:
            break
        if number < args.skip:
            continue
        chosen = {version: make_bot(version, key, budget).choose(view)
                  for version in versions}
        values = judge_values(view, every_hand, key, args.judge, set(chosen.values()))
        best = max(values.values())
        line = {"key": key, "regret": {version: best - values[action]
                                       for version, action in chosen.items()}}
        lines.append(line)
        print(json.dumps(line), file=out, flush=True)
        if len(lines) % 50 == 0:
            print(f"{len(lines)} positions: {json.dumps(report(versions, lines))}",
                  file=sys.stderr, flush=True)
    return lines


if __name__ == "__main__":
    sys.exit(main())
