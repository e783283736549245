"""Information-set Monte Carlo tree search over the play of one hand.

The search player's engine.  Every card of a hand is seen by the whole table, so the
positions one seat cannot tell apart are those that differ only in the hidden hands,
and a tree keyed by the moves made since the decision is a tree of what the seat knows
(single-observer ISMCTS, Cowling, Powley and Whitehouse 2012).  Each iteration deals
the hidden cards anew (:class:`~blackout.bots.sampling.Sampler`: voids respected,
otherwise uniform, or from a pool of deals that explain the others' bids and cards, see
:func:`_deals`), walks down the tree choosing among the cards that deal allows
by UCB, adds one node, plays the rest of the hand out with the fast policy of
:mod:`blackout.bots.playout` and scores it with the table's
:func:`~blackout.core.scoring.hand_points`.  Every seat chooses for itself in the tree,
by its own value (see ``rivalry``), so the search learns how the others
answer a card instead of assuming the policy's answer; a seat the caller's ``models``
take for a basic bot plays the basic bot's card instead, in the tree and below it.  A
card's UCB counts only the iterations whose deal held it (its *availability*), which
keeps the statistics fair when the deals differ.

A decision taken before the play (a bid, naming trump) is searched the same way: its
candidates are the root's children, and under each the rest of the bidding, guessed
from each sampled deal by the caller's ``begin``, leads to a play tree of its own, so
a bid is judged by how the search itself would then play the hand.

>>> import blackout
>>> from blackout.core.actions import BIDS
>>> game = blackout.Game.new(blackout.variant("standard", schedule=[3]), "abcd", seed=2)
>>> for bid in (1, 0, 1, 0):
...     _ = game.apply(BIDS[bid])
>>> view = game.view(game.to_move)
>>> cards = [a.card for a in view.legal_actions]
>>> stats = search_play(view, cards, "doc", deadline=0.0, iterations=200)
>>> sum(s.visits for s in stats)
200
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from blackout.bots.playout import (
    BASIC,
    NO_TRUMP,
    POLICY,
    Goals,
    endgame_for,
    goals_for,
    model_card,
    model_habit_card,
    next_turn,
    play_out,
    seat_weights,
)
from blackout.bots.sampling import Fits, Sampler
from blackout.core.actions import Action, BidAction
from blackout.core.game import playable
from blackout.core.scoring import hand_points, made_bid
from blackout.core.view import View

__all__ = [
    "EXPLORATION", "RIVALRY", "THEIR_EXPLORATION", "Fits", "PlayEvidence", "Start", "Stats",
    "draw_pool", "search_before_play", "search_play",
]

#: How much a point scored by a rival (on average) counts against one's own, by default:
#: above 0, a seat whose score is settled still prefers the outcome that costs its
#: rivals most.  0 plays for one's own score, as OpenSpiel's players do (measured in
#: bench/RESULTS.md: no worse in self-play, if anything better against ISMCTS).
RIVALRY = 0.0
#: UCB's exploration constant, as a share of the spread of the values seen so far, so
#: it suits every scoring (pbmserv's points, Potomac's penalties, tricks + 10).
EXPLORATION = 0.7
#: How many times as much the nodes where another seat chooses are explored as the
#: deciding seat's own.  At 1 every other seat is taken for as careful a searcher as
#: the bot, whose reply is its best; above 1, what such a node backs up averages over
#: more of their replies, as against players who err.  2 gained at small budgets
#: against OpenSpiel's ISMCTS but not at equal time, against ISMCTS as shipped or
#: against ``basic`` (bench/RESULTS.md, sixteenth session), so 1 stays the default.
THEIR_EXPLORATION = 1.0

class PlayEvidence(Protocol):
    """What the cards the hidden seats have played say about their hands (see
    :class:`blackout.bots.inference.HandEvidence`)."""

    def deal_log_weight(self, hands: Sequence[int]) -> float:
        """The log weight of a deal of ``hands`` for the cards played so far, had the
        seats held them (their log chance, tempered)."""
        ...

    def card_terms(self, unseen: int, allowed: Sequence[int]) -> Mapping[int, Sequence[float]]:
        """Each seat's log weight for holding each card, one card at a time (for
        :meth:`~blackout.bots.sampling.Sampler.sample_weighted`)."""
        ...


#: Deals a search draws by default when ``fits`` or ``plays`` choose them.
POOL_DEALS = 64


@dataclass(slots=True)
class Stats:
    """What the search found for one candidate of the deciding seat."""

    visits: int = 0
    value: float = 0.0  # total of the seat's values (points, less rivals' share)
    points: int = 0  # total of the seat's own points
    tricks: int = 0  # total of the tricks the seat (its team, in partnership) took
    made: int = 0  # how often the seat (its team) made its bid exactly


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a simulated hand ended for every seat: points, values (points less the
    rivals' share), tricks (the team's, in partnership) and whether the bid was made."""

    points: tuple[int, ...]
    values: list[float]
    tricks: tuple[int, ...]
    made: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Start:
    """How the play begins in one sampled deal after a decision taken before it: every
    seat's bid, the trump suit (``-1`` for none), the declarer and the first leader."""

    bids: tuple[BidAction | None, ...]
    trump: int
    declarer: int | None
    leader: int


