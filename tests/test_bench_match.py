"""bench/bots.py --match: an expert seat is played from deal to deal by the bot that
played it at the same table, and that bot takes in each hand it ends as it takes in the
hands of a game (the other players' bids and cards it saw in full), so it learns their
habits across the match; a bot shown every hand cannot play a match."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pyspiel

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import bots  # noqa: E402  (bench/ is not a package)

CARDS = 3
SETTINGS = {"uct_c": 5.0, "final_policy": "MAX_VISIT_COUNT", "rollouts": 1,
            "simulations": 20, "redeals": 1, "inferred": False}


def _play(kept: dict[Any, Any], deal: int, experts: set[int]) -> None:
    os_game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": CARDS})
    bots.play_deal(os_game, deal, CARDS, experts, 0.1, SETTINGS, deal, 5, 1, None, kept)


def _seen_in_full(bot: Any) -> set[int]:
    """The other seats whose every card had been played by the bot's last view."""
    last = bot._watch._last
    played = last.played_by()
    return {s for s in range(4) if s != last.seat and played[s].bit_count() == CARDS}


def test_a_match_keeps_each_expert_and_it_learns_every_hand_it_ends() -> None:
    kept: dict[Any, Any] = {}
    _play(kept, 1, {0, 1, 2})
    assert set(kept) == {(frozenset({0, 1, 2}), s) for s in (0, 1, 2)}
    bot = kept[frozenset({0, 1, 2}), 2]
    seen = {seat: 0 for seat in range(4)}
    for deal in (1, 2, 3):
        if deal > 1:
            _play(kept, deal, {0, 1, 2})
        assert kept[frozenset({0, 1, 2}), 2] is bot  # the same bot, not a new one
        for seat in _seen_in_full(bot):
            seen[seat] += 1
        learnt = bot._watch.habits._bids
        assert {s: len(learnt.get(s, ())) for s in range(4) if s != 2} == \
            {s: seen[s] for s in range(4) if s != 2}
    assert sum(seen.values()) > 0
    _play(kept, 4, {3})  # another table: another bot
    assert kept[frozenset({3}), 3] is not bot


def test_a_bot_shown_every_hand_cannot_play_a_match() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bots.py"), "--match",
                           "--variant", "cheat", "--deals", "1"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert "--match needs an expert that learns" in done.stderr
    assert "Traceback" not in done.stderr
