"""Bots against bots: run many games and measure each bot with confidence intervals.

Pure logic, no printing: :func:`run_arena` plays the games and returns an
:class:`ArenaResult`; the ``blackout arena`` command renders it.

Each game's cards come from a seed drawn from the arena seed, so the same seed (and
deterministic bots, e.g. ``expert`` with ``iterations=``) gives the same result.
A bot that follows the table (:class:`~blackout.bots.Observer`) is shown its seat's view
after every move, as the server shows it.
With ``duplicate`` every deal is replayed once per rotation of the bots through the
seats: the rotations share the game seed, so each seat gets the same cards every time
and each bot plays each seat's cards once.

Bots are also compared pairwise: the margin of one over another is the difference of
their mean points per hand, taken within each deal (all its rotations, with
``duplicate``) or each game, and its interval is over those paired differences, so the
luck of the cards, shared by both, drops out of it.

>>> result = run_arena("standard", ["random", "random", "random"], games=2, seed=1,
...                    options={"schedule": [3, 2]})
>>> result.games, [s.bot for s in result.stats]
(2, ['random'])
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from blackout import bots
from blackout.core.fast import Game
from blackout.core.rules import variant

__all__ = ["ArenaResult", "BotStats", "Interval", "Margin", "mean_interval", "paired_margins",
           "percentile", "run_arena", "show_everyone", "t_quantile"]

# Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t_quantile(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (for 95% CIs).

    A table up to 30, then the Cornish-Fisher expansion around the normal quantile,
    which is good to three decimals from there on.

    >>> t_quantile(10), round(t_quantile(60), 3), round(t_quantile(10**9), 3)
    (2.228, 2.0, 1.96)
    """
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = statistics.NormalDist().inv_cdf(0.975)
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


@dataclass(frozen=True)
class Interval:
    """A sample mean with the half-width of its 95% confidence interval."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:.2f} ± {self.half_width:.2f}"


def mean_interval(values: Sequence[float]) -> Interval:
    """Mean and 95% t-interval half-width of a sample (half-width 0 below two values)."""
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, 0)
    mean = statistics.fmean(values)
    if n < 2:
        return Interval(mean, 0.0, n)
    return Interval(mean, t_quantile(n - 1) * statistics.stdev(values) / math.sqrt(n), n)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile by the nearest-rank method: the smallest value with at
    least ``q`` percent of the sample at or below it (0 for an empty sample).

    >>> percentile([0.1, 0.2, 0.3, 0.4], 50)
    0.2
    >>> percentile(list(range(1, 201)), 99)
    198
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class BotStats:
    """What one bot achieved over every seat it held in every game."""

    bot: str
    per_game: Interval
    per_hand: Interval
    win_rate: float
    exact_rate: float
    exact_by_size: dict[int, float]
    decision_time: float
    #: The 99th percentile and the longest of the decision times, in seconds: a
    #: searching bot's budget is a promise about these, not about the mean.
    decision_p99: float
    decision_max: float
    decisions: int
    game_scores: list[int] = field(repr=False)


@dataclass
class Margin:
    """How many more points per hand ``bot`` scored than ``over``, paired by ``unit``
    (a deal with all its rotations under duplicate play, else a game)."""

    bot: str
    over: str
    unit: str
    per_hand: Interval


@dataclass
class ArenaResult:
    variant: str
    options: dict[str, Any]
    seats: list[str]
    games: int
    seed: int
    duplicate: bool
    stats: list[BotStats]
    margins: list[Margin]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Tally:
    """Running totals for one bot."""

    game_scores: list[int] = field(default_factory=list)
    hand_points: list[int] = field(default_factory=list)
    wins: float = 0.0
    exact: dict[int, list[int]] = field(default_factory=dict)  # size -> [made, played]
    seconds: list[float] = field(default_factory=list)


def run_arena(variant_name: str, seats: Sequence[str], games: int, seed: int,
              options: dict[str, Any] | None = None, think: float | None = None,
              iterations: int | None = None, duplicate: bool = False,
              progress: Callable[[int, int], None] | None = None) -> ArenaResult:
    """Play ``games`` games (deals, with ``duplicate``) and measure every bot.

    ``seats`` names the bot in each seat; ``think``/``iterations`` go to every bot
    that searches.  ``progress(done, total)`` is called after each game played.
    """
    options = dict(options or {})
    rules = variant(variant_name, **options)
    rules.check_players(len(seats))
    if games < 1:
        raise ValueError("play at least one game")
    for name in seats:
        _make_bot(name, 0, think, iterations)  # unknown names fail before any game
    n = len(seats)
    rotations = n if duplicate else 1
    names = list(dict.fromkeys(seats))
    tallies: dict[str, _Tally] = {name: _Tally() for name in names}
    units: list[dict[str, list[int]]] = []  # per deal (or game): each bot's hand points
    total = games * rotations
    for index in range(games):
        game_seed = _derive(seed, "game", index)
        unit: dict[str, list[int]] = {name: [] for name in names}
        for shift in range(rotations):
            lineup = [seats[(s - shift) % n] for s in range(n)]
            game = _play_one(rules, lineup, game_seed, _derive(seed, f"bots:{shift}", index),
                             think, iterations, tallies)
            for seat, bot in enumerate(game.by_seat):
                unit[bot] += game.points[seat]
            if progress is not None:
                progress(index * rotations + shift + 1, total)
        units.append(unit)
    return ArenaResult(variant=variant_name, options=options, seats=list(seats), games=games,
                       seed=seed, duplicate=duplicate,
                       stats=[_summarize(name, t) for name, t in tallies.items()],
                       margins=paired_margins(units, "deal" if duplicate else "game"))


def paired_margins(units: Sequence[dict[str, list[int]]], unit: str) -> list[Margin]:
    """Every pair of bots, in the order they first sit: the first one's mean points per
    hand less the second's within each unit (a deal or a game), with the interval of
    those differences.

    >>> b = [0, 10, 0, 0]  # 2.5 a hand in every deal
    >>> units = [{"a": [11, 0], "b": b}, {"a": [13, 0], "b": b}, {"a": [0, 15], "b": b}]
    >>> [(m.bot, m.over, str(m.per_hand)) for m in paired_margins(units, "deal")]
    [('a', 'b', '4.00 ± 2.48')]
    """
    names = list(units[0]) if units else []
    return [Margin(first, second, unit, mean_interval(
                [statistics.fmean(u[first]) - statistics.fmean(u[second]) for u in units]))
            for i, first in enumerate(names) for second in names[i + 1:]]


def _derive(seed: int, purpose: str, index: int) -> int:
    return random.Random(f"arena:{seed}:{purpose}:{index}").getrandbits(62)


def _make_bot(name: str, seed: int, think: float | None,
              iterations: int | None) -> bots.Bot:
    search: dict[str, float] = {}
    if name == "expert":
        if iterations is not None:
            search["iterations"] = iterations
        elif think is not None:
            search["think"] = think
    return bots.create(name, seed=seed, **search)


@dataclass(frozen=True)
class _Played:
    """One finished game: the bot in each seat and each seat's points hand by hand."""

    by_seat: list[str]
    points: list[list[int]]