#: ``begin(hands, action)``: the :class:`Start` of the play in a sampled deal if the seat
#: takes ``action`` (the caller guesses the bids still to come from ``hands``).
Begin = Callable[[list[int], Action], Start]


def search_play(view: View, cards: list[int], seed: str, deadline: float,
                iterations: int | None, exploration: float = EXPLORATION,
                rivalry: float = RIVALRY, models: Sequence[int] | None = None,
                fits: Fits | None = None, endgame: int = 0,
                plays: PlayEvidence | None = None, pool: int = POOL_DEALS,
                their_exploration: float = THEIR_EXPLORATION,
                weights: Sequence[float] | None = None) -> list[Stats]:
    """Search the seat's play among ``cards`` (some of its legal cards) for
    ``iterations`` sampled deals or, without, until the monotonic clock nears
    ``deadline``; the statistics of each of ``cards``, in order.  ``models`` says how
    each seat is expected to play, with ``weights`` for a
    :data:`~blackout.bots.playout.HABIT` seat (see :class:`_Search`); the last
    ``endgame`` tricks of each play-out are solved exactly
    (:func:`~blackout.bots.playout.solve_endgame`); ``fits`` and ``plays`` choose the
    sampled deals from a ``pool`` (see :func:`_deals`);
    the other seats' nodes are explored ``their_exploration`` times as much as its own."""
    search = _Search(view, random.Random(seed), exploration, rivalry, models, endgame,
                     their_exploration, weights)
    assert view.leader is not None
    line = _Line(search, tuple(view.bids), NO_TRUMP if view.trump is None else int(view.trump),
                 view.declarer, view.leader, [card for _, card in view.trick],
                 list(view.tricks_won), sum(1 << card for card in cards))
    stats = {card: Stats() for card in cards}

    def iterate(hands: list[int]) -> None:
        card, outcome = line.iterate(hands)
        _add(stats[card], outcome, search.me)

    _run(iterate, _deals(view, search, fits, deadline, iterations, plays, pool),
         deadline, iterations)
    return [stats[card] for card in cards]


def search_before_play(view: View, actions: Sequence[Action], begin: Begin, seed: str,
                       deadline: float, iterations: int | None,
                       exploration: float = EXPLORATION, rivalry: float = RIVALRY,
                       models: Sequence[int] | None = None, fits: Fits | None = None,
                       endgame: int = 0, plays: PlayEvidence | None = None,
                       pool: int = POOL_DEALS,
                       their_exploration: float = THEIR_EXPLORATION,
                       weights: Sequence[float] | None = None) -> list[Stats]:
    """Search a decision taken before the play (see the module docstring); the
    statistics of each of ``actions``, in order."""
    search = _Search(view, random.Random(seed), exploration, rivalry, models, endgame,
                     their_exploration, weights)
    stats = [Stats() for _ in actions]
    lines: list[dict[Start, _Line]] = [{} for _ in actions]

    def iterate(hands: list[int]) -> None:
        index = search.choose(stats)
        start = begin(hands, actions[index])
        line = lines[index].get(start)
        if line is None:
            line = lines[index][start] = _Line(search, start.bids, start.trump, start.declarer,
                                               start.leader, [], [0] * search.players)
        _card, outcome = line.iterate(hands)
        _add(stats[index], outcome, search.me)

    _run(iterate, _deals(view, search, fits, deadline, iterations, plays, pool),
         deadline, iterations)
    return stats


