"""Post-game analysis: blackout.analysis.analyse and `blackout analyse`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blackout import Deal, Game, bots, variant
from blackout.analysis import ACCURATE_WITHIN, analyse
from blackout.cli.main import main
from blackout.core.record import RecordError


def _finished(first_bid: str | None = None) -> Game:
    """Three players, hands of 2 then 3 cards; seat 0 (holding the two top trumps in the
    first hand) bids ``first_bid`` if given; basic bots make every other move."""
    deals = [Deal(hands=[["AS", "KS"], ["2H", "3C"], ["4D", "5H"]], turn_up="2S", dealer=2)]
    game = Game.new(variant("standard", schedule=[2, 3]), ["ann", "bob", "cy"], deals=deals)
    player = bots.create("basic")
    if first_bid is not None:
        game.apply(first_bid)
    while not game.is_over:
        game.apply(player.choose(game.view(game.to_move)))
    return game


def test_every_decision_with_a_choice_is_analysed() -> None:
    game = _finished()
    report = analyse(game.record(), iterations=10)
    replay = Game.new(game.rules, game.given_players, deals=game.deals)
    choices = 0
    for move in game.history:
        if not move.auto:
            choices += len(replay.legal_actions()) > 1
            replay.apply(move.action)
    assert len(report.decisions) == choices
    for decision in report.decisions:
        assert decision.best_points >= decision.played_points
        assert (decision.lost == 0) == (decision.best_points == decision.played_points)
    for seat, player in enumerate(report.players):
        mine = [d for d in report.decisions if d.seat == seat]
        assert player["bids"] + player["plays"] == len(mine)
        assert player["score"] == game.scores[seat]
    # Luck is measured against the table's average: it sums to zero.
    assert sum(p["luck"] for p in report.players) == pytest.approx(0, abs=0.05)


def test_a_bad_bid_is_found_and_the_right_one_named() -> None:
    report = analyse(_finished(first_bid="0").record(), iterations=30)
    first = report.decisions[0]
    assert (first.seat, first.kind, first.played, first.best) == (0, "bid", "0", "2")
    assert first.lost > 5
    assert report.players[0]["bid_accuracy"] < 1
    assert report.players[0]["luck"] > 0  # two top trumps in a two-card hand


def test_an_unfinished_game_is_refused() -> None:
    game = Game.new(variant("standard", schedule=[2]), ["a", "b", "c"], seed=1)
    with pytest.raises(RecordError, match="not over"):
        analyse(game.record())


def test_the_command_prints_text_and_json(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_finished(first_bid="0").record()))
    assert main(["analyse", str(path), "--iterations", "10"]) == 0
    text = capsys.readouterr().out
    assert "ann" in text and f"losing more than {ACCURATE_WITHIN}" in text
    assert "ann bid 0" in text
    assert main(["analyse", str(path), "--iterations", "10", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["player"] for p in data["players"]] == ["ann", "bob", "cy"]
    assert data["decisions"][0]["lost"] > 5


def test_the_command_reports_a_bad_record_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(Game.new(variant("standard", schedule=[2]), ["a", "b", "c"],
                                        seed=1).record()))
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert "not over" in err and len(err.strip().splitlines()) == 1
