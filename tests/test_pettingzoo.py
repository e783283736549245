"""blackout.pettingzoo against PettingZoo's own API and seed tests, on every preset."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from blackout import IllegalAction
from blackout.core.rules import PRESETS
from blackout.encoding import Encoding
from blackout.pettingzoo import BlackoutEnv, env

# api_test warns that a dict observation is "not a NumPy array", as it does for
# PettingZoo's own card games with action masks.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")

SHORT: dict[str, dict[str, Any]] = {
    "pbmserv": {"schedule": [1, 2]},
    "standard": {"schedule": [1, 2, 3], "players": 3},
    "nullo": {"schedule": [2, 1], "players": 5},
    "partnership": {"max_cards": 3, "hand_limit": 3},
    "potomac": {"schedule": [3, 2], "players": 6},
}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_api_test(preset: str) -> None:
    api_test(env(preset, **SHORT[preset]), num_cycles=100)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_seed_test(preset: str) -> None:
    seed_test(lambda: env(preset, **SHORT[preset]), num_cycles=100)


def play_out(table: BlackoutEnv, seed: int) -> dict[str, float]:
    """Random legal play to the end; each agent's rewards added up."""
    rng = random.Random(seed)
    totals: dict[str, float] = {}
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] = totals.get(agent, 0) + reward
        if terminated or truncated:
            action = None
        else:
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        table.step(action)
    return totals


@pytest.mark.parametrize("preset", ["pbmserv", "nullo", "potomac"])
def test_rewards_add_up_to_the_final_scores(preset: str) -> None:
    """A whole game of the preset (every hand of its schedule)."""
    table = BlackoutEnv(preset)
    table.reset(seed=3)
    totals = play_out(table, seed=3)
    game = table.game
    assert game is not None and game.is_over
    assert {name: float(game.scores[game.players.index(name)]) for name in totals} == totals


def test_truncated_after_the_hand_limit() -> None:
    table = BlackoutEnv("partnership", hand_limit=2)
    table.reset(seed=1)
    play_out(table, seed=1)
    assert table.game is not None and len(table.game.hands_played) == 2
    assert not table.game.is_over


def test_the_same_seed_deals_the_same_game() -> None:
    first, second = BlackoutEnv("standard", players=5), BlackoutEnv("standard", players=5)
    first.reset(seed=42)
    second.reset(seed=42)
    assert first.game is not None and second.game is not None
    assert first.game.record() == second.game.record()
    second.reset(seed=43)
    assert first.game.record() != second.game.record()


def test_observation_and_mask() -> None:
    table = BlackoutEnv("standard", players=3, schedule=[3])
    table.reset(seed=5)
    game = table.game
    assert game is not None
    encoding = Encoding(game.rules, 3)
    agent = table.agent_selection
    seat = game.players.index(agent)
    observed = table.observe(agent)
    assert observed["observation"].shape == (encoding.observation_size,)
    assert observed["action_mask"].dtype == np.int8
    assert np.flatnonzero(observed["action_mask"]).tolist() == [52, 53, 54, 55]  # bids 0..3
    hands = observed["observation"][5:5 + 3 * 52].reshape(3, 52)
    own = game.view(seat).hand
    assert np.flatnonzero(hands[0]).tolist() == [c for c in range(52) if own >> c & 1]
    assert not hands[1:].any()  # nobody else's cards
    other = next(a for a in table.agents if a != agent)
    assert not table.observe(other)["action_mask"].any()


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    table = BlackoutEnv("standard", players=3, schedule=[3])
    table.reset(seed=5)
    assert table.game is not None
    before = table.game.record()
    with pytest.raises(IllegalAction):
        table.step(0)  # a card, during the bidding
    assert table.game.record() == before


def test_render_ansi_shows_only_the_agent_to_move() -> None:
    table = BlackoutEnv("nullo", players=3, schedule=[2], render_mode="ansi")
    table.reset(seed=2)
    text = table.render()
    assert text is not None and text.count("?") == 2  # two hidden hands
