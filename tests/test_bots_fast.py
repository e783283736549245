"""The C accelerator does exactly what the Python reference does.

CI sets ``BLACKOUT_REQUIRE_FAST=1`` so that a failed build fails here instead of
silently testing the fallback only.
"""

from __future__ import annotations

import collections
import os
import random
import statistics
import unittest.mock
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackout import Deal, Game, bots, variant
from blackout.bots import basic, expert, playout, sampling
from blackout.bots.playout import (
    BASIC,
    EVERY_TRICK,
    HABIT,
    NO_TRICK,
    PLAY_FEATURES,
    POLICY,
    Goals,
    estimate_tricks_python,
    habit_card,
    play_features,
    play_out_python,
)
from blackout.bots.sampling import Sampler
from blackout.core.actions import BIDS
from blackout.core.cards import SUIT_MASKS, Suit
from blackout.core.view import View

fast = playout._fast

needs_fast = pytest.mark.skipif(
    fast is None and not os.environ.get("BLACKOUT_REQUIRE_FAST"),
    reason="the C accelerator was not built (no C compiler at install)")


@needs_fast
def test_the_accelerator_was_built_where_it_is_required() -> None:
    assert fast is not None


def _random_play_state(rng: random.Random) -> tuple[list[int], int, int, list[int], list[int],
                                                    Goals]:
    """A random position part way through a hand, with random goals."""
    players = rng.randint(2, 7)
    cards = rng.randint(1, 52 // players)
    deck = rng.sample(range(52), players * cards)
    hands = [sum(1 << c for c in deck[s * cards:(s + 1) * cards]) for s in range(players)]
    trump = rng.randint(-1, 3)
    leader = rng.randrange(players)
    # Some seats of the current trick have played (any card of theirs will do here).
    trick = []
    for position in range(rng.randrange(players)):
        seat = (leader + position) % players
        card = rng.choice([c for c in range(52) if hands[seat] >> c & 1])
        hands[seat] &= ~(1 << card)
        trick.append(card)
    won = [0] * players
    teams = players == 4 and rng.random() < 0.3
    if teams:
        targets = [rng.randint(0, cards * 2) for _ in range(4)]
        if rng.random() < 0.5:
            nil = rng.randrange(4)
            targets[nil], targets[(nil + 2) % 4] = NO_TRICK, EVERY_TRICK
        goals = Goals(tuple(targets), teams=True)
    else:
        goals = Goals(tuple(rng.randint(-1, cards) for _ in range(players)),
                      greedy_when_over=rng.random() < 0.5)
    return hands, trump, leader, trick, won, goals


@needs_fast
@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 2**32))
def test_c_play_outs_take_the_same_tricks_as_python(seed: int) -> None:
    hands, trump, leader, trick, won, goals = _random_play_state(random.Random(seed))
    expected = play_out_python(list(hands), trump, leader, list(trick), list(won), goals)
    got = fast.play_out(hands, trump, leader, trick, won, goals.targets, goals.teams,
                        goals.greedy_when_over, [POLICY] * len(hands), 0)
    assert got == expected


@needs_fast
@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**32))
def test_c_play_outs_with_model_seats_take_the_same_tricks_as_python(seed: int) -> None:
    rng = random.Random(seed)
    hands, trump, leader, trick, won, goals = _random_play_state(rng)
    models = [rng.choice([POLICY, BASIC, HABIT]) for _ in hands]
    weights = [w for _ in hands for w in _random_weights(rng)]
    held = sum(hands) | sum(1 << card for card in trick)
    deck = sum(1 << card for card in range(52) if not held >> card & 1 and rng.random() < 0.5)
    expected = play_out_python(list(hands), trump, leader, list(trick), list(won), goals,
                               models, deck, weights=weights)
    got = playout.play_out(hands, trump, leader, trick, won, goals, models, deck,
                           weights=weights)
    assert got == expected


def _random_weights(rng: random.Random) -> list[float]:
    """Play weights of either sign, some zero, some equal (ties among cards' scores)."""
    return [rng.choice([0.0, 1.0, -1.0, rng.gauss(0, 1)]) for _ in PLAY_FEATURES]


@needs_fast
@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 2**32))
def test_c_habit_scores_and_cards_equal_python_to_the_bit(seed: int) -> None:
    rng = random.Random(seed)
    deck = rng.sample(range(52), 52)
    held = rng.randint(1, 13)
    hand = sum(1 << c for c in deck[:held])
    others = sum(1 << c for c in deck[held:held + rng.randint(0, 52 - held - 6)])
    trick = deck[46:46 + rng.randint(0, 6)]
    trump, need, last = rng.randint(-1, 3), rng.randint(-2, 3), rng.random() < 0.3
    weights = _random_weights(rng)
    _, rows = play_features(hand, trick, trump, need, last, hand | others)
    assert fast.play_scores(hand, others, trick, trump, need, last, weights) == [
        sum(w * f for w, f in zip(weights, row, strict=True)) for row in rows]
    assert fast.habit_card(hand, others, trick, trump, need, last, weights) == habit_card(
        hand, others, trick, trump, need, last, weights)


