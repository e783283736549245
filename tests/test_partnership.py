"""Partnership Blackout (seed 000), each rule from the seed's own words."""

import pytest

from blackout import BOARD, NIL, Bid, Game, Suit, variant
from blackout.core.scoring import hand_points, team_contract
from conftest import (
    assert_refused,
    bid_all,
    names,
    play_hand,
    play_lowest,
    random_deal,
    suit_deal,
)

RULES = variant("partnership")


def spades_to_seat_0(dealer: int | None = 3) -> object:
    """Seat 0 holds all thirteen spades (trump), the others one suit each: seat 0 takes
    every trick, so team 0 (seats 0+2) takes 13 and team 1 none, however it is played."""
    return suit_deal(13, "SCDH", dealer=dealer)


def new_game(hands: int = 1, **options: object) -> Game:
    rules = variant("partnership", **options)
    deals = [spades_to_seat_0(3 if i == 0 else None) for i in range(hands)]
    return Game.new(rules, names(4), deals=deals)


def test_partners_sit_opposite_and_bidding_starts_left_of_dealer() -> None:
    # "Starting to the dealer's left, players get to bid once"
    game = new_game()
    assert game.dealer == 3 and game.bidding_order == (0, 1, 2, 3)
    assert game.cards == 13    # "Deal out the entire deck (13 cards each)."
    assert game.trump is Suit.SPADES and game.turn_up is None   # "Spades are trump."


def test_number_bids_are_one_to_twelve_nil_or_board() -> None:
    # "The possible bids are: a number bid (1-12), board, and nil."
    game = new_game()
    assert game.legal_actions() == [*(Bid(n) for n in range(1, 13)), NIL, BOARD]
    assert_refused(game, "0", "bid 1 to 12, nil or board")
    assert_refused(game, "13", "bid 1 to 12, nil or board")


def test_a_player_is_skipped_if_the_partner_bid_board_earlier() -> None:
    # "A player is skipped during bidding (i.e., doesn't get to bid) if his or her
    # partner bid board earlier in the same hand."
    game = new_game()
    game.apply("board")
    game.apply("3")
    assert game.to_move == 3          # seat 2, seat 0's partner, is skipped
    game.apply("4")
    assert game.phase == "play"
    assert game.bids == [BOARD, Bid(3), None, Bid(4)]


def test_a_player_is_skipped_if_the_partner_bid_nil_earlier() -> None:
    # "A player is skipped during bidding ... if his or her partner bid nil earlier"
    game = new_game()
    game.apply("board")
    game.apply("nil")                 # seats 2 and 3 are both skipped
    assert game.phase == "play"
    assert game.bids == [BOARD, NIL, None, None]


def test_board_made_and_nil_made_score_forty_each() -> None:
    # "If the partners succeed in winning all of the tricks that hand between them, they
    # score 40 points." "If the partner who bid nil ... wins no tricks that hand, his or
    # her team scores 40 points."
    hand = play_hand(new_game(), {0: "board", 1: "nil"})
    assert hand.tricks == (13, 0, 0, 0)
    assert hand.points == (40, 40, 40, 40)


def test_board_failed_loses_ten_and_nil_voids_the_partners_number() -> None:
    # "a player's earlier number bid is cancelled/voided if his or her partner bids
    # nil." "Only the tricks they take count against their bid (i.e., their partner can
    # win any number of tricks without consequence)." "If they fail, they lose 10 points."
    game = new_game()
    hand = play_hand(game, {0: "5", 1: "board", 2: "nil"})
    assert hand.bids == (Bid(5), BOARD, NIL, None)
    assert hand.points == (40, -10, 40, -10)
    assert game.scores == [40, -10, 40, -10]


def test_board_voids_the_partners_earlier_number_bid() -> None:
    # "Conversely, a player's earlier number bid is cancelled/voided if his or her
    # partner bids board."
    hand = play_hand(new_game(), {0: "5", 1: "2", 2: "board", 3: "2"})
    assert team_contract(RULES, hand.bids, 0).kind == "board"
    assert hand.points == (40, 0, 40, 0)


