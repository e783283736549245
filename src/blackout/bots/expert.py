"""The search player: perfect-information Monte Carlo over sampled deals.

For each decision the bot deals the cards it cannot see many times over
(:class:`~blackout.bots.sampling.Sampler`: void suits respected, deals weighted by how
well they fit the bids), plays every candidate action out to the end of the hand in
each deal with the fast policy of :mod:`blackout.bots.playout`, scores the outcome with
the table's own :func:`~blackout.core.scoring.hand_points`, and takes the action with
the best average value: its own points less half its rivals' average (so once its own
score is settled it still plays to cost the others theirs).  Every candidate is tried
on the same deals, so their averages differ by the action and not by luck of the draw.
Equal cards (a run like Q-J with nothing left between) are searched once.

* Bids are judged by expected *score* (nullo's exact 0, Potomac's penalty for a miss
  and partnership nil and board come from the scoring itself), with the bids of players
  still to speak guessed from their sampled hands.
* Potomac: as declarer it names the trump that plays out best; while bidding, the
  sampled declarer names its best-looking suit.  It never changes a bid out of turn,
  since nothing is learnt before the next player bids.
* pbmserv's blind first hand: its own card is what is sampled.

The budget per decision is ``think`` seconds (default 1) or, for repeatable play,
``iterations`` sampled deals: the same seed and iterations give the same choices on
any machine.  Under ``think`` a worker starts another deal only if one as slow as
its slowest so far still ends before the deadline, and a little of the budget is kept
for handing out and collecting the work, so a decision ends within ``think`` (unless a
single deal takes longer).  ``workers`` processes share the sampling (forked once,
then reused): by default two under a time budget on a machine with two cores or more,
one with ``iterations`` (pass ``workers=2`` to split a fixed budget the same way
everywhere).

>>> import blackout
>>> from blackout import bots
>>> game = blackout.Game.new(blackout.variant("nullo"), ["a", "b", "c"], seed=4)
>>> bot = bots.create("expert", seed=1, iterations=20)
>>> bot.choose(game.view(game.to_move)) in game.legal_actions()
True
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import random
import time
from dataclasses import dataclass
from multiprocessing.pool import Pool

from blackout.bots.playout import (
    EVERY_TRICK,
    NO_TRUMP,
    estimate_tricks,
    goals_for,
    play_out,
    trick_winner_position,
)
from blackout.bots.sampling import Sampler
from blackout.core.actions import (
    BIDS,
    Action,
    Bid,
    BidAction,
    Board,
    ChooseTrump,
    Nil,
    Play,
)
from blackout.core.scoring import hand_points
from blackout.core.view import View

__all__ = ["ExpertBot"]

# Bids further than this from the hand's rough worth are not worth simulating.
_BID_WINDOW = 3
# How much a point scored by a rival counts against one's own (see _value).
_RIVALRY = 0.5
# The part of a time budget kept back for starting the search and collecting the
# workers' answers (measured: a few milliseconds on a 2-core machine).
_RESERVE_SHARE = 0.02
_RESERVE_SECONDS = 0.005


@dataclass(frozen=True, slots=True)
class _Verdict:
    """The search's answer: the action, the seat's mean points with it, and how many
    deals were sampled."""

    action: Action
    mean: float
    deals: int


class ExpertBot:
    """Monte Carlo search over sampled deals (see the module docstring).

    ``think`` is the time budget per decision in seconds; ``iterations``, if given,
    replaces it by a fixed number of sampled deals per decision.
    """

    name = "expert"

    def __init__(self, seed: int | None = None, think: float = 1.0,
                 iterations: int | None = None, workers: int | None = None) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if think <= 0:
            raise ValueError("think must be a positive number of seconds")
        if workers is not None and workers < 1:
            raise ValueError("workers must be at least 1")
        self.seed = random.randrange(2**63) if seed is None else seed
        self.think = think
        self.iterations = iterations
        if workers is None:
            # A fixed budget must not depend on the machine; a time budget uses the cores.
            workers = 1 if iterations is not None else min(2, os.cpu_count() or 1)
        self.workers = workers if _CAN_FORK else 1
        if self.workers > 1:
            _pool(self.workers)  # start the workers now, not inside the first decision

    def choose(self, view: View) -> Action | None:
        if view.to_move != view.seat or not view.legal_actions:
            return None
        return self._search(view).action

    def hint(self, view: View) -> tuple[Action, str]:
        """The action this bot would take, with a one-line reason."""
        if view.to_move != view.seat or not view.legal_actions:
            raise ValueError("there is nothing for this seat to decide now")
        verdict = self._search(view)
        return verdict.action, _reason(view, verdict)

    # -- search --------------------------------------------------------------------------

    def _search(self, view: View) -> _Verdict:
        candidates = _candidates(view)
        if len(candidates) == 1:
            return _Verdict(candidates[0], 0.0, 0)
        key = f"expert:{self.seed}:{_decision_key(view)}"
        # Keep back what handing out the work and adding up the answers costs, so the
        # whole decision fits in ``think``.
        deadline = time.monotonic() + self.think * (1 - _RESERVE_SHARE) - _RESERVE_SECONDS
        if self.workers == 1:
            tallies = [_simulate(view, candidates, key, deadline, self.iterations)]
        else:
            shares = [None if self.iterations is None else
                      self.iterations // self.workers + (k < self.iterations % self.workers)
                      for k in range(self.workers)]
            jobs = [(view, candidates, f"{key}:{k}", deadline, share)
                    for k, share in enumerate(shares) if share != 0]
            tallies = _pool(self.workers).starmap(_simulate, jobs)
        values = [sum(t[0][i] for t in tallies) for i in range(len(candidates))]
        points = [sum(t[1][i] for t in tallies) for i in range(len(candidates))]
        deals = sum(t[2] for t in tallies)
        best = max(range(len(candidates)), key=lambda i: values[i])
        return _Verdict(candidates[best], points[best] / deals, deals)


def _simulate(view: View, candidates: list[Action], seed: str, deadline: float,
              iterations: int | None) -> tuple[list[float], list[int], int]:
    """Sample deals until ``iterations`` are done (or, without, until ``deadline``) and
    total each candidate's value and points over them.  Runs in a worker process too."""
    rng = random.Random(seed)
    sampler = Sampler(view)
    values = [0.0] * len(candidates)
    points = [0] * len(candidates)
    deals = 0
    slowest = 0.0
    while True:
        started = time.monotonic()
        hands = sampler.sample(rng)
        for i, action in enumerate(candidates):
            value, own = _outcome(view, hands, action)
            values[i] += value
            points[i] += own
        deals += 1
        if iterations is not None:
            if deals >= iterations:
                break
            continue
        now = time.monotonic()
        slowest = max(slowest, now - started)
        if now + slowest >= deadline:
            break  # another deal might not finish in time
    return values, points, deals


