"""Reading `bench/bots.py` run files, the one way every bench tool reads them.

A run file holds one JSON line a deal (``{"deal": N, "margin": ..., "games": [...]}``),
then the run's summary line (no ``"deal"``).  Progress lines (``deal 3/50: ...``) go to
stderr, but a file that caught them too is still read: they are skipped, as is a blank
line.  Anything else is refused with the file and line that is wrong.

This module needs neither OpenSpiel nor the bots, so the tools that only count (such as
`bench/paired.py` and `bench/bid_split.py`) stay light; they print their answers with
:func:`print_for_reader`, which lets a reader stop early (``| head``) without a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any


class RunFileError(ValueError):
    """A line of a run file that is not `bench/bots.py` output."""


def deal_records(paths: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Every deal's record in the files, in order (an unreadable file raises OSError)."""
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.startswith("{"):
                    continue  # a progress line or a blank one
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise RunFileError(f"{path}:{number}: not a JSON line ({error.msg})"
                                       ) from None
                if "deal" not in record:
                    continue  # the run's summary
                if not isinstance(record.get("games"), list):
                    raise RunFileError(f"{path}:{number}: deal {record['deal']} has no "
                                       "games: not bench/bots.py output")
                yield record


def games(paths: Iterable[str]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(deal record, game record) of every game in the files that holds its hands, in
    order (runs older than the hands' recording have none)."""
    for deal in deal_records(paths):
        for game in deal["games"]:
            if "hands" in game:
                yield deal, game


def print_for_reader(text: str) -> None:
    """Print a tool's answer; a reader that stops early (``paired.py a b | head -1``)
    ends the output quietly, as it does for any command-line tool, not in a
    BrokenPipeError traceback."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        # Python would meet the closed pipe again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def answer(tool: str, parser: argparse.ArgumentParser, work: Callable[[], Any],
           indent: int | None = None) -> int:
    """Print what ``work`` finds as JSON (:func:`print_for_reader`) and return the exit
    status: a file that cannot be read is a usage error, and a line or record that is not
    `bench/bots.py` output is named (status 2), with no traceback."""
    try:
        found = work()
    except OSError as error:
        parser.error(f"cannot read {error.filename}: {error.strerror}")
    except RunFileError as error:  # it names the file and line
        print(f"{tool}: {error}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, IndexError, TypeError) as error:
        print(f"{tool}: not bench/bots.py output ({error!r})", file=sys.stderr)
        return 2
    print_for_reader(json.dumps(found, indent=indent))
    return 0
