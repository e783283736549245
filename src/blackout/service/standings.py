"""Standings and Elo ratings from finished games.

A game of several players counts as every pair of them playing each other: the one
ranked higher (a winner over a non-winner, else the higher score) beats the other, equal
ranks draw.  A seat that resigned or timed out ranks below everyone who did not.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

START = 1500.0
K = 32.0


@dataclass
class Standing:
    player: str
    played: int = 0
    won: int = 0


def _rank_keys(names: list[str], result: dict[str, Any]) -> list[tuple[int, int, int]]:
    winners = set(result.get("winners", []))
    resigned = set(result.get("resigned", []))
    scores = result.get("scores", [0] * len(names))
    return [(seat not in resigned, seat in winners, scores[seat]) for seat in range(len(names))]


def standings(games: Iterable[tuple[list[str], dict[str, Any]]]) -> list[Standing]:
    table: dict[str, Standing] = {}
    for names, result in games:
        winners = set(result.get("winners", []))
        for seat, name in enumerate(names):
            entry = table.setdefault(name, Standing(name))
            entry.played += 1
            entry.won += seat in winners
    return sorted(table.values(), key=lambda s: (-s.won, s.played, s.player))


def ratings(games: Iterable[tuple[list[str], dict[str, Any]]]) -> dict[str, float]:
    """Elo ratings, every player starting at 1500; pairs of one game update together."""
    rating: dict[str, float] = {}
    for names, result in games:
        keys = _rank_keys(names, result)
        for name in names:
            rating.setdefault(name, START)
        # Each player meets n-1 others in one game: share K so a game weighs as one match.
        k = K / max(1, len(names) - 1)
        change = dict.fromkeys(names, 0.0)
        for a, b in combinations(range(len(names)), 2):
            expected = 1 / (1 + 10 ** ((rating[names[b]] - rating[names[a]]) / 400))
            actual = 1.0 if keys[a] > keys[b] else 0.0 if keys[a] < keys[b] else 0.5
            change[names[a]] += k * (actual - expected)
            change[names[b]] -= k * (actual - expected)
        for name, delta in change.items():
            rating[name] += delta
    return dict(sorted(rating.items(), key=lambda item: (-item[1], item[0])))
