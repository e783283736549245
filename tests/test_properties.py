"""Properties of every preset at every player count, under random legal play.

Hypothesis draws the preset, the player count and a seed for both the deal and the
random players; most games are short (a few hands) so the file stays fast, and a few
whole games are checked too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackout import (
    BOARD,
    NIL,
    Bid,
    ChooseTrump,
    Game,
    HandResult,
    IllegalAction,
    Play,
    Suit,
    View,
    variant,
)
from blackout.core.cards import CARDS, cards_in
from blackout.core.rules import PRESETS
from conftest import names, random_move, snapshot

TABLES = [(name, players) for name, rules in sorted(PRESETS.items())
          for players in range(rules.min_players, rules.max_players + 1)]
EVERY_ACTION = [*(Bid(n) for n in range(53)), NIL, BOARD, *(Play(c) for c in CARDS),
                *(ChooseTrump(s) for s in Suit), ChooseTrump(None)]

tables = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32)
hand_limits = st.integers(min_value=1, max_value=3)
# Derandomized: the same examples on every run, so a failure is reproducible and CI is
# deterministic; the example counts keep this file to a few seconds.
FAST = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])


def new_game(name: str, players: int, seed: int, max_hands: int | None) -> Game:
    options = {} if max_hands is None else {"max_hands": max_hands}
    return Game.new(variant(name, **options), names(players), seed=seed)


class Observed:
    """Random legal play that checks views and legal moves at every step and keeps
    each hand's dealt cards for the checks at the end."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.dealt: dict[int, tuple[int, ...]] = {game.hand_number: game.dealt}
        # What each seat's view said, before the first card, would lead each hand.
        self.first_leaders: dict[int, set[int]] = {}

    def play(self, steps: int | None = None) -> Game:
        game = self.game
        while not game.is_over and steps != 0:
            self.check_now()
            action, seat = random_move(game, self.rng)
            game.apply(action, seat=seat)
            self.dealt.setdefault(game.hand_number, game.dealt)
            steps = None if steps is None else steps - 1
        return game

    def check_now(self) -> None:
        game = self.game
        legal = game.legal_actions()
        assert legal, "the seat to move always has a move"
        if game.phase == "play":
            hand = game.hands[game.to_move]
            assert sorted(a.card for a in legal) == sorted(follow_suit(hand, game.trick))
        dealt = self.dealt[game.hand_number]
        played_by = [dealt[s] & ~game.hands[s] for s in range(game.n)]
        foreseen = self.first_leaders.setdefault(game.hand_number, set())
        for seat in range(game.n):
            view = game.view(seat)
            if not any(played_by):
                foreseen.add(view.first_leader)
            assert view.legal_actions == tuple(game.legal_actions(seat))
            assert view.played_by() == played_by
            check_plays_made(view, played_by)
            for other in range(game.n):
                shown = view.hands[other]
                if view.blind:
                    # The blind hand: every hand but one's own.
                    assert shown == (None if other == seat else game.hands[other])
                else:
                    assert shown == (game.hands[seat] if other == seat else None)
        if game.phase == "play" and not any(played_by):
            assert foreseen == {game.to_move}, "the views named who leads first"


def check_plays_made(view: View, played_by: list[int]) -> None:
    """``view.plays_made()`` lists every card played, in order, each with the trick so
    far, the tricks its seat had taken and the cards not yet played."""
    tricks = [(t.leader, t.cards, t.winner) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick), -1))
    expected = []
    for number, (leader, cards, _winner) in enumerate(tricks):
        for position, card in enumerate(cards):
            seat = (leader + position) % len(view.players)
            won = sum(1 for t in view.tricks[:number] if t.winner == seat)
            expected.append((seat, card, cards[:position], won, position == len(view.players) - 1))
    made = view.plays_made()
    assert [(m.seat, m.card, m.trick, m.won, m.last) for m in made] == expected
    seen = 0
    for m in made:
        assert m.unplayed == ((1 << 52) - 1) & ~seen
        seen |= 1 << m.card
    by_seat = [0] * len(view.players)
    for m in made:
        by_seat[m.seat] |= 1 << m.card
    assert by_seat == played_by