def _add(stats: Stats, outcome: Outcome, seat: int) -> None:
    stats.visits += 1
    stats.value += outcome.values[seat]
    stats.points += outcome.points[seat]
    stats.tricks += outcome.tricks[seat]
    stats.made += outcome.made[seat]


def _deals(view: View, search: _Search, fits: Fits | None, deadline: float,
           iterations: int | None, plays: PlayEvidence | None = None,
           pool_size: int = POOL_DEALS) -> Callable[[], list[int]]:
    """Where a search's deals come from: fresh ones from the sampler, or, with ``fits``
    or ``plays``, a pool of ``pool_size`` deals drawn once and used in turn (such a
    deal is slow to find or to weigh, so it is reused rather than drawn for every
    iteration; see bench/RESULTS.md for the sizes measured).  Each deal of the pool
    passes ``fits`` (:meth:`~blackout.bots.sampling.Sampler.sample_fitting`); with
    ``plays``, each hidden hand is drawn card by card by what the seat's plays say of
    each card (:meth:`~blackout.bots.sampling.Sampler.sample_weighted`), and the deals
    used are then drawn from the pool, with replacement, in proportion to the weight
    ``plays`` gives the others' plays over the chance of that draw: a deal that
    explains every play is no longer a needle in a haystack of random ones
    (bench/RESULTS.md, "Twenty-second session").  A search of a fixed number of
    ``iterations`` draws no more deals than it uses; a timed one (``iterations`` None)
    spends at most half its time on the pool."""
    sampler, rng = Sampler(view), search.rng
    if fits is None and plays is None:
        return lambda: sampler.sample(rng)
    timed = iterations is None
    if iterations is not None:
        pool_size = max(1, min(pool_size, iterations))
    started = time.monotonic()
    pool, logs = draw_pool(sampler, rng, fits, plays, pool_size,
                           started + (deadline - started) / 2 if timed else None)
    if plays is not None and len(pool) > 1:
        pool = _resampled(pool, logs, rng)
    in_turn = itertools.cycle(pool)
    return lambda: list(next(in_turn))  # a copy: a search uses its deal up


def draw_pool(sampler: Sampler, rng: random.Random, fits: Fits | None,
              plays: PlayEvidence | None, size: int, until: float | None = None
              ) -> tuple[list[list[int]], list[float]]:
    """The pool of :func:`_deals`: ``size`` deals (at least one, fewer once the monotonic
    clock passes ``until``) and, with ``plays``, each one's log weight."""
    terms = {} if plays is None else plays.card_terms(sampler.unseen, sampler.allowed)
    pool: list[list[int]] = []
    logs: list[float] = []
    while len(pool) < size and not (pool and until is not None and time.monotonic() > until):
        if plays is None:
            pool.append(sampler.sample(rng) if fits is None else
                        sampler.sample_fitting(rng, fits, until=until))
            continue
        deal, drawn = sampler.sample_weighted(rng, terms, fits, until=until)
        pool.append(deal)
        logs.append(plays.deal_log_weight(deal) - drawn)
    return pool, logs


def _resampled(pool: list[list[int]], logs: list[float], rng: random.Random,
               k: int | None = None) -> list[list[int]]:
    """``k`` deals (by default as many as ``pool`` holds) drawn from ``pool``, with
    replacement, each in proportion to the exponential of its log weight in ``logs``."""
    top = max(logs)
    return rng.choices(pool, [math.exp(log - top) for log in logs],
                       k=len(pool) if k is None else k)


def _run(iterate: Callable[[list[int]], None], deal: Callable[[], list[int]],
         deadline: float, iterations: int | None) -> None:
    """Iterate on sampled deals for ``iterations`` or until ``deadline`` nears."""
    done = 0
    slowest = 0.0
    while True:
        started = time.monotonic()
        iterate(deal())
        done += 1
        if iterations is not None:
            if done >= iterations:
                return
            continue
        now = time.monotonic()
        slowest = max(slowest, now - started)
        if now + slowest >= deadline:
            return  # another iteration might not finish in time