_CAN_FORK = "fork" in multiprocessing.get_all_start_methods()
_POOLS: dict[int, Pool] = {}


def _pool(workers: int) -> Pool:
    """A pool of forked workers, started once per process and shared by every bot."""
    if workers not in _POOLS:
        if not _POOLS:
            atexit.register(_close_pools)
        _POOLS[workers] = multiprocessing.get_context("fork").Pool(workers)
    return _POOLS[workers]


def _close_pools() -> None:
    for pool in _POOLS.values():
        pool.terminate()
        pool.join()
    _POOLS.clear()


def _decision_key(view: View) -> str:
    """Names the decision, so each one draws its own deals whatever came before."""
    moves = sum(len(t.cards) for t in view.tricks) + len(view.trick)
    bids = ",".join(str(b) for b in view.bids)
    return f"{view.hand_number}:{view.seat}:{view.phase}:{bids}:{moves}:{view.hand}"


def _candidates(view: View) -> list[Action]:
    legal = list(view.legal_actions)
    if view.phase == "play":
        return _distinct_plays(legal, view.unseen())
    if view.phase != "bid" or view.blind:
        return legal
    worth = _own_worth(view)
    near = [a for a in legal if not isinstance(a, Bid) or abs(a.tricks - worth) <= _BID_WINDOW]
    # Zero is a bid of its own kind (nullo pays for it; it is the cheap way to duck).
    zero = [a for a in legal if a == BIDS[0] and a not in near]
    return near + zero or legal


