"""The learnt bid and play models, the evidence they give about hidden hands, and the
expert's use of it."""

from __future__ import annotations

import collections
import itertools
import math
import random
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blackout import Game, bots, variant
from blackout.bots import basic
from blackout.bots.expert import PREDICTED_RIVALRY, ExpertBot
from blackout.bots.inference import (
    ANY_BID,
    BID_FEATURES,
    BID_SPREAD_SCALE,
    PLAY_EVIDENCE_POWER,
    PLAY_FEATURES,
    BidModel,
    Habit,
    Habits,
    HandEvidence,
    Models,
    PlayModel,
    bid_is_telling,
    fit_play_weights,
    log_softmax,
    play_features,
    rounded_normal_chance,
    view_bid_features,
    view_play_features,
)
from blackout.bots.playout import HABIT, POLICY, seat_weights
from blackout.bots.sampling import Sampler, _WeightedDraws
from blackout.bots.tree import RIVALRY
from blackout.core.actions import Action, Bid, Play
from blackout.core.cards import FULL_DECK, Card, Suit, cards_in, mask_of
from blackout.core.view import View

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
import train_inference


def _models() -> Models:
    models = Models.shipped()
    assert models is not None, "the package's inference.json is missing or stale"
    return models


def _views(hands: int, seed: int, presets: tuple[str, ...] = ("standard", "pbmserv", "nullo")
           ) -> Iterator[tuple[View, Game]]:
    """Views of the seat to move, with the game (for the true hands), basic bots playing."""
    rng = random.Random(seed)
    player = bots.create("basic")
    for _ in range(hands):
        rules = variant(rng.choice(presets), schedule=[rng.randint(3, 9)],
                        blind_first_hand=False)
        game = Game.new(rules, ["a", "b", "c", "d"], seed=rng.getrandbits(32))
        while not game.is_over:
            yield game.view(game.to_move), game
            game.apply(player.choose(game.view(game.to_move)))


def _others(view: View) -> list[int]:
    return [s for s in range(view.players_count) if s != view.seat]


def test_a_rounded_normal_gives_every_bid_a_chance_that_adds_up_to_one() -> None:
    for cards in (1, 7, 13):
        for mean in (-2.0, 0.3, 3.5, cards + 2.0):
            total = sum(rounded_normal_chance(bid, mean, 0.7, cards) for bid in range(cards + 1))
            assert math.isclose(total, 1.0)


def test_the_models_refuse_the_wrong_number_of_weights() -> None:
    with pytest.raises(ValueError, match="bid model"):
        BidModel((1.0,), (0.0, 0.0))
    with pytest.raises(ValueError, match="play model"):
        PlayModel((1.0, 2.0))


def test_a_keeping_chance_is_between_the_floor_and_one_and_only_for_hidden_bidders(
        ) -> None:
    models = _models()
    rng = random.Random(1)
    for view, _ in _views(6, seed=1):
        evidence = HandEvidence(view, _others(view), models)
        assert view.seat not in evidence.bids
        for seat in evidence.bids:
            assert isinstance(view.bids[seat], Bid) and view.hands[seat] is None
            for _ in range(3):
                hand = Sampler(view).sample(rng)[seat]
                # No hand is ruled out by a bid, so a wild bid cannot stall the sampler.
                assert ANY_BID <= evidence.bid_chance(seat, hand) <= 1.0 + 1e-9


def test_no_bid_evidence_where_the_bid_was_made_without_seeing_the_trump_or_the_cards(
        ) -> None:
    player = bots.create("basic")
    potomac = Game.new(variant("potomac"), ["a", "b", "c", "d"], seed=3)
    while potomac.phase != "play":  # trump is named after the bids
        potomac.apply(player.choose(potomac.view(potomac.to_move)))
    view = potomac.view(potomac.to_move)
    assert not bid_is_telling(view)
    assert not HandEvidence(view, _others(view), _models()).bids
    blind = Game.new(variant("pbmserv"), ["a", "b", "c", "d"], seed=3)
    blind.apply(player.choose(blind.view(blind.to_move)))
    assert not bid_is_telling(blind.view(blind.to_move))  # its blind first hand
    standard = Game.new(variant("standard"), ["a", "b", "c", "d"], seed=3)
    assert bid_is_telling(standard.view(standard.to_move))


