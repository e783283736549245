"""The search player: information-set Monte Carlo tree search over sampled deals.

Every decision is searched by :mod:`blackout.bots.tree`: the cards the bot cannot see
are dealt many times over (:class:`~blackout.bots.sampling.Sampler`: void suits
respected; unless ``inference=False``, each hidden hand is kept with the chance the
learnt bid model of :mod:`blackout.bots.inference` gives its owner's bid, and the deals
searched are drawn from a pool of such deals in proportion to the chance, by the learnt
play model, of every card the others have played, tempered
(:data:`~blackout.bots.inference.PLAY_EVIDENCE_POWER`); both models adjusted, from the hands
of the game seen so far, to each player's habits), the seat's own later cards
and the others' answers are searched in a tree, the rest of the hand is played out
with the fast policy of :mod:`blackout.bots.playout` (its last ``endgame`` tricks solved
exactly, if asked), and each outcome is scored with
the table's own :func:`~blackout.core.scoring.hand_points`.  An outcome's value to a
seat is its points, less ``rivalry`` (0 to 1) times its rivals' average: a rivalrous
bot, its own score settled, still plays to cost the others theirs.  The others' choices
in the tree can be explored ``their_exploration`` times as much as the bot's own (by
default as much: each is taken for as careful a player as the bot itself).  The candidate
searched most often is chosen.

How the others play is a model (``others``).  By default (``auto``) the bot watches
them: a player whose every bid and card in the hands seen so far is what the
:mod:`~blackout.bots.basic` bot would have chosen with its cards (judged at the end of
each hand, when its cards are known; see :class:`_Watch`) is expected to go on doing so.
The search then plays that seat's cards by the basic bot's rules instead of searching
them, guesses its bid with the basic bot's rule, and deals it only hands with which
the basic bot would have bid and played as it did.  Until then, and for every player
who ever departs from the basic bot's choice, the others are searched like the bot's
own cards and played out with the fast policy, except a player whose cards, in the
hands seen so far, play weights of its own, or the weights fitted to every other
player's cards together when they all play alike, predicted better than the learnt
model (:meth:`~blackout.bots.inference.Habits.own_play`: a player of firm habits,
whoever wrote it): the search plays its cards by those habits, in the tree and in the
play-outs (:data:`FOLLOW_HABITS`).
``others="policy"`` never takes anyone for a basic bot, ``others="basic"`` takes every
other player for one from the start.
``rivalry`` defaults to 0.5 when the search predicts some player's cards (a player taken
for a basic bot or played by its own habits), whose losses the bot can foresee, and to 0
otherwise (measured, see bench/RESULTS.md).

* Cards: equal cards (a run like Q-J with nothing left between, not even on the
  table) are searched once.
* Bids are judged by the *score* they lead to as the search itself would play the
  hand (nullo's exact 0, Potomac's penalty for a miss and partnership nil and board
  come from the scoring itself); the bids of players still to speak are guessed from
  their sampled hands.
* Potomac: as declarer it names the trump that plays out best; while bidding, the
  sampled declarer names its best-looking suit.  It never changes a bid out of turn,
  since nothing is learnt before the next player bids.
* pbmserv's blind first hand: its own card is what is sampled.

The budget per decision is ``think`` seconds (default 1) or, for repeatable play,
``iterations`` simulations (each on a sampled deal) per candidate action: the same
seed and iterations give the same choices on any machine (with or without the C
accelerator: not across the two, see :mod:`blackout.bots.sampling`).  Under ``think``
a worker starts another deal only if one as slow as its slowest so far still ends
before the deadline, and a little of the budget is kept for handing out and collecting
the work, so a decision ends within ``think`` (unless a single deal takes longer).
``workers`` processes search side by side (started once from a fork server, then
reused) and their trees' counts are added up: by default two under a time budget on a
machine with two cores or more, one with ``iterations`` (pass ``workers=2`` to split a
fixed budget the same way everywhere).

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
import multiprocessing.forkserver
import os
import random
import signal
import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from multiprocessing.pool import Pool
from typing import Any, TypeVar

from blackout.bots.basic import bid_for
from blackout.bots.inference import Habits, HandEvidence, Models, PlayModel, bid_is_telling
from blackout.bots.playout import (
    BASIC,
    EVERY_TRICK,
    HABIT,
    NO_TRUMP,
    PLAY_FEATURES,
    POLICY,
    _fast,
    estimate_tricks,
    goals_for,
    model_card,
    trick_winner_position,
)
from blackout.bots.tree import (
    EXPLORATION,
    RIVALRY,
    THEIR_EXPLORATION,
    Fits,
    PlayEvidence,
    Start,
    Stats,
    search_before_play,
    search_play,
)
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
from blackout.core.cards import Suit
from blackout.core.procedure import declarer_seat, hooked_bid
from blackout.core.view import View

__all__ = ["ExpertBot"]

_T = TypeVar("_T")

#: How the expert expects the other players to play: ``policy``, by its own search and
#: play-out policy; ``basic``, as the basic bot does (individual scoring only); ``auto``,
#: as the basic bot does once a player has been seen to (see :class:`_Watch`).
OTHERS = ("auto", "policy", "basic")
#: The default ``rivalry`` when the search predicts some player's cards (by the basic
#: bot's rules or by the player's own habits): costing a rival points pays only when the
#: bot can foresee the rival's play (measured in bench/RESULTS.md, the sixth and
#: twenty-fourth sessions; otherwise it plays for its own score, ``RIVALRY``).
PREDICTED_RIVALRY = 0.5
#: The last tricks of every simulated hand solved exactly, every card of the sampled deal
#: seen, instead of played out by the policy (individual scoring; measured in
#: bench/RESULTS.md, "Eighth session").
ENDGAME = 0
#: Whether sampled deals are chosen by the learnt models of bids and card play
#: (:mod:`blackout.bots.inference`; measured in bench/RESULTS.md, "Twelfth session").
INFERENCE = True
#: Whether the search plays the cards of a player seen to have play habits of its own
#: (its cards predicted better by weights fitted to it than by the learnt model scaled,
#: :meth:`~blackout.bots.inference.Habits.own_play`) by those habits
#: (:data:`~blackout.bots.playout.HABIT`), in the tree and in the play-outs, instead of
#: searching its replies and playing it out by the policy (against ``basic``, with
#: ``others="policy"``: +0.24 ± 0.17 a hand over 80 deals; bench/RESULTS.md,
#: "Twenty-third session").
FOLLOW_HABITS = True
#: Deals drawn for a search's pool (see :func:`blackout.bots.tree.search_play`) when
#: only the basic bot's replay chooses them (16 to 256 measured, bench/RESULTS.md, "Sixth
#: session"), and when the learnt models do ("Eleventh" and "Twelfth session").
BASIC_POOL = 64
LEARNT_POOL = 128
#: Bids and cards (with a choice of two or more) a player must have been seen to make
#: as the basic bot would have with its cards, and none otherwise, before ``auto``
#: expects it to go on doing so.
EVIDENCE = 3

# Bids further than this from the hand's rough worth are not worth simulating.
_BID_WINDOW = 3
# The part of a time budget kept back for starting the search and collecting the
# workers' answers (measured: a few milliseconds on a 2-core machine).
_RESERVE_SHARE = 0.02
_RESERVE_SECONDS = 0.005
# The cards a trick can hold before its last (seven players at most).
_TRICK_SLOTS = 6


@dataclass(frozen=True, slots=True)
class _Verdict:
    """The search's answer: the action chosen, and what the search found for each
    candidate it searched (empty when there was nothing to search)."""

    action: Action
    found: dict[Action, Stats]

    @property
    def deals(self) -> int:
        """How many hands were simulated (each on a sampled deal)."""
        return sum(stats.visits for stats in self.found.values())

    @property
    def mean(self) -> float:
        """The seat's mean points with the chosen action."""
        return _mean_points(self.found[self.action]) if self.found else 0.0


