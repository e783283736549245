"""The basic bot: only legal actions, sensible bids and plays, and it beats random play."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from blackout import BOARD, NIL, Bid, ChooseTrump, Deal, Game, Play, Suit, variant
from blackout.bots import NAMES, Bot, create
from blackout.bots.basic import BasicBot, bid_for, trick_chances, tricks_distribution
from blackout.bots.playout import basic_card, model_card
from blackout.core.actions import Action
from blackout.core.cards import Card
from blackout.core.rules import PRESETS
from blackout.core.view import View

SHORT = {"max_hands": 4}


def _names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def _bot_moves(game: Game, bot: Bot) -> None:
    """The seat to move makes the bot's choice."""
    seat = game.to_move
    assert seat is not None
    action = bot.choose(game.view(seat))
    assert action is not None
    game.apply(action)


def _check_every_decision(game: Game, bot: BasicBot, rng: random.Random) -> int:
    """Drive ``game`` with random moves, asking the bot at every decision of every seat
    (out-of-turn Potomac bid changes included); returns how many decisions it made."""
    decisions = 0
    while not game.is_over:
        for seat in range(game.n):
            view = game.view(seat)
            choice = bot.choose(view)
            if seat == game.to_move:
                assert choice in view.legal_actions, (view.phase, choice)
                action, reason = bot.hint(view)
                assert action == choice and reason and "\n" not in reason
                decisions += 1
            else:
                assert choice is None
        changers = [s for s in range(game.n) if s != game.to_move and game.legal_actions(s)]
        if changers and rng.random() < 0.2:
            seat = rng.choice(changers)
            game.apply(rng.choice(game.legal_actions(seat)), seat=seat)
        else:
            game.apply(rng.choice(game.legal_actions()))
    return decisions


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_only_legal_actions_in_every_preset(name: str) -> None:
    preset = PRESETS[name]
    bot = BasicBot()
    counts = sorted({preset.min_players, min(preset.max_players, 5), preset.max_players})
    for players in counts:
        for seed in range(2):
            game = Game.new(variant(name, **SHORT), _names(players), seed=seed)
            assert _check_every_decision(game, bot, random.Random(seed)) > 0


def test_registered_by_name() -> None:
    assert "basic" in NAMES
    assert isinstance(create("basic", seed=1), BasicBot)


def test_blind_hand_bid_counts_the_cards_it_might_hold() -> None:
    # Seat 0 sees the others' 2C, 3C, 4C with hearts trump; almost any card it might
    # hold beats three low clubs led by itself, so it bids 1.
    rules = variant("pbmserv", inorder=True, schedule=[1, 2])
    deal = Deal(hands=[["AS"], ["2C"], ["3C"], ["4C"]], turn_up="5H")
    game = Game.new(rules, _names(4), deals=[deal])
    view = game.view(0)
    assert view.blind and view.hand == 0
    action, reason = BasicBot().hint(view)
    assert action == Bid(1)
    assert "48 of the 48 cards I could hold win" in reason


def test_blind_hand_bid_zero_when_others_hold_the_top() -> None:
    # The others hold AH, KH, QH of trump: seat 0's unknown card almost never wins.
    rules = variant("pbmserv", inorder=True, schedule=[1, 2])
    deal = Deal(hands=[["2C"], ["AH"], ["KH"], ["QH"]], turn_up="5H")
    game = Game.new(rules, _names(4), deals=[deal])
    assert BasicBot().choose(game.view(0)) == Bid(0)


def test_declarer_names_its_long_strong_suit() -> None:
    rules = variant("potomac", schedule=[3])
    deal = Deal(hands=[["AH", "KH", "QH"], ["2C", "3D", "4S"]], dealer=1)
    game = Game.new(rules, _names(2), deals=[deal])
    assert BasicBot().choose(game.view(0)) == Bid(3)  # worth being declarer
    game.apply("3")
    game.apply("1")
    assert game.phase == "trump" and game.to_move == 0
    action, reason = BasicBot().hint(game.view(0))
    assert action == ChooseTrump(Suit.HEARTS)
    assert "hearts" in reason


def test_potomac_bid_changes_are_kept_out_of_turn() -> None:
    game = Game.new(variant("potomac"), _names(4), seed=3)
    bot = BasicBot()
    first = game.to_move
    assert first is not None
    _bot_moves(game, bot)
    view = game.view(first)
    assert view.legal_actions and view.to_move != first  # it could change its bid
    assert bot.choose(view) is None
    with pytest.raises(ValueError, match="nothing for this seat"):
        bot.hint(view)


