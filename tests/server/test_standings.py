"""Standings and Elo ratings from finished games (pure functions)."""

from __future__ import annotations

import pytest

from blackout.service import ratings, standings


def test_a_four_player_game_counts_as_six_pairwise_results():
    games = [(["a", "b", "c", "d"], {"scores": [30, 20, 20, 10], "winners": [0]})]
    rated = ratings(games)
    # From 1500 each, K = 32 shared over 3 opponents: a beats 3, d loses 3, b and c draw.
    assert rated["a"] == pytest.approx(1500 + 3 * 32 / 3 * 0.5)
    assert rated["d"] == pytest.approx(1500 - 3 * 32 / 3 * 0.5)
    assert rated["b"] == pytest.approx(1500) == rated["c"]
    assert sum(rated.values()) == pytest.approx(4 * 1500)
    assert list(rated) == ["a", "b", "c", "d"]


def test_a_resigned_seat_ranks_last_whatever_its_score():
    games = [(["a", "b"], {"scores": [50, 10], "winners": [], "resigned": [0]})]
    rated = ratings(games)
    assert rated["b"] > 1500 > rated["a"]


def test_standings_count_games_and_wins():
    games = [(["a", "b"], {"scores": [1, 0], "winners": [0]}),
             (["a", "c"], {"scores": [0, 5], "winners": [1]}),
             (["b", "c"], {"scores": [3, 3], "winners": [0, 1]})]
    table = [(s.player, s.played, s.won) for s in standings(games)]
    assert table == [("c", 2, 2), ("a", 2, 1), ("b", 2, 1)]