def test_the_real_hands_explain_the_bids_better_than_random_deals() -> None:
    # The mean log chance the bid model gives each bid with the bidder's real hand is
    # higher than with the hands of uniform deals of the same view.
    models = _models()
    rng = random.Random(2)
    real, uniform = [], []
    for view, game in _views(30, seed=2):
        if view.phase != "play" or view.tricks or view.trick:
            continue
        evidence = HandEvidence(view, _others(view), models)
        sampler = Sampler(view)
        for seat in evidence.bids:
            real.append(math.log(max(1e-12, evidence.bid_chance(seat, game.hands[seat]))))
            uniform.append(math.log(max(1e-12, evidence.bid_chance(
                seat, sampler.sample(rng)[seat]))))
    assert len(real) > 50
    assert statistics.fmean(real) > statistics.fmean(uniform) + 0.3


def _play_evidence(hands: int, seed: int) -> Iterator[tuple[View, Game, HandEvidence]]:
    """Views of basic games from the third trick on, with what the others' plays say."""
    models = _models()
    for view, game in _views(hands, seed):
        if view.phase != "play" or len(view.tricks) < 2:
            continue
        evidence = HandEvidence(view, _others(view), models)
        if evidence.plays:
            yield view, game, evidence


def test_the_real_hands_explain_the_plays_better_than_random_deals() -> None:
    rng = random.Random(3)
    real, uniform = [], []
    for view, game, evidence in _play_evidence(20, seed=3):
        hands = [game.hands[s] for s in range(view.players_count)]
        real.append(evidence.play_log_likelihood(hands))
        uniform.append(evidence.play_log_likelihood(Sampler(view).sample(rng)))
    assert len(real) > 30
    assert statistics.fmean(real) > statistics.fmean(uniform)


def test_fitting_deals_keep_a_hand_with_the_chance_the_test_gives_it() -> None:
    # A test that keeps a hand holding one card with chance 1/4 (every other hand
    # always) makes that card a quarter as likely, odds-wise, in the first seat dealt.
    game = Game.new(variant("standard", schedule=[5]), ["a", "b", "c", "d"], seed=8)
    view = game.view(game.to_move)
    sampler = Sampler(view)
    first = sampler.hidden[0]
    card = next(c for c in range(52) if view.unseen() >> c & 1)
    rng = random.Random(9)
    draws = 4000
    base = statistics.fmean(sampler.sample(rng)[first] >> card & 1 for _ in range(draws))
    kept = statistics.fmean(sampler.sample_fitting(
        rng, lambda seat, hand: 0.25 if seat == first and hand >> card & 1 else 1.0,
    )[first] >> card & 1 for _ in range(draws))
    expected = 0.25 * base / (0.25 * base + 1 - base)
    assert abs(kept - expected) < 4 * math.sqrt(expected * (1 - expected) / draws) + 0.01


@pytest.mark.parametrize("level", [0.0, -800.0])  # -800: exp of a term underflows
def test_weighted_hands_are_drawn_with_the_chance_they_report(level: float) -> None:
    rng = random.Random(4)
    cards = mask_of(["2C", "5C", "9D", "JD", "KH", "3S", "QS", "AS"])
    terms = [0.0] * 52
    for card in cards_in(cards):
        terms[card] = level + rng.uniform(-2.0, 1.0)
    terms[int(Card.parse("KH"))] = -math.inf  # never held
    draws = _WeightedDraws(cards, 3, terms)
    hands = [sum(1 << int(c) for c in chosen)
             for chosen in itertools.combinations(cards_in(cards), 3)]
    # Each hand's chance goes as exp of the sum of its cards' terms.
    logs = {hand: sum(terms[c] - level for c in cards_in(hand)) for hand in hands}
    total = sum(math.exp(log) for log in logs.values())
    count = 20000
    seen = collections.Counter(draws.draws(rng, count))
    for hand in hands:
        chance = math.exp(logs[hand]) / total
        if chance == 0:
            assert seen[hand] == 0
            continue
        assert draws.log_chance(hand) == pytest.approx(math.log(chance))
        assert abs(seen[hand] / count - chance) < 5 * math.sqrt(chance * (1 - chance) / count)


