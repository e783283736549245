"""The one JSON codec: round trips over random games of every preset, and the view's shape."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackout import Game, IllegalAction, variant
from blackout.core import codec
from blackout.core.codec import CodecError
from blackout.core.rules import PRESETS, RulesError

PLAYERS = {"pbmserv": 4, "standard": 4, "nullo": 3, "partnership": 4, "potomac": 3}
SHORT = {"partnership": {"max_hands": 2}, "standard": {"schedule": [1, 2, 3]},
         "nullo": {"schedule": [3, 2]}, "potomac": {"schedule": [3, 1, 2]},
         "pbmserv": {"schedule": [1, 2, 3]}}


def through_json(data: object) -> object:
    return json.loads(json.dumps(data))


def play_randomly(name: str, seed: int):  # type: ignore[no-untyped-def]
    """Yield (game, events of the last move) through a random game, bid changes included."""
    rng = random.Random(seed)
    game = Game.new(variant(name, **SHORT[name]), [f"p{i}" for i in range(PLAYERS[name])],
                    seed=seed)
    yield game, game.opening_events()
    while not game.is_over:
        changer = game._changeable_seat()
        if changer is not None and rng.random() < 0.2:
            events = game.apply(rng.choice(game.legal_actions(changer)), seat=changer)
        else:
            events = game.apply(rng.choice(game.legal_actions()))
        yield game, events


@pytest.mark.parametrize("name", sorted(PRESETS))
@given(seed=st.integers(0, 2**32))
@settings(max_examples=6, deadline=None)
def test_round_trips_over_random_games(name: str, seed: int) -> None:
    for game, events in play_randomly(name, seed):
        for event in events:
            assert codec.event_from_json(through_json(codec.event_to_json(event))) == event
        for action in game.legal_actions():
            assert codec.action_from_json(through_json(codec.action_to_json(action))) == action
        for seat in [None, *range(game.n)]:
            view = game.public_view() if seat is None else game.view(seat)
            data = through_json(codec.view_to_json(view))
            check_view(game, view, data)
    for result in game.hands_played:
        assert codec.hand_result_from_json(through_json(codec.hand_result_to_json(result))) \
            == result
    assert codec.rules_from_json(through_json(codec.rules_to_json(game.rules, game.n))) \
        == game.rules


def check_view(game: Game, view, data: dict) -> None:  # type: ignore[no-untyped-def]
    assert data["seat"] == view.seat and data["phase"] == game.phase
    assert data["legal_actions"] == [str(a) for a in view.legal_actions]
    for seat, cards in enumerate(data["hands"]):
        if cards is not None:
            assert len(cards) == data["hand_sizes"][seat]
    if view.seat is None:
        assert data["hands"] == [None] * game.n and data["legal_actions"] == []
    if data["trick"]:
        assert data["winning"] in {play["seat"] for play in data["trick"]}
    else:
        assert data["winning"] is None
    hooked = data["hooked_bid"]
    if hooked is not None:
        assert hooked["bid"] not in [str(a) for a in game.legal_actions()]
        with pytest.raises(IllegalAction, match=hooked["reason"]):
            game.copy().apply(hooked["bid"])
    if data["changeable_bid"] is not None:
        seat = data["changeable_bid"]["seat"]
        assert game.legal_actions(seat) and data["bids"][seat] == data["changeable_bid"]["bid"]
    assert data["winners"] == game.winners


def test_the_view_has_every_field_of_the_api() -> None:
    game = Game.new(variant("standard", schedule=[3]), ["ann", "bob", "cy"], seed=4)
    keys = ["seat", "players", "phase", "hand_number", "hands_total", "cards_dealt", "dealer",
            "to_move", "hands", "hand_sizes", "bids", "bidding_order", "turn_up", "trump",
            "trump_decided", "declarer", "leader", "trick", "winning", "tricks", "tricks_won",
            "scores", "hands_played", "legal_actions", "hooked_bid", "changeable_bid",
            "blind", "winners"]
    assert list(codec.view_to_json(game.view(0))) == keys
    assert codec.view_to_json(game.view(0))["hands_total"] == 1


def test_the_hooked_bid_and_its_reason() -> None:
    game = Game.new(variant("pbmserv", schedule=[2]), ["a", "b", "c", "d"], seed=1)
    for bid in ["1", "0", "0"]:
        game.apply(bid)
    data = codec.view_to_json(game.view(game.to_move))
    assert data["hooked_bid"] == {"bid": "1", "reason": "the dealer may not bid 1: bids would "
                                  "total 2"}


def test_trump_is_a_letter_nt_or_null_while_undecided() -> None:
    game = Game.new(variant("potomac", schedule=[2]), ["a", "b", "c"], seed=2)
    (dealt,) = game.opening_events()
    assert codec.event_to_json(dealt)["trump"] is None
    assert codec.view_to_json(game.public_view())["trump"] is None
    while game.phase == "bid":
        game.apply(game.legal_actions()[0])
    assert codec.event_to_json(game.apply("trump NT")[0]) == {
        "type": "trump", "seat": game.declarer, "trump": "NT"}
    assert codec.view_to_json(game.public_view())["trump"] == "NT"


def test_rules_carry_the_hand_schedule() -> None:
    assert codec.rules_to_json(variant("standard", schedule=[1, 2]), 4) == {
        "variant": "standard", "options": {"schedule": [1, 2]}, "hands": [1, 2]}
    assert codec.rules_to_json(variant("partnership"), 4)["hands"] == [13]


@pytest.mark.parametrize("bad", [None, [], {"variant": 3}, {"variant": "standard",
                                                              "options": []},
                                 {"variant": "nope"}, {"variant": "standard",
                                                       "options": {"hook": "maybe"}}])
def test_bad_rules_are_refused_with_a_message(bad: object) -> None:
    with pytest.raises(RulesError):
        codec.rules_from_json(bad)


@pytest.mark.parametrize("bad", [None, {}, {"type": "nope"}, {"type": "card", "seat": 0},
                                 {"type": "card", "seat": 0, "card": "ZZ", "auto": False},
                                 {"type": "trump", "seat": 0, "trump": None},
                                 {"type": "bid", "seat": 0, "bid": "AS"}])
def test_bad_events_are_refused_with_a_message(bad: object) -> None:
    with pytest.raises(CodecError):
        codec.event_from_json(bad)


def test_variants_list_each_presets_options() -> None:
    listed = through_json(codec.variants_to_json())
    assert [v["name"] for v in listed] == list(PRESETS)
    for entry in listed:
        assert entry["title"] and entry["summary"] and len(entry["players"]) == 2
        for option in entry["options"]:
            assert option["help"] and option["kind"] in {"bool", "int", "choice", "schedule"}
            # Each default is a value the preset accepts.
            variant(entry["name"], **{option["name"]: option["default"]})
            if option["kind"] == "choice":
                assert option["default"] in option["choices"]
    partnership = next(v for v in listed if v["name"] == "partnership")
    assert "hook" not in [o["name"] for o in partnership["options"]]