def test_failed_nil_loses_ten() -> None:
    # "If the partner who bid nil wins even a single trick, his or her team loses 10."
    hand = play_hand(new_game(), {0: "nil", 1: "4", 3: "3"})
    assert hand.bids == (NIL, Bid(4), None, Bid(3))
    assert hand.points == (-10, 0, -10, 0)


def test_team_total_is_capped_at_twelve() -> None:
    # "The highest number bid is 12. If a team's totaled number bids exceed that amount,
    # the total is reset to 12."  Team 0 bids 7 + 8 = 15 and takes 13: not exactly 12.
    bids = {0: "7", 1: "1", 2: "8", 3: "1"}
    exact = play_hand(new_game(), bids)
    assert team_contract(RULES, exact.bids, 0).tricks == 12
    assert exact.points == (0, 0, 0, 0)
    # With "aim is to win at least that many tricks" the capped 12 is made: 10 + 12.
    at_least = play_hand(new_game(team_bid="at_least"), bids)
    assert at_least.points == (22, 0, 22, 0)
    assert at_least.made == (True, False, True, False)
    assert hand_points(RULES, 13, [Bid(7), Bid(1), Bid(8), Bid(1)], [6, 0, 6, 1]) == (
        22, 0, 22, 0)


def test_number_contract_made_exactly_scores_ten_plus_the_bid() -> None:
    # "If the number of tricks they win TOGETHER equals their TOTALED bids, they score 10
    # points plus 1 point per trick BID. If not, they score (and lose) no points."
    # The play below (lowest legal card each turn) does not depend on the bids, so a
    # copy played out first tells how many tricks each team will take.
    for seed in range(50):
        game = Game.new(RULES, names(4), deals=[random_deal(13, 4, seed, dealer=3)])
        rehearsal = game.copy()
        bid_all(rehearsal, {0: "1", 1: "1", 2: "1", 3: "1"})
        taken = play_lowest(rehearsal).tricks
        teams = (taken[0] + taken[2], taken[1] + taken[3])
        if min(teams) >= 3:
            break
    else:
        pytest.fail("no deal gave both teams three tricks")
    bids = {0: str(teams[0] - 1), 1: "1", 2: "1", 3: str(teams[1])}   # team 1 over by one
    bid_all(game, bids)
    hand = play_lowest(game)
    assert hand.tricks == taken
    assert hand.points == (10 + teams[0], 0, 10 + teams[0], 0)
    assert hand.made == (True, False, True, False)


def test_reaching_the_target_ends_the_game_but_a_tie_plays_on() -> None:
    # "Games can last until one team reaches 100, 150, 200, or 200+ points" (200 by
    # default); decision 4: a game that would end tied goes on until one team leads.
    game = new_game(hands=6)
    both_forty = {0: "board", 1: "nil", 2: "board", 3: "nil"}
    for _ in range(5):
        play_hand(game, both_forty)
    assert game.scores == [200, 200, 200, 200]
    assert not game.is_over
    play_hand(game, {0: "board", 1: "board", 2: "board", 3: "board"})
    assert game.scores == [240, 190, 240, 190]   # each seat scores its team's points
    assert game.is_over and game.winners == [0, 2]
    assert [h.extra for h in game.hands_played] == [False] * 5 + [True]
    assert all(h.trump is Suit.SPADES and h.cards == 13 for h in game.hands_played)


def test_max_hands_ends_the_game() -> None:
    # "or after 10, 15, 20, or 20+ hands with the highest scoring team winning."
    game = new_game(hands=2, max_hands=2)
    play_hand(game, {0: "board", 1: "3", 2: "board", 3: "3"})
    assert not game.is_over
    play_hand(game, {0: "board", 1: "3", 2: "board", 3: "3"})
    assert game.is_over and game.scores == [80, 0, 80, 0] and game.winners == [0, 2]