def _partnership_game(hand0: list[str], dealer: int = 3) -> Game:
    """Seat 0 holds ``hand0``; the other 39 cards go round the other seats."""
    rest = [str(Card(c)) for c in range(52) if str(Card(c)) not in hand0]
    hands = [hand0, rest[0:13], rest[13:26], rest[26:39]]
    return Game.new(variant("partnership"), _names(4), deals=[Deal(hands=hands, dealer=dealer)])


def test_partnership_nil_with_a_very_weak_hand() -> None:
    weak = [r + s for s in "CDH" for r in "2345"] + ["2S"]
    game = _partnership_game(weak)
    action, reason = BasicBot().hint(game.view(0))
    assert action == NIL and reason.startswith("nil")


def test_partnership_board_only_with_an_overwhelming_hand() -> None:
    all_spades = [r + "S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4",
                                    "3", "2")]
    game = _partnership_game(all_spades)
    assert BasicBot().choose(game.view(0)) == BOARD
    strong_but_beatable = ["AS", "KS", "QS", "JS", "AH", "KH", "QH", "AD", "KD", "QD",
                           "AC", "KC", "2C"]
    game = _partnership_game(strong_but_beatable)
    choice = BasicBot().choose(game.view(0))
    assert isinstance(choice, Bid) and choice.tricks >= 8


def test_partnership_number_bid_adds_toward_the_team() -> None:
    hand = ["AS", "KS", "4S", "AH", "7H", "3H", "QD", "8D", "5D", "2D", "9C", "6C", "3C"]
    game = _partnership_game(hand)
    choice = BasicBot().choose(game.view(0))
    assert isinstance(choice, Bid) and 2 <= choice.tricks <= 5


def _standard_hand(hands: list[list[str]], turn_up: str, bids: list[str]) -> Game:
    size = len(hands[0])
    rules = variant("standard", schedule=[size])
    game = Game.new(rules, _names(len(hands)), deals=[Deal(hands=hands, turn_up=turn_up,
                                                           dealer=len(hands) - 1)])
    for bid in bids:
        game.apply(bid)
    return game


def test_takes_a_needed_trick_with_the_cheapest_winner() -> None:
    game = _standard_hand([["9C", "2D"], ["KC", "QC"], ["AC", "3D"]], "5H",
                          ["0", "1", "1"])
    game.apply("9C")  # seat 0 leads; seat 1 needs a trick and holds KC QC
    action, reason = BasicBot().hint(game.view(1))
    assert action == Play(Card.parse("QC"))
    assert "take it with the QC" in reason


def test_ducks_with_the_highest_losing_card_when_no_trick_is_wanted() -> None:
    game = _standard_hand([["KC", "2D"], ["QC", "10C"], ["AC", "3D"]], "5H", ["1", "0", "1"])
    game.apply("KC")
    action, _ = BasicBot().hint(game.view(1))
    assert action == Play(Card.parse("QC"))


def test_discards_the_most_dangerous_card_when_void() -> None:
    game = _standard_hand([["KC", "2D"], ["AS", "3S"], ["AC", "3D"]], "5H", ["1", "0", "1"])
    game.apply("KC")
    assert BasicBot().choose(game.view(1)) == Play(Card.parse("AS"))


def test_protects_a_partners_nil_and_does_not_overtake_a_winning_partner() -> None:
    # Partner (seat 2) bid nil: seat 0 wins what it can, leading high.
    hands = [["AS", "2S", "AH", "2H", "AD", "2D", "AC", "2C", "KC", "QC", "JC", "10C", "9C"]]
    game = _partnership_game(hands[0], dealer=3)
    game.apply("3")        # seat 0
    game.apply("3")        # seat 1
    game.apply("nil")      # seat 2
    game.apply("3")        # seat 3; seat 0 leads (left of dealer 3)
    action, reason = BasicBot().hint(game.view(0))
    assert isinstance(action, Play) and action.card.rank == 14 and "nil" in reason


def test_attacks_an_opponents_nil_by_leading_low() -> None:
    hand0 = ["AS", "KS", "QS", "AH", "KH", "QH", "AD", "KD", "QD", "AC", "KC", "QC", "3C"]
    game = _partnership_game(hand0, dealer=3)
    for bid in ("5", "nil", "3"):  # seat 3 is skipped: its partner bid nil
        game.apply(bid)
    assert game.phase == "play" and game.to_move == 0
    action, reason = BasicBot().hint(game.view(0))
    assert action == Play(Card.parse("3C"))
    assert reason.startswith("set p1's nil")


