"""Potomac Blackout (seed 004), each rule from the seed's own words."""

import random
import re

import pytest

from blackout import Bid, ChooseTrump, Game, Suit, variant
from blackout.core.actions import NO_PASS, TRUMP_CHOICES, IllegalAction
from blackout.core.scoresheet import ScoreSheet, ScoreSheetError
from conftest import (
    assert_refused,
    bid_all,
    names,
    play_hand,
    play_lowest,
    play_randomly,
    suit_deal,
)


def new_game(**options: object) -> Game:
    """Four players, first hand of 13 cards: seat i holds all of suit i (clubs, diamonds,
    hearts, spades) and seat 3 deals.  Whoever holds the trump suit takes every trick; at
    no trump the leader (the dealer) does."""
    rules = variant("potomac", **options)
    return Game.new(rules, names(4), deals=[suit_deal(13, dealer=3)])


def test_first_hand_has_the_most_cards_then_one_fewer_down_to_one_and_back_up() -> None:
    # "The first hand is played with the maximum number of cards that can be dealt
    # equally to each player ... down to a hand of just one card each, then one more per
    # hand up to the starting level."
    rules = variant("potomac")
    assert rules.hand_sizes(4) == (*range(13, 0, -1), *range(2, 14))
    game = Game.new(rules, names(4), seed=9)
    assert game.cards == 13
    game = play_randomly(Game.new(rules, names(7), seed=9), random.Random(9))
    assert [h.cards for h in game.hands_played] == [*range(7, 0, -1), *range(2, 8)]


def test_bidding_from_dealers_left_dealer_last_and_the_hook_on_the_dealer() -> None:
    # "The bidding in each hand begins with the player to the left of the dealer, then
    # continues clockwise, back around to the dealer, who bids last." "the dealer may
    # not bid the number that would cause the total number of tricks bid to equal the
    # number of tricks available"
    game = new_game()
    assert game.bidding_order == (0, 1, 2, 3)
    for text in ("5", "3", "2"):
        game.apply(text)
    assert game.to_move == 3 == game.dealer
    assert Bid(3) not in game.legal_actions() and Bid(4) in game.legal_actions()
    assert_refused(game, "3", "the dealer may not bid 3: bids would total 13")


def test_a_bid_may_be_changed_only_until_the_next_player_bids() -> None:
    # "A bid may be changed only if the next player to the left has not yet bid."
    game = new_game()
    game.apply("5")
    assert game.to_move == 1
    assert Bid(4) in game.legal_actions(0) and Bid(5) not in game.legal_actions(0)
    game.apply("4", seat=0)
    assert game.bids[0] == Bid(4) and game.to_move == 1
    assert game.history[-1].seat == 0 and game.history[-1].action == Bid(4)
    assert_refused(game, "4", "your bid is already 4", seat=0)
    assert_refused(game, "1", "it is p1's turn, not p2's", seat=2)   # not yet bid
    game.apply("3")                                                 # seat 1 bids
    assert game.legal_actions(0) == []
    assert_refused(game, "2", "it is p2's turn, not p0's", seat=0)
    game.apply("2", seat=1)                                         # seat 1 still may
    assert game.bids[:2] == [Bid(4), Bid(2)]


def test_a_change_moves_the_hook() -> None:
    game = new_game()
    for text in ("5", "3", "2"):
        game.apply(text)
    assert Bid(3) not in game.legal_actions()
    game.apply("4", seat=2)              # the dealer has not bid yet: seat 2 may change
    assert Bid(3) in game.legal_actions() and Bid(1) not in game.legal_actions()
    assert_refused(game, "1", "the dealer may not bid 1: bids would total 13")


def test_the_dealers_bid_is_final() -> None:
    game = new_game()
    bid_all(game, {0: "5", 1: "3", 2: "2", 3: "1"})
    assert game.phase == "trump"
    assert_refused(game, "2", "turn, not p3's", seat=3)
    assert game.legal_actions(3) == []


@pytest.mark.parametrize(("bids", "changes", "declarer"), [
    # "the person who made the largest bid is now declarer."
    ({0: "2", 1: "6", 2: "1", 3: "0"}, [], 1),
    # "(In case of a tie, the first player to make that bid is declarer.)"
    ({0: "5", 1: "5", 2: "0", 3: "0"}, [], 0),
    ({0: "1", 1: "4", 2: "2", 3: "4"}, [], 1),
    # Seat 2 changes 3 to 6 and ties seat 1, who made the bid first.
    ({0: "1", 1: "6", 2: "3", 3: "1"}, [(2, "6", 3)], 1),
    # Seat 0 changes 6 down to 2: seat 1's 4 is now the largest.
    ({0: "6", 1: "4", 2: "2", 3: "0"}, [(0, "2", 1)], 1),
])
def test_declarer_is_the_highest_bidder_first_to_bid_it_on_a_tie(
        bids: dict[int, str], changes: list[tuple[int, str, int]], declarer: int) -> None:
    game = new_game()
    while game.phase == "bid":
        for seat, bid, before in changes:
            if game.to_move == before:
                game.apply(bid, seat=seat)
        game.apply(bids[game.to_move])
    assert game.phase == "trump"
    assert game.declarer == declarer and game.to_move == declarer