def test_weighted_deals_keep_what_the_view_says_and_draw_the_rest_as_weighed() -> None:
    game = Game.new(variant("standard", schedule=[6]), ["a", "b", "c", "d"], seed=8)
    view = game.view(game.to_move)
    sampler = Sampler(view)
    first, second = sampler.hidden[:2]
    unseen = list(cards_in(view.unseen()))
    favoured, barred = int(unseen[0]), int(unseen[1])
    terms = {first: [0.0] * 52, second: [0.0] * 52}
    terms[first][favoured] = 3.0
    terms[second][barred] = -math.inf
    rng = random.Random(5)
    held = []
    for _ in range(2000):
        hands, log_chance = sampler.sample_weighted(rng, terms)
        assert [hands[s].bit_count() for s in sampler.hidden] == [6, 6, 6]
        assert hands[view.seat] == view.hand and not hands[second] >> barred & 1
        assert math.isfinite(log_chance)
        held.append(hands[first] >> favoured & 1)
    # Uniformly the first seat would hold the card 6 times in len(unseen); weighed,
    # at e^3 times the odds.
    unseen_count = len(unseen)
    odds = math.exp(3.0) * 6 / (unseen_count - 6)
    assert abs(statistics.fmean(held) - odds / (1 + odds)) < 4 * math.sqrt(0.25 / 2000)
    # Without terms, as the uniform sampler: the log chance is of a uniform draw.
    hands, log_chance = sampler.sample_weighted(rng, {})
    assert log_chance == pytest.approx(-math.log(math.comb(unseen_count, 6))
                                       - math.log(math.comb(unseen_count - 6, 6))
                                       - math.log(math.comb(unseen_count - 12, 6)))


def test_card_terms_say_how_holding_a_card_changes_the_chance_of_a_play() -> None:
    models = _models()
    checked = 0
    for view, _ in _views(12, seed=6):
        if view.phase != "play" or len(view.tricks) != 1 or view.trick:
            continue
        evidence = HandEvidence(view, _others(view), models)
        terms = evidence.card_terms(view.unseen(), Sampler(view).allowed)
        led = evidence.plays[0][1] // 13
        for seat, card, trick, need, last, unplayed in evidence.plays:
            if not trick or card // 13 != led:
                continue  # only one play each, following suit: the simplest to check
            for extra in range(52):
                if not view.unseen() >> extra & 1 or view.voids()[seat]:
                    continue
                if extra // 13 != led:
                    assert terms[seat][extra] == 0.0  # no choice then
                    continue
                cards, rows = play_features(1 << card | 1 << extra, trick, evidence.trump,
                                            need, last, unplayed)
                expected = log_softmax(models.play.scores(rows), cards.index(card))
                assert terms[seat][extra] == pytest.approx(PLAY_EVIDENCE_POWER * expected)
                checked += 1
    assert checked > 50


def test_deals_drawn_card_by_card_explain_the_plays_better() -> None:
    rng = random.Random(7)
    weighted, fitted = [], []
    for view, _, evidence in _play_evidence(20, seed=3):
        sampler = Sampler(view)
        terms = evidence.card_terms(sampler.unseen, sampler.allowed)
        weighted.append(evidence.play_log_likelihood(
            sampler.sample_weighted(rng, terms, evidence.bid_chance)[0]))
        fitted.append(evidence.play_log_likelihood(
            sampler.sample_fitting(rng, evidence.bid_chance)))
    assert len(weighted) > 30
    assert statistics.fmean(weighted) > statistics.fmean(fitted) + 0.3


def test_the_expert_with_the_models_plays_legal_repeatable_moves() -> None:
    seen = 0
    for view, _ in _views(2, seed=4):
        if len(view.legal_actions) < 2:
            continue
        first = bots.create("expert", seed=4, iterations=6, inference=True).choose(view)
        again = bots.create("expert", seed=4, iterations=6, inference=True).choose(view)
        assert first in view.legal_actions and first == again
        seen += 1
    assert seen > 5


