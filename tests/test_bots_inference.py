"""The learnt model of who holds which card, and the expert's use of it."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

from blackout import Game, bots, variant
from blackout.bots.inference import FEATURES, CardModel, card_features

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
import train_inference


def _views(hands: int, seed: int):
    """Views of the seat to move, with the game (for the true hands), basic bots playing."""
    rng = random.Random(seed)
    player = bots.create("basic")
    for _ in range(hands):
        rules = variant(rng.choice(["standard", "pbmserv", "nullo"]), schedule=[rng.randint(3, 9)],
                        blind_first_hand=False)
        game = Game.new(rules, ["a", "b", "c", "d"], seed=rng.getrandbits(32))
        while not game.is_over:
            yield game.view(game.to_move), game
            game.apply(player.choose(game.view(game.to_move)))


def test_features_cover_exactly_the_cards_a_hidden_seat_may_hold() -> None:
    for view, game in _views(4, seed=1):
        rows = card_features(view)
        voids = view.voids()
        for (seat, card), row in rows.items():
            assert seat != view.seat and len(row) == len(FEATURES)
            assert view.unseen() >> card & 1 and card // 13 not in voids[seat]
        # Every card a hidden seat really holds is among them.
        for seat in range(game.n):
            if seat != view.seat:
                held = game.hands[seat]
                assert all((seat, c) in rows for c in range(52) if held >> c & 1)


def test_the_shipped_model_predicts_better_than_the_uniform_chance() -> None:
    model = CardModel.shipped()
    assert model is not None
    uniform = learnt = 0.0
    for view, game in _views(12, seed=2):
        rows = card_features(view)
        for (seat, card), ratio in model.log_ratios(view).items():
            held = game.hands[seat] >> card & 1
            base = 1 / (1 + math.exp(-rows[seat, card][FEATURES.index("prior_logit")]))
            p = min(1 - 1e-9, base * math.exp(ratio))
            learnt -= math.log(p if held else 1 - p)
            uniform -= math.log(base if held else 1 - base)
    assert learnt < uniform


def test_the_expert_with_the_model_plays_legal_repeatable_moves() -> None:
    for view, _ in _views(1, seed=3):
        if len(view.legal_actions) < 2:
            continue
        first = bots.create("expert", seed=4, iterations=6, inference=True).choose(view)
        again = bots.create("expert", seed=4, iterations=6, inference=True).choose(view)
        assert first in view.legal_actions and first == again


def test_training_data_is_reproducible_from_the_seed() -> None:
    assert train_inference.play_hand(0, 5, 2, 0.5) == train_inference.play_hand(0, 5, 2, 0.5)
