"""Oh Pshaw with nullo bids (seed 003), each rule from the seed's own words."""

import random

import pytest

from blackout import Bid, Game, variant
from conftest import bid_all, names, play_hand, play_randomly, suit_deal


def one_hand_of_three() -> Game:
    """Three players, one suit each (no spades held, 2S turned); seat 2 deals, so seat 0
    leads and takes all three tricks."""
    rules = variant("nullo", schedule=[3])
    return Game.new(rules, names(3), deals=[suit_deal(3, "CDH", turn_up="2S", dealer=2)])


def test_dealer_bids_first_and_the_player_left_of_dealer_leads() -> None:
    # "Starting with the dealer, each player bids the number of tricks they expect to win."
    # "The first card is played by the player directly to the dealers left."
    game = one_hand_of_three()
    assert game.dealer == 2 and game.to_move == 2
    assert game.bidding_order == (2, 0, 1)
    bid_all(game, {2: "nullo", 0: "3", 1: "1"})
    assert game.phase == "play"
    assert game.leader == 0 and game.to_move == 0


def test_scoring_ten_plus_tricks_and_five_plus_cards_for_nullo() -> None:
    # "A player is awarded 1 point for each trick taken plus 10 points."
    # "a player that accurately places a bid of nullo and wins no tricks is awarded 5
    # points plus 1 point for each trick in played during that round."
    # "If they do not match exactly no points are awarded."
    hand = play_hand(one_hand_of_three(), {2: "nullo", 0: "3", 1: "1"})
    assert hand.tricks == (3, 0, 0)
    assert hand.bids == (Bid(3), Bid(1), Bid(0))
    assert hand.points == (13, 0, 8)


def test_a_failed_nullo_scores_nothing() -> None:
    hand = play_hand(one_hand_of_three(), {2: "0", 0: "0", 1: "0"})
    assert hand.points == (0, 8, 8)


def test_seed_example_bid_four_won_four_is_fourteen() -> None:
    # "if the player bid 4 tricks and won 4 their points would be 4 for the tricks plus
    # 10, equaling 14 points."
    rules = variant("nullo", schedule=[4])
    game = Game.new(rules, names(3), deals=[suit_deal(4, "CDH", turn_up="2S", dealer=2)])
    assert play_hand(game, {2: "0", 0: "4", 1: "0"}).points == (14, 9, 9)


def test_first_hand_one_and_nullo_are_the_only_bids() -> None:
    # "In the first hand 1 and nullo are the only possible bids"
    game = Game.new(variant("nullo"), names(5), seed=4)
    assert game.cards == 1
    assert game.legal_actions() == [Bid(0), Bid(1)]


def test_no_hook_bids_may_total_the_tricks() -> None:
    game = one_hand_of_three()
    bid_all(game, {2: "0", 0: "3", 1: "0"})
    assert game.phase == "play"


@pytest.mark.parametrize(("players", "last_hand_has_trump"), [
    # "If there are no leftover cards in the last hand, there will be no trump suit."
    (3, True),     # 17 cards each: 51 dealt, one left to turn
    (4, False),    # 13 cards each: the whole deck is dealt
    (5, True),
])
def test_last_hand_has_trump_only_when_a_card_is_left(players: int,
                                                      last_hand_has_trump: bool) -> None:
    game = play_randomly(Game.new(variant("nullo"), names(players), seed=players),
                         random.Random(players))
    hands = game.hands_played
    # "When the size of the deal cannot increase by one card per player, the final hand
    # has been dealt."
    assert [h.cards for h in hands] == list(range(1, 52 // players + 1))
    for hand in hands[:-1]:
        assert hand.turn_up is not None and hand.trump == hand.turn_up.suit
    last = hands[-1]
    assert (last.turn_up is not None) == last_hand_has_trump
    assert (last.trump is not None) == last_hand_has_trump


def test_ties_are_shared() -> None:
    game = one_hand_of_three()
    play_hand(game, {2: "1", 0: "3", 1: "0"})
    assert game.scores == [13, 8, 0]
    tied = Game.new(variant("nullo", schedule=[3]), names(3),
                    deals=[suit_deal(3, "CDH", turn_up="2S", dealer=2)])
    play_hand(tied, {2: "0", 0: "2", 1: "0"})
    assert tied.scores == [0, 8, 8]
    assert tied.winners == [1, 2]
