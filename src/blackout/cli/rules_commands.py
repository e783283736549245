"""``blackout variants`` and ``blackout rules NAME``."""

from __future__ import annotations

import argparse

from blackout.core.rules import PRESETS, VARIANTS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("variants", help="list the rule sets (presets)")
    p.set_defaults(run=run_variants)
    p = sub.add_parser("rules", help="show every rule of a preset")
    p.add_argument("name", choices=sorted(PRESETS), metavar="NAME")
    p.set_defaults(run=run_rules)


def run_variants(args: argparse.Namespace) -> int:
    width = max(map(len, VARIANTS))
    for name, text in VARIANTS.items():
        print(f"{name:<{width}}  {text}")
    return 0


def run_rules(args: argparse.Namespace) -> int:
    rules = PRESETS[args.name]
    print(f"{args.name}: {VARIANTS[args.name]}\n")
    for field, value in vars(rules).items():
        if field != "variant":
            print(f"  {field:<20} {value!r}")
    return 0
