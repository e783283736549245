"""``blackout arena VARIANT --seats expert,basic,basic,basic --games N``: bots against bots."""

from __future__ import annotations

import argparse
import importlib.util
import json
import math

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from blackout import bots
from blackout.arena import ArenaResult, run_arena
from blackout.cli.main import UserError
from blackout.cli.options import add_option_argument, parse_options
from blackout.core.rules import PRESETS, variant


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "arena", help="play bots against each other and measure them",
        description="Play many games between computer players and report, per bot, the "
        "mean score per game and per hand with 95% confidence intervals, win rate, "
        "exact-bid rate and decision time (mean, 99th percentile and longest).")
    p.add_argument("variant", choices=sorted(PRESETS), metavar="VARIANT",
                   help=f"rule set: {', '.join(sorted(PRESETS))}")
    p.add_argument("--seats", required=True, metavar="BOT,BOT,...",
                   help=f"the bot in each seat, e.g. expert,basic,basic,basic "
                   f"(bots: {', '.join(bots.NAMES)})")
    p.add_argument("--games", type=int, default=10, metavar="N",
                   help="games (deals, with --duplicate) to play (default 10)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed for the cards and the bots (default 0)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--think", type=float, metavar="SECONDS",
                        help="time per decision for searching bots (default 1)")
    budget.add_argument("--iterations", type=int, metavar="N",
                        help="sampled deals per decision for searching bots: repeatable "
                        "results on any machine")
    p.add_argument("--duplicate", action="store_true",
                   help="replay every deal with the bots rotated through the seats")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="save the score distribution per bot")
    add_option_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    seats = [name.strip() for name in args.seats.split(",") if name.strip()]
    for name in seats:
        if name not in bots.NAMES:
            raise UserError(f"unknown bot {name!r}; bots are {', '.join(bots.NAMES)}")
    if args.games < 1:
        raise UserError("--games must be at least 1")
    if args.think is not None and args.think <= 0:
        raise UserError("--think must be a positive number of seconds")
    if args.iterations is not None and args.iterations < 1:
        raise UserError("--iterations must be at least 1")
    if args.plot and not args.plot.lower().endswith(".png"):
        raise UserError("--plot needs a file name ending in .png")
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        raise UserError("--plot needs matplotlib: pip install 'blackout[plot]'")
    options = parse_options(args.option)
    rules = variant(args.variant, **options)  # bad options fail here, before the bar
    rules.check_players(len(seats))
    console = Console(stderr=True)
    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as bar:
        task = bar.add_task("arena", total=args.games * (len(seats) if args.duplicate else 1))
        result = run_arena(args.variant, seats, games=args.games, seed=args.seed,
                           options=options, think=args.think, iterations=args.iterations,
                           duplicate=args.duplicate,
                           progress=lambda done, _total: bar.update(task, completed=done))
    if args.plot:
        _plot(result, args.plot)
    if args.json:
        print(json.dumps(_jsonable(result.to_dict()), indent=2))
    else:
        # Piped to a file, the tables keep their width instead of a terminal's 80 columns.
        out = Console() if Console().is_terminal else Console(width=120)
        out.print(_table(result))
        if result.margins:
            out.print(_margins_table(result))
    return 0


def _jsonable(value: object) -> object:
    """The result as JSON: NaN (no data) becomes null."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _played(result: ArenaResult) -> str:
    if not result.duplicate:
        return f"{result.games} games"
    rotations = len(result.seats)
    return (f"{result.games} deals x {rotations} seatings "
            f"({result.games * rotations} games, duplicate)")


def _table(result: ArenaResult) -> Table:
    table = Table(title=f"{result.variant}: {_played(result)}, seed {result.seed}, "
                  f"seats {','.join(result.seats)}")
    for column in ("bot", "score/game (95% CI)", "score/hand (95% CI)", "wins",
                   "exact bids", "s/decision", "p99 s", "max s"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in result.stats:
        table.add_row(s.bot, str(s.per_game), str(s.per_hand), f"{s.win_rate:.1%}",
                      f"{s.exact_rate:.1%}", f"{s.decision_time:.3f}",
                      f"{s.decision_p99:.3f}", f"{s.decision_max:.3f}")
    return table


def _margins_table(result: ArenaResult) -> Table:
    unit = result.margins[0].unit
    table = Table(title=f"margins, paired by {unit} (95% CI)")
    for column in ("bot", "over", "points per hand"):
        table.add_column(column, justify="right" if column == "points per hand" else "left")
    for margin in result.margins:
        table.add_row(margin.bot, margin.over, f"{margin.per_hand.mean:+.2f} ± "
                      f"{margin.per_hand.half_width:.2f}")
    return table


def _plot(result: ArenaResult, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    names = [s.bot for s in result.stats]
    axes.boxplot([s.game_scores for s in result.stats], showmeans=True)
    axes.set_xticks(range(1, len(names) + 1), names)
    axes.set_ylabel("score per game")
    axes.set_title(f"{result.variant}: score per game by bot ({_played(result)})")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