def test_declarer_names_trump_or_no_trump_and_the_dealer_leads() -> None:
    # "Declarer now must choose a trump suit for that hand, or declare that there are no
    # trumps for that hand." "The play begins with dealer, who leads the first card."
    game = new_game()
    bid_all(game, {0: "5", 1: "3", 2: "2", 3: "1"})
    assert game.legal_actions() == list(TRUMP_CHOICES)
    assert game.view(2).trump_decided is False
    assert_refused(game, "4", "p0 is declarer and must name trump")
    assert_refused(game, "AC", "p0 is declarer and must name trump")
    assert_refused(game, "trump D", "turn, not p1's", seat=1)
    game.apply("trump H")
    assert game.trump is Suit.HEARTS and game.view(1).trump is Suit.HEARTS
    assert game.history[-1].action == ChooseTrump(Suit.HEARTS)
    assert game.phase == "play" and game.leader == 3 == game.to_move


def test_trump_is_not_named_during_the_bidding() -> None:
    game = new_game()
    assert_refused(game, "trump H", "trump is named after the bidding, by the highest bidder")


@pytest.mark.parametrize(("bids", "trump", "tricks", "points"), [
    # "If declarer makes their bid exactly, they get 5 points plus double their bid."
    # "If a player misses their bid (over or under), he loses the number of tricks by
    # which they missed his bid."  Declarer names clubs: seat 0 takes all 13.
    ({0: "13", 1: "0", 2: "0", 3: "1"}, "trump C", (13, 0, 0, 0), (31, 5, 5, -1)),
    # At no trump the dealer leads spades and takes all 13.
    ({0: "13", 1: "0", 2: "0", 3: "1"}, "trump NT", (0, 0, 0, 13), (-13, 5, 5, -12)),
    # "If a non-declarer player makes their bid exactly, they get 5 points plus their
    # bid."  Seat 0 is declarer (first to bid 13) and names spades, the dealer's suit.
    ({0: "13", 1: "0", 2: "0", 3: "13"}, "trump S", (0, 0, 0, 13), (-13, 5, 5, 18)),
])
def test_scoring(bids: dict[int, str], trump: str, tricks: tuple[int, ...],
                 points: tuple[int, ...]) -> None:
    game = new_game()
    hand = play_hand(game, bids, trump=trump)
    assert hand.declarer == 0
    assert hand.tricks == tricks
    assert hand.points == points
    assert game.scores == list(points)


def test_tricks_plus_ten_option() -> None:
    # decision 6: one point a trick, ten more for an exact bid, with any individual preset.
    hand = play_hand(new_game(scoring="tricks_plus_ten"),
                     {0: "13", 1: "0", 2: "0", 3: "1"}, trump="trump C")
    assert hand.points == (23, 10, 10, 0)


def test_wrong_phase_and_game_over_errors_change_nothing() -> None:
    rules = variant("potomac", schedule=[1])
    game = Game.new(rules, names(2), deals=[suit_deal(1, "HS", dealer=1)])
    assert_refused(game, "AH", "it is time to bid, not to play AH")
    assert_refused(game, "nil", "there is no nil bid in this game; bid 0 to take no tricks")
    assert_refused(game, "sevens", "'sevens' is not a move")
    bid_all(game, {0: "1", 1: "1"})
    game.apply("trump NT")
    assert_refused(game, "1", "it is time to play a card, not to bid 1")
    assert_refused(game, "trump S", "it is time to play a card, not to name trump")
    assert_refused(game, "AH", "you do not hold AH")     # the dealer, seat 1, leads
    play_lowest(game)
    assert game.is_over and game.phase == "over" and game.to_move is None
    assert game.legal_actions() == []
    assert_refused(game, "AS", "the game is over")
    assert_refused(game, "1", "the game is over", seat=0)


def test_potomac_refuses_pass_with_its_seeds_sentence() -> None:
    # Issue 19.18, seed 004: "Everyone must bid - it is not possible to pass, but you can
    # bid zero".  Seed 002 reads "pass" as a bid of 0, and so do the other presets.
    game = Game.new(variant("potomac"), ["a", "b", "c"], seed=5)
    before = game.record()
    with pytest.raises(IllegalAction, match="it is not possible to pass"):
        game.apply("pass")
    assert game.record() == before
    game.apply("0")
    standard = Game.new(variant("standard"), ["a", "b", "c"], seed=5)
    standard.apply("pass")
    assert str(standard.history[-1].action) == "0"
    sheet = ScoreSheet(variant("potomac"), ["a", "b", "c"])
    with pytest.raises(ScoreSheetError, match=re.escape(NO_PASS)):
        sheet.check_bids(["pass", "1", "1"], dealer=0)