def _mean_points(stats: Stats) -> float:
    return stats.points / stats.visits if stats.visits else 0.0


class ExpertBot:
    """Tree search over sampled deals (see the module docstring).

    ``think`` is the time budget per decision in seconds; ``iterations``, if given,
    replaces it by a fixed number of simulations per candidate action.  ``others``
    is the model of the other players (one of :data:`OTHERS`) and ``rivalry`` (0 to 1,
    default: see the module docstring) how much their points count against the bot's;
    ``their_exploration`` how many times as much the search explores the others'
    choices as its own (1 takes them for as careful as itself; see
    :data:`blackout.bots.tree.THEIR_EXPLORATION`).
    The bot remembers what it has seen of the others during one game: use a bot for
    one game at a time.
    """

    name = "expert"
    #: The tree search's UCB constant (see :data:`blackout.bots.tree.EXPLORATION`).
    exploration = EXPLORATION

    def __init__(self, seed: int | None = None, think: float = 1.0,
                 iterations: int | None = None, workers: int | None = None,
                 rivalry: float | None = None, others: str = "auto",
                 endgame: int = ENDGAME, inference: bool = INFERENCE,
                 their_exploration: float = THEIR_EXPLORATION) -> None:
        if rivalry is not None and not 0 <= rivalry <= 1:
            raise ValueError("rivalry must be between 0 and 1")
        if not 0 <= endgame <= 13:
            raise ValueError("endgame must be 0 to 13 tricks")
        if not their_exploration > 0:
            raise ValueError("their_exploration must be a positive number")
        self.their_exploration = their_exploration
        self.endgame = endgame
        self.inference = inference
        if others not in OTHERS:
            raise ValueError(f"others must be one of {', '.join(OTHERS)}")
        self.others = others
        self._watch = _Watch()
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if think <= 0:
            raise ValueError("think must be a positive number of seconds")
        if workers is not None and workers < 1:
            raise ValueError("workers must be at least 1")
        self.seed = random.randrange(2**63) if seed is None else seed
        self.think = think
        self.iterations = iterations
        self.rivalry = rivalry
        if workers is None:
            # A fixed budget must not depend on the machine; a time budget uses the cores.
            workers = 1 if iterations is not None else min(2, os.cpu_count() or 1)
        self.workers = workers if _CAN_FORK else 1
        if self.workers > 1:
            _pool(self.workers)  # start the workers now, not inside the first decision

    def observe(self, view: View) -> None:
        """Follow the game from ``view`` without deciding anything: :meth:`choose` does it
        for the bot's own seat; a bot that gives hints to a human follows the human's."""
        self._watch.see(view)

    def choose(self, view: View) -> Action | None:
        self.observe(view)
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

    def evaluate(self, view: View, also: Action | None = None) -> dict[Action, float]:
        """The seat's mean points, as the search finds them, for each action it searches
        now and for ``also`` (a legal action of the seat: the one a player made, for
        the post-game analysis; a card equal to a searched one gets that one's value)."""
        verdict = self._search(view, also)
        values = {action: _mean_points(stats) for action, stats in verdict.found.items()}
        if also is not None and also not in values:
            equal = _equal_play(view, also)
            values[also] = 0.0 if equal is None else values.get(equal, 0.0)
        return values

    def _search(self, view: View, also: Action | None = None) -> _Verdict:
        candidates = _candidates(view)
        if also is not None and also not in candidates and _equal_play(view, also) is None:
            candidates.append(also)
        if len(candidates) == 1:
            return _Verdict(candidates[0], {})
        key = f"expert:{self.seed}:{_decision_key(view)}"
        # Keep back what handing out the work and adding up the answers costs, so the
        # whole decision fits in ``think``.
        deadline = time.monotonic() + self.think * (1 - _RESERVE_SHARE) - _RESERVE_SECONDS
        models, weights = self._models(view)
        fits, plays, pool = self._evidence(view, models)
        rivalry = self._rivalry(models)
        jobs: list[tuple[Any, ...]]
        if view.phase == "play":
            cards = [action.card for action in candidates if isinstance(action, Play)]
            work: Callable[..., list[Stats]] = search_play
            jobs = [(view, cards, f"{key}:{k}", deadline, share, self.exploration,
                     rivalry, models, fits, self.endgame, plays, pool,
                     self.their_exploration, weights)
                    for k, share in self._shares(len(candidates))]
        else:
            work = search_before_play
            jobs = [(view, candidates, partial(_begin, view, models), f"{key}:{k}", deadline,
                     share, self.exploration, rivalry, models, fits, self.endgame,
                     plays, pool, self.their_exploration, weights)
                    for k, share in self._shares(len(candidates))]
        totals = [Stats() for _ in candidates]
        for stats in self._run(work, jobs):
            for total, found in zip(totals, stats, strict=True):
                total.visits += found.visits
                total.value += found.value
                total.points += found.points
                total.tricks += found.tricks
                total.made += found.made
        best = max(range(len(candidates)), key=lambda i: (totals[i].visits, totals[i].value))
        return _Verdict(candidates[best], dict(zip(candidates, totals, strict=True)))

    def _evidence(self, view: View, models: tuple[int, ...]
                  ) -> tuple[Fits | None, PlayEvidence | None, int]:
        """What the others' bids and cards say about their hands, and the size of the
        pool of deals to draw: a seat taken for a basic bot must have bid and played as
        it would have; every other hidden seat's hand is judged by the learnt models,
        when the bot uses them."""
        basic = _bids_test(view, models)
        shipped = Models.shipped() if self.inference else None
        learnt = None
        if shipped is not None:
            judged = [s for s in range(view.players_count) if models[s] != BASIC]
            learnt = HandEvidence(view, judged, shipped, self._watch.habits)
        if learnt is None or not learnt:
            return basic, None, BASIC_POOL
        fits = _EveryFit(basic, learnt) if basic is not None or learnt.bids else None
        plays = learnt if learnt.plays else None
        return fits, plays, LEARNT_POOL

    def _models(self, view: View) -> tuple[tuple[int, ...], list[float] | None]:
        """How the search expects each seat to play, and every seat's play weights, seat
        after seat, for the :data:`~blackout.bots.playout.HABIT` seats (``None``: there
        is none; see :func:`~blackout.bots.playout.play_out`)."""
        if view.rules.teams or self.others == "policy":
            basic: set[int] = set()
        elif self.others == "basic":
            basic = set(range(view.players_count))
        else:
            basic = self._watch.basic_seats()
        models: list[int] = []
        weights: list[float] = []
        for seat in range(view.players_count):
            own = None if seat == view.seat or seat in basic else self._own_habit(view, seat)
            models.append(BASIC if seat in basic and seat != view.seat
                          else POLICY if own is None else HABIT)
            weights.extend((0.0,) * len(PLAY_FEATURES) if own is None else own.weights)
        return tuple(models), weights if HABIT in models else None

    def _rivalry(self, models: tuple[int, ...]) -> float:
        """The ``rivalry`` the search plays with, given how it expects each seat to play
        (see :data:`PREDICTED_RIVALRY`)."""
        if self.rivalry is not None:
            return self.rivalry
        return PREDICTED_RIVALRY if BASIC in models or HABIT in models else RIVALRY

    def _own_habit(self, view: View, seat: int) -> PlayModel | None:
        """The play habit of its own ``seat`` was seen to have, if the search plays its
        cards by it (see :data:`FOLLOW_HABITS`)."""
        habits = self._watch.habits
        if not FOLLOW_HABITS or not self.inference or view.rules.teams or habits is None:
            return None
        return habits.own_play(seat)

    def _shares(self, per_unit: int) -> list[tuple[int, int | None]]:
        """Each worker's number and share of the fixed budget, ``per_unit`` iterations a
        unit of ``iterations`` (``None``: run to the deadline)."""
        if self.iterations is None:
            return [(k, None) for k in range(self.workers)]
        budget = self.iterations * per_unit
        shares = [(k, budget // self.workers + (k < budget % self.workers))
                  for k in range(self.workers)]
        return [(k, share) for k, share in shares if share]

    def _run(self, work: Callable[..., _T], jobs: list[tuple[Any, ...]]) -> list[_T]:
        if self.workers == 1:
            return [work(*job) for job in jobs]
        return _pool(self.workers).starmap(work, jobs)


# Workers come from a fork server: a clean process started for the purpose, so a pool
# made inside a threaded process (the web server, a test run with servers in threads)
# never forks a copy of another thread's held lock and hangs.
_CAN_FORK = "forkserver" in multiprocessing.get_all_start_methods()
_POOLS: dict[int, Pool] = {}


def _pool(workers: int) -> Pool:
    """A pool of workers, started once per process and shared by every bot."""
    if workers not in _POOLS:
        if not _POOLS:
            atexit.register(_close_pools)
        _start_fork_server_deaf_to_ctrl_c()
        _POOLS[workers] = multiprocessing.get_context("forkserver").Pool(
            workers, initializer=_leave_interrupts_to_the_parent)
    return _POOLS[workers]


def _start_fork_server_deaf_to_ctrl_c() -> None:
    """The fork server ignores Ctrl-C only once its imports are done; a Ctrl-C before
    then printed a ``KeyboardInterrupt`` traceback. An ignored signal stays ignored
    across exec (and Python then installs no handler of its own), so the server is
    started with SIGINT ignored here, for the few milliseconds its start takes; its
    workers inherit the same."""
    previous = signal.getsignal(signal.SIGINT)
    # Only the main thread may set handlers, and a handler set outside Python (None)
    # could not be put back.
    if threading.current_thread() is not threading.main_thread() or previous is None:
        multiprocessing.forkserver.ensure_running()
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def _leave_interrupts_to_the_parent() -> None:
    """Ctrl-C reaches every process of the terminal's foreground group: the workers
    ignore it (else each prints ``Process ForkPoolWorker-1:`` and a traceback), and the
    parent, interrupted, ends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
        # A card on the table still tells two of ours apart: with 7C led, 5C and 9C
        # differ even when every other club between them is gone.
        on_table = sum(1 << card for _, card in view.trick)
        return _distinct_plays(legal, view.unseen() | on_table)
    if view.phase != "bid" or view.blind:
        return legal
    worth = _own_worth(view)
    near = [a for a in legal if not isinstance(a, Bid) or abs(a.tricks - worth) <= _BID_WINDOW]
    # Zero is a bid of its own kind (nullo pays for it; it is the cheap way to duck).
    zero = [a for a in legal if a == BIDS[0] and a not in near]
    return near + zero or legal


def _equal_play(view: View, action: Action) -> Action | None:
    """The searched card that ``action`` (a card) is equal to, if it is not searched
    itself (see :func:`_distinct_plays`)."""
    if not isinstance(action, Play):
        return None
    searched = _candidates(view)
    if action in searched:
        return None
    on_table = sum(1 << card for _, card in view.trick)
    between_ours = view.unseen() | on_table
    below = [a for a in searched if isinstance(a, Play) and a.card // 13 == action.card // 13
             and a.card < action.card]
    if not below:
        return None
    nearest = max(below, key=lambda a: a.card if isinstance(a, Play) else -1)
    assert isinstance(nearest, Play)
    between = ((1 << action.card) - 1) & ~((2 << nearest.card) - 1)
    return None if between_ours & between else nearest


def _distinct_plays(legal: list[Action], between_ours: int) -> list[Action]:
    """The legal plays less those equal to a lower one: cards of a suit with none of
    ``between_ours`` between them (the cards that can still part two of ours: those
    unseen and those on the table) do the same, so only the lowest of such a run is
    searched."""
    distinct: list[Action] = []
    previous = -2
    for action in sorted(legal, key=lambda a: a.card if isinstance(a, Play) else -1):
        assert isinstance(action, Play)
        card = action.card
        between = ((1 << card) - 1) & ~((2 << previous) - 1) if previous >= 0 else 0
        if previous // 13 == card // 13 and not between_ours & between:
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


class _Watch:
    """Who, of the other players in the game a bot is playing, has made every bid and
    card as the basic bot would have with its cards.

    A hand is judged when the next one starts, on the last view of it the bot was
    given: at its last card every card of the others is known but the one each may
    still hold (a player with more unseen cards is not judged), and a player is
    consistent with the basic bot if some unseen card as that one makes each of its bids
    and cards what the basic bot would have chosen.  A player is taken for a basic bot
    after :data:`EVIDENCE` such decisions; one inconsistent hand rules it out for the
    game.  The same last view teaches :attr:`habits` how each player, whatever ``others``
    says, departs from the learnt models (:class:`~blackout.bots.inference.Habits`).
    """

    def __init__(self) -> None:
        self._game: tuple[object, ...] | None = None
        self._last: View | None = None
        self._agreed: dict[int, int] = {}
        self._broken: set[int] = set()
        self.habits = self._new_habits()

    @staticmethod
    def _new_habits() -> Habits | None:
        models = Models.shipped()
        return None if models is None else Habits(models)

    def see(self, view: View) -> None:
        game = (view.players, view.rules, view.seat)  # one seat of one game
        if game != self._game or (self._last and view.hand_number < self._last.hand_number):
            self._game, self._agreed, self._broken = game, {}, set()
            self.habits = self._new_habits()
        elif self._last is not None and view.hand_number != self._last.hand_number:
            self._judge(self._last)
            if self.habits is not None:
                self.habits.learn(self._last)
        self._last = view

    def basic_seats(self) -> set[int]:
        return {seat for seat, decisions in self._agreed.items()
                if decisions >= EVIDENCE and seat not in self._broken}

    def _judge(self, view: View) -> None:
        if not _judgeable(view):
            return
        others = tuple(BASIC if s != view.seat else POLICY for s in range(view.players_count))
        evidence = _BasicEvidence(view, others)
        unseen = view.unseen()
        for seat in evidence.bids:
            left = view.cards_dealt - evidence.played[seat].bit_count()
            if left > 1:
                continue  # too much of its hand unknown
            last_cards = [0] if left == 0 else [1 << c for c in range(52) if unseen >> c & 1]
            if any(evidence(seat, card) for card in last_cards):
                self._agreed[seat] = self._agreed.get(seat, 0) + evidence.choices(seat)
            else:
                self._broken.add(seat)


def _judgeable(view: View) -> bool:
    """Whether the basic bot's bid can be told from the bidder's cards alone: not in a
    blind hand, nor when trump is named after the bidding, nor in partnership."""
    return bid_is_telling(view) and not view.rules.teams


def _bids_test(view: View, models: tuple[int, ...]) -> _BasicEvidence | None:
    """For seats taken for basic bots: a test that a sampled deal gives each a hand it
    would have made its bid and played its cards with (``None``: nothing to test)."""
    if BASIC not in models or not _judgeable(view):
        return None
    evidence = _BasicEvidence(view, models)
    return evidence if evidence.bids else None


class _EveryFit:
    """``fits`` for every hidden seat: the basic bot's replay for a seat taken for one,
    the learnt bid model's chance for the others."""

    def __init__(self, basic: _BasicEvidence | None, learnt: HandEvidence | None) -> None:
        self.basic = basic
        self.learnt = learnt

    def __call__(self, seat: int, hand: int) -> float:
        if self.basic is not None and seat in self.basic.bids:
            return float(self.basic(seat, hand))
        return 1.0 if self.learnt is None else self.learnt.bid_chance(seat, hand)


class _BasicEvidence:
    """What a basic bot's bid and cards say about its hand: ``self(seat, hand)`` is
    whether ``hand`` (its unplayed cards) would have bid and played as it did."""

    def __init__(self, view: View, models: tuple[int, ...]) -> None:
        self.view = view
        self.trump = NO_TRUMP if view.trump is None else int(view.trump)
        self.played = played = view.played_by()  # each seat's cards played this hand
        order = view.bidding_order
        # seat -> (cards it has played, bids before it, its bid)
        self.bids: dict[int, tuple[int, int, int]] = {}
        for position, seat in enumerate(order):
            bid = view.bids[seat]
            if models[seat] == BASIC and isinstance(bid, Bid):
                before = sum(b.tricks for s in order[:position]
                             if isinstance(b := view.bids[s], Bid))
                self.bids[seat] = (played[seat], before, bid.tricks)
        # seat -> each card it played: (its cards played from then on, the cards nobody
        # had seen played or turned up then, the trick so far, the tricks it needed)
        self.plays: dict[int, list[tuple[int, int, tuple[int, ...], int, int]]] = {
            seat: [] for seat in self.bids}
        self._bid_fits: dict[tuple[int, int], bool] = {}
        self._record_plays(view, played)
        # The same plays packed for the C accelerator's replay, one call a hand tried.
        self._packed = {} if _fast is None else {seat: array("q", [
            number for from_here, unseen, trick, need, card in plays
            for number in (from_here, unseen, need, card, len(trick),
                           *trick, *[0] * (_TRICK_SLOTS - len(trick)))]).tobytes()
            for seat, plays in self.plays.items()}

    def _record_plays(self, view: View, played: list[int]) -> None:
        turn_up = view.turn_up_mask
        still_to_play = list(played)  # each seat's cards played from this point on
        for made in view.plays_made():
            seat = made.seat
            if seat in self.plays:
                self.plays[seat].append((still_to_play[seat], made.unplayed & ~turn_up,
                                         made.trick, self.bids[seat][2] - made.won,
                                         made.card))
            still_to_play[seat] &= ~(1 << made.card)

    def choices(self, seat: int) -> int:
        """How many of the seat's decisions were real choices: its bid and the cards it
        played with two or more in hand."""
        return 1 + sum(1 for from_here, *_ in self.plays[seat] if from_here & (from_here - 1))

    def __call__(self, seat: int, hand: int) -> bool:
        if seat not in self.bids:
            return True
        view = self.view
        last = view.players_count - 1
        if _fast is not None:
            if not _fast.replays_basic(hand, self._packed[seat], self.trump, last):
                return False
        else:
            for from_here, unseen, trick, need, card in self.plays[seat]:
                held = hand | from_here
                if model_card(held, unseen & ~held, list(trick), self.trump, need,
                              len(trick) == last) != card:
                    return False
        played, before, bid = self.bids[seat]
        full = hand | played
        fits = self._bid_fits.get((seat, full))
        if fits is None:  # small hands come round again and again
            fits = self._bid_fits[seat, full] = bid_for(view, seat, full, view.trump,
                                                        before) == bid
        return fits


def _begin(view: View, models: tuple[int, ...], hands: list[int], action: Action) -> Start:
    """How the play starts in a sampled deal if the seat takes ``action`` (a bid, or
    naming trump): the bids still to come are guessed from their sampled hands, by
    basic's rule for a seat ``models`` takes for a basic bot."""
    bids: list[BidAction | None] = list(view.bids)
    trump = _trump_of(view)
    declarer = view.declarer
    if isinstance(action, ChooseTrump):
        trump = NO_TRUMP if action.suit is None else int(action.suit)
    else:
        assert isinstance(action, Bid | Nil | Board)
        me = view.own_seat
        bids[me] = action
        later = view.bidding_order[view.bidding_order.index(me) + 1:]
        for seat in later:
            if models[seat] == BASIC and trump is not None:
                others = sum(b.tricks for b in bids if isinstance(b, Bid))
                suit = None if trump == NO_TRUMP else Suit(trump)
                bids[seat] = BIDS[bid_for(view, seat, hands[seat], suit, others)]
            else:
                bids[seat] = _guess_bid(view, seat, hands[seat], trump, bids,
                                        seat == later[-1])
        if trump is None:
            declarer = _declarer(view, bids)
            trump = _best_trump(hands[declarer], view.players_count)
    assert trump is not None
    return Start(tuple(bids), trump, declarer, view.first_leader)


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
    return _off_the_hook(view, min(worth, view.cards_dealt), bids, last)


def _off_the_hook(view: View, tricks: int, bids: list[BidAction | None], last: bool
                  ) -> BidAction:
    """A bid of ``tricks`` (0 to the hand size), one trick nearer the middle if the hook
    forbids it to the last bidder after ``bids``."""
    total = sum(b.tricks for b in bids if isinstance(b, Bid))
    if tricks == hooked_bid(view.rules, view.cards_dealt, total, last):
        tricks += 1 if tricks == 0 else -1
    return BIDS[tricks]


def _declarer(view: View, bids: list[BidAction | None]) -> int:
    """Potomac's declarer, the bids guessed as made in the bidding order."""
    return declarer_seat(bids, view.bidding_order)


def _best_trump(hand: int, players: int) -> int:
    return max(range(-1, 4), key=lambda s: estimate_tricks(hand, s, players))


# -- explaining a decision ---------------------------------------------------------------------


def _reason(view: View, verdict: _Verdict) -> str:
    """One line saying why, every number in it from the search that chose the action."""
    action = verdict.action
    if not verdict.found:
        if len(view.legal_actions) == 1:
            return f"{action} is the only legal move"
        return f"the cards I may play are all equal: {action}"
    stats = verdict.found[action]
    average = f"averages {verdict.mean:+.1f} points over {stats.visits} simulated hands"
    if isinstance(action, Play):
        return f"{_play_situation(view, action.card)}; {action} {average}"
    if isinstance(action, ChooseTrump):
        named = "no trump" if action.suit is None else action.suit.plural
        return f"{named} {average}"
    return _bid_reason(view, verdict)


def _bid_reason(view: View, verdict: _Verdict) -> str:
    """Why a bid: the tricks the search expects to take with it, how often it made the
    bid exactly, its points; and, when the bid is not the nearest to those tricks, what
    the nearest bid would have averaged or why it was not open."""
    action = verdict.action
    stats = verdict.found[action]
    tricks = stats.tricks / stats.visits
    made = f"{stats.made / stats.visits:.0%} of {stats.visits} simulated hands"
    points = f"{verdict.mean:+.1f} points a hand"
    if not isinstance(action, Bid):
        return f"{action}: made in {made}, {points}"
    if view.rules.teams:
        return (f"bid {action}: the team takes {tricks:.1f} tricks on average and makes "
                f"its contract in {made}, {points}")
    why = (f"bid {action}: with it I take {tricks:.1f} tricks on average, exactly "
           f"{action.tricks} in {made}, {points}")
    if abs(action.tricks - tricks) < 1:
        return why
    nearest = BIDS[min(round(tricks), view.cards_dealt)]
    if nearest in verdict.found:
        return why + f"; bid {nearest} averages {_mean_points(verdict.found[nearest]):+.1f}"
    if nearest not in view.legal_actions:
        return why + f"; the hook forbids {nearest}"
    return why + f"; {nearest} was not searched: the hand looked too far from it"


def _play_situation(view: View, card: int) -> str:
    """The seat's aim this hand and what the card does to the trick so far, said so as
    never to contradict the card: "duck" only for a card that does not win the trick so
    far, "cannot duck" only when every legal card would."""
    goals = goals_for(view.rules, list(view.bids))
    seat = view.own_seat
    if goals.targets[seat] == EVERY_TRICK:
        return "covering partner's nil: take what I can"
    need = goals.need(seat, list(view.tricks_won))
    if need == EVERY_TRICK:
        return "over the bid: every trick still scores"
    on_table = [c for _, c in view.trick]
    trump = _trump_of(view)
    trump = NO_TRUMP if trump is None else trump

    def wins(mine: int) -> bool:
        trick = [*on_table, mine]
        return trick_winner_position(trick, trump) == len(trick) - 1

    legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
    winning = wins(card)
    could_win = any(wins(c) for c in legal)
    could_lose = not all(wins(c) for c in legal)
    if need > 0:
        plural = "trick" if need == 1 else "tricks"
        if winning:
            return f"need {need} more {plural}: take it"
        return f"need {need} more {plural}: " + (
            "save strength" if could_win else "nothing I hold wins this trick")
    aim = "bid made" if need == 0 else "over the bid"
    if not winning:
        return f"{aim}: duck"
    if not could_lose:
        return f"{aim}: cannot duck"
    return f"{aim}, yet taking this trick scores better than ducking"
