"""The search bot, its simulator and its sampler; legality of every bot everywhere."""

from __future__ import annotations

import dataclasses
import gc
import random
import subprocess
import sys
import time
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blackout
from blackout import Deal, Game, bots, variant
from blackout.bots.basic import BasicBot
from blackout.bots.expert import ExpertBot, _begin, _bids_test, _candidates, _distinct_plays
from blackout.bots.playout import (
    BASIC,
    HABIT,
    NO_TRUMP,
    PLAY_FEATURES,
    POLICY,
    choose_card,
    estimate_tricks,
    goals_for,
    habit_card,
    play_out,
    trick_winner_position,
)
from blackout.bots.sampling import Sampler
from blackout.bots.tree import EXPLORATION, RIVALRY, _Line, _Search, search_before_play, search_play
from blackout.core.actions import BIDS, ChooseTrump, Play
from blackout.core.cards import SUIT_MASKS, Suit, mask_of
from blackout.core.rules import PRESETS
from blackout.core.scoring import hand_points

# Rules small enough to play many positions quickly, one per preset.
SMALL = {
    "pbmserv": variant("pbmserv", schedule=[1, 2, 3]),
    "standard": variant("standard", schedule=[3, 2]),
    "nullo": variant("nullo", schedule=[2, 4]),
    "partnership": variant("partnership", max_hands=1),
    "potomac": variant("potomac", schedule=[3, 1, 2]),
}


def _players(rules: blackout.Rules, extra: int = 0) -> list[str]:
    count = min(rules.min_players + extra, rules.max_players)
    return [f"p{i}" for i in range(count)]