def _named(feature: str, hand: list[str], trick: list[str], need: int,
           unplayed: int = FULL_DECK, last: bool = False) -> list[str]:
    """The cards of ``hand`` the play feature ``feature`` names (hearts trump)."""
    cards, rows = play_features(mask_of(hand), [Card.parse(c) for c in trick], Suit.HEARTS,
                                need, last, unplayed)
    column = PLAY_FEATURES.index(feature)
    return [str(Card(c)) for c, row in zip(cards, rows, strict=True) if row[column]]


def test_the_tactic_features_name_the_card_each_common_tactic_plays() -> None:
    hand = ["QS", "9S", "3S", "2H", "KD"]
    # Following the 10 of spades: the cheapest card that wins, the dearest that loses.
    assert _named("cheapest_win_need", hand, ["10S"], need=1) == ["QS"]
    assert _named("dearest_loss_done", hand, ["10S"], need=0) == ["9S"]
    assert _named("cheapest_win_need", hand, ["10S"], need=0) == []
    assert _named("dearest_loss_done", hand, ["10S"], need=1) == []
    # Void in clubs: a low trump is the cheapest winner, the king of diamonds the
    # dearest loser (a plain card below every trump).
    assert _named("cheapest_win_need", hand, ["AC"], need=2) == ["2H"]
    assert _named("dearest_loss_done", hand, ["AC"], need=0) == ["KD"]
    # Nothing to lose with: the highest card, when the trick is one's own anyway.
    assert _named("highest_last_done", ["QS", "KS"], ["10S"], need=0, last=True) == ["KS"]
    assert _named("highest_last_done", ["QS", "KS"], ["10S"], need=0) == []
    assert _named("lowest_need", ["QS", "KS"], ["AS"], need=1) == ["QS"]


def test_the_tactic_features_name_the_lead_of_a_winner_or_of_a_loser() -> None:
    hand = ["QS", "3S", "AH", "KD", "4D"]
    # With the ace and king of spades played, the queen is the best plain winner; the
    # trump ace wins too, but a plain winner is led first.
    unplayed = FULL_DECK & ~mask_of(["AS", "KS"])
    assert _named("lead_best_top_need", hand, [], need=1, unplayed=unplayed) == ["QS"]
    assert _named("lead_best_top_need", hand, [], need=0, unplayed=unplayed) == []
    # Wanting no more tricks, the plain card the most unseen cards beat: nine diamonds
    # beat the 4, eight spades the 3 once the ace and king are gone, ten before.
    assert _named("lead_most_out_done", hand, [], need=0, unplayed=unplayed) == ["4D"]
    assert _named("lead_most_out_done", hand, [], need=0) == ["3S"]
    assert _named("lead_most_out_done", ["4D", "3S", "2H"], [], need=0,
                  unplayed=FULL_DECK & ~mask_of(["5D", "6D", "7D"])) == ["3S"]
    # Only trumps left that nothing beats: the highest of them is the best winner.
    assert _named("lead_best_top_need", ["AH", "KH"], [], need=1) == ["AH"]


def test_the_shipped_models_name_their_features() -> None:
    models = _models()
    assert len(models.bid.coefficients) == len(BID_FEATURES)
    # A hand's own count of its tricks says more than anything else about its bid: the
    # careful count most, the quick estimate beside it.
    coefficient = dict(zip(BID_FEATURES, models.bid.coefficients, strict=True))
    assert coefficient["hand_tricks"] > 0.3
    assert coefficient["hand_tricks"] + coefficient["estimate"] > 0.7


