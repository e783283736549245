"""How well the expert's bid search foresees whether its own bid will be made.

When the expert bids, its search plays each candidate bid out over many sampled deals
and counts how often the bid is made (``Stats.made``).  This compares that foreseen
make chance (and the foreseen tricks) with what then happened, bid by bid:

* ``records RUN.jsonl ...``: every bid an expert made in `bench/bots.py` runs is
  searched again on the same view (``--iterations`` a candidate, one worker, a seed of
  its own; ``--endgame K`` solves the last K tricks of its play-outs exactly) and its
  foresight set against the tricks the expert took in that game.
* ``play``: four shipped experts play OpenSpiel's ``oh_hell`` hands
  (``--cards 7,12``, hand ``--first`` on, ``--hands`` of them) at ``--iterations``; a
  share ``--explore`` of the bids is drawn at random among the candidates within three
  points of the best, so the foresight is also seen for bids the search would not have
  chosen.  Every bid's line (JSON) goes to ``--lines``.
* ``fit LINES ...``: the logistic map from the foreseen chance to the made one,
  logit(made) = a + b·logit(foreseen) + c·bid/cards + d·[bid is 0], fitted by Newton's
  method (a little ridge), with its standard errors and the log-likelihood a bid
  against the foreseen chance taken as it is (``bench/variants/calibrated.py`` uses it).

Each mode prints a table by bid: how many, the make chance foreseen and found, the
tricks foreseen and taken::

    .venv/bin/python bench/foresight.py records runs_0.jsonl runs_50.jsonl --lines seen.jsonl
    .venv/bin/python bench/foresight.py play --cards 7,12 --first 0 --hands 100 --lines a.jsonl
    .venv/bin/python bench/foresight.py fit a.jsonl b.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from collections.abc import Iterator
from typing import Any, TextIO

from ab import oh_hell_rules  # bench/ is on the path when run as a script
from bids import PLAYERS, record_game
from blackout import Game
from blackout.bots.expert import ExpertBot
from blackout.core.actions import BIDS, Bid
from blackout.core.view import View
from runs import games

# A random bid is drawn among the candidates whose foreseen mean points are within this
# of the best one's: a bid a player might make, not any bid at all.
PLAUSIBLE = 3.0
RIDGE = 0.01


def foresight(bot: ExpertBot, view: View) -> tuple[Any, dict[str, list[float]]]:
    """The bid the search chooses, and for each candidate it searched: visits, foreseen
    tricks, make chance and points."""
    verdict = bot._search(view)
    return verdict.action, {
        str(action): [stats.visits, stats.tricks / stats.visits, stats.made / stats.visits,
                      stats.points / stats.visits]
        for action, stats in verdict.found.items() if stats.visits}


def from_records(paths: list[str], iterations: int, endgame: int = 0
                 ) -> Iterator[dict[str, Any]]:
    """Every expert bid of `bench/bots.py` records, searched again (the last ``endgame``
    tricks of its play-outs solved exactly)."""
    for deal, record in games(paths):
        game = record_game(record)
        for position in range(PLAYERS):
            seat = (record["dealer"] + 1 + position) % PLAYERS
            if seat in record["experts"]:
                bot = ExpertBot(seed=deal["deal"] * PLAYERS + seat, iterations=iterations,
                                workers=1, endgame=endgame)
                view = game.view(seat)
                _, found = foresight(bot, view)
                yield {"deal": deal["deal"], "cards": view.cards_dealt, "seat": seat,
                       "position": position, "bid": record["bids"][seat], "random": False,
                       "tricks": record["tricks"][seat], "found": found}
            game.apply(BIDS[record["bids"][seat]])


def from_play(sizes: list[int], first: int, hands: int, iterations: int,
              explore: float) -> Iterator[dict[str, Any]]:
    """Every bid of self-play hands, some drawn at random among the plausible ones."""
    for hand in range(first, first + hands):
        rng = random.Random(hand)
        cards = sizes[hand % len(sizes)]
        game = Game.new(oh_hell_rules(cards), [f"p{s}" for s in range(PLAYERS)], seed=hand)
        bots = [ExpertBot(seed=hand * 10 + s, iterations=iterations, workers=1)
                for s in range(PLAYERS)]
        seen: dict[int, dict[str, Any]] = {}
        while (seat := game.to_move) is not None:
            view = game.view(seat)
            bots[seat].observe(view)
            if view.phase != "bid":
                card = bots[seat].choose(view)
                assert card is not None
                game.apply(card)
                continue
            action, found = foresight(bots[seat], view)
            drawn = found and rng.random() < explore
            if drawn:
                best = max(values[3] for values in found.values())
                plausible = [bid for bid, values in found.items() if values[3] >= best - PLAUSIBLE]
                action = BIDS[int(rng.choice(plausible))]
            assert isinstance(action, Bid)
            seen[seat] = {"deal": hand, "cards": cards, "seat": seat,
                          "position": sum(b is not None for b in view.bids),
                          "bid": action.tricks, "random": bool(drawn), "found": found}
            game.apply(action)
        won = game.view(0).tricks_won
        for seat, line in seen.items():
            yield line | {"tricks": won[seat]}


def table(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """By bid (3 and more together): count, make chance foreseen and found, tricks
    foreseen and taken."""
    groups: dict[str, list[tuple[float, bool, float, int]]] = defaultdict(list)
    for line in lines:
        found = line["found"].get(str(line["bid"]))
        if found:
            key = str(min(line["bid"], 3)) + ("+" if line["bid"] >= 3 else "")
            groups[key].append((found[2], line["tricks"] == line["bid"], found[1], line["tricks"]))
    return [{"bid": key, "n": len(group),
             "made_foreseen": round(sum(g[0] for g in group) / len(group), 3),
             "made": round(sum(g[1] for g in group) / len(group), 3),
             "tricks_foreseen": round(sum(g[2] for g in group) / len(group), 3),
             "tricks": round(sum(g[3] for g in group) / len(group), 3)}
            for key, group in sorted(groups.items())]


def features(foreseen: float, bid: int, cards: int) -> list[float]:
    """The map's inputs (see the module docstring)."""
    chance = min(max(foreseen, 0.01), 0.99)
    return [1.0, math.log(chance / (1 - chance)), bid / cards, float(bid == 0)]