class _Tree:
    """The nodes of a search's trees, a node being an index into these lists: how often
    its card was chosen and available, the total value to the seat that chose it, and
    its children by card.  Lists of numbers and dicts of ints are not tracked by the
    cycle collector, so a large tree costs no collection time (a collection over a tree
    of objects took 25-30 ms, enough to overrun a decision's budget)."""

    def __init__(self) -> None:
        self.children: list[dict[int, int]] = []
        self.visits: list[int] = []
        self.avail: list[int] = []
        self.total: list[float] = []

    def add(self) -> int:
        self.children.append({})
        self.visits.append(0)
        self.avail.append(1)
        self.total.append(0.0)
        return len(self.visits) - 1


class _Search:
    """What every tree of one search shares: the table, the generator, the UCB scale,
    and how each seat is expected to play: ``models[s]`` is
    :data:`~blackout.bots.playout.POLICY` (by UCB in the tree, by the play-out policy
    below it), :data:`~blackout.bots.playout.HABIT` (its play habit's best card, its
    row of ``weights``, see :func:`~blackout.bots.playout.play_out`) or
    :data:`~blackout.bots.playout.BASIC` (the basic bot's card); the last two in the tree
    too, where the search follows that card instead of searching the seat's reply.  The
    deciding seat always searches its own cards; the others' nodes are explored
    ``their_exploration`` times as much (see :data:`THEIR_EXPLORATION`)."""

    def __init__(self, view: View, rng: random.Random, exploration: float,
                 rivalry: float, models: Sequence[int] | None = None, endgame: int = 0,
                 their_exploration: float = THEIR_EXPLORATION,
                 weights: Sequence[float] | None = None) -> None:
        self.rng = rng
        self.endgame = endgame
        self.models = tuple(models) if models is not None else (POLICY,) * view.players_count
        self.weights = weights
        self.unseen = view.unseen()
        self.exploration = exploration
        self.their_exploration = their_exploration
        self.me = view.own_seat
        self.rivalry = rivalry
        self.rules = view.rules
        self.players = view.players_count
        self.cards_dealt = view.cards_dealt
        self.low = math.inf
        self.high = -math.inf
        self.tree = _Tree()

    def explore(self, seat: int | None = None) -> float:
        """UCB's constant for the values seen so far, at a node where ``seat`` (by
        default the deciding one) chooses."""
        constant = self.exploration * (self.high - self.low) if self.high > self.low else 1.0
        return constant if seat in (None, self.me) else constant * self.their_exploration

    def choose(self, stats: list[Stats]) -> int:
        """UCB among the root's candidates, every one available every time; each is
        tried once first."""
        total = sum(s.visits for s in stats)
        for index, s in enumerate(stats):
            if not s.visits:
                return index
        explore = self.explore()
        log_total = math.log(total)
        return max(range(len(stats)), key=lambda i: stats[i].value / stats[i].visits
                   + explore * math.sqrt(log_total / stats[i].visits))

    def values(self, points: tuple[int, ...]) -> list[float]:
        """Every seat's value of an outcome: its points less ``rivalry`` times its rivals'
        average."""
        n, rivalry = self.players, self.rivalry
        if self.rules.teams:
            values = [points[s] - rivalry * points[(s + 1) % 4] for s in range(n)]
        else:
            total = sum(points)
            values = [p - rivalry * (total - p) / (n - 1) for p in points]
        self.low = min(self.low, *values)
        self.high = max(self.high, *values)
        return values


