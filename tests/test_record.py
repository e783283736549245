"""Game records: every preset round-trips through JSON; tampered records are refused."""

import copy
import json
import random
from typing import Any

import pytest

from blackout import Game, RecordError, variant
from blackout.core.rules import PRESETS
from conftest import names, play_randomly, random_deal

# A few hands of every preset, so the records stay small and the tests fast.
SHORT = {"pbmserv": {"max_hands": 3}, "standard": {"max_hands": 3}, "nullo": {"max_hands": 3},
         "partnership": {"max_hands": 2}, "potomac": {"max_hands": 3}}


def through_json(record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(record))


def assert_same_game(replayed: Game, game: Game) -> None:
    assert replayed.players == game.players
    assert replayed.scores == game.scores
    assert replayed.hands_played == game.hands_played
    assert replayed.history == game.history
    assert replayed.winners == game.winners
    assert replayed.is_over == game.is_over
    for seat in range(game.n):
        assert replayed.view(seat) == game.view(seat)
    assert replayed.record() == game.record()


def finished(name: str, players: int, seed: int, deals: bool = False) -> Game:
    rules = variant(name, **SHORT[name])
    first = rules.hand_sizes(players)[0]
    given = [random_deal(first, players, seed)] if deals else None
    game = Game.new(rules, names(players), seed=seed, deals=given)
    return play_randomly(game, random.Random(seed))


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("deals", [False, True], ids=["seed", "deals"])
def test_finished_games_round_trip(name: str, deals: bool) -> None:
    for players in sorted({PRESETS[name].min_players, 4}):
        game = finished(name, players, seed=17 + players, deals=deals)
        record = game.record()
        assert record["format"] == "blackout-record" and record["version"] == 1
        assert record["result"] == {"scores": game.scores, "winners": game.winners}
        assert ("deals" in record) == deals
        assert_same_game(Game.replay(through_json(record)), game)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_unfinished_games_round_trip_at_every_step(name: str) -> None:
    rules = variant(name, **SHORT[name])
    game = Game.new(rules, names(4), seed=5)
    rng = random.Random(5)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
        record = game.record()
        assert "result" not in record
        assert_same_game(Game.replay(through_json(record)), game)


def test_potomac_bid_changes_are_recorded_out_of_turn_and_replay() -> None:
    game = Game.new(variant("potomac"), names(4), seed=3)
    first = game.to_move
    game.apply("1")
    game.apply("2", seat=first)
    record = game.record()
    assert record["moves"] == [[first, "1"], [first, "2"]]
    assert_same_game(Game.replay(through_json(record)), game)


def test_a_replay_continues_like_the_original() -> None:
    game = Game.new(variant("standard"), names(3), seed=12)
    rng = random.Random(12)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    twin = Game.replay(game.record())
    for _ in range(40):
        action = rng.choice(game.legal_actions())
        game.apply(action)
        twin.apply(action)
    assert_same_game(twin, game)


@pytest.fixture
def record() -> dict[str, Any]:
    return finished("standard", 3, seed=4).record()


def refused(record: object, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        Game.replay(record)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_not_a_dict(record: dict[str, Any]) -> None:
    refused([record], 'not a Blackout game record (no "format": "blackout-record")')
    refused("blackout-record", "not a Blackout game record")
    refused({**record, "format": "chess"}, "not a Blackout game record")


def test_wrong_version(record: dict[str, Any]) -> None:
    refused({**record, "version": 2}, "record version 2 is not supported (this is version 1)")
    refused({k: v for k, v in record.items() if k != "version"}, "record version None")


def test_illegal_move(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    seat, _ = bad["moves"][0]
    bad["moves"][0] = [seat, "7"]            # the first hand has one card
    refused(bad, f"move 1 ([{seat}, '7']) is illegal: bids are 0 to 1")
    bad["moves"][0] = [seat, "hello"]
    refused(bad, f"move 1 ([{seat}, 'hello']) is illegal: 'hello' is not a move")
    other = (seat + 1) % 3                    # out of turn; no bid changes in this game
    bad["moves"][0] = [other, "0"]
    refused(bad, f"move 1 ([{other}, '0']) is illegal: it is p{seat}'s turn, not p{other}'s")
    bad["moves"][0] = [seat]
    refused(bad, f"move 1 is not [seat, \"move\"]: [{seat}]")
    bad["moves"] = record["moves"] + [[0, "0"]]
    refused(bad, "is illegal: the game is over")


def test_wrong_result(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["result"]["scores"][0] += 1
    refused(bad, "record's result does not match its moves")
    bad = copy.deepcopy(record)
    bad["result"]["winners"] = [0, 1, 2]
    refused(bad, "record's result does not match its moves")
    refused({**record, "moves": record["moves"][:-1]}, "record's result does not match")


def test_bad_fields(record: dict[str, Any]) -> None:
    refused({k: v for k, v in record.items() if k != "rules"}, "missing or has a bad field")
    refused({**record, "rules": {"variant": "golf"}}, "cannot start a game: unknown variant")
    refused({**record, "rules": {"variant": "standard", "options": {"hook": 3}}},
            "cannot start a game: hook must be true or false")
    refused({**record, "players": ["a"]}, "cannot start a game: standard needs 2 to 7")
    refused({**record, "seats": ["x", "y", "z"]}, "seats do not match")
    refused({**record, "seed": "4"}, "seed")
    refused({**record, "seed": None}, "seed")
    refused({**record, "moves": 5}, "moves")
    refused({**record, "moves": "0 0 0"}, "moves")
    refused({**record, "result": 5}, "result")
    refused({**record, "result": {"scores": 5, "winners": None}}, "result does not match")
    refused({**record, "deals": [{"hands": [["AS"], ["AS"], ["KS"]]}]},
            "cannot start a game: bad deal: AS is dealt twice")


def test_hands_after_the_given_deals_come_from_the_seed() -> None:
    # decision 6: prearranged deals play first; later hands are dealt from the seed.
    def third_hand(seed: int) -> tuple[int, ...]:
        rules = variant("standard", hook=False)
        deals = [random_deal(1, 3, 0, dealer=0), random_deal(2, 3, 1)]
        game = Game.new(rules, names(3), seed=seed, deals=deals)
        assert game.dealt == deals[0].masks
        rng = random.Random(seed)
        while game.hand_number < 3:
            game.apply(rng.choice(game.legal_actions()))
        assert game.dealer == 2 and game.cards == 3
        return game.dealt

    assert third_hand(1) == third_hand(1)
    assert len({third_hand(seed) for seed in range(4)}) == 4