def _distinct_plays(legal: list[Action], unseen: int) -> list[Action]:
    """The legal plays less those equal to a lower one: cards of a suit with no card
    anyone could still play between them (say Q and J, the others' J to Q gone) do the
    same, so only the lowest of such a run is searched."""
    distinct = []
    previous = -2
    for action in sorted(legal, key=lambda a: a.card if isinstance(a, Play) else -1):
        assert isinstance(action, Play)
        card = action.card
        between = ((1 << card) - 1) & ~((2 << previous) - 1) if previous >= 0 else 0
        if previous // 13 == card // 13 and not unseen & between:
            previous = card
            continue
        distinct.append(action)
        previous = card
    return distinct


def _own_worth(view: View) -> float:
    trump = _trump_of(view)
    if trump is None:
        return max(estimate_tricks(view.hand, s, view.players_count) for s in range(-1, 4))
    return estimate_tricks(view.hand, trump, view.players_count)


def _trump_of(view: View) -> int | None:
    """The trump suit as the simulator counts it, or ``None`` if still to be named."""
    if not view.trump_decided:
        return None
    return NO_TRUMP if view.trump is None else int(view.trump)


# -- one sampled deal, one candidate --------------------------------------------------------


def _outcome(view: View, hands: list[int], action: Action) -> tuple[float, int]:
    """The value (see :func:`_value`) and this seat's points if it takes ``action``."""
    if isinstance(action, Play):
        return _play_outcome(view, hands, action.card)
    if isinstance(action, ChooseTrump):
        trump = NO_TRUMP if action.suit is None else int(action.suit)
        return _fresh_hand_outcome(view, hands, list(view.bids), trump)
    return _bid_outcome(view, hands, action)


def _play_outcome(view: View, hands: list[int], card: int) -> tuple[float, int]:
    n = view.players_count
    trump = _trump_of(view)
    assert trump is not None and view.leader is not None
    hands = list(hands)
    won = list(view.tricks_won)
    trick = [c for _, c in view.trick]
    leader = view.leader
    hands[view.seat] &= ~(1 << card)
    trick.append(card)
    if len(trick) == n:
        leader = (leader + trick_winner_position(trick, trump)) % n
        won[leader] += 1
        trick = []
    bids = list(view.bids)
    play_out(hands, trump, leader, trick, won, goals_for(view.rules, bids))
    return _value(view, bids, won, view.declarer)


def _bid_outcome(view: View, hands: list[int], bid: Action) -> tuple[float, int]:
    assert isinstance(bid, Bid | Nil | Board)
    bids: list[BidAction | None] = list(view.bids)
    bids[view.seat] = bid
    trump = _trump_of(view)
    later = view.bidding_order[view.bidding_order.index(view.seat) + 1:]
    for seat in later:
        bids[seat] = _guess_bid(view, seat, hands[seat], trump, bids, seat == later[-1])
    if trump is None:
        declarer = _declarer(view, bids)
        trump = _best_trump(hands[declarer], view.players_count)
        return _fresh_hand_outcome(view, hands, bids, trump, declarer)
    return _fresh_hand_outcome(view, hands, bids, trump)