def test_the_careful_count_is_the_basic_bots_own_from_either_side_of_the_table() -> None:
    # The bidder's hand_tricks is the mean of the trick distribution the basic bot bids
    # by, whether the bidder is asked (training) or another seat judges a hand for it
    # later, knowing only the turned-up card, who leads and the cards it played.
    models = _models()
    column = BID_FEATURES.index("hand_tricks")
    player = bots.create("basic")
    checked = 0
    for seed, preset in itertools.product(range(4), ("standard", "pbmserv", "nullo")):
        game = Game.new(variant(preset, schedule=[7], blind_first_hand=False),
                        ["a", "b", "c", "d"], seed=seed)
        counted = {}  # seat -> the mean of its trick distribution as it bid
        while not (view := game.view(game.to_move)).tricks:  # to the end of a trick
            if view.phase == "bid":
                own = basic.bid_distribution(view, view.trump, view.hand, view.own_seat)
                counted[view.own_seat] = sum(t * q for t, q in enumerate(own))
            game.apply(player.choose(view))
        evidence = HandEvidence(view, _others(view), models)
        for seat in evidence.bids:
            row = evidence.bid_row(seat, game.hands[seat])
            assert row[column] == pytest.approx(counted[seat])
            checked += 1
    assert checked == 36


def test_training_data_is_reproducible_from_the_seed() -> None:
    bids, plays = train_inference.play_hand(0, 5, 2)
    assert (bids, plays) == train_inference.play_hand(0, 5, 2)
    assert plays


def test_training_on_bids_alone_stops_at_the_first_card_with_the_same_bids() -> None:
    seen = 0
    for index in range(3):
        bids, plays = train_inference.play_hand(index, 5, 2, bids_only=True)
        full, _ = train_inference.play_hand(index, 5, 2)
        assert plays == [] and bids == full[:len(bids)]
        seen += len(bids)
    assert seen > 0


def test_the_expert_asks_the_models_only_when_it_uses_them() -> None:
    from blackout.bots.expert import BASIC_POOL, LEARNT_POOL

    for view, _ in _views(3, seed=5):
        if view.phase != "play" or len(view.tricks) < 1:
            continue
        with_models = ExpertBot(seed=1, iterations=1)
        fits, plays, pool = with_models._evidence(view, with_models._models(view)[0])
        assert plays is not None and pool == LEARNT_POOL
        assert fits is not None  # every other seat has bid
        # A deal is weighed by the plays' chance, tempered.
        evidence = HandEvidence(view, _others(view), _models())
        for deal in (Sampler(view).sample(random.Random(k)) for k in range(5)):
            assert plays.deal_log_weight(deal) == pytest.approx(
                PLAY_EVIDENCE_POWER * evidence.play_log_likelihood(deal))
        without = ExpertBot(seed=1, iterations=1, inference=False)
        assert without._evidence(view, without._models(view)[0]) == (None, None, BASIC_POOL)
        return
    raise AssertionError("no view after a trick")


class _ModelPlayer:
    """A player the models describe but for a habit: it bids ``offset`` tricks above the
    bid model's mean for its hand (the nearest legal bid) and always plays the card the
    play model finds likeliest."""

    def __init__(self, offset: int) -> None:
        self.offset = offset
        self.models = _models()

    def choose(self, view: View) -> Action:
        if view.phase == "bid":
            row = view_bid_features(view, view.own_seat, view.hand)
            wanted = self.models.bid.mean(row) + self.offset
            return min((a for a in view.legal_actions if isinstance(a, Bid)),
                       key=lambda a: abs(a.tricks - wanted))
        assert isinstance(view.bids[view.own_seat], Bid)
        cards, rows = view_play_features(view)
        scores = self.models.play.scores(rows)
        return Play(Card(cards[scores.index(max(scores))]))


def _watched_game(offset: int, seed: int, players: list[Any] | None = None
                  ) -> tuple[ExpertBot, View, list[int]]:
    """A pbmserv game of four model players bidding ``offset`` above the model (or of
    ``players``), seat 0 followed move by move by an expert (as the server shows it the
    table); and seat 0's view when the last hand's play begins, with the real hands."""
    watcher = ExpertBot(seed=1, iterations=1, others="policy")
    if players is None:
        players = [_ModelPlayer(offset) for _ in range(4)]
    game = Game.new(variant("pbmserv"), ["a", "b", "c", "d"], seed=seed)
    last_hand: tuple[View, list[int]] | None = None
    while not game.is_over:
        game.apply(players[game.to_move].choose(game.view(game.to_move)))
        if game.is_over:
            break
        view = game.view(0)
        watcher.observe(view)
        if view.hand_number == len(game.rules.schedule) and last_hand is None and (
                view.phase == "play"):
            last_hand = view, list(game.hands)
    assert last_hand is not None
    return watcher, *last_hand