@needs_fast
def test_habit_play_outs_need_their_weights() -> None:
    goals = Goals((1, 1))
    with pytest.raises(ValueError, match="weights"):
        playout.play_out([1, 2], -1, 0, [], [0, 0], goals, [HABIT, POLICY])
    with pytest.raises(ValueError, match="weights"):
        fast.play_out([1, 2], -1, 0, [], [0, 0], (1, 1), False, False, [HABIT, POLICY], 0,
                      None, 0, 0.0, [0.0] * (len(PLAY_FEATURES) - 1))
    with pytest.raises(ValueError, match="models"):
        fast.play_out([1, 2], -1, 0, [], [0, 0], (1, 1), False, False, [3, POLICY], 0)


@needs_fast
@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**52 - 1), st.integers(-1, 3), st.integers(2, 7))
def test_c_hand_estimates_equal_python_to_the_bit(hand: int, trump: int, players: int) -> None:
    assert fast.estimate_tricks(hand, trump, players) == estimate_tricks_python(hand, trump,
                                                                                 players)


@needs_fast
@settings(max_examples=2000, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 7), st.booleans(),
       st.sampled_from([None, *Suit]))
def test_c_bid_estimates_equal_python(rng: random.Random, players: int, leads_first: bool,
                                      trump: Suit | None) -> None:
    cards = rng.randint(1, 52 // players)
    deck = rng.sample(range(52), 52)
    hand = sum(1 << c for c in deck[:cards])
    unseen = sum(1 << c for c in deck[cards:cards + rng.randint(0, 51 - cards)])
    suit = -1 if trump is None else int(trump)
    with unittest.mock.patch.object(basic, "_fast", None):  # the pure-Python path
        expected = basic.hand_distribution(hand, unseen, cards, players, leads_first, suit)
    got = fast.bid_distribution(hand, unseen, cards, players, leads_first, suit)
    assert got == basic.hand_distribution(hand, unseen, cards, players, leads_first, suit)
    # To the bit on CPython 3.11; later versions add floats up with compensation.
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)


@needs_fast
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**52 - 1), st.data())
def test_c_draws_hands_from_the_cards_given(seed: int, cards: int, data: st.DataObject) -> None:
    want = data.draw(st.integers(0, cards.bit_count()))
    hands = fast.draw(seed, cards, want, 20)
    assert len(hands) == 20
    for hand in hands:
        assert hand & ~cards == 0 and hand.bit_count() == want


@needs_fast
def test_c_replays_of_a_basic_bot_s_cards_agree_with_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The fitting sampler asks whether a hand would have played a basic bot's cards; the
    # C replay must answer as the Python one, for true hands and for random ones.
    rng = random.Random(6)
    compared = fitting = 0
    for seed in range(2):
        game = Game.new(variant("pbmserv", schedule=[5, 9, 13]), list("abcd"), seed=seed)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            fits = expert._bids_test(view, tuple(BASIC if s != seat else POLICY
                                                 for s in range(4)))
            if fits is not None and view.phase == "play":
                for other in set(range(4)) - {seat}:
                    left = game.hands[other]
                    drawn = fast.draw(rng.getrandbits(64), view.unseen(), left.bit_count(), 10)
                    for hand in [left, *drawn]:
                        with_c = fits(other, hand)
                        with monkeypatch.context() as patch:
                            patch.setattr(expert, "_fast", None)
                            assert fits(other, hand) == with_c
                        compared += 1
                        fitting += with_c
            game.apply(bots.create("basic").choose(view))
    assert compared > 2000 and 0 < fitting < compared


def _view_after_a_void() -> tuple[Game, int]:
    rules = variant("standard", schedule=[5], last_hand_no_trump=False)
    game = Game.new(rules, ["a", "b", "c", "d"], deals=[Deal(
        hands=[["AS", "KS", "QS", "2H", "3H"], ["JS", "4D", "5D", "6D", "7D"],
               ["3S", "8D", "9D", "10D", "JD"], ["4S", "2C", "3C", "4C", "5C"]],
        turn_up="AH", dealer=3)])
    for move in ["3", "0", "1", "0", "2H", "4D"]:  # b shows it has no hearts
        game.apply(move)
    return game, 2


@needs_fast
def test_c_samples_keep_every_constraint() -> None:
    game, seat = _view_after_a_void()
    view = game.view(seat)
    assert Suit.HEARTS in view.voids()[1]
    sampler = Sampler(view)
    rng = random.Random(3)
    seen = view.hand | view.played | (1 << int(view.turn_up or 0))
    for _ in range(500):
        hands = sampler.sample(rng)
        assert hands[seat] == view.hand
        assert not hands[1] & SUIT_MASKS[Suit.HEARTS]
        assert [h.bit_count() for h in hands] == [4, 4, 5, 5]
        others = [hands[s] for s in (0, 1, 3)]
        assert not any(h & seen for h in others)
        assert not (others[0] | others[1] | others[2]) & ~view.unseen()
        assert not others[0] & others[1] and not others[1] & others[2]