class _Line:
    """The play tree from one position: the cards of the trick so far, the tricks won,
    and what every seat plays for."""

    def __init__(self, search: _Search, bids: tuple[BidAction | None, ...], trump: int,
                 declarer: int | None, leader: int, trick: list[int], won: list[int],
                 first: int = (1 << 52) - 1) -> None:
        self.search = search
        self.bids = bids
        self.trump = trump
        self.declarer = declarer
        self.goals: Goals = goals_for(search.rules, bids)
        self.endgame = endgame_for(search.rules, search.cards_dealt, bids, declarer,
                                   search.endgame, search.rivalry)
        self.leader = leader
        self.trick = trick
        self.won = won
        self.first = first  # the cards the root may play
        self.root = search.tree.add()
        self.outcomes: dict[tuple[int, ...], Outcome] = {}

    def iterate(self, hands: list[int]) -> tuple[int, Outcome]:
        """One iteration on one sampled deal (``hands`` is used up): the first card
        played, and how the hand ended."""
        n, trump = self.search.players, self.trump
        trick, leader, won = list(self.trick), self.leader, list(self.won)
        seat = (leader + len(trick)) % n
        remaining = 0
        for hand in hands:
            remaining |= hand
        models = self.search.models
        deck = self.search.unseen & ~remaining  # the cards nobody holds in this deal
        node = self.root
        path: list[tuple[int, int]] = []
        first_card = -1
        while remaining:
            hand = hands[seat]
            legal = playable(hand, trick)
            if first_card < 0:  # the deciding seat's card, at the root
                card, node, grown = self._select(node, legal & self.first, seat)
                first_card = card
            elif (card := self._modelled(seat, hand, trick, won, remaining & ~hand | deck)) >= 0:
                node, grown = self._follow(node, card)
            else:
                card, node, grown = self._select(node, legal, seat)
            path.append((node, seat))
            hands[seat] = hand & ~(1 << card)
            remaining &= ~(1 << card)
            trick.append(card)
            trick, leader, seat = next_turn(trick, leader, won, trump, n)
            if grown:
                break
        if remaining:
            play_out(hands, trump, leader, trick, won, self.goals, models, deck, self.endgame,
                     self.search.weights)
        outcome = self._outcome(tuple(won))
        values = outcome.values
        visits, total = self.search.tree.visits, self.search.tree.total
        for visited, mover in path:
            visits[visited] += 1
            total[visited] += values[mover]
        return first_card, outcome

    def _select(self, node: int, legal: int, seat: int) -> tuple[int, int, bool]:
        """The card ``seat`` plays at ``node`` among the ``legal`` ones of this deal, the
        child for it and whether that child is new (then the play-out takes over)."""
        tree = self.search.tree
        children, visits, avail, total = tree.children[node], tree.visits, tree.avail, tree.total
        untried = []
        best_score = -math.inf
        best = -1
        explore = self.search.explore(seat)
        log, sqrt = math.log, math.sqrt
        while legal:
            low = legal & -legal
            legal ^= low
            card = low.bit_length() - 1
            child = children.get(card)
            if child is None:
                untried.append(card)
                continue
            avail[child] += 1
            tried = visits[child]
            score = total[child] / tried + explore * sqrt(log(avail[child]) / tried)
            if score > best_score:
                best_score, best = score, card
        if untried:
            card = untried[self.search.rng.randrange(len(untried))]
            child = children[card] = tree.add()
            return card, child, True
        return best, children[best], False

    def _modelled(self, seat: int, hand: int, trick: list[int], won: list[int],
                  others: int) -> int:
        """The card ``seat`` plays from ``hand`` by its model, followed rather than
        searched in the tree (a seat taken for a basic bot or played by its habit), or
        -1: its reply is searched.  ``others``: the unplayed cards not in ``hand`` and
        not seen."""
        search = self.search
        model = search.models[seat]
        if model == POLICY:
            return -1
        need, last = self.goals.targets[seat] - won[seat], len(trick) == search.players - 1
        if model == BASIC:
            return model_card(hand, others, trick, self.trump, need, last)
        return model_habit_card(hand, others, trick, self.trump, need, last,
                                seat_weights(search.weights, seat))

    def _follow(self, node: int, card: int) -> tuple[int, bool]:
        """The child of ``node`` for a card the seat's model plays, and whether it is
        new."""
        tree = self.search.tree
        child = tree.children[node].get(card)
        if child is None:
            child = tree.children[node][card] = tree.add()
            return child, True
        tree.avail[child] += 1
        return child, False

    def _outcome(self, won: tuple[int, ...]) -> Outcome:
        """How the hand ends when the tricks end as ``won`` (remembered: a search meets
        the same few outcomes over and over)."""
        outcome = self.outcomes.get(won)
        if outcome is None:
            search = self.search
            rules, bids, n = search.rules, self.bids, search.players
            points = hand_points(rules, search.cards_dealt, bids, won, self.declarer)
            tricks = (tuple(won[s % 2] + won[s % 2 + 2] for s in range(n)) if rules.teams
                      else won)
            made = tuple((rules.teams or bids[s] is not None) and made_bid(rules, bids, won, s)
                         for s in range(n))
            outcome = self.outcomes[won] = Outcome(points, search.values(points), tricks, made)
        return outcome
