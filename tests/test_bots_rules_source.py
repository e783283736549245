"""The bots take the rules from the core: its definitions, or C twins tested equal to them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackout import Game, variant
from blackout.bots import basic, expert, playout
from blackout.bots.playout import (
    BASIC,
    HABIT,
    PLAY_FEATURES,
    POLICY,
    Endgame,
    endgame_for,
    solve_endgame,
)
from blackout.core.actions import BIDS, Bid
from blackout.core.game import beats, playable, trick_winner_position
from blackout.core.procedure import declarer_seat, hooked_bid
from blackout.core.scoring import hand_points

fast = playout._fast
needs_fast = pytest.mark.skipif(fast is None, reason="the C accelerator was not built")
PRESETS = ("standard", "pbmserv", "nullo", "potomac")


@needs_fast
@settings(max_examples=3000, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=7, unique=True), st.integers(-1, 3))
def test_c_trick_winner_is_the_core_s(cards: list[int], trump: int) -> None:
    assert fast.trick_winner_position(cards, trump) == trick_winner_position(cards, trump)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 51), st.integers(0, 51), st.integers(-1, 3))
def test_beats_is_the_trick_winner_of_two_cards(card: int, best: int, trump: int) -> None:
    if card != best:
        assert beats(card, best, trump) == (trick_winner_position([best, card], trump) == 1)


def _random_games(count: int, seed: int):
    """Games of every individually scored preset, played at random, one move at a time."""
    rng = random.Random(seed)
    for index in range(count):
        rules = variant(PRESETS[index % len(PRESETS)], schedule=[rng.randint(1, 8)])
        players = rng.randint(rules.min_players, min(rules.max_players, 6))
        game = Game.new(rules, [f"p{s}" for s in range(players)], seed=rng.getrandbits(32))
        while not game.is_over:
            yield game
            game.apply(rng.choice(game.legal_actions()))


def test_legal_bids_and_cards_follow_the_core_s_definitions() -> None:
    checked = 0
    for game in _random_games(60, seed=1):
        view = game.view(game.to_move)
        if game.phase == "play":
            cards = {a.card for a in game.legal_actions()}
            mask = playable(view.hand, [c for _, c in view.trick])
            assert cards == {c for c in range(52) if mask >> c & 1}
        elif game.phase == "bid" and not view.blind:
            others = sum(b.tricks for b in view.bids if isinstance(b, Bid))
            last = sum(b is not None for b in view.bids) == game.n - 1
            hooked = hooked_bid(game.rules, game.cards, others, last)
            allowed = {a.tricks for a in game.legal_actions() if isinstance(a, Bid)}
            assert allowed == set(range(game.cards + 1)) - {hooked}
            # The basic bot's guess of a bid never makes the forbidden one.
            guess = basic.bid_for(view, view.seat, view.hand, view.trump, others)
            if view.seat == view.bidding_order[-1]:
                assert guess != hooked
            checked += 1
    assert checked > 100


def test_the_declarer_is_the_core_s() -> None:
    seen = 0
    for game in _random_games(40, seed=2):
        if game.rules.trump == "declarer" and game.phase == "trump":
            view = game.view(game.to_move)
            assert declarer_seat(view.bids, view.bidding_order) == game.declarer
            assert expert._declarer(view, list(view.bids)) == game.declarer
            seen += 1
    assert seen > 3


@pytest.mark.parametrize("preset", ["standard", "pbmserv", "nullo", "potomac"])
def test_expected_points_are_the_core_s_scoring(preset: str) -> None:
    rules = variant(preset)
    rng = random.Random(preset)
    for _ in range(200):
        cards = rng.randint(1, 13)
        weights = [rng.random() for _ in range(cards + 1)]
        dist = [w / sum(weights) for w in weights]
        bid = rng.randint(0, cards)
        declarer = rng.random() < 0.5
        bids = [BIDS[bid], BIDS[0]]
        want = sum(q * hand_points(rules, cards, bids, [t, 0], 0 if declarer else 1)[0]
                   for t, q in enumerate(dist))
        got = basic.expected_points(rules, cards, bid, dist, declarer)
        assert got == pytest.approx(want)


def _random_end(rng: random.Random) -> tuple[list[int], int, int, list[int], list[int],
                                             Endgame, list[int], list[int], int,
                                             list[float]]:
    """A random position near the end of a hand, with its endgame table, each seat's
    model and play weights (for a HABIT seat)."""
    players = rng.randint(2, 5)
    left = rng.randint(1, 3)
    leader = rng.randrange(players)
    # The seats that have played to the trick hold one card fewer than the others.
    played = rng.randrange(players)
    counts = [left - ((s - leader) % players < played) for s in range(players)]
    deck = rng.sample(range(52), sum(counts) + played)
    trick, deck = deck[:played], deck[played:]
    hands = []
    for count in counts:
        hands.append(sum(1 << c for c in deck[:count]))
        deck = deck[count:]
    trump = rng.randint(-1, 3)
    cards = left + rng.randint(0, 4)
    won = [0] * players
    for _ in range(cards - left):
        won[rng.randrange(players)] += 1
    bids = [BIDS[rng.randint(0, cards)] for _ in range(players)]
    rules = variant(rng.choice(["standard", "nullo", "pbmserv"]))
    endgame = endgame_for(rules, cards, bids, None, left, rng.choice([0.0, 0.5, 1.0]))
    assert endgame is not None
    models = [rng.choice([POLICY, POLICY, BASIC, HABIT]) for _ in range(players)]
    weights = [rng.gauss(0, 1) for _ in range(players) for _ in PLAY_FEATURES]
    targets = [b.tricks for b in bids]
    held = sum(hands) | sum(1 << c for c in trick)
    free = sum(1 << c for c in range(52) if not held >> c & 1 and rng.random() < 0.3)
    return hands, trump, leader, trick, won, endgame, models, targets, free, weights


@needs_fast
@settings(max_examples=1500, deadline=None)
@given(st.integers(0, 2**32))
def test_c_endgames_are_solved_as_in_python(seed: int) -> None:
    hands, trump, leader, trick, won, endgame, models, targets, deck, weights = _random_end(
        random.Random(seed))
    expected = solve_endgame(list(hands), trump, leader, list(trick), won, endgame, models,
                             targets, deck, weights)
    got = fast.play_out(hands, trump, leader, trick, won, targets, False, False, models, deck,
                        endgame.points, endgame.tricks, endgame.rivalry, weights)
    assert got == expected


def test_an_exact_endgame_ducks_where_the_policy_would_not_know_how() -> None:
    # Three players, two cards each, no trump; seat 0 leads and bid 1 with AS 2H and has
    # taken nothing: leading the ace wins, then the 2H loses to the other hearts.
    rules = variant("standard")
    hands = [1 << 51 | 1 << 26, 1 << 38 | 1 << 27, 1 << 37 | 1 << 28]  # AS 2H / KH 3H / QH 4H
    bids = [BIDS[1], BIDS[1], BIDS[0]]
    endgame = endgame_for(rules, 2, bids, None, 2)
    assert endgame is not None
    end = solve_endgame(hands, -1, 0, [], [0, 0, 0], endgame, [POLICY] * 3, [1, 1, 0])
    assert end == [1, 1, 0]  # seat 2 ducks both tricks, seat 1 wins the heart with KH


def test_no_endgame_table_for_partnership() -> None:
    assert endgame_for(variant("partnership"), 13, [BIDS[3]] * 4, None, 3) is None