def _guess_bid(view: View, seat: int, hand: int, trump: int | None,
               bids: list[BidAction | None], last: bool) -> BidAction | None:
    """What a player still to bid is likely to say, from its sampled hand."""
    rules, n = view.rules, view.players_count
    if trump is None:
        trump = _best_trump(hand, n)
    worth = round(estimate_tricks(hand, trump, n))
    if rules.teams:
        if isinstance(bids[(seat + 2) % 4], Nil | Board):
            return None  # skipped: the partner bid nil or board
        return BIDS[max(1, min(worth, rules.team_bid_cap, view.cards_dealt))]
    worth = min(worth, view.cards_dealt)
    if last and rules.hook:
        total = sum(b.tricks for b in bids if isinstance(b, Bid))
        if worth + total == view.cards_dealt:
            worth += 1 if worth == 0 else -1
    return BIDS[worth]


def _declarer(view: View, bids: list[BidAction | None]) -> int:
    """Potomac: the highest bid declares; on a tie, the earliest in the bidding order."""
    order = view.bidding_order
    return max(order, key=lambda s: (_tricks(bids[s]), -order.index(s)))


def _tricks(bid: BidAction | None) -> int:
    return bid.tricks if isinstance(bid, Bid) else -1


def _best_trump(hand: int, players: int) -> int:
    return max(range(-1, 4), key=lambda s: estimate_tricks(hand, s, players))


def _fresh_hand_outcome(view: View, hands: list[int], bids: list[BidAction | None],
                        trump: int, declarer: int | None = None) -> tuple[float, int]:
    """Play the whole hand from the first lead and score it for this seat."""
    n = view.players_count
    rules = view.rules
    declarer = view.declarer if declarer is None else declarer
    if rules.leader == "dealer":
        leader = view.dealer
    elif rules.leader == "first_bidder":
        leader = view.bidding_order[0]
    else:
        leader = (view.dealer + 1) % n
    won = play_out(list(hands), trump, leader, [], [0] * n, goals_for(rules, bids))
    return _value(view, bids, won, declarer)


def _value(view: View, bids: list[BidAction | None], won: list[int],
           declarer: int | None) -> tuple[float, int]:
    """How good an outcome is for this seat, and the seat's own points.

    The value is the seat's points less a share of its rivals' average: when its own
    score is settled, it still prefers the outcome that costs its rivals most.
    """
    points = hand_points(view.rules, view.cards_dealt, bids, won, declarer)
    seat = view.seat
    side = 2 if view.rules.teams else view.players_count
    rivals = [p for s, p in enumerate(points) if (s - seat) % side]
    return points[seat] - _RIVALRY * sum(rivals) / len(rivals), points[seat]


# -- explaining a decision ---------------------------------------------------------------------


def _reason(view: View, verdict: _Verdict) -> str:
    action = verdict.action
    if verdict.deals == 0:
        if len(view.legal_actions) == 1:
            return f"{action} is the only legal move"
        return f"the cards I may play are all equal: {action}"
    average = f"averages {verdict.mean:+.1f} points over {verdict.deals} sampled deals"
    if isinstance(action, Play):
        return f"{_play_situation(view, action.card)}; {action} {average}"
    if isinstance(action, ChooseTrump):
        named = "no trump" if action.suit is None else action.suit.plural
        return f"{named} {average}"
    worth = _own_worth(view) if not view.blind else None
    looks = "" if worth is None else f"hand looks worth about {worth:.1f} tricks; "
    return f"{looks}bid {action} {average}"


def _play_situation(view: View, card: int) -> str:
    goals = goals_for(view.rules, list(view.bids))
    if goals.targets[view.seat] == EVERY_TRICK:
        return "covering partner's nil: take what I can"
    need = goals.need(view.seat, list(view.tricks_won))
    if need == EVERY_TRICK:
        return "over the bid: every trick still scores"
    trick = [c for _, c in view.trick] + [card]
    trump = _trump_of(view)
    winning = trick_winner_position(trick, NO_TRUMP if trump is None else trump) == len(trick) - 1
    if need > 0:
        plural = "trick" if need == 1 else "tricks"
        move = "take it" if winning else "save strength"
        return f"need {need} more {plural}: {move}"
    if need == 0:
        return "bid made: duck" if not winning else "bid made: cannot duck"
    return "over the bid: take as few more as possible"