def follow_suit(hand: int, trick: Sequence[tuple[int, int]]) -> list[int]:
    """The cards a player may play: the suit led if held, else anything."""
    cards = list(cards_in(hand))
    if not trick:
        return cards
    lead = trick[0][1] // 13
    following = [c for c in cards if c // 13 == lead]
    return following or cards


def winner_of(plays: Sequence[tuple[int, int]], trump: Suit | None) -> int:
    """Seed wording: the highest trump played, else the highest card of the suit led."""
    lead = plays[0][1] // 13
    trumps = [p for p in plays if trump is not None and p[1] // 13 == trump]
    contenders = trumps or [p for p in plays if p[1] // 13 == lead]
    return max(contenders, key=lambda p: p[1])[0]


def check_hands(game: Game, dealt: dict[int, tuple[int, ...]]) -> None:
    """Replays every finished hand from its dealt cards and the history's card plays:
    each card came from the player's hand, suit was followed whenever possible, the
    trick winners and trick counts are right, and the hook held."""
    plays = [(m.seat, m.action.card) for m in game.history if isinstance(m.action, Play)]
    position = 0
    for result in game.hands_played:
        check_deal(result, dealt[result.number])
        hands = list(dealt[result.number])
        won = [0] * game.n
        leader = None
        for _ in range(result.cards):
            trick = plays[position:position + game.n]
            position += game.n
            assert leader is None or trick[0][0] == leader
            for i, (seat, card) in enumerate(trick):
                assert seat == (trick[0][0] + i) % game.n
                assert card in follow_suit(hands[seat], trick[:i])
                hands[seat] ^= 1 << card
            leader = winner_of(trick, result.trump)
            won[leader] += 1
        assert hands == [0] * game.n
        assert tuple(won) == result.tricks
        assert sum(result.tricks) == result.cards
        if game.rules.hook:
            assert sum(b.tricks for b in result.bids if isinstance(b, Bid)) != result.cards
    assert position == len(plays) - len(game.trick)


def check_deal(result: HandResult, hands: tuple[int, ...]) -> None:
    seen = 0
    for hand in hands:
        assert hand.bit_count() == result.cards
        assert not seen & hand
        seen |= hand
    if result.turn_up is not None:
        assert not seen >> result.turn_up & 1
        assert result.trump == result.turn_up.suit


@FAST
@given(table=tables, seed=seeds, max_hands=hand_limits)
def test_random_play_keeps_every_rule(table: tuple[str, int], seed: int,
                                      max_hands: int) -> None:
    observed = Observed(new_game(*table, seed, max_hands), random.Random(seed))
    game = observed.play()
    check_hands(game, observed.dealt)
    assert len(game.hands_played) >= max_hands
    assert game.winners and all(game.scores[w] == max(game.scores) for w in game.winners)
    assert game.scores == [sum(h.points[s] for h in game.hands_played) for s in range(game.n)]


@settings(max_examples=12, deadline=None, derandomize=True, database=None)
@given(table=st.sampled_from([("pbmserv", 4), ("standard", 7), ("nullo", 6), ("potomac", 9)]),
       seed=seeds)
def test_whole_games_keep_every_rule(table: tuple[str, int], seed: int) -> None:
    observed = Observed(new_game(*table, seed, None), random.Random(seed))
    game = observed.play()
    check_hands(game, observed.dealt)
    sizes = variant(table[0]).hand_sizes(table[1])
    assert tuple(h.cards for h in game.hands_played if not h.extra) == sizes


@FAST
@given(table=tables, seed=seeds, max_hands=hand_limits, stop=st.integers(0, 400))
def test_a_record_through_json_replays_the_same_game(table: tuple[str, int], seed: int,
                                                     max_hands: int, stop: int) -> None:
    game = Observed(new_game(*table, seed, max_hands), random.Random(seed)).play(stop)
    replayed = Game.replay(json.loads(json.dumps(game.record())))
    assert replayed.scores == game.scores
    assert replayed.hands_played == game.hands_played
    assert replayed.history == game.history
    assert replayed.winners == game.winners
    assert snapshot(replayed) == snapshot(game)


@FAST
@given(table=tables, seed=seeds, stop=st.integers(0, 200), data=st.data())
def test_illegal_actions_and_garbage_change_nothing(table: tuple[str, int], seed: int,
                                                    stop: int, data: st.DataObject) -> None:
    game = Observed(new_game(*table, seed, 2), random.Random(seed)).play(stop)
    before = snapshot(game)
    seat = data.draw(st.one_of(st.none(), st.integers(-2, game.n + 1)), label="seat")
    allowed = set(game.legal_actions(seat)) if seat is None or 0 <= seat < game.n else set()
    illegal = [a for a in EVERY_ACTION if a not in allowed]
    action = data.draw(st.sampled_from(illegal), label="action")
    try:
        game.apply(action, seat=seat)
    except IllegalAction as error:
        assert str(error) and "\n" not in str(error)
    else:
        raise AssertionError(f"{action!r} by {seat} was accepted")
    assert snapshot(game) == before
    text = data.draw(st.text(max_size=12), label="text")
    try:
        game.apply(text)
    except IllegalAction:
        assert snapshot(game) == before
    else:
        assert text.strip(), "empty text was accepted"


@FAST
@given(table=tables, seed=seeds, stop=st.integers(0, 150))
def test_a_copy_is_independent(table: tuple[str, int], seed: int, stop: int) -> None:
    game = Observed(new_game(*table, seed, 2), random.Random(seed)).play(stop)
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    Observed(twin, random.Random(seed + 1)).play(60)
    assert snapshot(game) == before
    # ... and the other way round.
    twin_state = snapshot(twin)
    Observed(game, random.Random(seed + 2)).play(60)
    assert snapshot(twin) == twin_state
