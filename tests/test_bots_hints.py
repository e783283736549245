"""A hint's one-line reason never contradicts the advice it comes with."""

from __future__ import annotations

import math
import random
import re

import pytest

from blackout import Game, bots, variant
from blackout.core.actions import Bid, Play
from blackout.core.game import trick_winner_position
from blackout.core.view import View

PRESETS = ("standard", "pbmserv", "nullo", "potomac", "partnership")


def _positions(count: int, seed: int):
    """Views of the seat to move in games played at random, every preset."""
    rng = random.Random(seed)
    for index in range(count):
        rules = variant(PRESETS[index % len(PRESETS)], schedule=[rng.randint(2, 7)])
        if rules.teams:
            rules = variant("partnership", max_hands=1)
        players = rng.randint(rules.min_players, min(rules.max_players, 5))
        game = Game.new(rules, [f"p{s}" for s in range(players)], seed=rng.getrandbits(32))
        hand = game.hand_number
        while not game.is_over and game.hand_number == hand:
            if rng.random() < 0.3:
                yield game.view(game.to_move)
            game.apply(rng.choice(game.legal_actions()))


def _wins(view: View, card: int) -> bool:
    trick = [c for _, c in view.trick] + [card]
    trump = -1 if view.trump is None else int(view.trump)
    return trick_winner_position(trick, trump) == len(trick) - 1


def _check_play(view: View, card: int, reason: str) -> None:
    legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
    if "cannot duck" in reason:
        assert all(_wins(view, c) for c in legal), reason
    elif ": duck" in reason:
        assert not _wins(view, card), reason
    if "take it" in reason:
        assert _wins(view, card), reason
    if "nothing I hold wins" in reason:
        assert not any(_wins(view, c) for c in legal), reason


_EXPERT_BID = re.compile(r"^bid (\d+): with it I take ([\d.]+) tricks on average, exactly "
                         r"(\d+) in (\d+)% of (\d+) simulated hands, [+-][\d.]+ points a hand"
                         r"(.*)$")


def _check_expert_bid(view: View, bid: int, reason: str) -> None:
    found = _EXPERT_BID.match(reason)
    assert found, reason
    assert int(found[1]) == int(found[3]) == bid
    assert 0 <= int(found[4]) <= 100
    tricks = float(found[2])
    if abs(bid - tricks) > 1.05:
        nearest = re.search(r"(?:bid|forbids) (\d+)|^; (\d+) was not searched", found[6])
        assert nearest, reason
        assert int(nearest[1] or nearest[2]) in {math.floor(tricks), math.ceil(tricks)}, reason


def test_expert_reasons_agree_with_the_advice() -> None:
    bid_reasons = play_reasons = 0
    for view in _positions(30, seed=3):
        bot = bots.create("expert", seed=1, iterations=4)
        action, reason = bot.hint(view)
        assert action in view.legal_actions
        if isinstance(action, Play):
            assert str(action) in reason
            _check_play(view, action.card, reason)
            play_reasons += 1
        elif isinstance(action, Bid) and not view.rules.teams and " simulated " in reason:
            _check_expert_bid(view, action.tricks, reason)
            bid_reasons += 1
    assert bid_reasons > 5 and play_reasons > 20


@pytest.mark.parametrize("seed", range(3))
def test_basic_reasons_agree_with_the_advice(seed: int) -> None:
    checked = 0
    for view in _positions(40, seed=seed):
        action, reason = bots.create("basic").hint(view)
        if isinstance(action, Bid) and reason.startswith(f"bid {action}: expect about"):
            tricks = float(reason.split("expect about ")[1].split()[0])
            if abs(action.tricks - tricks) > 1.05:
                assert "averages" in reason or "the hook forbids" in reason, reason
            checked += 1
    assert checked > 10
