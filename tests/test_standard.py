"""The common game (seed 002), each rule from the seed's own words."""

import itertools
import random

import pytest

from blackout import Bid, Deal, Game, Suit, variant
from conftest import (
    assert_refused,
    bid_all,
    names,
    play_hand,
    play_randomly,
    suit_deal,
    top_cards,
)


def test_five_players_play_ten_deals_the_last_of_ten_cards() -> None:
    # "Thus, for 5 players, the game would consist of 10 deals, with the last deal
    # consisting of 10 cards per player."
    game = play_randomly(Game.new(variant("standard"), names(5), seed=3), random.Random(3))
    scheduled = [h for h in game.hands_played if not h.extra]
    assert [h.cards for h in scheduled] == list(range(1, 11))
    assert game.is_over


def test_first_dealer_draws_the_high_card_ties_by_clubs_diamonds_hearts_spades() -> None:
    # "the player drawing the highest card being the first dealer ... If two or more
    # players tie for the highest card, the ranking of suits for this draw is as
    # follows: clubs, diamonds, hearts, spades."
    rank_ties = 0
    for seed in range(300):
        game = Game.new(variant("standard"), names(7), seed=seed)
        drawn = game.first_dealer_draw
        assert drawn is not None and len(set(drawn)) == 7
        top = max(card.rank for card in drawn)
        assert drawn[game.dealer].rank == top
        tied = [card for card in drawn if card.rank == top]
        rank_ties += len(tied) > 1
        assert drawn[game.dealer].suit == max(card.suit for card in tied)
    assert rank_ties > 10      # the suit order was really put to use


def test_bidding_starts_left_of_dealer_dealer_last_left_of_dealer_leads() -> None:
    # "the player to the dealers immediate left then makes a verbal bid ... The dealer
    # will be the last player to bid." "The player to the dealers immediate left begins
    # by leading the first card to the first trick."
    rules = variant("standard", schedule=[2])
    game = Game.new(rules, names(4), deals=[suit_deal(2, turn_up="2C", dealer=1)])
    assert game.dealer == 1
    assert game.bidding_order == (2, 3, 0, 1)
    order = []
    while game.phase == "bid":
        order.append(game.to_move)
        game.apply("pass")         # 'He may also bid zero or say "pass"'
    assert order == [2, 3, 0, 1]
    assert game.bids == [Bid(0)] * 4
    assert game.leader == 2 and game.to_move == 2


def test_deal_passes_clockwise() -> None:
    game = play_randomly(Game.new(variant("standard"), names(4), seed=8), random.Random(8))
    dealers = [h.dealer for h in game.hands_played]
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))


@pytest.mark.parametrize(("schedule", "no_trump_index"), [
    ("up", 6),             # "on every hand except the last ... played at no trump"
    ("down", 0),           # "The first, maximum card hand is played at no trump"
    ("full_rotation", 6),  # the one maximum hand, in the middle
])
def test_the_hand_of_the_most_cards_is_played_at_no_trump(schedule: str,
                                                         no_trump_index: int) -> None:
    rules = variant("standard", schedule=schedule)
    game = play_randomly(Game.new(rules, names(7), seed=21), random.Random(21))
    scheduled = [h for h in game.hands_played if not h.extra]
    assert scheduled[no_trump_index].cards == 7
    for index, hand in enumerate(scheduled):
        if index == no_trump_index:
            assert hand.turn_up is None and hand.trump is None
        else:
            assert hand.turn_up is not None and hand.trump == hand.turn_up.suit


def one_hand_of_three(**options: object) -> Game:
    """Three players, one suit each (no spades held, 2S turned): the leader, seat 0,
    takes all three tricks."""
    rules = variant("standard", schedule=[3], **options)
    return Game.new(rules, names(3), deals=[suit_deal(3, "CDH", turn_up="2S", dealer=2)])


@pytest.mark.parametrize(("scoring", "points"), [
    # "If they do manage to score the exact number bid, they score 5 points plus the
    # number of cards dealt to each player in that deal."
    ("five_plus_cards", (0, 8, 0)),
    # "Another common scoring method is to award each successful bid 10 points plus the
    # amount of their bid."
    ("ten_plus_bid", (0, 10, 0)),
    # decision 6: one point a trick, 10 more for an exact bid.
    ("tricks_plus_ten", (3, 10, 0)),
])
def test_scoring(scoring: str, points: tuple[int, ...]) -> None:
    game = one_hand_of_three(scoring=scoring)
    hand = play_hand(game, {0: "2", 1: "0", 2: "1"})
    assert hand.tricks == (3, 0, 0)
    assert hand.points == points
    assert game.scores == list(points)


def test_exact_bids_score_five_plus_cards_even_for_zero() -> None:
    hand = play_hand(one_hand_of_three(), {0: "3", 1: "0", 2: "0"})
    assert hand.tricks == (3, 0, 0)
    assert hand.points == (8, 8, 8)


