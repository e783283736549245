"""``undo()`` takes moves back exactly, in both engines, across tricks, hands and the
end of the game.

A game of every preset plays some random moves, then ``k`` more; undoing ``k`` times
must give back, after each undo, exactly the game as it was before the move undone:
its record, history, whose move, every seat's legal actions and view, the public view,
scores and finished hands.  Playing the same moves again must give the same events.
A copy taken at the end is untouched by the undoing (copies share what undo keeps).
Both engines run every example, and must agree.  More examples:
``BLACKOUT_UNDO_EXAMPLES=5000 pytest tests/test_undo.py``.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from blackout import Action, IllegalAction, variant
from blackout.core.fast import ENGINES, ReferenceGame
from blackout.core.rules import PRESETS, Rules
from conftest import names

ENGINE_CLASSES = [ENGINES[name] for name in sorted(ENGINES)]


def state(game: ReferenceGame) -> tuple[Any, ...]:
    """Everything observable about a game (lists copied: the reference's are live)."""
    return (json.dumps(game.record(), sort_keys=True), tuple(game.history), game.phase,
            game.to_move, game.hand_number, game.cards, game.dealer, game.leader,
            game.declarer, game.trump, game.turn_up, game.is_over, tuple(game.winners),
            tuple(game.scores), tuple(game.hands_played), tuple(game.hands), game.dealt,
            tuple(game.bids), tuple(game.tricks), tuple(game.trick), tuple(game.tricks_won),
            game.hooked_bid(), tuple(game.legal_actions()),
            tuple(tuple(game.legal_actions(seat)) for seat in range(game.n)),
            tuple(game.view(seat) for seat in range(game.n)), game.public_view())


def short_rules(preset: str, hands: int) -> Rules:
    """The preset, over a few small hands so that random play crosses hands and ends."""
    if preset == "partnership":
        return variant(preset, max_hands=hands)
    return variant(preset, schedule=[1, 2, 3, 2, 1][:hands] if preset != "pbmserv"
                   else [1, 2, 3][:hands])


def random_move(game: ReferenceGame, rng: random.Random) -> tuple[Action, int | None]:
    others = [s for s in range(game.n) if s != game.to_move and game.legal_actions(s)]
    if others and rng.random() < 0.3:  # a change of bid out of turn (Potomac)
        seat = rng.choice(others)
        return rng.choice(game.legal_actions(seat)), seat
    return rng.choice(game.legal_actions()), None


def play_and_take_back(engine: type[ReferenceGame], rules: Rules, players: int, seed: int,
                       start: int, k: int) -> list[Any]:
    """Play ``start`` moves, then ``k`` more, and undo those ``k`` one by one, checking
    each; return what was seen, for comparing the engines."""
    game = engine.new(rules, names(players), seed=seed)
    rng = random.Random(seed)
    for _ in range(start):  # short of the game's end, so that there are moves to undo
        action, seat = random_move(game, rng)
        probe = game.copy()
        probe.apply(action, seat=seat)
        if probe.is_over:
            break
        game.apply(action, seat=seat)
    before: list[tuple[Any, ...]] = []
    moves: list[tuple[Action, int | None]] = []
    happened = []
    for _ in range(k):
        if game.is_over:
            break
        before.append(state(game))
        action, seat = random_move(game, rng)
        moves.append((action, seat))
        happened.append(game.apply(action, seat=seat))
    end = state(game)
    if before:
        crossed = game.hand_number - before[0][4]
        event(f"hand ends taken back: {min(crossed, 3)}{'+' if crossed >= 3 else ''}"
              + (", and the game's end" if game.is_over else ""))
    twin = game.copy()
    assert type(twin) is engine
    for expected in reversed(before):
        game.undo()
        assert state(game) == expected
    assert state(twin) == end, "undoing a game changed its copy"
    # The same moves again: the same events, the same end.
    for (action, seat), events in zip(moves, happened, strict=True):
        assert game.apply(action, seat=seat) == events
    assert state(game) == end
    # And the copy can be taken back as far as the original.
    for expected in reversed(before):
        twin.undo()
        assert state(twin) == expected
    return [*before, end, happened]


@settings(max_examples=int(os.environ.get("BLACKOUT_UNDO_EXAMPLES", 200)), deadline=None,
          database=None, suppress_health_check=list(HealthCheck))
@given(preset=st.sampled_from(sorted(PRESETS)), hands=st.integers(1, 3),
       seed=st.integers(0, 2**63 - 1), start=st.integers(0, 40), k=st.integers(1, 80),
       more=st.booleans())
def test_undo_takes_back_k_moves_exactly_in_both_engines(
        preset: str, hands: int, seed: int, start: int, k: int, more: bool) -> None:
    rules = short_rules(preset, hands)
    players = min(rules.min_players + more, rules.max_players)
    seen = [play_and_take_back(engine, rules, players, seed, start, k)
            for engine in ENGINE_CLASSES]
    assert all(s == seen[0] for s in seen[1:]), "the engines disagree"


@pytest.mark.parametrize("engine", ENGINE_CLASSES, ids=lambda e: e.__name__)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_whole_game_is_taken_back_to_its_deal(engine: type[ReferenceGame],
                                                preset: str) -> None:
    rules = short_rules(preset, 3)
    game = engine.new(rules, names(rules.min_players), seed=5)
    opening = state(game)
    rng = random.Random(5)
    count = 0
    while not game.is_over:
        action, seat = random_move(game, rng)
        game.apply(action, seat=seat)
        count += 1
    assert len(game.hands_played) >= 2
    for _ in range(count):
        game.undo()
    assert state(game) == opening
    with pytest.raises(ValueError, match="no move to take back"):
        game.undo()
    assert state(game) == opening


@pytest.mark.parametrize("engine", ENGINE_CLASSES, ids=lambda e: e.__name__)
def test_undo_takes_back_pbmserv_blind_hand_with_the_last_bid(
        engine: type[ReferenceGame]) -> None:
    # pbmserv's one-card first hand plays itself after the last bid: one undo takes back
    # the bid, the cards played for the players, the scoring and the next deal.
    game = engine.new(variant("pbmserv"), names(4), seed=3)
    while True:
        before = state(game)
        game.apply(game.legal_actions()[0])
        if game.hand_number == 2:
            break
    assert any(move.auto for move in game.history)
    game.undo()
    assert state(game) == before
    assert not any(move.auto for move in game.history)


@pytest.mark.parametrize("engine", ENGINE_CLASSES, ids=lambda e: e.__name__)
def test_a_refused_move_leaves_nothing_to_undo(engine: type[ReferenceGame]) -> None:
    game = engine.new(variant("standard"), names(3), seed=1)
    with pytest.raises(IllegalAction):
        game.apply("AS" if game.phase == "bid" else "99")
    with pytest.raises(ValueError, match="no move to take back"):
        game.undo()
