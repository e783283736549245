"""The arena: reproducible runs, duplicate deals, honest statistics, the command."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from blackout import Game, variant
from blackout.arena import mean_interval, paired_margins, run_arena, t_quantile
from blackout.cli.main import main

SMALL_PBM = {"schedule": [1, 2, 3]}


def test_same_seed_same_result_and_another_seed_differs() -> None:
    def run(seed: int) -> dict:
        result = run_arena("pbmserv", ["expert", "basic", "random", "basic"], games=2,
                           seed=seed, options=SMALL_PBM, iterations=4)
        data = result.to_dict()
        for stats in data["stats"]:
            for wall_clock in ("decision_time", "decision_p99", "decision_max"):
                stats.pop(wall_clock)  # the only things allowed to vary
        return data

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_duplicate_rotations_deal_each_seat_the_same_cards() -> None:
    # The arena replays a deal by reusing the game seed with the names rotated; the
    # engine must then give every seat position the same cards, seat shuffle or not.
    rules = variant("pbmserv")
    names = ["expert#0", "basic#1", "basic#2", "basic#3"]
    dealt = []
    for shift in range(4):
        rotated = names[-shift:] + names[:-shift] if shift else names
        game = Game.new(rules, rotated, seed=1234)
        hands = []
        while game.hand_number < 4 and not game.is_over:
            if not game.trick_cards and not game.tricks and game.phase == "bid" \
                    and not any(game.bids):
                hands.append(tuple(game.hands))
            game.apply(game.legal_actions()[0])
        dealt.append(hands)
    assert dealt[0] == dealt[1] == dealt[2] == dealt[3]


def test_duplicate_plays_every_rotation_and_counts_seats_fairly() -> None:
    result = run_arena("standard", ["basic", "random", "random"], games=3, seed=2,
                       options={"schedule": [2, 3], "tiebreak": "shared"}, duplicate=True)
    by_bot = {s.bot: s for s in result.stats}
    # 3 deals x 3 rotations: basic held one seat per game, random two.
    assert by_bot["basic"].per_game.n == 9
    assert by_bot["random"].per_game.n == 18
    # Each game's win is shared out once among its seats.
    wins = by_bot["basic"].win_rate * 9 + by_bot["random"].win_rate * 18
    assert math.isclose(wins, 9)
    assert by_bot["basic"].per_hand.n == 18
    assert set(by_bot["basic"].exact_by_size) == {2, 3}


def test_confidence_interval_matches_a_hand_computation() -> None:
    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    interval = mean_interval(values)
    # mean 3, sample standard deviation sqrt(2.5), t(0.975, 4) = 2.776.
    assert interval.mean == 3.0
    assert math.isclose(interval.half_width, 2.776 * math.sqrt(2.5) / math.sqrt(5))
    assert math.isclose(interval.low, 3.0 - interval.half_width)
    big = [float(i % 7) for i in range(500)]
    wide = mean_interval(big)
    expected = 1.9647 * statistics.stdev(big) / math.sqrt(500)  # t(0.975, 499)
    assert math.isclose(wide.half_width, expected, rel_tol=1e-3)
    assert mean_interval([4.0]).half_width == 0.0


def test_margins_are_paired_by_deal() -> None:
    # Deal luck moves both bots together; the paired interval must ignore it.
    units = [{"a": [20, 10], "b": [10, 10, 10, 10]}, {"a": [2, 0], "b": [0, 0, 0, 0]},
             {"a": [31, 33], "b": [30, 30, 30, 30]}]
    [margin] = paired_margins(units, "deal")
    assert (margin.bot, margin.over, margin.unit) == ("a", "b", "deal")
    differences = [5.0, 1.0, 2.0]
    assert math.isclose(margin.per_hand.mean, statistics.fmean(differences))
    assert math.isclose(margin.per_hand.half_width,
                        4.303 * statistics.stdev(differences) / math.sqrt(3))
    assert paired_margins(units[:1], "game")[0].per_hand.n == 1
    assert paired_margins([{"a": [1]}], "game") == []


def test_duplicate_margin_agrees_with_the_bots_means() -> None:
    # Every game has three hands and each bot holds the same seats in every deal, so
    # the mean of the per-deal margins is the difference of the per-hand means.
    result = run_arena("pbmserv", ["basic", "random", "random", "random"], games=3, seed=4,
                       options=SMALL_PBM, duplicate=True)
    by_bot = {s.bot: s for s in result.stats}
    [margin] = result.margins
    assert (margin.bot, margin.over, margin.unit, margin.per_hand.n) == \
        ("basic", "random", "deal", 3)
    assert math.isclose(margin.per_hand.mean,
                        by_bot["basic"].per_hand.mean - by_bot["random"].per_hand.mean)


def test_t_quantiles_match_published_values() -> None:
    published = {1: 12.706, 5: 2.571, 30: 2.042, 31: 2.040, 40: 2.021, 120: 1.980}
    for df, value in published.items():
        assert math.isclose(t_quantile(df), value, abs_tol=1.5e-3), df
    with pytest.raises(ValueError):
        t_quantile(0)


def test_bad_arena_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_arena("standard", ["basic", "nobody"], games=1, seed=1)
    with pytest.raises(ValueError, match="players"):
        run_arena("pbmserv", ["basic", "basic"], games=1, seed=1)


def test_arena_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "standard", "--seats", "expert,basic,random", "--games", "2",
                 "--seed", "3", "--iterations", "3", "-o", "schedule=2,3", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["bot"] for s in data["stats"]] == ["expert", "basic", "random"]
    assert data["options"] == {"schedule": [2, 3]}
    assert all(s["per_game"]["n"] == 2 for s in data["stats"])
    assert [(m["bot"], m["over"], m["unit"]) for m in data["margins"]] == [
        ("expert", "basic", "game"), ("expert", "random", "game"), ("basic", "random", "game")]


def test_arena_command_table_and_plot(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "scores.png"
    code = main(["arena", "nullo", "--seats", "basic,random,random", "--games", "2",
                 "-o", "schedule=2", "--plot", str(plot)])
    assert code == 0
    out = capsys.readouterr().out
    assert "basic" in out and "random" in out and "±" in out
    assert "margins, paired by game" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, message", [
    (["--seats", "basic,wizard,basic"], "unknown bot 'wizard'"),
    (["--seats", "basic,basic,basic", "--games", "0"], "--games"),
    (["--seats", "basic,basic,basic", "--plot", "x.jpg"], ".png"),
    (["--seats", "basic,basic,basic", "-o", "hooks=1"], "unknown option"),
])
def test_arena_command_errors_are_one_line(argv: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "nullo", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_bot_that_follows_the_table_is_shown_its_view_after_every_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from blackout import arena, bots
    from blackout.core.view import View

    class Follower:
        """The random bot, keeping every view it is shown."""

        def __init__(self, seed: int) -> None:
            self.bot = bots.create("random", seed=seed)
            self.shown: list[View] = []

        def choose(self, view: View) -> object:
            return self.bot.choose(view)

        def observe(self, view: View) -> None:
            self.shown.append(view)

    followers: list[Follower] = []

    def make(name: str, seed: int, think: float | None, iterations: int | None) -> object:
        followers.append(Follower(seed))
        return followers[-1]

    monkeypatch.setattr(arena, "_make_bot", make)
    result = run_arena("standard", ["random", "random", "random"], games=1, seed=2,
                       options={"schedule": [3, 2]})
    moves = result.to_dict()["stats"][0]["decisions"]
    playing = followers[-3:]  # the first three only checked the bots' names
    for seat, follower in enumerate(playing):
        assert isinstance(follower, bots.Observer)
        assert {view.seat for view in follower.shown} == {seat}
        # Every move but the game's last, which ends it.
        assert len(follower.shown) == moves - 1
