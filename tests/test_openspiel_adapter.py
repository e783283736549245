"""The OpenSpiel games of blackout.openspiel, checked with OpenSpiel's own tools: its
random-simulation test, its Python ISMCTS and MCTS bots, and a statistical test that the
resampler deals the hidden cards from everything a player cannot see."""

from __future__ import annotations

import doctest
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import ismcts, mcts

from blackout import Deal, Game, variant
from blackout.core.cards import SUIT_MASKS, mask_of
from blackout.core.rules import PRESETS, RulesError
from blackout.encoding import Encoding
from blackout.openspiel import GAME_NAMES, BlackoutState, game_name, rules_of

# Short games for the bots: one or two small hands each (partnership: hands of 3 cards
# to 10 points).
SHORT: dict[str, dict[str, Any]] = {
    "pbmserv": {"schedule": "[1-2]"},
    "standard": {"schedule": "[2-1]", "players": 3, "hand_limit": 12},
    "nullo": {"schedule": "2", "players": 5},
    "partnership": {"max_cards": 3, "target": 10, "hand_limit": 30},
    "potomac": {"schedule": "[2-1]", "players": 3},
}


# 99.9% quantiles of the chi-square distribution (degrees of freedom -> value).
CHI2_999 = {34: 65.25, 6 * 47: 361.0}


def random_state(name: str, params: dict[str, Any], seed: int, decisions: int) -> BlackoutState:
    """A state after ``decisions`` random player moves (chance outcomes drawn as well)."""
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        if made == decisions:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    return state


def test_every_preset_is_registered() -> None:
    assert set(GAME_NAMES) <= set(pyspiel.registered_names())
    assert tuple(game_name(p) for p in PRESETS) == GAME_NAMES


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_sim_test_on_every_preset(preset: str) -> None:
    # The preset's whole game; partnership (to 200 points) stopped after three hands.
    params = {"hand_limit": 3} if preset == "partnership" else {}
    pyspiel.random_sim_test(pyspiel.load_game(game_name(preset), params), num_sims=1,
                            serialize=False, verbose=False)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_sim_test_on_short_games(preset: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(game_name(preset), SHORT[preset]), num_sims=4,
                            serialize=False, verbose=False)


def test_parameters_are_rule_options() -> None:
    game = pyspiel.load_game("blackout_standard", {"players": 3, "schedule": "[3-2-1]",
                                                  "hook": True, "target": 0})
    rules = rules_of("standard", game.get_parameters())
    assert rules == variant("standard", schedule=[3, 2, 1], hook=True)
    assert game.num_players() == 3
    # cards, bids 0..3, nil, board, five trump choices
    assert game.num_distinct_actions() == 52 + 4 + 2 + 5
    with pytest.raises(Exception, match="schedule must be one of"):
        pyspiel.load_game("blackout_standard", {"schedule": "sideways"})
    with pytest.raises(Exception, match="needs exactly 4 players"):
        pyspiel.load_game("blackout_pbmserv", {"players": 5})


def test_cards_are_dealt_singly_from_the_dealers_left() -> None:
    game = pyspiel.load_game("blackout_standard", {"schedule": "2", "first_dealer": "seat1",
                                                  "last_hand_no_trump": False})
    state = game.new_initial_state()
    cards = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "2H"]  # the last is turned up
    for card in cards:
        assert state.is_chance_node()
        state.apply_action(mask_of([card]).bit_length() - 1)
    assert state.current_player() == 2  # left of the dealer bids first
    # Seat 2 (the dealer's left) gets the first card and the fifth, and so on round.
    expected = Deal(hands=[["QS", "8S"], ["JS", "7S"], ["AS", "10S"], ["KS", "9S"]],
                    turn_up="2H", dealer=1)
    assert [state.view(s)[0].hand for s in range(4)] == list(expected.masks)
    turn_up = state.view(2)[0].turn_up
    assert turn_up is not None and str(turn_up) == "2H"


def test_information_state_shows_a_player_only_its_own_cards() -> None:
    state = random_state("blackout_nullo", {"schedule": "5"}, seed=3, decisions=2)
    for player in range(4):
        own = state.view(player)[0]
        text = state.information_state_string(player)
        tensor = np.array(state.information_state_tensor(player))
        others = [state.view(s)[0].hand for s in range(4) if s != player]
        for mask in others:
            for card in range(52):
                if mask >> card & 1:
                    assert f"is dealt {_name(card)}" not in text
        # The "hands" block (after the 5 phase flags) holds the own hand and nothing else.
        hands = tensor[5:5 + 4 * 52].reshape(4, 52)
        assert [int(c) for c in np.flatnonzero(hands[0])] == [
            c for c in range(52) if own.hand >> c & 1]
        assert not hands[1:].any()


