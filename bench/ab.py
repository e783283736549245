"""A/B test of a bot variant against the shipped ``expert``, repeatable from the seed.

Every deal is played four times, the variant alone in each seat in turn against three
shipped experts, with fixed ``iterations`` for every searching bot, so the result does
not depend on the machine or its load.  The margin of a game is the variant's score
less the mean of the three others, per hand; a deal's margin is the mean over its four
games, and the report gives the mean over deals with a 95% t-interval.

The game is OpenSpiel's ``oh_hell`` in our terms (one hand, 4 players, turned-up trump,
hook, 1 point a trick + 10 for an exact bid)::

    .venv/bin/python bench/ab.py cheat --cards 7 --deals 40 90      # one process
    .venv/bin/python bench/ab.py basic --cards 7 --deals 0 10
    .venv/bin/python bench/ab.py policy --preset pbmserv --field basic --deals 0 8 --iterations 300

A bot that follows the table (``observe``: the expert learns the others' habits from
it) is shown its seat's view after every move, as the server does.

(``--preset`` plays that preset's whole game; ``--field`` puts another bot in the three
other seats: the last line is the expert with ``others="policy"``, which never takes a
player for a basic bot, against three basic bots.)

``--think SECONDS`` plays every bot on a time budget instead (one worker each, so two
processes can share a 2-core machine): how a variant that is faster or slower per
iteration compares at equal time; the result then depends on the machine.

Variants: ``cheat`` (the shipped expert shown every hand: what perfect information
is worth to this search), ``basic``, ``expert`` (a sanity check: margin exactly 0),
``policy`` (the expert with ``others="policy"``), ``noinf`` (the expert without the
learnt bid and play models, ``inference=False``), ``endgame:K`` (the expert solving
the last K tricks of every play-out exactly), ``expert:KEY=VALUE,...`` (the expert with
those options, e.g. ``expert:others=policy,their_exploration=1``), or
``module:NAME``, a module on ``PYTHONPATH`` with its own ``ExpertBot`` (a modified copy
of ``blackout.bots.expert``, the way the play-out changes in RESULTS.md were tried), or
``module:NAME:KEY=VALUE,...``, that bot with those options.
Two processes on disjoint deal ranges use both cores; the per-deal lines they print
(JSON: the deal's margin, and its margin in each hand of the game) can be pooled.

``--timing`` also reports the CPU time a decision took the variant and the field, over
all their decisions and over those with more than one legal action (the others return
at once); at fixed ``iterations`` that compares their speed side by side::

    PYTHONPATH=bench/variants .venv/bin/python bench/ab.py module:pychoice --timing \
        --deals 0 40 --iterations 300
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import random
import statistics
import sys
import time
from typing import Any

import blackout
from blackout import bots
from blackout.arena import mean_interval, show_everyone
from blackout.bots.expert import ExpertBot
from blackout.core.view import View

PLAYERS = 4


def oh_hell_rules(cards: int) -> blackout.Rules:
    """OpenSpiel's oh_hell in our terms: the standard preset with its options."""
    return blackout.variant("standard", schedule=[cards], scoring="tricks_plus_ten", hook=True,
                            last_hand_no_trump=False, tiebreak="shared")


class Cheat:
    """The shipped expert, shown every hand (the game is passed along for that)."""

    def __init__(self, seed: int, budget: dict[str, Any]) -> None:
        self.bot = ExpertBot(seed=seed, **budget)

    def choose_seeing_all(self, view: View, game: blackout.Game) -> Any:
        hands = tuple(game.view(s).hands[s] for s in range(game.n))
        return self.bot.choose(dataclasses.replace(view, hands=hands))


def make_bot(kind: str, seed: int, budget: dict[str, Any]) -> Any:
    if kind == "expert":
        return ExpertBot(seed=seed, **budget)
    if kind == "cheat":
        return Cheat(seed, budget)
    if kind == "noinf":
        return ExpertBot(seed=seed, inference=False, **budget)
    if kind == "policy":
        return ExpertBot(seed=seed, others="policy", **budget)
    if kind.startswith("endgame:"):
        return ExpertBot(seed=seed, endgame=int(kind.removeprefix("endgame:")), **budget)
    if kind.startswith("module:"):
        name, _, options = kind.removeprefix("module:").partition(":")
        return importlib.import_module(name).ExpertBot(
            seed=seed, **(expert_options(options) if options else {}), **budget)
    if kind.startswith("expert:"):
        return ExpertBot(seed=seed, **expert_options(kind.removeprefix("expert:")), **budget)
    return bots.create(kind, seed=seed)


def expert_options(text: str) -> dict[str, Any]:
    """``others=policy,their_exploration=1`` as keyword arguments of ``ExpertBot``."""
    options: dict[str, Any] = {}
    for pair in text.split(","):
        key, _, value = pair.partition("=")
        try:
            options[key] = int(value)
        except ValueError:
            try:
                options[key] = float(value)
            except ValueError:
                options[key] = value
    return options