def test_hook_option_restricts_the_dealer() -> None:
    # "Oftentimes, this may cause the dealer (the last bidder) to make a bid in which
    # they would not normally want to make."
    game = one_hand_of_three(hook=True)
    game.apply("1")     # decision 2: the first bidder is free (1 of 3 so far)
    game.apply("1")
    assert game.to_move == 2 == game.dealer
    assert Bid(1) not in game.legal_actions()
    assert_refused(game, "1", "the dealer may not bid 1: bids would total 3")
    game.apply("2")
    # Without the option the dealer may make the total.
    free = one_hand_of_three()
    bid_all(free, {0: "1", 1: "1", 2: "1"})
    assert free.phase == "play"


def test_hook_lets_the_first_bidder_of_a_one_card_hand_bid_one() -> None:
    game = Game.new(variant("standard", hook=True), names(3), seed=2)
    assert game.cards == 1
    assert Bid(1) in game.legal_actions()


def spade_race(size: int, dealer: int | None = None) -> Deal:
    """Two players, spades only: seat 0 holds the top cards, so takes every trick."""
    low = ["2S", "3S", "4S"][:size]
    return Deal(hands=[top_cards("S", size), low], turn_up="2C", dealer=dealer)


def test_tied_winners_play_extra_hands_of_one_two_three_until_one_leads() -> None:
    # "If there are two players tied for the highest score, additional hands are again
    # played (starting over with the one card hand and building up by one card per
    # deal) until, at the end of a hand there is only one player with the highest score."
    rules = variant("standard", max_cards=3)
    sizes = [1, 2, 3, 1, 2, 3, 1]
    deals = [spade_race(size, dealer=1 if i == 0 else None) for i, size in enumerate(sizes)]
    game = Game.new(rules, names(2), deals=deals)
    for size in sizes[:-1]:
        # Both bid exactly right (seat 0 takes everything), so the tie carries on.
        play_hand(game, {0: str(size), 1: "0"})
        assert not game.is_over
        assert game.scores[0] == game.scores[1]
    assert game.scores == [2 * (6 + 7 + 8)] * 2
    play_hand(game, {0: "1", 1: "1"})
    assert game.is_over and game.winners == [0]
    assert [h.cards for h in game.hands_played] == sizes
    assert [h.extra for h in game.hands_played] == [False] * 3 + [True] * 4
    # The extra hands keep the trump rule: the three-card hand is at no trump.
    assert [h.trump is None for h in game.hands_played] == [
        size == 3 for size in sizes]


def test_all_players_play_the_extra_hands_and_may_overtake() -> None:
    # "All players may continue to play in these additional hands, and, in some cases
    # may even defeat the tied players."
    rules = variant("standard", schedule=[1])
    deals = [
        Deal(hands=[["AS"], ["KS"], ["2C"]], turn_up="3C", dealer=2),   # seat 0 leads
        Deal(hands=[["KS"], ["AS"], ["2C"]], turn_up="3C"),             # seat 1 leads
        Deal(hands=[["KS"], ["QS"], ["AS"]], turn_up="3C"),             # seat 2 leads
    ]
    game = Game.new(rules, names(3), deals=deals)
    play_hand(game, {0: "1", 1: "0", 2: "1"})
    assert game.scores == [6, 6, 0] and not game.is_over
    play_hand(game, {1: "0", 2: "0", 0: "1"})
    assert game.scores == [6, 6, 6] and not game.is_over
    play_hand(game, {2: "1", 0: "1", 1: "1"})
    assert game.scores == [6, 6, 12]
    assert game.is_over and game.winners == [2]


def test_a_player_must_follow_the_suit_led() -> None:
    # "A player must play a card of the suit led to the trick if they contain any cards
    # of the suit led. If they do not have any cards of this suit, they may play any
    # card to the trick, including a card of the trump suit."
    # A one-hand schedule's only hand is its largest: keep the turned-up trump anyway.
    rules = variant("standard", schedule=[2], last_hand_no_trump=False)
    deal = Deal(hands=[["AH", "2C"], ["KH", "3S"], ["4C", "5D"]], turn_up="9S", dealer=2)
    game = Game.new(rules, names(3), deals=[deal])
    bid_all(game, {0: "1", 1: "0", 2: "1"})
    assert game.trump is Suit.SPADES
    game.apply("AH")
    assert [str(a) for a in game.legal_actions()] == ["KH"]
    assert_refused(game, "3S", "you must follow hearts")
    assert_refused(game, "2C", "you do not hold 2C")
    game.apply("KH")
    assert [str(a) for a in game.legal_actions()] == ["4C", "5D"]   # void: anything
    game.apply("5D")
    assert game.tricks[-1].winner == 0 and game.to_move == 0
    game.apply("2C")
    game.apply("3S")       # void in clubs, trumps with the 3S
    game.apply("4C")
    assert game.tricks[-1].winner == 1
    assert game.hands_played[0].tricks == (1, 1, 0)
    assert game.is_over and game.scores == [7, 0, 0]
