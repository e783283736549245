"""The events Game.apply returns, the Phase enum and the spectator's view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackout import Bid, Deal, Game, variant
from blackout.core.cards import Card
from blackout.core.events import (
    BidChanged,
    BidMade,
    CardPlayed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    TrickTaken,
    TrumpNamed,
)
from blackout.core.game import BIDDING, CHOOSING_TRUMP, GAME_OVER, PLAYING
from blackout.core.record import replay_record
from blackout.core.rules import PRESETS
from blackout.core.view import Phase

PLAYERS = {"pbmserv": 4, "standard": 3, "nullo": 3, "partnership": 4, "potomac": 3}
SHORT = {"partnership": {"max_hands": 2}, "standard": {"schedule": [1, 2, 3]},
         "nullo": {"schedule": [3, 2]}, "potomac": {"schedule": [3, 1, 2]},
         "pbmserv": {"schedule": [1, 2, 3]}}


def random_game(name: str, seed: int) -> tuple[Game, list[Event]]:
    """A random game of preset ``name``, with every event it produced in order."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(PLAYERS[name])]
    game = Game.new(variant(name, **SHORT[name]), names, seed=seed)
    events = list(game.opening_events())
    while not game.is_over:
        changer = game._changeable_seat()
        if changer is not None and rng.random() < 0.2:
            events += game.apply(rng.choice(game.legal_actions(changer)), seat=changer)
        else:
            events += game.apply(rng.choice(game.legal_actions()))
    return game, events


@pytest.mark.parametrize("name", sorted(PRESETS))
@given(seed=st.integers(0, 2**32))
@settings(max_examples=8, deadline=None)
def test_events_tell_the_whole_game(name: str, seed: int) -> None:
    game, events = random_game(name, seed)
    dealt = [e for e in events if isinstance(e, HandDealt)]
    scored = [e.result for e in events if isinstance(e, HandScored)]
    assert scored == game.hands_played
    assert [d.hand_number for d in dealt] == [r.number for r in scored]
    assert [(d.cards, d.dealer, d.turn_up) for d in dealt] == \
        [(r.cards, r.dealer, r.turn_up) for r in scored]
    assert events[-1] == GameOver(tuple(game.scores), tuple(game.winners))
    assert sum(isinstance(e, GameOver) for e in events) == 1
    # The cards played, in order, are the history's plays; each trick follows its cards.
    plays = [(m.seat, m.action.card, m.auto) for m in game.history if hasattr(m.action, "card")]
    assert [(e.seat, e.card, e.auto) for e in events if isinstance(e, CardPlayed)] == plays
    trick: list[Card] = []
    for event in events:
        if isinstance(event, CardPlayed):
            trick.append(event.card)
        elif isinstance(event, TrickTaken):
            assert list(event.cards) == trick
            trick = []
        elif isinstance(event, HandScored):
            assert not trick


def cards_named(value: object) -> set[Card]:
    """Every card anywhere in an event's fields."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return set().union(*map(cards_named, value)) if value else set()
    if hasattr(value, "__slots__"):
        return cards_named([getattr(value, f) for f in value.__slots__])
    return set()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_events_carry_no_hidden_card(name: str) -> None:
    """A card is in an event only once it is played, or as the turned-up card."""
    _, events = random_game(name, 3)
    public: set[Card] = set()
    for event in events:
        if isinstance(event, HandDealt):
            public = {event.turn_up} if event.turn_up is not None else set()
        if isinstance(event, CardPlayed):
            public.add(event.card)
        assert cards_named(event) <= public, event


def test_a_plain_card_allocates_no_event() -> None:
    game = Game.new(variant("standard", schedule=[3]), ["a", "b", "c"], seed=1)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    first = game.apply(game.legal_actions()[0])
    twin = game.copy()
    assert len(first) == 1 and isinstance(first[0], CardPlayed)
    card = game.legal_actions()[0]
    assert game.apply(card) is twin.apply(card)


def test_the_blind_hand_plays_itself_in_the_last_bid() -> None:
    game = Game.new(variant("pbmserv"), ["ann", "bob", "cy", "di"], seed=7)
    for bid in ["1", "0", "0"]:
        assert len(game.apply(bid)) == 1
    events = game.apply("1")
    assert [type(e) for e in events] == [BidMade, CardPlayed, CardPlayed, CardPlayed,
                                         CardPlayed, TrickTaken, HandScored, HandDealt]
    assert all(e.auto for e in events if isinstance(e, CardPlayed))
    assert events[-1] == HandDealt(2, 2, game.dealer, game.turn_up, game.trump)


def test_bid_change_and_trump_naming() -> None:
    deal = Deal(hands=[["AS", "2H"], ["KS", "3H"], ["QS", "4H"]], dealer=2)
    game = Game.new(variant("potomac", schedule=[2]), ["ann", "bob", "cy"], deals=[deal])
    (opening,) = game.opening_events()
    assert opening == HandDealt(1, 2, 2, None, None, trump_decided=False)
    assert game.apply("1") == (BidMade(0, Bid(1)),)
    assert game.apply("2", seat=0) == (BidChanged(0, Bid(2), Bid(1)),)
    game.apply("0")
    assert game.phase is Phase.BID
    game.apply("1")
    assert game.phase is CHOOSING_TRUMP
    events = game.apply("trump S")
    assert events == (TrumpNamed(0, game.trump),)
    assert game.phase == "play" and game.phase is PLAYING
    assert game.opening_events() == (opening,)


def test_phase_is_a_string_enum_with_the_old_names() -> None:
    assert (BIDDING, CHOOSING_TRUMP, PLAYING, GAME_OVER) == ("bid", "trump", "play", "over")
    assert [p.value for p in Phase] == ["bid", "trump", "play", "over"]
    game, _ = random_game("standard", 1)
    assert game.phase is GAME_OVER and game.view(0).phase == "over"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_public_view_hides_every_hand(name: str) -> None:
    rng = random.Random(5)
    game = Game.new(variant(name, **SHORT[name]), [f"p{i}" for i in range(PLAYERS[name])],
                    seed=5)
    while not game.is_over:
        public = game.public_view()
        assert public.seat is None and public.legal_actions == ()
        assert public.hands == (None,) * game.n and public.hand == 0
        assert public.trick == game.view(0).trick and public.scores == game.view(0).scores
        game.apply(rng.choice(game.legal_actions()))
    assert game.public_view().winners == tuple(game.winners)


def test_public_view_hides_the_blind_hand_too() -> None:
    game = Game.new(variant("pbmserv"), ["ann", "bob", "cy", "di"], seed=7)
    assert game.view(0).hands[1] is not None
    assert game.public_view().hands == (None,) * 4


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_replayed_record_tells_the_same_events(name: str) -> None:
    game, events = random_game(name, 11)
    told: list[Event] = []
    replay_record(game.record(), told)
    assert told == events
