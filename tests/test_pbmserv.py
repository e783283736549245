"""The play-by-email server's Blackout (seed 001), each rule from the seed's own words."""

import json
import random

from blackout import Bid, Deal, Game, variant
from blackout.core.cards import mask_of
from conftest import assert_refused, bid_all, play_hand, play_randomly, suit_deal

PLAYERS = ["ann", "bob", "cy", "di"]


def first_two_hands() -> list[Deal]:
    """Hand 1: one spade each (AS, KS, QS, JS).  Hand 2: seat i holds the ace and king
    of suit i (clubs, diamonds, hearts, spades) and the 2S is turned: spades are trump,
    so seat 3 takes both tricks whoever leads."""
    return [
        Deal(hands=[["AS"], ["KS"], ["QS"], ["JS"]], turn_up="2C"),
        suit_deal(2, turn_up="2S"),
    ]


def new_game(**options: object) -> Game:
    return Game.new(variant("pbmserv", **options), PLAYERS, deals=first_two_hands())


def test_hook_last_bidder_may_not_make_the_total_equal_the_tricks() -> None:
    # "the last person to bid may not place a bid that would result in a total bid for
    # all players equal to the total number of tricks in the hand."
    game = new_game()
    bid_all_but_last = {0: "1", 1: "0", 2: "0"}
    for seat in (0, 1, 2):
        assert game.to_move == seat
        game.apply(bid_all_but_last[seat])
    assert game.to_move == 3
    assert game.legal_actions() == [Bid(1)]
    assert_refused(game, "0", "may not bid 0: bids would total 1")
    game.apply("1")
    assert game.hands_played[0].bids == (Bid(1), Bid(0), Bid(0), Bid(1))


def test_hook_option_off_allows_the_total() -> None:
    # "Disables the hook. The total bid for a hand may equal the total tricks for the hand."
    game = new_game(hook=False)
    bid_all(game, {0: "1", 1: "0", 2: "0", 3: "0"})
    assert game.hands_played[0].bids == (Bid(1), Bid(0), Bid(0), Bid(0))
    assert game.hands_played[0].points == (11, 10, 10, 10)


def test_bids_are_zero_to_the_tricks_in_the_hand() -> None:
    # "Bids are an integer from 0 to X, where X is the number of tricks in the hand."
    game = new_game()
    bid_all(game, {0: "1", 1: "0", 2: "0", 3: "1"})
    assert game.cards == 2
    assert [str(a) for a in game.legal_actions()] == ["0", "1", "2"]
    assert_refused(game, "3", "bids are 0 to 2")


def test_first_hand_a_player_sees_every_card_except_his_own() -> None:
    # "In the first hand, a player sees every card except his own."
    game = new_game()
    for seat in range(4):
        view = game.view(seat)
        assert view.blind
        assert view.hands[seat] is None
        assert view.hand == 0
        for other in range(4):
            if other != seat:
                assert view.hands[other] == game.hands[other]
    assert game.view(1).hands[0] == mask_of(["AS"])


def test_first_hand_plays_itself_after_the_bids() -> None:
    # "After all bids are placed, the cards will be played automatically."
    game = new_game()
    bid_all(game, {0: "1", 1: "0", 2: "0", 3: "1"})
    first = game.hands_played[0]
    assert first.tricks == (1, 0, 0, 0)           # seat 0's AS wins
    assert first.points == (11, 10, 10, 0)        # "their bid plus 10 points"
    auto = [move for move in game.history if move.auto]
    assert [(m.seat, str(m.action)) for m in auto] == [(0, "AS"), (1, "KS"), (2, "QS"), (3, "JS")]
    assert not any(m.auto for m in game.history[:4])
    # The second hand is not blind: each seat sees its own cards and no one else's.
    assert game.hand_number == 2 and game.phase == "bid"
    view = game.view(2)
    assert not view.blind
    assert view.hand == mask_of(["AH", "KH"])
    assert [h is None for h in view.hands] == [True, True, False, True]


def test_records_leave_out_the_automatic_moves_and_still_replay() -> None:
    game = new_game()
    bid_all(game, {0: "1", 1: "0", 2: "0", 3: "1"})
    record = game.record()
    assert record["moves"] == [[0, "1"], [1, "0"], [2, "0"], [3, "1"]]
    replayed = Game.replay(json.loads(json.dumps(record)))
    assert replayed.history == game.history
    assert replayed.hands_played == game.hands_played
    assert replayed.view(0) == game.view(0)