class CpuTimes:
    """CPU seconds of each decision, for the variant and for the field, split by whether
    the decision had a choice."""

    def __init__(self) -> None:
        self.seconds: dict[tuple[str, bool], list[float]] = {
            (side, choice): [] for side in ("variant", "field") for choice in (False, True)}

    def add(self, side: str, choice: bool, seconds: float) -> None:
        self.seconds[side, choice].append(seconds)

    def report(self) -> str:
        lines = []
        for side in ("variant", "field"):
            chosen = self.seconds[side, True]
            every = chosen + self.seconds[side, False]
            lines.append(f"{side}: CPU {1000 * statistics.fmean(chosen):.2f} ms a decision "
                         f"with a choice ({len(chosen)}), {1000 * statistics.fmean(every):.2f}"
                         f" ms over all {len(every)}")
        return "\n".join(lines)


def play(rules: blackout.Rules, game_seed: int, lone: int, variant: str,
         budget: dict[str, Any], deal: int, field: str = "expert",
         times: CpuTimes | None = None
         ) -> tuple[float, list[float], list[bool], list[bool]]:
    """One game; the variant's margin per hand, its margin in each hand, and the exact
    bids of both sides."""
    game = blackout.Game.new(rules, [f"p{s}" for s in range(PLAYERS)], seed=game_seed)
    players = [make_bot(variant if s == lone else field, 10 * deal + s, budget)
               for s in range(PLAYERS)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None  # the game is not over
        player = players[seat]
        view = game.view(seat)
        started = time.process_time()
        if hasattr(player, "choose_seeing_all"):  # ``cheat``, ``module:cheatbid``, ...
            action = player.choose_seeing_all(view, game)
        else:
            action = player.choose(view)
        if times is not None:
            times.add("variant" if seat == lone else "field", len(game.legal_actions()) > 1,
                      time.process_time() - started)
        game.apply(action)
        show_everyone(game, players)
    scores = game.scores
    others = statistics.fmean(scores[s] for s in range(PLAYERS) if s != lone)
    hands = game.hands_played
    each = [h.points[lone] - statistics.fmean(h.points[s] for s in range(PLAYERS) if s != lone)
            for h in hands]
    return ((scores[lone] - others) / len(hands), each,
            [h.made[lone] for h in hands],
            [h.made[s] for h in hands for s in range(PLAYERS) if s != lone])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--cards", type=int, default=7)
    parser.add_argument("--deals", type=int, nargs=2, default=(0, 20), metavar=("FROM", "TO"))
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--think", type=float,
                        help="seconds per decision instead of iterations (one worker each)")
    parser.add_argument("--preset", help="play this preset's whole game instead of oh_hell")
    parser.add_argument("--field", default="expert",
                        help="the bot in the three other seats (default expert)")
    parser.add_argument("--timing", action="store_true",
                        help="also report the CPU time a decision of each side took")
    args = parser.parse_args()
    budget: dict[str, Any] = ({"iterations": args.iterations} if args.think is None
                              else {"think": args.think, "workers": 1})
    rules = blackout.variant(args.preset) if args.preset else oh_hell_rules(args.cards)
    margins: list[float] = []
    times = CpuTimes() if args.timing else None
    made: dict[str, list[bool]] = {"variant": [], "expert": []}
    for deal in range(*args.deals):
        game_seed = random.Random(f"ab:{deal}").getrandbits(62)
        per_seat = []
        per_hand: list[list[float]] = []
        for lone in range(PLAYERS):
            margin, each, mine, theirs = play(rules, game_seed, lone, args.variant,
                                              budget, deal, args.field, times)
            per_seat.append(margin)
            per_hand.append(each)
            made["variant"] += mine
            made["expert"] += theirs
        margins.append(statistics.fmean(per_seat))
        # The margin in each hand of the game (mean over the seats), where the games
        # have the same number of hands.
        hands = ([round(statistics.fmean(h), 3) for h in zip(*per_hand, strict=True)]
                 if len({len(each) for each in per_hand}) == 1 else None)
        print(json.dumps({"deal": deal, "margin": margins[-1], "hands": hands}), flush=True)
    interval = mean_interval(margins)
    game = args.preset or f"{args.cards} cards"
    print(f"{args.variant} vs {args.field}, {game}, deals {args.deals[0]}-"
          f"{args.deals[1]}, {budget}: margin {interval.mean:+.2f} "
          f"± {interval.half_width:.2f} per hand; exact bids "
          f"{statistics.fmean(made['variant']):.1%} vs {statistics.fmean(made['expert']):.1%}")
    if times is not None:
        print(times.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