def _card_choices(player: Any, seed: int) -> dict[int, list[tuple[list[list[float]], int]]]:
    """Every card ``player`` (in every seat) chose among two or more in a pbmserv game,
    by seat: (each legal card's play features, the one played)."""
    game = Game.new(variant("pbmserv"), ["a", "b", "c", "d"], seed=seed)
    choices: dict[int, list[tuple[list[list[float]], int]]] = {}
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        action = player.choose(view)
        if isinstance(action, Play) and view.bids[seat] is not None and view.trump_decided:
            cards, rows = view_play_features(view)
            if len(cards) > 1:
                choices.setdefault(seat, []).append((rows, cards.index(int(action.card))))
        game.apply(action)
    return choices


def _mean_log_chance(model: PlayModel, choices: list[tuple[list[list[float]], int]]
                     ) -> float:
    return statistics.fmean(log_softmax(model.scores(rows), chosen) for rows, chosen in choices)


def test_a_player_not_yet_seen_has_the_models_own_habit() -> None:
    assert Habits(_models()).habit(2) == Habit(0.0, BID_SPREAD_SCALE, None)


@pytest.mark.parametrize("offset", [0, 1, -1])
def test_habits_learn_how_far_a_player_bids_from_the_model_and_how_surely_it_plays(
        offset: int) -> None:
    watcher, _, _ = _watched_game(offset, seed=8)
    habits = watcher._watch.habits
    assert habits is not None
    models = _models()
    # It always plays the model's likeliest card: surer than the self-play it models.
    surest = [(rows, max(range(len(rows)), key=models.play.scores(rows).__getitem__))
              for choices in _card_choices(_ModelPlayer(0), seed=3).values()
              for rows, _ in choices]
    for seat in (1, 2, 3):
        habit = habits.habit(seat)
        assert abs(habit.offset - offset) < 0.45, habit
        assert habit.play is not None
        assert (_mean_log_chance(habit.play, surest)
                > _mean_log_chance(models.play, surest) + 0.2), habit


def test_the_habits_of_a_player_unlike_the_self_play_are_weights_of_its_own() -> None:
    """The basic bot's cards follow rules of their own (the common tactics): after a
    game, the habits of the basic bots predict their cards in another game all but
    surely, far better than the learnt model however much it is scaled (the best scale
    chosen on that game itself)."""
    watcher, view, _ = _watched_game(0, seed=5, players=[bots.create("basic")] * 4)
    habits = watcher._watch.habits
    assert habits is not None
    # The search plays them out by those habits.
    seats, weights = watcher._models(view)
    assert seats == (POLICY, HABIT, HABIT, HABIT)
    assert weights is not None
    # Their losses are foreseen, so costing them points pays; not so for searched seats.
    assert watcher._rivalry(seats) == PREDICTED_RIVALRY
    assert watcher._rivalry((POLICY,) * 4) == RIVALRY
    for seat in (1, 2, 3):
        own = habits.own_play(seat)
        assert own is not None and own == habits.habit(seat).play
        assert tuple(seat_weights(weights, seat)) == own.weights
    models = _models()
    scaled = [models.play.sharpened(s / 4) for s in range(2, 17)]
    learnt, best_scaled = [], []
    for seat, choices in _card_choices(bots.create("basic"), seed=6).items():
        if seat == 0:
            continue  # the watcher's own seat
        play = habits.habit(seat).play
        assert play is not None
        learnt.append(_mean_log_chance(play, choices))
        best_scaled.append(max(_mean_log_chance(m, choices) for m in scaled))
        named = sum(max(range(len(rows)), key=play.scores(rows).__getitem__) == chosen
                    for rows, chosen in choices)
        assert named >= 0.9 * len(choices), (seat, named, len(choices))
    assert statistics.fmean(learnt) > -0.25, learnt
    assert statistics.fmean(learnt) > statistics.fmean(best_scaled) + 0.5, (learnt, best_scaled)