def test_bid_plus_ten_for_an_exact_bid_nothing_otherwise() -> None:
    # "Players who bid correctly will receive points equal to their bid plus 10 points.
    # Players who bid incorrectly (too high or too low) will receive 0 points."
    game = new_game()
    bid_all(game, {0: "1", 1: "0", 2: "0", 3: "1"})
    # Hand 2: bidding starts one seat on (seat 1), who also leads; spades are trump.
    assert game.to_move == 1
    assert str(game.turn_up) == "2S" and str(game.trump) == "S"
    second = play_hand(game, {1: "0", 2: "0", 3: "2", 0: "1"})
    assert second.tricks == (0, 0, 0, 2)
    assert second.points == (0, 10, 10, 12)
    assert game.scores == [11, 20, 20, 12]


def test_bidding_proceeds_clockwise_and_the_first_bidder_leads() -> None:
    # "Bidding proceeds clockwise. After all bids are placed, the first player to bid
    # leads the first trick."  The first bidder moves one seat on each hand.
    game = Game.new(variant("pbmserv", inorder=True), PLAYERS, seed=11)
    rng = random.Random(11)
    while not game.is_over:
        first = (game.hand_number - 1) % 4
        assert game.phase == "bid" and game.to_move == first
        assert game.bidding_order == tuple((first + i) % 4 for i in range(4))
        number = game.hand_number
        while game.phase == "bid" and game.hand_number == number:
            game.apply(rng.choice(game.legal_actions()))
        if number == 1:     # the blind hand has played itself
            assert next(m.seat for m in game.history if m.auto) == first
            continue
        assert game.phase == "play"
        assert game.leader == first and game.to_move == first
        while game.phase == "play" and game.hand_number == number:
            game.apply(rng.choice(game.legal_actions()))


def test_thirteen_hands_of_one_to_thirteen_cards_the_last_at_no_trump() -> None:
    # "The first round, each player receives one card. The last round, each player
    # receives 13 cards. In each round except the last, the next card in the deck is
    # turned up to determine the trump suit. In the last round, there is no trump."
    game = play_randomly(Game.new(variant("pbmserv"), PLAYERS, seed=5), random.Random(5))
    hands = game.hands_played
    assert [h.cards for h in hands] == list(range(1, 14))
    for hand in hands[:-1]:
        assert hand.turn_up is not None and hand.trump == hand.turn_up.suit
    assert hands[-1].turn_up is None and hands[-1].trump is None
    for hand in hands:
        assert sum(hand.tricks) == hand.cards
        assert sum(b.tricks for b in hand.bids) != hand.cards   # the hook held
    assert game.is_over and len(game.winners) == 1


def test_seats_are_shuffled_from_the_seed_unless_inorder() -> None:
    # "Players will play in the order specified. The default is to randomize player
    # order at the beginning of the game."
    orders = {Game.new(variant("pbmserv"), PLAYERS, seed=s).players for s in range(12)}
    assert len(orders) > 1
    assert all(sorted(order) == sorted(PLAYERS) for order in orders)
    assert Game.new(variant("pbmserv"), PLAYERS, seed=3).players == \
        Game.new(variant("pbmserv"), PLAYERS, seed=3).players
    for seed in range(12):
        assert Game.new(variant("pbmserv", inorder=True), PLAYERS, seed=seed).players == \
            tuple(PLAYERS)
    # With prearranged deals the seats are exactly as listed.
    assert new_game().players == tuple(PLAYERS)


def tie_game(seed: int, bids: list[dict[int, str]]) -> Game:
    """Two hands of ten cards, both at no trump (the largest hand of this schedule): each
    seat holds one suit, so whoever leads takes all ten tricks.  Seat 0 leads hand 1,
    seat 1 leads hand 2."""
    rules = variant("pbmserv", schedule=[10, 10])
    game = Game.new(rules, PLAYERS, seed=seed, deals=[suit_deal(10), suit_deal(10)])
    for hand_bids in bids:
        play_hand(game, hand_bids)
    return game


def test_tie_goes_to_the_player_who_bid_correctly_most_rounds() -> None:
    # "If there is a tie, the player who correctly bid the most rounds wins the game."
    game = tie_game(0, [{0: "10", 1: "1", 2: "0", 3: "1"},
                        {1: "0", 2: "0", 3: "1", 0: "1"}])
    assert [h.tricks for h in game.hands_played] == [(10, 0, 0, 0), (0, 10, 0, 0)]
    assert game.scores == [20, 0, 20, 0]      # seat 0: one exact bid; seat 2: two
    assert game.winners == [2]


def test_still_tied_the_winner_is_a_coin_flip_from_the_seed() -> None:
    # "If there is still a tie, winner is determined by coin flip."
    bids = [{0: "10", 1: "1", 2: "1", 3: "1"}, {1: "10", 2: "1", 3: "1", 0: "1"}]
    winners = set()
    for seed in range(16):
        game = tie_game(seed, bids)
        assert game.scores == [20, 20, 0, 0]
        assert len(game.winners) == 1
        winners.add(game.winners[0])
        assert Game.replay(game.record()).winners == game.winners
    assert winners == {0, 1}