def _random_position(rules: blackout.Rules, seed: int, moves: int, extra: int = 0) -> Game:
    game = Game.new(rules, _players(rules, extra), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


# -- the simulator agrees with the engine --------------------------------------------------


def _engine_playout(game: Game) -> None:
    """Play the engine's hand to its end choosing every card with the simulator's policy."""
    goals = goals_for(game.rules, list(game.bids))
    hand_index = game.hand_index
    while not game.is_over and game.hand_index == hand_index:
        seat = game.to_move
        assert seat is not None and game.phase == "play"
        trump = NO_TRUMP if game.trump is None else int(game.trump)
        remaining = 0
        for hand in game.hands:
            remaining |= hand
        trick = list(game.trick_cards)
        ally_winning = False
        if goals.teams and trick and goals.targets[(seat + 2) % 4] != -99:
            assert game.leader is not None
            ally_winning = (game.leader + trick_winner_position(trick, trump)) % 4 == (seat + 2) % 4
        card = choose_card(game.hands[seat], remaining & ~game.hands[seat], trick, trump,
                           goals.need(seat, game.tricks_won), len(trick) == game.n - 1,
                           ally_winning)
        game.apply(Play(blackout.Card(card)))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_simulator_plays_hands_exactly_like_the_engine(name: str) -> None:
    rules = variant(name, max_hands=1) if name == "partnership" else PRESETS[name]
    for seed in range(12):
        game = Game.new(rules, _players(rules, extra=seed % 3), seed=seed)
        rng = random.Random(seed)
        while game.phase != "play" or game.blind:
            game.apply(rng.choice(game.legal_actions()))
            if game.is_over:
                break
        if game.is_over:
            continue
        trump = NO_TRUMP if game.trump is None else int(game.trump)
        assert game.leader is not None
        bids = list(game.bids)
        won = play_out(list(game.hands), trump, game.leader, [], [0] * game.n,
                       goals_for(rules, bids))
        cards = game.cards
        _engine_playout(game)
        result = game.hands_played[-1]
        assert list(result.tricks) == won
        assert result.points == hand_points(rules, cards, bids, won, result.declarer)


def test_policy_wins_when_it_needs_and_ducks_when_it_does_not() -> None:
    hand = mask_of(["AH", "2H", "KS"])
    others = mask_of(["QH", "3H", "AS"])
    trick = [int(blackout.Card.parse("10H"))]
    ace, two = int(blackout.Card.parse("AH")), int(blackout.Card.parse("2H"))
    assert choose_card(hand, others, trick, NO_TRUMP, 1, False, False) == ace
    assert choose_card(hand, others, trick, NO_TRUMP, 0, False, False) == two
    # Leading with more tricks to take than sure ones: cash the master card.
    assert choose_card(hand, others, [], NO_TRUMP, 2, False, False) == ace
    # As many sure tricks as needed: keep them and lose the lead with the lowest card.
    assert choose_card(hand, others, [], NO_TRUMP, 1, False, False) == two
    # With none to take: the card most unseen cards beat (two of them beat the 2H).
    assert choose_card(hand, others, [], NO_TRUMP, 0, False, False) == two


def test_a_seat_that_wants_no_trick_leads_the_card_likeliest_to_be_beaten() -> None:
    spades = int(blackout.Suit.SPADES)
    hand = mask_of(["3S", "4H", "KD"])
    # Five trumps above the 3S are out, only one heart above the 4H and the AD.
    others = mask_of(["AS", "KS", "QS", "9S", "5S", "AH", "2H", "AD"])
    three = int(blackout.Card.parse("3S"))
    assert choose_card(hand, others, [], spades, 0, False, False) == three


@pytest.mark.parametrize("cards", [3, 7, 13])
def test_hand_estimates_average_the_fair_share_of_tricks(cards: int) -> None:
    rng = random.Random(cards)
    total = 0.0
    hands = 400
    for _ in range(hands):
        deck = rng.sample(range(52), 52)
        trump = deck[4 * cards] // 13 if cards < 13 else NO_TRUMP
        total += estimate_tricks(sum(1 << c for c in deck[:cards]), trump, 4)
    assert abs(total / hands - cards / 4) < 0.1 * cards


# -- the sampler -----------------------------------------------------------------------------


def test_samples_respect_voids_counts_and_seen_cards() -> None:
    rules = variant("standard", schedule=[5], last_hand_no_trump=False)
    game = Game.new(rules, ["a", "b", "c", "d"], deals=[Deal(
        hands=[["AS", "KS", "QS", "2H", "3H"], ["2S", "4D", "5D", "6D", "7D"],
               ["3S", "8D", "9D", "10D", "JD"], ["4S", "2C", "3C", "4C", "5C"]],
        turn_up="AH", dealer=3)])
    for bid in ["1", "1", "1", "1"]:
        game.apply(bid)
    game.apply("AS")  # a, left of the dealer, leads; b (seat 1) decides next
    view = game.view(1)
    sampler = Sampler(view)
    rng = random.Random(1)
    # Both the sampler in use and its Python reference (the same when C was not built).
    samples = [sampler.sample(rng) for _ in range(50)] + [sampler.sample_python(rng)
                                                         for _ in range(50)]
    for hands in samples:
        assert hands[1] == view.hand
        seen = view.hand | view.played | (1 << int(view.turn_up or 0))
        for seat in (0, 2, 3):
            assert not hands[seat] & seen
        assert [h.bit_count() for h in hands] == [4, 5, 5, 5]
    # Now a seat fails to follow: it must never be dealt that suit again.
    rules = variant("standard", schedule=[3], last_hand_no_trump=False)
    game = Game.new(rules, ["a", "b", "c"], deals=[Deal(
        hands=[["AS", "KS", "2H"], ["QS", "3H", "4H"], ["2C", "3C", "4C"]], turn_up="2D",
        dealer=2)])
    for move in ["1", "1", "0", "AS", "QS", "2C"]:
        game.apply(move)
    view = game.view(0)
    assert Suit.SPADES in view.voids()[2]
    sampler = Sampler(view)
    for _ in range(50):
        for hands in (sampler.sample(rng), sampler.sample_python(rng)):
            assert not hands[2] & SUIT_MASKS[Suit.SPADES]


# -- the bot's decisions ----------------------------------------------------------------------


def test_expert_is_repeatable_from_its_seed() -> None:
    game = _random_position(SMALL["potomac"], seed=5, moves=6)
    view = game.view(game.to_move)
    first = [ExpertBot(seed=9, iterations=15).choose(view) for _ in range(3)]
    assert first[0] == first[1] == first[2]


@pytest.mark.parametrize("moves", [1, 4])  # a bid, a card
def test_two_workers_split_a_fixed_budget_repeatably(moves: int) -> None:
    game = _random_position(SMALL["standard"], seed=8, moves=moves)
    view = game.view(game.to_move)
    assert view.phase == ("bid" if moves == 1 else "play")
    bots_ = [ExpertBot(seed=4, iterations=7, workers=2) for _ in range(2)]
    verdicts = [bot._search(view) for bot in bots_]
    assert verdicts[0] == verdicts[1]
    # A unit of iterations is one sampled deal per candidate.
    assert verdicts[0].deals == 7 * len(_candidates(view))
    assert verdicts[0].action in game.legal_actions()


_FORK_SERVER_JUST_STARTED = """
import multiprocessing.forkserver, signal
from blackout.bots import expert
expert._start_fork_server_deaf_to_ctrl_c()
pid = multiprocessing.forkserver._forkserver._forkserver_pid
ignored = next(int(line.split()[1], 16) for line in open(f"/proc/{pid}/status")
               if line.startswith("SigIgn:"))
print(bool(ignored & (1 << (signal.SIGINT - 1))), signal.getsignal(signal.SIGINT))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_fork_server_ignores_ctrl_c_from_its_first_instant() -> None:
    # Ctrl-C while the server was still importing (a hint's first moments, under load)
    # printed its KeyboardInterrupt traceback under `blackout play`. Read at once, before
    # the server's own imports are done, its SIGINT is already ignored; ours is restored.
    ran = subprocess.run([sys.executable, "-c", _FORK_SERVER_JUST_STARTED],
                         capture_output=True, text=True, timeout=60)
    assert ran.stdout.split() == ["True", "<built-in", "function", "default_int_handler>"], \
        ran.stderr


@pytest.mark.parametrize("model", [POLICY, BASIC])
@pytest.mark.parametrize("moves", [1, 4])
def test_a_search_past_its_deadline_starts_no_second_deal(moves: int, model: int) -> None:
    # The time budget's rule, checked without a clock race: a worker whose deadline has
    # passed finishes the deal it started and begins no other (with the others taken
    # for basic bots, after drawing one deal that fits their bids and cards).
    game = _random_position(SMALL["standard"], seed=8, moves=moves)
    view = game.view(game.to_move)
    models = tuple(model if s != view.seat else POLICY for s in range(view.players_count))
    fits = _bids_test(view, models)
    assert (fits is None) == (model == POLICY)
    candidates = _candidates(view)
    past = time.monotonic() - 1
    if view.phase == "play":
        stats = search_play(view, [c.card for c in candidates], "key", past, None,
                            models=models, fits=fits)
    else:
        stats = search_before_play(view, candidates, partial(_begin, view, models), "key",
                                   past, None, models=models, fits=fits)
    assert sum(s.visits for s in stats) == 1


def _top_reply_share(game: Game, their_exploration: float) -> float:
    """Search the true deal of ``game`` from the start of a trick and return, over the
    other seats' well-visited nodes of that trick, the share of visits their most
    visited card took."""
    view = game.view(game.to_move)
    assert view.leader is not None and not view.trick
    hands = [game.view(s).hands[s] or 0 for s in range(game.n)]
    search = _Search(view, random.Random(1), EXPLORATION, RIVALRY,
                     their_exploration=their_exploration)
    line = _Line(search, tuple(view.bids), NO_TRUMP if view.trump is None else int(view.trump),
                 view.declarer, view.leader, [], list(view.tricks_won))
    for _ in range(3000):
        line.iterate(list(hands))
    tree, top, visits = search.tree, 0, 0
    level = [line.root]
    for _ in range(game.n - 1):  # the seats after the bot, in this trick
        level = [child for node in level for child in tree.children[node].values()]
        for node in level:
            counts = [tree.visits[child] for child in tree.children[node].values()]
            if sum(counts) >= 100 and len(counts) > 1:
                top, visits = top + max(counts), visits + sum(counts)
    return top / visits


def test_the_others_replies_are_explored_as_asked() -> None:
    # At 1 the others are taken for searchers as careful as the bot: their best reply
    # takes most visits. Explored 4 times as much, their replies share the visits more.
    game = Game.new(variant("standard", schedule=[6]), ["a", "b", "c", "d"], seed=3)
    while game.view(game.to_move).phase != "play":
        game.apply(BasicBot(seed=1).choose(game.view(game.to_move)))
    assert _top_reply_share(game, 4.0) < _top_reply_share(game, 1.0) - 0.1


def test_a_seat_played_by_its_habit_is_followed_in_the_tree() -> None:
    # Each other seat plays the card its habit likes best (here: its lowest), so on the
    # true deal the tree holds one reply of each to each card of the bot's, and that card.
    game = Game.new(variant("standard", schedule=[6]), ["a", "b", "c", "d"], seed=3)
    while game.view(game.to_move).phase != "play":
        game.apply(BasicBot(seed=1).choose(game.view(game.to_move)))
    view = game.view(game.to_move)
    hands = [game.view(s).hands[s] or 0 for s in range(game.n)]
    lowest = [5.0 if name == "lowest" else 0.0 for name in PLAY_FEATURES]
    models = tuple(POLICY if s == view.seat else HABIT for s in range(game.n))
    trump = NO_TRUMP if view.trump is None else int(view.trump)
    for followed in (True, False):
        search = _Search(view, random.Random(1), EXPLORATION, RIVALRY,
                         models if followed else None, weights=lowest * game.n)
        line = _Line(search, tuple(view.bids), trump, view.declarer, view.seat, [],
                     list(view.tricks_won))
        for _ in range(500):
            line.iterate(list(hands))
        tree = search.tree
        replies: list[int] = []
        level = [(child, [card]) for card, child in tree.children[line.root].items()]
        assert len(level) > 1  # the bot's own cards are searched
        for position in range(1, game.n):  # the others' replies in the first trick
            seat = (view.seat + position) % game.n
            replies += [len(tree.children[node]) for node, _ in level]
            for node, trick in level if followed else []:
                others = (sum(hands) | view.unseen()) & ~hands[seat] & ~sum(1 << c for c in trick)
                for card in tree.children[node]:
                    assert card == habit_card(hands[seat], others, trick, trump, 1,
                                              position == game.n - 1, lowest)
            level = [(child, [*trick, card]) for node, trick in level
                     for card, child in tree.children[node].items()]
        assert (max(replies) == 1) == followed


def test_equal_cards_are_searched_once() -> None:
    legal = [Play(blackout.Card.parse(c)) for c in ["QS", "JS", "9S", "2H", "3H", "5H"]]
    unseen = mask_of(["10S", "4H", "KS"])  # between 9S and JS, and 3H and 5H
    assert [str(p) for p in _distinct_plays(legal, unseen)] == ["2H", "5H", "9S", "JS"]


def test_a_card_on_the_table_keeps_two_of_ours_apart() -> None:
    # The 7C is led: the 6C loses to it and the 8C wins, so they are not equal, although
    # no club between them is unseen any more.
    deal = Deal(hands=[["AD", "7C", "2H"], ["KD", "3C", "3H"], ["4D", "6C", "8C"],
                       ["5D", "2C", "4H"]], turn_up="2S", dealer=3)
    game = Game.new(variant("standard", schedule=[3], tiebreak="shared"), list("abcd"),
                    deals=[deal])
    for move in ["1", "1", "1", "1", "AD", "KD", "4D", "5D", "7C", "3C"]:
        game.apply(move)
    view = game.view(game.to_move)
    assert view.seat == 2 and not view.unseen() & mask_of(["7C"])
    assert [str(a) for a in _candidates(view)] == ["6C", "8C"]


def test_expert_takes_sure_tricks_it_bid_for() -> None:
    # Four players, two cards each; the expert holds the two top trumps and bids 2.
    deal = Deal(hands=[["AS", "KS"], ["2H", "3H"], ["4H", "5H"], ["6H", "7H"]],
                turn_up="2S", dealer=3)
    game = Game.new(variant("standard", schedule=[2], tiebreak="shared"), list("abcd"),
                    deals=[deal])
    bot = ExpertBot(seed=1, iterations=30)
    assert bot.choose(game.view(0)) == BIDS[2]


def test_expert_names_its_long_suit_as_potomac_declarer() -> None:
    deal = Deal(hands=[["AS", "KS", "QS", "JS", "10S"], ["2H", "3H", "4H", "5H", "6H"],
                       ["2C", "3C", "4C", "5C", "6C"], ["2D", "3D", "4D", "5D", "6D"]],
                dealer=3)
    game = Game.new(variant("potomac", schedule=[5]), list("abcd"), deals=[deal])
    for bid in ["5", "0", "0", "1"]:
        game.apply(bid)
    assert game.phase == "trump" and game.to_move == 0
    action, reason = ExpertBot(seed=1, iterations=20).hint(game.view(0))
    assert action == ChooseTrump(Suit.SPADES)
    assert "spades" in reason


def test_expert_bids_the_blind_hand_from_the_other_cards() -> None:
    # pbmserv's first hand: the others hold the three top spades, and trump is spades,
    # so whatever the expert's unseen card is, it cannot win: it must bid 0.
    deal = Deal(hands=[["2H"], ["AS"], ["KS"], ["QS"]], turn_up="JS")
    rules = variant("pbmserv", schedule=[1, 2])
    game = Game.new(rules, list("abcd"), deals=[deal, Deal(
        hands=[["2C", "3C"], ["4C", "5C"], ["6C", "7C"], ["8C", "9C"]], turn_up="2D")])
    view = game.view(0)
    assert view.blind and view.hand == 0
    action, reason = ExpertBot(seed=3, iterations=20).hint(view)
    assert action == BIDS[0]
    assert reason


def test_hint_explains_a_card_by_the_tricks_still_needed() -> None:
    game = Game.new(variant("standard", schedule=[2], tiebreak="shared"), list("abcd"),
                    deals=[Deal(hands=[["AS", "2C"], ["2H", "3H"], ["4H", "5H"],
                                       ["6H", "7H"]], turn_up="2S", dealer=3)])
    for bid in ["1", "0", "0", "0"]:
        game.apply(bid)
    action, reason = ExpertBot(seed=1, iterations=10).hint(game.view(0))
    assert action == Play(blackout.Card.parse("AS"))
    assert reason.startswith("need 1 more trick: take it")


def test_hint_refuses_when_there_is_nothing_to_decide() -> None:
    game = Game.new(variant("standard", schedule=[2]), list("abc"), seed=1)
    other = (game.to_move + 1) % 3
    with pytest.raises(ValueError, match="nothing"):
        ExpertBot(iterations=2).hint(game.view(other))


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="iterations"):
        bots.create("expert", iterations=0)
    with pytest.raises(ValueError, match="think"):
        bots.create("expert", think=0)
    with pytest.raises(ValueError, match="rivalry"):
        bots.create("expert", rivalry=1.5)
    for their_exploration in (0, -1, float("nan")):
        with pytest.raises(ValueError, match="their_exploration"):
            bots.create("expert", their_exploration=their_exploration)


def test_a_rivalrous_expert_still_takes_the_tricks_it_bid_for() -> None:
    # c (bid 1) plays last to the first trick, every hand shown to it: the king takes the
    # trick and c makes its bid (so do a and b); the two lets b (bid 0) take the trick
    # and fail, but then a's ace takes c's king and c fails too.  Even a bot that counts
    # its rivals' points fully against its own keeps its bid.
    game = Game.new(variant("standard", schedule=[2], tiebreak="shared"), list("abc"),
                    deals=[Deal(hands=[["3H", "AH"], ["QH", "4H"], ["KH", "2H"]],
                                turn_up="2S", dealer=2)])
    for move in ["1", "0", "1", "3H", "QH"]:
        game.apply(move)
    shown = dataclasses.replace(game.view(2), hands=tuple(game.view(s).hands[s]
                                                          for s in range(3)))
    bot = bots.create("expert", seed=1, iterations=10, rivalry=1.0)
    assert bot.choose(shown) == Play(blackout.Card.parse("KH"))


# -- every bot, every preset: legal actions only, from a view alone ------------------------------


def _bot(name: str, seed: int) -> bots.Bot:
    return bots.create(name, seed=seed, iterations=3) if name == "expert" else \
        bots.create(name, seed=seed)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(SMALL)), seed=st.integers(0, 10**6),
       moves=st.integers(0, 40), extra=st.integers(0, 3),
       bot_name=st.sampled_from(sorted(bots.NAMES)))
def test_every_bot_only_returns_legal_actions(name: str, seed: int, moves: int, extra: int,
                                              bot_name: str) -> None:
    game = _random_position(SMALL[name], seed, moves, extra)
    if game.is_over:
        return
    bot = _bot(bot_name, seed)
    for seat in range(game.n):
        view = game.view(seat)
        action = bot.choose(view)
        if seat == game.to_move:
            assert action in game.legal_actions()
        elif action is not None:  # a Potomac bid change: legal for that seat
            assert action in game.legal_actions(seat)


@pytest.mark.parametrize("bot_name", sorted(bots.NAMES))
@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_bot_finishes_every_preset(bot_name: str, name: str) -> None:
    game = Game.new(SMALL[name], _players(SMALL[name], 1), seed=7)
    players = [_bot(bot_name, seat) for seat in range(game.n)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        for other in range(game.n):
            if other != seat and game.legal_actions(other):
                change = players[other].choose(game.view(other))
                if change is not None:
                    game.apply(change, seat=other)
        game.apply(players[seat].choose(game.view(seat)))
    assert game.winners


def test_a_view_reaches_neither_the_game_nor_hidden_hands() -> None:
    game = _random_position(variant("standard", schedule=[5]), seed=3, moves=9)
    view = game.view(1)
    # Nothing the view holds, to any depth, is the game or one of its lists.
    seen: set[int] = set()
    stack: list[object] = [view]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        assert not isinstance(obj, Game)
        assert obj is not game.hands and obj is not game.bids
        if isinstance(obj, type):
            continue
        stack.extend(gc.get_referents(obj))
    assert [h is None for h in view.hands] == [s != 1 for s in range(game.n)]
    # Nor do any other hands hide in it: the unseen cards include all of them.
    for seat in range(game.n):
        if seat != 1:
            assert game.hands[seat] & view.unseen() == game.hands[seat]


# -- expecting the others to play like the basic bot ------------------------------------------


def _basic_table_game(opponent: str, schedule: list[int], seed: int) -> tuple[Game, ExpertBot]:
    """A pbmserv game (cut to ``schedule``) of an expert in seat 0 against three
    ``opponent`` bots, played to its end; returns the game and the expert."""
    game = Game.new(variant("pbmserv", schedule=schedule, inorder=True), list("abcd"),
                    seed=seed)
    expert = ExpertBot(seed=1, iterations=4)
    others = [bots.create(opponent, seed=s) for s in range(4)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        player = expert if seat == 0 else others[seat]
        game.apply(player.choose(game.view(seat)))
    return game, expert


def test_the_expert_learns_who_plays_like_the_basic_bot() -> None:
    _, expert = _basic_table_game("basic", [1, 2, 3, 4], seed=3)
    assert expert._watch.basic_seats() == {1, 2, 3}
    _, expert = _basic_table_game("random", [1, 2, 3, 4], seed=3)
    assert expert._watch.basic_seats() == set()


def test_a_basic_bot_s_true_hand_always_passes_the_evidence_test() -> None:
    # The deals the search keeps for seats taken for basic bots must include the real
    # one: the test replays every bid and card from the sampled hand.
    basic = BasicBot()
    checked = 0
    for seed in range(3):
        game = Game.new(variant("pbmserv", schedule=[2, 5, 9, 13]), list("abcd"), seed=seed)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            fits = _bids_test(view, tuple(BASIC if s != seat else POLICY for s in range(4)))
            if fits is not None:
                for other in range(4):
                    if other != seat:
                        assert fits(other, game.hands[other])
                        checked += 1
            game.apply(basic.choose(view))
    assert checked > 300


def test_a_sampled_deal_fits_every_seat_when_it_can() -> None:
    game, seat = _void_view_game()
    view = game.view(seat)
    sampler = Sampler(view)
    rng = random.Random(2)

    def fits(other: int, hand: int) -> bool:  # seat 0 holds the ace of diamonds
        return other != 0 or bool(hand & mask_of(["AD"]))

    for _ in range(100):
        hands = sampler.sample_fitting(rng, fits)
        assert hands[0] & mask_of(["AD"])
        assert not hands[1] & SUIT_MASKS[Suit.SPADES]
        assert [h.bit_count() for h in hands] == [2, 2, 3]
        assert not (hands[0] | hands[1]) & ~view.unseen()
        assert not hands[0] & hands[1]


def _void_view_game() -> tuple[Game, int]:
    """Seat 1 has shown no spades; seat 2 decides."""
    rules = variant("standard", schedule=[3], last_hand_no_trump=False)
    game = Game.new(rules, ["a", "b", "c"], deals=[Deal(
        hands=[["AS", "KS", "AD"], ["2C", "3H", "4H"], ["QS", "3C", "4C"]], turn_up="2D",
        dealer=2)])
    for move in ["1", "1", "0", "AS", "2C"]:
        game.apply(move)
    return game, 2


def test_others_must_be_a_known_model() -> None:
    with pytest.raises(ValueError, match="others"):
        bots.create("expert", others="psychic")


def test_until_it_has_seen_a_basic_bot_the_expert_searches_as_before() -> None:
    # In a game's first hand (and always in one-hand games such as bench/bots.py's) the
    # default expert has learnt nothing, and its search is the one of others="policy".
    for name in ("pbmserv", "standard", "nullo"):
        for moves in (0, 3, 7):
            game = _random_position(SMALL[name], seed=11, moves=moves)
            if game.is_over:
                continue
            view = game.view(game.to_move)
            verdicts = [ExpertBot(seed=3, iterations=6, others=others)._search(view)
                        for others in ("auto", "policy")]
            assert verdicts[0] == verdicts[1]


def test_a_hint_bot_learns_from_the_seat_it_follows() -> None:
    # blackout play's hint bot never plays: it observes the human's seat at every turn.
    game = Game.new(variant("pbmserv", schedule=[1, 2, 3, 4], inorder=True), list("abcd"),
                    seed=5)
    hinter = ExpertBot(seed=1, iterations=4)
    basic = BasicBot()
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        if seat == 0:
            hinter.observe(game.view(0))
        game.apply(basic.choose(game.view(seat)))
    assert hinter._watch.basic_seats() == {1, 2, 3}