def test_blind_hand_shows_the_others_cards() -> None:
    state = random_state("blackout_pbmserv", {"schedule": "[1-2]"}, seed=5, decisions=0)
    player = state.current_player()
    view = state.view(player)[0]
    assert view.hands[player] is None and all(
        view.hands[s] is not None for s in range(4) if s != player)
    text = state.information_state_string(player)
    assert text.count("is dealt") == 3


def _name(card: int) -> str:
    from blackout.core.cards import CARDS

    return str(CARDS[card])


def test_returns_are_the_core_scores() -> None:
    """Replaying the OpenSpiel game's deals and moves in the core gives its returns."""
    for preset, params in SHORT.items():
        state = random_state(game_name(preset), params, seed=11, decisions=10**6)
        assert state.is_terminal()
        core = state.table.game
        assert core is not None
        replayed = Game.new(core.rules, core.players, deals=core.deals)
        for move in core.history:
            if not move.auto:
                replayed.apply(move.action)
        assert state.returns() == [float(s) for s in replayed.scores]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_ismcts_and_mcts_play_every_preset_to_the_end(preset: str) -> None:
    game = pyspiel.load_game(game_name(preset), SHORT[preset])
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=rng) if p % 2 == 0
            else mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=rng, solve=False)
            for p in range(game.num_players())]
    # By default the Python ISMCTS resamples with an unseeded sampler: seed it, so that
    # the test plays the same game every time.
    worlds = random.Random(7)
    for bot in bots[::2]:
        bot.set_resampler(lambda state, player: state.resample_from_infostate(
            player, worlds.random))
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions > 0 and state.table.game is not None and state.table.game.is_over
    assert state.returns() == [float(s) for s in state.table.game.scores]


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(list(PRESETS)), seed=st.integers(0, 10**6),
       decisions=st.integers(0, 40))
def test_resample_keeps_what_the_player_knows(preset: str, seed: int, decisions: int) -> None:
    """Any position of any preset: a resampled world looks the same to the player (its
    information state, its legal moves), and nobody holds a suit it showed void in."""
    state = random_state(game_name(preset), SHORT[preset], seed=seed, decisions=decisions)
    assume(not state.is_terminal())
    player = state.current_player()
    players = state.get_game().num_players()
    rng = random.Random(seed)
    voids = state.view(player)[0].voids()
    for _ in range(5):
        world = state.resample_from_infostate(player, rng.random)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        for seat in range(players):
            hand = world.view(seat)[0].hand
            assert all(not hand & SUIT_MASKS[suit] for suit in voids[seat])


def test_resampler_deals_undealt_cards_as_often_as_a_fair_sampler() -> None:
    """OpenSpiel's oh_hell resampler deals opponents only the cards really in play (none
    of 4,200 sampled cards came from the deck, bench/bots.py --leak-check).  Ours deals
    from every card the player cannot see: with 3 cards each of 4 players, 39 of the 48
    unseen cards are still in the deck, so about 81% of the opponents' cards come from it.
    """
    rng = random.Random(1)
    hits = total = 0
    chi_square = 0.0
    positions, samples = 6, 60
    for position in range(positions):
        state = random_state("blackout_standard", {"schedule": "3", "last_hand_no_trump": False},
                             seed=100 + position,
                             decisions=0)
        player = state.current_player()
        view = state.view(player)[0]
        in_play = 0
        for seat in range(4):
            in_play |= state.view(seat)[0].hand
        deck = view.unseen() & ~in_play
        per_card = np.zeros(52)
        for _ in range(samples):
            world = state.resample_from_infostate(player, rng.random)
            for seat in range(4):
                if seat == player:
                    continue
                hand = world.view(seat)[0].hand
                hits += (hand & deck).bit_count()
                total += hand.bit_count()
                for card in range(52):
                    per_card[card] += hand >> card & 1
        unseen = [c for c in range(52) if view.unseen() >> c & 1]
        assert len(unseen) == 48 and per_card.sum() == samples * 9
        expected = samples * 9 / 48
        chi_square += float(((per_card[unseen] - expected) ** 2 / expected).sum())
    fair = 39 / 48
    assert total == positions * samples * 9
    assert abs(hits / total - fair) < 0.03, hits / total
    # Card by card: each of the 48 unseen cards lands in an opponent's hand 9 times in 48.
    assert chi_square < CHI2_999[positions * 47], chi_square