def _play_one(rules: Any, lineup: list[str], game_seed: int, bot_seed: int,
              think: float | None, iterations: int | None,
              tallies: dict[str, _Tally]) -> _Played:
    # Players are named by their place in the lineup, so a seat shuffle (pbmserv)
    # permutes names while the cards stay with the seat positions.
    names = [f"{bot}#{i}" for i, bot in enumerate(lineup)]
    game = Game.new(rules, names, seed=game_seed)
    by_seat = [lineup[names.index(name)] for name in game.players]
    players = [_make_bot(bot, bot_seed + seat, think, iterations)
               for seat, bot in enumerate(by_seat)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        if rules.bid_changes and game.phase == "bid":
            _offer_bid_changes(game, players, by_seat, tallies)
        _decide(game, players[seat], seat, by_seat[seat], tallies, out_of_turn=False)
        show_everyone(game, players)
    share = 1 / len(game.winners)
    for seat, bot in enumerate(by_seat):
        tally = tallies[bot]
        tally.game_scores.append(game.scores[seat])
        tally.wins += share if seat in game.winners else 0.0
        for hand in game.hands_played:
            tally.hand_points.append(hand.points[seat])
            made = tally.exact.setdefault(hand.cards, [0, 0])
            made[0] += hand.made[seat]
            made[1] += 1
    return _Played(by_seat, [[hand.points[seat] for hand in game.hands_played]
                             for seat in range(game.n)])


def _offer_bid_changes(game: Game, players: list[bots.Bot], by_seat: list[str],
                       tallies: dict[str, _Tally]) -> None:
    """Potomac: the last bidder may change its bid before the next player bids."""
    for seat in range(game.n):
        if seat != game.to_move and game.legal_actions(seat):
            _decide(game, players[seat], seat, by_seat[seat], tallies, out_of_turn=True)


def show_everyone(game: Game, players: Sequence[object]) -> None:
    """Show each bot of ``players`` (one a seat) that follows the table (``observe``) its
    view after a move, as the server does: the expert learns how the others bid and play
    from it.  Nothing once the game is over."""
    if game.is_over:
        return
    for seat, player in enumerate(players):
        if isinstance(player, bots.Observer):
            player.observe(game.view(seat))


def _decide(game: Game, player: bots.Bot, seat: int, bot: str, tallies: dict[str, _Tally],
            out_of_turn: bool) -> None:
    view = game.view(seat)
    start = time.perf_counter()
    action = player.choose(view)
    tallies[bot].seconds.append(time.perf_counter() - start)
    if action is None:
        if out_of_turn:
            return
        raise RuntimeError(f"bot {bot} returned no action when it had to move")
    if action not in view.legal_actions:
        raise RuntimeError(f"bot {bot} chose the illegal action {action}")
    game.apply(action, seat=seat if out_of_turn else None)


def _summarize(name: str, tally: _Tally) -> BotStats:
    made = sum(m for m, _ in tally.exact.values())
    played = sum(p for _, p in tally.exact.values())
    return BotStats(
        bot=name,
        per_game=mean_interval(tally.game_scores),
        per_hand=mean_interval(tally.hand_points),
        win_rate=tally.wins / len(tally.game_scores),
        exact_rate=made / played if played else 0.0,
        exact_by_size={size: m / p for size, (m, p) in sorted(tally.exact.items())},
        decision_time=statistics.fmean(tally.seconds) if tally.seconds else 0.0,
        decision_p99=percentile(tally.seconds, 99),
        decision_max=max(tally.seconds, default=0.0),
        decisions=len(tally.seconds),
        game_scores=tally.game_scores,
    )