def test_does_not_overtake_a_partner_holding_the_trick() -> None:
    hand0 = ["AS", "KS", "QS", "JS", "AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H"]
    game = _partnership_game(hand0, dealer=1)  # seat 2 bids first and leads
    for bid in ("3", "4", "3", "3"):
        game.apply(bid)
    assert game.to_move == 2
    lead = next(a for a in game.legal_actions() if isinstance(a, Play)
                and a.card.suit == Suit.DIAMONDS and a.card.rank == 14)
    game.apply(lead)       # partner leads the ace of diamonds: the best card left
    game.apply(game.legal_actions()[0])  # seat 3
    view = game.view(0)
    action, reason = BasicBot().hint(view)
    assert "partner has this trick" in reason
    assert action == min((a for a in view.legal_actions if isinstance(a, Play)),
                         key=lambda a: a.card)


def test_estimates_are_probabilities_and_distributions_sum_to_one() -> None:
    game = Game.new(variant("standard"), _names(4), seed=2)
    while game.cards < 8:
        _bot_moves(game, BasicBot())
    chances = trick_chances(game.view(game.to_move or 0), game.trump)
    assert len(chances) == 8 and all(0 <= p <= 1 for p in chances)
    assert sum(tricks_distribution(chances)) == pytest.approx(1)


def _team_scores(name: str, players: int, seed: int, options: dict[str, object]) -> list[int]:
    """Even seats basic, odd seats random; returns [basic total, random total]."""
    game = Game.new(variant(name, **options), _names(players), seed=seed)
    seats = [create("basic") if s % 2 == 0 else create("random", seed=seed * 10 + s)
             for s in range(players)]
    while not game.is_over:
        _bot_moves(game, seats[game.to_move or 0])
    return [sum(game.scores[0::2]), sum(game.scores[1::2])]


@pytest.mark.parametrize(("name", "players", "options"), [
    ("pbmserv", 4, {}), ("standard", 4, {}), ("nullo", 4, {}),
    ("partnership", 4, {"max_hands": 8}), ("potomac", 4, {}),
])
def test_basic_beats_random_clearly(name: str, players: int, options: dict[str, object]) -> None:
    basic = random_side = 0
    games = 4
    for seed in range(games):
        b, r = _team_scores(name, players, seed, options)
        basic += b
        random_side += r
    # Fixed seeds: each margin is under half of what these games show, so it only
    # fails if the bot really got worse.
    assert (basic - random_side) / games >= MARGINS[name], (basic, random_side)


MARGINS = {"pbmserv": 50, "standard": 40, "nullo": 40, "partnership": 55, "potomac": 90}


# -- the basic bot as a model, for the search player ----------------------------------------


def _basic_decisions(name: str, players: int, seeds: int
                     ) -> Iterator[tuple[Game, View, Action]]:
    """Every decision of games between basic bots: the game before the move, the view
    of the seat to move and the bot's action (applied once the caller has looked)."""
    bot = BasicBot()
    for seed in range(seeds):
        rules = variant(name, **SHORT) if name != "pbmserv" else variant(name)
        game = Game.new(rules, _names(players), seed=seed)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            action = bot.choose(view)
            assert action is not None
            yield game, view, action
            game.apply(action)


@pytest.mark.parametrize(("name", "players"), [("pbmserv", 4), ("standard", 3),
                                               ("standard", 5), ("nullo", 4)])
def test_basic_card_on_masks_is_the_card_the_bot_plays(name: str, players: int) -> None:
    # The search player's model of a basic bot (playout.basic_card, in C when built, and
    # its Python reference) must pick the bot's own card at every decision.
    decisions = 0
    for _, view, action in _basic_decisions(name, players, seeds=3):
        if view.phase == "play" and not view.blind:
            own = view.bids[view.seat]
            need = (own.tricks if isinstance(own, Bid) else 0) - view.tricks_won[view.seat]
            trick = [card for _, card in view.trick]
            trump = -1 if view.trump is None else int(view.trump)
            last = len(trick) == players - 1
            for choose in (basic_card, model_card):
                card = choose(view.hand, view.unseen(), trick, trump, need, last)
                assert action == Play(Card(card)), (view.hand_number, trick)
            decisions += 1
    assert decisions > 50


@pytest.mark.parametrize(("name", "players"), [("pbmserv", 4), ("standard", 5),
                                               ("nullo", 3)])
def test_bid_for_is_the_bid_the_bot_makes(name: str, players: int) -> None:
    # How the search player guesses a basic bot's bid from another seat's view, knowing
    # (in a sampled deal) the bidder's hand.
    bids = 0
    for game, view, action in _basic_decisions(name, players, seeds=4):
        if view.phase == "bid" and not view.blind:
            before = sum(b.tricks for b in view.bids if isinstance(b, Bid))
            watcher = game.view((view.seat + 1) % players)
            assert isinstance(action, Bid)
            assert bid_for(watcher, view.seat, game.hands[view.seat], view.trump,
                           before) == action.tricks
            bids += 1
    assert bids > 30
