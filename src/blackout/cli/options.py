"""``-o KEY=VALUE`` rule options, shared by the commands that start games or sheets.

>>> parse_options(["hook=false", "schedule=7,6", "target=150", "team_bid=at_least"])
{'hook': False, 'schedule': [7, 6], 'target': 150, 'team_bid': 'at_least'}
>>> parse_options(["schedule=5"])
{'schedule': [5]}
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from blackout.cli.main import UserError

_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}
_NONE = {"none", "null"}


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="override one rule, e.g. -o hook=false -o schedule=7,6 (repeatable; "
        "see `blackout rules NAME` for the keys)")


def parse_value(text: str) -> Any:
    """``true``/``false`` -> bool, ``none`` -> None, digits -> int, ``7,6`` -> a list."""
    word = text.strip()
    if word.lower() in _TRUE:
        return True
    if word.lower() in _FALSE:
        return False
    if word.lower() in _NONE:
        return None
    if "," in word:
        return [parse_value(part) for part in word.split(",") if part.strip()]
    try:
        return int(word)
    except ValueError:
        return word


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """Turn ``KEY=VALUE`` strings into keyword options for :func:`blackout.variant`."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"option {pair!r} is not KEY=VALUE (e.g. -o hook=false)")
        parsed = parse_value(value)
        # A schedule of one hand size is still a list of sizes.
        if key.strip() == "schedule" and isinstance(parsed, int):
            parsed = [parsed]
        options[key.strip()] = parsed
    return options