def fit(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The logistic map fitted to the bids of ``lines`` whose foresight is known."""
    import numpy as np

    rows = [(features(line["found"][str(line["bid"])][2], line["bid"], line["cards"]),
             float(line["tricks"] == line["bid"]))
            for line in lines if str(line["bid"]) in line["found"]]
    x = np.array([row[0] for row in rows])
    y = np.array([row[1] for row in rows])
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ beta))
        gradient = x.T @ (y - p) - RIDGE * beta
        beta -= np.linalg.solve(_hessian(x, p), gradient)
    p = 1 / (1 + np.exp(-x @ beta))
    hessian = _hessian(x, p)
    raw = 1 / (1 + np.exp(-x[:, 1]))

    def loglik(q: Any) -> float:
        return float(np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))

    return {"bids": len(rows), "coefficients": [round(float(b), 3) for b in beta],
            "se": [round(float(s), 3) for s in np.sqrt(np.diag(np.linalg.inv(-hessian)))],
            "loglik_fitted": round(loglik(p), 4), "loglik_foreseen": round(loglik(raw), 4)}


def _hessian(x: Any, p: Any) -> Any:
    import numpy as np

    return -(x.T * (p * (1 - p))) @ x - RIDGE * np.eye(x.shape[1])


def _write(lines: Iterator[dict[str, Any]], out: TextIO) -> list[dict[str, Any]]:
    kept = []
    for line in lines:
        print(json.dumps(line), file=out, flush=True)
        kept.append(line)
    return kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["records", "play", "fit"])
    parser.add_argument("files", nargs="*", help="bots.py runs (records) or lines (fit)")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--cards", default="7,12", help="play: hand sizes, in turn")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--explore", type=float, default=0.5)
    parser.add_argument("--endgame", type=int, default=0, metavar="K",
                        help="records: the last K tricks of every play-out solved exactly")
    parser.add_argument("--lines", help="write every bid's line here (JSON lines)")
    args = parser.parse_args()
    if args.mode != "play" and not args.files:
        parser.error(f"{args.mode} needs files to read")
    try:
        if args.mode == "fit":
            lines = []
            for path in args.files:
                with open(path) as texts:
                    lines += [json.loads(text) for text in texts]
            print(json.dumps({"by_bid": table(lines), "fit": fit(lines)}))
            return 0
        if args.mode == "records":
            found = from_records(args.files, args.iterations, args.endgame)
        else:
            found = from_play([int(c) for c in args.cards.split(",")], args.first, args.hands,
                              args.iterations, args.explore)
        with open(args.lines or "/dev/null", "w") as out:
            print(json.dumps({"by_bid": table(_write(found, out))}))
    except OSError as error:
        parser.error(f"cannot read or write {error.filename}: {error.strerror}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