def _first_habits(players: list[Any], seed: int) -> tuple[dict[int, int], dict[int, int],
                                                           Habits]:
    """For each other seat of a pbmserv game of ``players`` watched from seat 0: the
    hand from which the watcher plays it by a habit of its own, and the hand from which
    its own weights alone would have been taken; and the watcher's habits at the end."""
    watcher = ExpertBot(seed=1, iterations=1, others="policy")
    game = Game.new(variant("pbmserv"), ["a", "b", "c", "d"], seed=seed)
    followed: dict[int, int] = {}
    alone: dict[int, int] = {}
    while not game.is_over:
        game.apply(players[game.to_move].choose(game.view(game.to_move)))
        view = game.view(0)
        watcher.observe(view)
        habits = watcher._watch.habits
        assert habits is not None
        for seat in (1, 2, 3):
            if habits.own_play(seat) is not None:
                followed.setdefault(seat, view.hand_number)
            plays = habits._plays.get(seat)
            if plays is not None and plays.best() is plays.own:
                alone.setdefault(seat, view.hand_number)
    return followed, alone, habits


def test_players_of_one_habit_are_found_hands_sooner_by_the_tables_weights() -> None:
    """Three basic bots play alike: their cards together show the habit hands before
    each one's cards alone would, and the table's weights are then each one's habit."""
    basic = bots.create("basic")
    followed, alone, habits = _first_habits([basic] * 4, seed=1)
    assert sorted(followed) == [1, 2, 3], followed
    hands = len(variant("pbmserv").schedule)
    assert all(followed[s] < alone.get(s, hands + 1) for s in (1, 2, 3)), (followed, alone)
    assert sum(alone.get(s, hands + 1) - followed[s] for s in (1, 2, 3)) >= 6
    for seat in (1, 2, 3):
        assert habits.own_play(seat) is habits._table.fitted_own()
        assert habits.habit(seat).play is habits._table.fitted_own()


def test_at_a_mixed_table_a_player_of_other_habits_keeps_its_own() -> None:
    """Two basic bots and a player that always plays the learnt model's likeliest card:
    the table's weights, fitted mostly to the basic bots, are not that player's habit."""
    basic = bots.create("basic")
    _, _, habits = _first_habits([basic, basic, _ModelPlayer(0), basic], seed=2)
    assert habits._table_play(2) is None
    assert habits.habit(2).play is habits._plays[2].best()
    assert habits._table_loss[2] > habits._plays[2].best_loss()


def test_fitted_play_weights_find_the_weights_that_made_the_choices() -> None:
    rng = random.Random(4)
    width = 5
    true = [rng.uniform(-2, 2) for _ in range(width)]
    choices = []
    for _ in range(3000):
        rows = [[rng.gauss(0, 1) for _ in range(width)] for _ in range(rng.randint(2, 6))]
        scores = [sum(w * x for w, x in zip(true, row, strict=True)) for row in rows]
        top = max(scores)
        chances = [math.exp(x - top) for x in scores]
        choices.append((rows, rng.choices(range(len(rows)), chances)[0]))
    weakly = fit_play_weights(choices, [0.0] * width, [0.01] * width, steps=20)
    assert max(abs(w - t) for w, t in zip(weakly, true, strict=True)) < 0.15, (weakly, true)
    # A firm prior holds the weights near it; the fit still moves toward the truth.
    firmly = fit_play_weights(choices, [0.0] * width, [1e5] * width, steps=20)
    assert max(map(abs, firmly)) < 0.05
    assert all(f * t >= 0 for f, t in zip(firmly, true, strict=True))


def test_a_learnt_habit_makes_the_real_hands_explain_the_bids_better() -> None:
    watcher, view, hands = _watched_game(1, seed=9)
    models = _models()
    learnt = HandEvidence(view, _others(view), models, watcher._watch.habits)
    plain = HandEvidence(view, _others(view), models)
    assert sorted(learnt.bids) == [1, 2, 3]
    for seat in learnt.bids:
        assert learnt.bid_chance(seat, hands[seat]) > plain.bid_chance(seat, hands[seat])
