"""Post-game analysis: the points each decision of a finished game cost, as the expert sees it.

:func:`analyse` replays a game record and, at every decision a player made with a real
choice, asks the :class:`~blackout.bots.expert.ExpertBot` (from that player's view
only: its own cards, the bids and the cards played) for its expected points with the
move played and with its best move; the difference is the points lost.  Per player it
sums up the bidding and the play (how often the move was within
:data:`ACCURATE_WITHIN` points of the best, and the points lost) and the *luck*: what
the cards alone were worth, found by playing every hand's deal again with the same bot
(``basic``) in every seat, a seat's points there less the table's average.

The expert's figures are estimates from sampled deals (``iterations`` simulations per
candidate move): a small loss can be noise.

>>> from blackout import Game, bots, variant
>>> game = Game.new(variant("standard", schedule=[2]), ["ann", "bob", "cy"], seed=3)
>>> player = bots.create("basic")
>>> while not game.is_over:
...     _ = game.apply(player.choose(game.view(game.to_move)))
>>> report = analyse(game.record(), iterations=10)
>>> [player["player"] for player in report.players], report.decisions[0].kind
(['ann', 'bob', 'cy'], 'bid')
"""

from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass, field
from typing import Any

from blackout.bots.basic import BasicBot
from blackout.bots.expert import ExpertBot
from blackout.core.actions import Action, ChooseTrump, Play, parse_action
from blackout.core.fast import Game
from blackout.core.game import Deal
from blackout.core.record import replay_record

__all__ = ["ACCURATE_WITHIN", "Analysis", "Decision", "analyse"]

#: A move counts as accurate when the expert expects it to score within this many
#: points of its best move.
ACCURATE_WITHIN = 0.5


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the game: who made it, what was played and what the expert
    expects it and its best move to score (points for the hand)."""

    hand: int
    seat: int
    player: str
    kind: str  # "bid", "trump" or "play"
    played: str
    best: str
    played_points: float
    best_points: float

    @property
    def lost(self) -> float:
        return max(0.0, self.best_points - self.played_points)

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "lost": round(self.lost, 2)}


@dataclass
class Analysis:
    """Every analysed decision, and a summary per seat (see :func:`analyse`)."""

    decisions: list[Decision] = field(default_factory=list)
    players: list[dict[str, Any]] = field(default_factory=list)
    iterations: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "accurate_within": ACCURATE_WITHIN,
                "players": self.players, "decisions": [d.to_dict() for d in self.decisions]}


def analyse(record: dict[str, Any], iterations: int = 100, seed: int = 0) -> Analysis:
    """Analyse a finished game's record (see the module docstring).  Raises
    :class:`~blackout.core.record.RecordError` for a record that does not replay or a
    game that is not over."""
    from blackout.core.record import RecordError

    finished = replay_record(record)
    if not finished.is_over:
        raise RecordError("the game is not over: only a finished game can be analysed")
    game = Game.new(finished.rules, finished.given_players, seed=finished.seed,
                    deals=finished.deals)
    analysis = Analysis(iterations=iterations)
    luck = [0.0] * game.n
    hand = -1
    for seat, move in record["moves"]:
        if game.hand_index != hand:
            hand = game.hand_index
            for s, worth in enumerate(_deal_worth(game)):
                luck[s] += worth
        if seat == game.to_move and len(game.legal_actions()) > 1:
            analysis.decisions.append(_judge(game, seat, move, iterations, seed))
        game.apply(move, seat=seat)
    analysis.players = [_summary(game, s, analysis.decisions, luck[s]) for s in range(game.n)]
    return analysis


def _judge(game: Game, seat: int, move: str, iterations: int, seed: int) -> Decision:
    view = game.view(seat)
    played = parse_action(move)
    bot = ExpertBot(seed=seed, iterations=iterations, others="policy")
    values = bot.evaluate(view, also=played)
    best: Action = max(values, key=values.__getitem__)
    kind = "play" if isinstance(played, Play) else "trump" if isinstance(
        played, ChooseTrump) else "bid"
    return Decision(game.hand_number, seat, game.players[seat], kind, str(played), str(best),
                    round(values[played], 2), round(values[best], 2))


def _deal_worth(game: Game) -> list[float]:
    """What each seat's cards were worth in the hand about to be played: its points when
    the basic bot plays every seat of the same deal, less the table's average."""
    rules = dataclasses.replace(game.rules, schedule=(game.cards,), last_hand_no_trump=False,
                                blind_first_hand=False, target=None, max_hands=None,
                                tiebreak="shared")
    # A hand played without trump has no turned-up card: the deal says so.
    deal = Deal(hands=[[c for c in range(52) if h >> c & 1] for h in game.dealt],
                turn_up=None if game.turn_up is None else int(game.turn_up), dealer=game.dealer)
    again = Game.new(rules, game.players, deals=[deal])
    bot = BasicBot()
    while not again.is_over:
        again.apply(bot.choose(again.view(again.to_move)))
    mean = statistics.fmean(again.scores)
    return [score - mean for score in again.scores]


def _summary(game: Game, seat: int, decisions: list[Decision], luck: float) -> dict[str, Any]:
    mine = [d for d in decisions if d.seat == seat]
    bids = [d for d in mine if d.kind != "play"]
    plays = [d for d in mine if d.kind == "play"]

    def accuracy(found: list[Decision]) -> float | None:
        if not found:
            return None
        return round(sum(d.lost <= ACCURATE_WITHIN for d in found) / len(found), 3)

    return {
        "player": game.players[seat],
        "score": game.scores[seat],
        "bids": len(bids),
        "bid_accuracy": accuracy(bids),
        "bid_points_lost": round(sum(d.lost for d in bids), 2),
        "plays": len(plays),
        "play_accuracy": accuracy(plays),
        "play_points_lost": round(sum(d.lost for d in plays), 2),
        "luck": round(luck, 2),
    }