def test_resampler_is_uniform_over_deals_that_respect_voids() -> None:
    """A position where one opponent has shown a void: every deal of the unseen cards
    that respects it comes up about equally often."""
    rules_params = {"schedule": "3", "players": 3, "trump": "none"}
    game = pyspiel.load_game("blackout_standard", rules_params)
    state = game.new_initial_state()
    # Dealer 0 (drawn); seat 1 gets cards 0, 3, 6 of the deal, seat 2 cards 1, 4, 7 ...
    state.apply_action(0)  # seat 0 deals
    deal = ["AC", "AD", "AH", "KC", "KD", "KH", "QC", "QD", "QH"]
    for card in deal:
        state.apply_action(mask_of([card]).bit_length() - 1)
    for _ in range(3):
        state.apply_action(52)  # everybody bids 0
    # Seat 1 leads the ace of clubs; seat 2 (all diamonds) shows a void in clubs.
    state.apply_action(mask_of(["AC"]).bit_length() - 1)
    state.apply_action(mask_of(["AD"]).bit_length() - 1)
    player = state.current_player()  # seat 0
    assert player == 0
    view = state.view(player)[0]
    assert view.voids()[2] and not view.voids()[1]
    rng = random.Random(5)
    samples = 600
    in_seat_2 = np.zeros(52)
    clubs_in_seat_1 = 0
    for _ in range(samples):
        world = state.resample_from_infostate(player, rng.random)
        seat_1, seat_2 = world.view(1)[0].hand, world.view(2)[0].hand
        assert seat_2 & SUIT_MASKS[0] == 0  # the void is respected
        in_seat_2 += [seat_2 >> c & 1 for c in range(52)]
        clubs_in_seat_1 += (seat_1 & SUIT_MASKS[0]).bit_count()
    # Seat 2 holds 2 of the 35 unseen cards that are not clubs, each as likely; seat 1
    # then 2 of the 45 left, 12 of them clubs.
    candidates = [c for c in range(52) if view.unseen() >> c & 1 and c // 13 != 0]
    assert len(candidates) == 35 and in_seat_2.sum() == in_seat_2[candidates].sum()
    expected = samples * 2 / 35
    chi_square = float(((in_seat_2[candidates] - expected) ** 2 / expected).sum())
    assert chi_square < CHI2_999[34], chi_square
    assert abs(clubs_in_seat_1 / (2 * samples) - 12 / 45) < 0.05


def test_bad_rules_are_refused_by_name() -> None:
    with pytest.raises(RulesError):
        rules_of("standard", {"scoring": "golf"})


def test_docs_examples_run_and_the_layout_table_matches() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs" / "adapters.md"
    result = doctest.testfile(str(docs), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10 and result.failed == 0
    table = docs.read_text().split("## Observation tensor")[1]
    names = re.findall(r"^\| (\w+) \| ", table, flags=re.MULTILINE)
    assert names[1:] == [name for name, _ in Encoding(variant("standard"), 4).blocks()]


def test_public_observers_show_no_hand() -> None:
    from open_spiel.python.observation import make_observation

    state = random_state("blackout_standard", {"schedule": "4", "players": 3}, seed=2,
                         decisions=4)
    game = state.get_game()
    public = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    observer = make_observation(game, public)
    texts = {observer.string_from(state, player) for player in range(3)}
    assert len({text.split(":", 1)[1] for text in texts}) == 1  # the same for everybody
    assert all("is dealt" not in text for text in texts)
    observer.set_from(state, 0)
    assert not observer.dict["hands"].any()


def test_a_bad_schedule_parameter_is_named() -> None:
    with pytest.raises(RulesError, match=r"schedule must be '\[3-2-1\]' or a name, not '3-x'"):
        rules_of("standard", {"schedule": "3-x"})
    with pytest.raises(RulesError, match="first_dealer must be 'draw' or 'seat0'"):
        rules_of("standard", {"first_dealer": "north"})


def test_game_and_state_survive_serialization() -> None:
    """OpenSpiel's game strings separate parameters with commas: the schedule's sizes are
    written with dashes, so a game with an explicit schedule loads back from its string."""
    state = random_state("blackout_potomac", SHORT["potomac"], seed=2, decisions=7)
    game = state.get_game()
    assert "schedule=[2-1]" in str(game) and "first_dealer=draw" in str(game)
    again_game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game)
    assert again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_loads_back_from_its_game_string(preset: str) -> None:
    game = pyspiel.load_game(game_name(preset), {"schedule": "[3-1]", "max_cards": 3})
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert str(pyspiel.load_game(game_name(preset))) == str(pyspiel.load_game(
        str(pyspiel.load_game(game_name(preset)))))