@pytest.mark.parametrize("which", ["c", "python"])
def test_samples_are_uniform_whatever_the_bids(which: str) -> None:
    # Seat a bid 3 of 5 and b has shown no hearts.  Apart from the hearts b cannot hold,
    # every unseen card is as likely as any other to be in a's hand: the bid does not
    # make a's high cards likelier (measured better against ISMCTS, bench/RESULTS.md).
    if which == "c" and fast is None:
        pytest.skip("the C accelerator was not built")
    game, seat = _view_after_a_void()
    view = game.view(seat)
    assert view.bids[0] == BIDS[3]
    sampler = Sampler(view)
    sample = sampler.sample if which == "c" else sampler.sample_python
    rng = random.Random(4)
    draws = 4000
    held = collections.Counter()
    for _ in range(draws):
        hand = sample(rng)[0]
        held.update(card for card in range(52) if hand >> card & 1)
    plain = [card for card in range(52)
             if view.unseen() >> card & 1 and card // 13 != Suit.HEARTS]
    share = statistics.fmean(held[card] for card in plain) / draws
    assert 0.05 < share < 0.2
    for card in plain:  # a standard error is about 0.005
        assert abs(held[card] / draws - share) < 0.03, card


def test_the_expert_plays_a_whole_game_without_the_accelerator(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # What a user without a C compiler runs: the Python reference everywhere.
    for module in (playout, sampling, basic, expert):
        monkeypatch.setattr(module, "_fast", None)
    game = Game.new(variant("standard", schedule=[3, 2]), ["a", "b", "c"], seed=5)
    bot = bots.create("expert", seed=2, iterations=5)
    while not game.is_over:
        action = bot.choose(game.view(game.to_move))
        assert action in game.legal_actions()
        game.apply(action)




def _tight_views(games: int) -> Iterator[View]:
    """Views late in hands of four basic bots (13 cards, so nothing left undealt),
    wherever some seat has shown a void."""
    player = bots.create("basic")
    for seed in range(games):
        game = Game.new(variant("standard", schedule=[13]), ["a", "b", "c", "d"], seed=seed)
        while not game.is_over:
            view = game.view(game.to_move)
            if len(view.tricks) >= 6 and any(view.voids()):
                yield view
            game.apply(player.choose(view))


@pytest.mark.parametrize("which", ["c", "python"])
def test_every_deal_keeps_the_voids_even_when_shuffles_seldom_do(
        which: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # With a single shuffle allowed, most deals of these views come from the deal by
    # suits; every one must give each seat its count of unseen cards and no card of a
    # suit it has shown void in.
    if which == "c" and fast is None:
        pytest.skip("the C accelerator was not built")
    monkeypatch.setattr(sampling, "_VOID_TRIES", 1)
    rng = random.Random(5)
    checked = 0
    for view in _tight_views(4):
        sampler = Sampler(view)
        sample = sampler.sample if which == "c" else sampler.sample_python
        voids = view.voids()
        for _ in range(5):
            hands = sample(rng)
            assert hands[view.seat] == view.hand
            others = [s for s in range(4) if s != view.seat]
            assert sum(hands[s] for s in others) == view.unseen()  # disjoint, all dealt
            for seat in others:
                assert hands[seat].bit_count() == sampler.counts[seat]
                assert not any(hands[seat] & SUIT_MASKS[suit] for suit in voids[seat])
            checked += 1
    assert checked > 100


def test_the_deal_by_suits_is_uniform_over_the_deals_that_keep_the_voids() -> None:
    # Seat 1 (of three, two cards each after a trick) has shown no spades: every deal of
    # the unseen cards that keeps that comes out equally often.
    game = Game.new(variant("standard", schedule=[3], last_hand_no_trump=False),
                    ["a", "b", "c"], deals=[Deal(
                        hands=[["AS", "KD", "2H"], ["QC", "3H", "4D"],
                               ["2S", "3S", "4C"]], turn_up="2D", dealer=2)])
    for move in ["1", "1", "0", "AS", "QC", "2S"]:
        game.apply(move)
    view = game.view(0)
    assert Suit.SPADES in view.voids()[1]
    sampler = Sampler(view)
    rng = random.Random(6)
    draws = 6000
    counts = collections.Counter(tuple(sampler.sample_by_suits(rng)) for _ in range(draws))
    # Seat 1 takes 2 of the unseen cards that are not spades, seat 2 any 2 of the rest.
    unseen = view.unseen()
    plain = (unseen & ~SUIT_MASKS[Suit.SPADES]).bit_count()
    for hands in counts:
        assert not hands[1] & SUIT_MASKS[Suit.SPADES]
    # Seat 2 holds a given spade in a share 2/(unseen - 2) of deals.
    spade = next(card for card in range(52)
                 if unseen >> card & 1 and card // 13 == Suit.SPADES)
    share = sum(n for hands, n in counts.items() if hands[2] >> spade & 1) / draws
    assert abs(share - 2 / (unseen.bit_count() - 2)) < 0.015
    # Seat 1 holds a given plain card in a share 2/plain.
    card = next(c for c in range(52) if unseen >> c & 1 and c // 13 != Suit.SPADES)
    share = sum(n for hands, n in counts.items() if hands[1] >> card & 1) / draws
    assert abs(share - 2 / plain) < 0.015
