"""``blackout analyse FILE [--json] [--all] [--iterations N]``: what each decision of a
finished game cost, as the expert sees it (see :mod:`blackout.analysis`)."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from blackout.analysis import ACCURATE_WITHIN, Analysis, analyse
from blackout.cli.main import UserError
from blackout.cli.replay import load_game
from blackout.core.record import RecordError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("analyse", help="points lost at every decision of a finished game")
    p.add_argument("file", metavar="FILE", help="a finished game's record (JSON)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument("--all", action="store_true",
                   help=f"list every decision, not only those losing over {ACCURATE_WITHIN}")
    p.add_argument("--iterations", type=int, default=100, metavar="N",
                   help="the expert's simulations per candidate move (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the expert's seed (default 0)")
    p.set_defaults(run=run_analyse)


def run_analyse(args: argparse.Namespace) -> int:
    if args.iterations < 1:
        raise UserError("--iterations must be at least 1")
    game = load_game(args.file)  # checks the record, one line per problem
    try:
        report = analyse(game.record(), iterations=args.iterations, seed=args.seed)
    except RecordError as exc:
        raise UserError(f"{args.file}: {exc}") from None
    if args.json:
        print(json.dumps(report.to_dict(), indent=1))
        return 0
    _show(report, Console(highlight=False), every=args.all)
    return 0


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share:.0%}"


def _show(report: Analysis, console: Console, every: bool) -> None:
    table = Table(title=f"Analysis ({report.iterations} simulations a candidate move)")
    for heading in ("player", "score", "bids ok", "lost bidding", "cards ok",
                    "lost playing", "luck"):
        table.add_column(heading, justify="left" if heading == "player" else "right")
    for p in report.players:
        table.add_row(escape(p["player"]), str(p["score"]), _percent(p["bid_accuracy"]),
                      f"{p['bid_points_lost']:.1f}", _percent(p["play_accuracy"]),
                      f"{p['play_points_lost']:.1f}", f"{p['luck']:+.1f}")
    console.print(table)
    console.print(f"ok: within {ACCURATE_WITHIN} points of the expert's best move; luck: "
                  "points the cards alone were worth (each deal replayed by one bot in "
                  "every seat, less the table's average)")
    shown = [d for d in report.decisions if every or d.lost > ACCURATE_WITHIN]
    if not every:
        console.print(f"\nDecisions losing more than {ACCURATE_WITHIN} points "
                      f"({len(shown)} of {len(report.decisions)}):")
    for d in shown:
        better = "" if d.best == d.played else f", best {d.best} {d.best_points:+.1f}"
        console.print(f"hand {d.hand:>2} {escape(d.player)} {d.kind} {d.played} "
                      f"{d.played_points:+.1f}{better}: lost {d.lost:.1f}")
