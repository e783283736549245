"""Every preset plays to the end under random legal play, at every player count."""

import random

import pytest

from blackout import Game, variant
from blackout.core.rules import PRESETS


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_games_finish(name: str) -> None:
    preset = PRESETS[name]
    options = {"max_hands": 20} if name == "partnership" else {}
    for players in range(preset.min_players, preset.max_players + 1):
        game = Game.new(variant(name, **options), [f"p{i}" for i in range(players)], seed=players)
        rng = random.Random(players)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        assert game.winners
        assert Game.replay(game.record()).scores == game.scores
