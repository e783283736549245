"""The compiled engine plays exactly the game the pure-Python reference plays.

Random games of every preset, with random rule options, random player counts, seeds
and sometimes a prearranged first deal, are played in both engines at once: every
decision (whose move, the legal actions of every seat), every seat's view, every
event, every refused move's message, copies, and the final scores, winners and record
must agree.  CI sets ``BLACKOUT_REQUIRE_FAST=1`` so that a failed build fails here
instead of silently comparing the reference with itself.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from blackout import Deal, IllegalAction, RulesError, variant
from blackout.core.actions import BIDS, BOARD, NIL, PLAYS, TRUMP_CHOICES
from blackout.core.fast import COMPILED, FastGame, ReferenceGame
from blackout.core.rules import PRESETS, SCORINGS, TIEBREAKS
from conftest import names

needs_compiled = pytest.mark.skipif(
    not COMPILED and not os.environ.get("BLACKOUT_REQUIRE_FAST"),
    reason="the compiled engine was not built (no C compiler at install)")

#: Every action there is, to try refused moves with.
EVERY_ACTION = (*BIDS[:14], NIL, BOARD, *PLAYS, *TRUMP_CHOICES)


@needs_compiled
def test_the_compiled_engine_was_built_where_it_is_required() -> None:
    assert COMPILED
    assert FastGame is not ReferenceGame


@st.composite
def rules_options(draw: st.DrawFn, preset: str) -> dict[str, Any]:
    """Random options for a preset; the games are kept short by max_hands or max_cards."""
    teams = PRESETS[preset].teams
    options: dict[str, Any] = {}
    if teams or draw(st.booleans()):
        options["max_hands"] = draw(st.integers(1, 3))
    else:
        options["max_cards"] = draw(st.integers(1, 3))
    if draw(st.booleans()):
        options["trump"] = draw(st.sampled_from(("turn_up", "spades", "declarer", "none")))
    if not teams and draw(st.booleans()):
        options["scoring"] = draw(st.sampled_from([s for s in SCORINGS if s != "partnership"]))
    for flag in ("last_hand_no_trump", "inorder") + (
            () if teams else ("hook", "bid_changes", "blind_first_hand")):
        if draw(st.booleans()):
            options[flag] = draw(st.booleans())
    if draw(st.booleans()):
        options["tiebreak"] = draw(st.sampled_from(TIEBREAKS))
    if draw(st.booleans()):
        options["first_bidder"] = draw(st.sampled_from(("left_of_dealer", "dealer")))
    if draw(st.booleans()):
        options["leader"] = draw(st.sampled_from(("left_of_dealer", "dealer", "first_bidder")))
    if draw(st.booleans()):
        options["first_dealer"] = draw(st.one_of(st.just("draw"), st.integers(-3, 3)))
    if draw(st.booleans()):
        options["schedule"] = draw(st.one_of(
            st.sampled_from(("up", "down", "full_rotation", "down_up", "constant")),
            st.lists(st.integers(1, 6), min_size=1, max_size=3)))
        if options["schedule"] == "constant":
            options["max_hands"] = draw(st.integers(1, 3))
    if draw(st.booleans()):
        options["target"] = draw(st.integers(5, 60))
    if teams:
        options["team_bid"] = draw(st.sampled_from(("exact", "at_least")))
        options["team_bid_cap"] = draw(st.integers(1, 13))
    return options


class Twins:
    """The same game in both engines, moved in step and compared after every move."""

    def __init__(self, reference: ReferenceGame, compiled: ReferenceGame) -> None:
        self.reference, self.compiled = reference, compiled
        assert type(compiled) is FastGame
        assert reference.opening_events() == compiled.opening_events()
        self.check()

    def check(self) -> None:
        ref, fast = self.reference, self.compiled
        for name in ("players", "phase", "to_move", "hand_number", "cards", "dealer", "hands",
                     "dealt", "bids", "trick", "tricks", "tricks_won", "scores",
                     "hands_played", "history", "is_over", "winners", "turn_up", "trump",
                     "declarer", "leader", "first_dealer_draw"):
            assert getattr(fast, name) == getattr(ref, name), name
        assert fast.legal_actions() == ref.legal_actions()
        assert fast.public_view() == ref.public_view()
        for seat in range(ref.n):
            assert fast.legal_actions(seat) == ref.legal_actions(seat), seat
            assert fast.view(seat) == ref.view(seat), seat

    def apply(self, action: Any, seat: int | None) -> None:
        outcome = []
        for game in (self.reference, self.compiled):
            try:
                outcome.append(game.apply(action, seat=seat))
            except IllegalAction as refused:
                outcome.append(f"refused: {refused}")
        assert outcome[0] == outcome[1], (action, seat)
        self.check()

    def undo(self) -> None:
        outcome: list[str] = []
        for game in (self.reference, self.compiled):
            try:
                game.undo()
                outcome.append("taken back")
            except ValueError as refused:
                outcome.append(f"refused: {refused}")
        assert outcome[0] == outcome[1]
        self.check()

    def copy(self) -> Twins:
        twins = Twins(self.reference.copy(), self.compiled.copy())
        return twins


def play(twins: Twins, rng: random.Random, moves: int = 100_000) -> None:
    """Random moves to the end of the game (or ``moves`` moves): mostly legal, some
    refused, some out of turn, some given as notation; a copy is played on and compared
    from time to time."""
    for _ in range(moves):
        game = twins.reference
        if game.is_over:
            break
        roll = rng.random()
        if roll < 0.05:
            twins.apply(rng.choice(EVERY_ACTION), rng.choice([None, rng.randrange(game.n)]))
            continue
        others = [s for s in range(game.n) if s != game.to_move and game.legal_actions(s)]
        if others and roll < 0.15:
            seat = rng.choice(others)
            twins.apply(rng.choice(game.legal_actions(seat)), seat)
            continue
        if roll < 0.17:  # take back the last move (and the ones the rules then made)
            twins.undo()
            continue
        action = rng.choice(game.legal_actions())
        twins.apply(str(action) if roll < 0.2 else action, None)
        if roll > 0.98:
            play(twins.copy(), random.Random(rng.random()), moves=20)


def play_to_the_end(twins: Twins, rng: random.Random) -> None:
    play(twins, rng)
    assert twins.reference.is_over
    assert twins.compiled.record() == twins.reference.record()
    record = json.loads(json.dumps(twins.compiled.record()))
    assert FastGame.replay(record).record() == twins.reference.record()


@needs_compiled
@settings(max_examples=int(os.environ.get("BLACKOUT_DIFFERENTIAL_EXAMPLES", 150)),
          deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(st.data(), st.sampled_from(sorted(PRESETS)), st.integers(0, 2**63 - 1))
def test_both_engines_play_the_same_random_games(data: st.DataObject, preset: str,
                                                 seed: int) -> None:
    try:
        rules = variant(preset, **data.draw(rules_options(preset)))
    except RulesError:
        event("options that cannot be played together")
        return
    low = rules.min_players
    players = data.draw(st.integers(low, min(rules.max_players, max(low, 7))))
    try:
        rules.check_players(players)
    except RulesError:
        event("too many players for the hand sizes")
        return
    deals: list[Deal] = []
    if data.draw(st.booleans()):
        # A prearranged first deal: the cards the seeded shuffle would give another seed.
        model = ReferenceGame.new(rules, names(players), seed=seed ^ 1)
        deals = [Deal(hands=[list(_cards(m)) for m in model.dealt],
                      turn_up=model.turn_up, dealer=model.dealer)]
    twins = Twins(ReferenceGame.new(rules, names(players), seed=seed, deals=deals),
                  FastGame.new(rules, names(players), seed=seed, deals=deals))
    play_to_the_end(twins, random.Random(seed))
    event(f"played: {preset}")


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


@needs_compiled
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_whole_default_games_the_same(preset: str) -> None:
    # Random partnership bids rarely score: the race to 200 could last for ever.
    rules = variant(preset, max_hands=4) if preset == "partnership" else variant(preset)
    for seed in range(1):
        players = names(min(rules.min_players + 1, rules.max_players))
        twins = Twins(ReferenceGame.new(rules, players, seed=seed),
                      FastGame.new(rules, players, seed=seed))
        play_to_the_end(twins, random.Random(seed))


@needs_compiled
def test_a_copy_is_independent_of_its_original() -> None:
    game = FastGame.new(variant("potomac"), names(5), seed=3)
    twin = game.copy()
    rng = random.Random(1)
    while not twin.is_over and twin.hand_number < 3:
        twin.apply(rng.choice(twin.legal_actions()))
    untouched = ReferenceGame.new(variant("potomac"), names(5), seed=3)
    assert game.history == [] and game.hands == untouched.hands
    assert game.view(0) == untouched.view(0)


@needs_compiled
def test_a_game_pickles_and_deep_copies_as_its_record() -> None:
    game = FastGame.new(variant("standard"), names(3), seed=4)
    play(Twins(ReferenceGame.new(variant("standard"), names(3), seed=4), game),
         random.Random(4), moves=25)
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert type(twin) is FastGame
        assert twin.record() == game.record()
        assert twin.view(0) == game.view(0)


@needs_compiled
def test_a_game_never_started_refuses_to_play() -> None:
    game = FastGame.__new__(FastGame)
    with pytest.raises(RuntimeError, match="never started"):
        game.legal_actions()
