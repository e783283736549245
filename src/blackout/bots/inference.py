"""What the others' bids and cards say about their hidden hands: two learnt models.

* :class:`BidModel`: a player's bid is a normal around a line in features of the hand it
  was dealt (the search's quick estimate of its tricks and a careful card-by-card count,
  the one the basic bot bids by, trump length and honours, plain
  aces, kings and queens, voids and singletons beside a trump, first or last to bid, the
  hand size and the kind of scoring), rounded to whole tricks and censored at 0 and at
  the hand size; its spread depends on the hand size and the scoring (the search
  assumes :data:`BID_SPREAD_SCALE` of the fitted spread).  Used only where
  a bid was made seeing the trump and one's own cards (not in a blind hand, nor where
  trump is named after the bidding) and for plain bids (not partnership nil or board).
* :class:`PlayModel`: a player's card is a conditional logit over its legal cards
  (rank, trump, whether the card takes the trick so far, highest or lowest of them, top
  of its suit among the cards still out, each against whether the player still needs
  tricks; leading, discarding, ruffing; and the common tactics, :data:`TACTIC_FEATURES`).

Both are fitted to seeded self-play of every preset by ``tools/train_inference.py``
and shipped as package data (``inference.json``); pure Python at run time.

:class:`HandEvidence` puts them to work for one view: :meth:`HandEvidence.bid_chance`
is the chance (scaled so the likeliest hand for the bid has 1) to keep a sampled hand
for a seat given its bid, for rejection sampling seat by seat
(:meth:`~blackout.bots.sampling.Sampler.sample_fitting`), and
:meth:`HandEvidence.play_log_likelihood` the log chance, with a sampled deal's hands, of
every card the hidden seats have played this hand; :mod:`blackout.bots.tree` draws the
deals it searches by that chance raised to :data:`PLAY_EVIDENCE_POWER`
(:meth:`HandEvidence.deal_log_weight`; measured in bench/RESULTS.md, "Twelfth session"
and "Nineteenth session").  So that a sharp model does not give a few deals all the
weight, each hidden hand is first drawn card by card by what the seat's plays say of
each card (:meth:`HandEvidence.card_terms`), and weighed by that chance over its draw's
("Twenty-second session").

The models describe the self-play they were fitted to; a real player has habits of its
own.  :class:`Habits` learns them during a game: after each hand, whose cards are then
known, how far each player's bids lay from the model's mean, and which play model
predicted its cards best: the learnt one scaled, one with weights of the player's own,
or one fitted to every other player's cards together, for a table of players who play
alike (:class:`Habit`); :class:`HandEvidence` then shifts and scales the bid model and
uses that play model for that player.  Until a player's hands are seen, the models stand as
fitted (bench/RESULTS.md, "Fourteenth" and "Twentieth session").
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from blackout.bots.basic import hand_distribution
from blackout.bots.playout import PLAY_FEATURES, TACTIC_FEATURES, estimate_tricks, play_features
from blackout.core.actions import Bid, Board, Nil
from blackout.core.cards import FULL_DECK, SUIT_MASKS
from blackout.core.rules import Rules
from blackout.core.view import View

__all__ = [
    "ANY_BID",
    "BID_FEATURES",
    "BID_SPREAD_SCALE",
    "OWN_WEIGHTS_EVIDENCE",
    "PLAY_EVIDENCE_POWER",
    "PLAY_FEATURES",
    "PLAY_WEIGHT_PRECISION",
    "SCORINGS",
    "SPREAD_FEATURES",
    "TACTIC_FEATURES",
    "TACTIC_WEIGHT_PRECISION",
    "BidModel",
    "Habit",
    "Habits",
    "HandEvidence",
    "Models",
    "PlayModel",
    "bid_features",
    "bid_is_telling",
    "fit_play_weights",
    "log_softmax",
    "play_features",
    "rounded_normal_chance",
    "view_bid_features",
    "view_play_features",
]

#: The scorings with a term of their own in the bid model (``ten_plus_bid`` is the base).
SCORINGS = ("five_plus_cards", "nullo", "tricks_plus_ten", "partnership")
BID_FEATURES = (
    "bias", "estimate", "hand_tricks", "trumps", "trump_ace", "trump_king", "trump_queen",
    "trump_jack", "aces", "kings", "queens", "voids_beside_trump", "singletons_beside_trump",
    "last", "first", "cards", *SCORINGS,
)
#: The bid's spread is the exponential of a line in these of :data:`BID_FEATURES` (how
#: closely players bid depends on the hand size and the scoring).
SPREAD_FEATURES = ("bias", "cards", *SCORINGS)
_SPREAD_COLUMNS = tuple(BID_FEATURES.index(name) for name in SPREAD_FEATURES)
#: The share of the fitted spread the search assumes of a bid: the self-play bids the
#: model is fitted to (a modest budget, tables of 2 to 6) scatter more than a strong
#: player's, and a sharper model drew better deals (bench/RESULTS.md, "Twelfth session":
#: 0.6 chosen on one set of deals and checked on another).  Kept for the bid model that
#: reads ``hand_tricks``: at 0.8, which names its bids better in log loss, it played no
#: better against ISMCTS or ``basic`` ("Twenty-ninth session").
BID_SPREAD_SCALE = 0.6
#: The power to which a search raises the chance of the others' plays when it weighs a
#: deal by them (:meth:`HandEvidence.deal_log_weight`): the play model, fitted to
#: self-play at a modest budget, is surer of a player's card than the cards bear out,
#: and a pool weighed by the full chance is worth fewer deals.  At 0.5 the pool's deals
#: say where the hidden cards are better than at 1 on 7 and 12 cards, for the cards of
#: ISMCTS and of the expert alike, and better than at 0.25 or 0.75 or with the model's
#: scores halved on 7 (``bench/inference.py``; bench/RESULTS.md, "Nineteenth session").
PLAY_EVIDENCE_POWER = 0.5
#: The share of bids taken to say nothing of the hand (a misjudged hand, a gamble, a
#: player the model does not describe): no hand is ever ruled out by its bid, and the
#: sampler keeps at least this share of the hands it draws, however unlikely the bid.
ANY_BID = 0.02
_SUIT = 0x1FFF


def bid_is_telling(view: View) -> bool:
    """Whether the bids of this view's hand were made seeing one's cards and the trump."""
    blind = view.blind or (view.rules.blind_first_hand and view.hand_number == 1)
    return not blind and view.rules.trump != "declarer"


def bid_features(hand: int, trump: int, players: int, first: bool, last: bool,
                 rules: Rules, leads: bool, seen: int) -> list[float]:
    """The features (in :data:`BID_FEATURES` order) of a dealt hand (all its cards) for
    its bid; ``trump`` is a suit number or -1 for no trump, ``leads`` whether the bidder
    leads the first trick, ``seen`` the cards it saw besides its own (the turned-up
    card).  ``hand_tricks`` is the mean of :func:`~blackout.bots.basic.hand_distribution`:
    a careful count predicts a strong player's bids better than the quick estimate alone
    (bench/RESULTS.md, "Twenty-eighth session")."""
    cards = hand.bit_count()
    unseen = FULL_DECK & ~hand & ~seen
    chances = hand_distribution(hand, unseen, cards, players, leads, trump)
    hand_tricks = sum(t * q for t, q in enumerate(chances))
    trumps = hand >> (13 * trump) & _SUIT if trump >= 0 else 0
    aces = kings = queens = voids = singletons = 0
    for suit in range(4):
        if suit == trump:
            continue
        bits = hand >> (13 * suit) & _SUIT
        length = bits.bit_count()
        aces += bits >> 12 & 1
        kings += bits >> 11 & 1 and length >= 2
        queens += bits >> 10 & 1 and length >= 3
        voids += length == 0
        singletons += length == 1
    beside_trump = trumps != 0
    return [
        1.0, estimate_tricks(hand, trump, players), hand_tricks, trumps.bit_count(),
        trumps >> 12 & 1, trumps >> 11 & 1, trumps >> 10 & 1, trumps >> 9 & 1, aces, kings,
        queens, voids * beside_trump, singletons * beside_trump, float(last), float(first),
        cards / 13, *(float(rules.scoring == s) for s in SCORINGS),
    ]


def view_bid_features(view: View, seat: int, hand: int) -> list[float]:
    """:func:`bid_features` of ``hand`` as ``seat`` bid it in ``view``'s hand (trump
    decided): its place in the bidding, whether it leads, the turned-up card."""
    order = view.bidding_order
    position = order.index(seat)
    return bid_features(hand, -1 if view.trump is None else int(view.trump),
                        view.players_count, position == 0, position == len(order) - 1,
                        view.rules, seat == view.first_leader, view.turn_up_mask)


def _normal_cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def rounded_normal_chance(bid: int, mean: float, spread: float, cards: int) -> float:
    """The chance of ``bid`` when the bid is a normal around ``mean`` rounded to the
    nearest whole number of tricks, censored at 0 and at ``cards``."""
    low = 0.0 if bid <= 0 else _normal_cdf((bid - 0.5 - mean) / spread)
    high = 1.0 if bid >= cards else _normal_cdf((bid + 0.5 - mean) / spread)
    return high - low


@dataclass(frozen=True, slots=True)
class BidModel:
    """A rounded normal around ``coefficients`` · :func:`bid_features`, of spread the
    exponential of ``spread`` · the row's :data:`SPREAD_FEATURES`."""

    coefficients: tuple[float, ...]
    spread: tuple[float, ...]

    def __post_init__(self) -> None:
        if (len(self.coefficients) != len(BID_FEATURES)
                or len(self.spread) != len(SPREAD_FEATURES)):
            raise ValueError("bid model: wrong number of coefficients")

    def chance(self, bid: int, row: Sequence[float], cards: int) -> float:
        """The chance of ``bid`` from a hand of ``cards`` cards with features ``row``."""
        return rounded_normal_chance(bid, self.mean(row), self.deviation(row), cards)

    def deviation(self, row: Sequence[float]) -> float:
        """The spread of the bid of a hand with features ``row``."""
        return math.exp(sum(w * row[i] for w, i in zip(self.spread, _SPREAD_COLUMNS,
                                                       strict=True)))

    def mean(self, row: Sequence[float]) -> float:
        """The mean bid of a hand with features ``row``."""
        mean: float = sum(map(operator.mul, self.coefficients, row))
        return mean

    def sharpened(self, scale: float) -> BidModel:
        """The same model with its spread times ``scale``."""
        spread = (self.spread[0] + math.log(scale), *self.spread[1:])
        return BidModel(self.coefficients, spread)

    def shifted(self, offset: float) -> BidModel:
        """The same model bidding ``offset`` tricks more (the first feature is 1)."""
        return BidModel((self.coefficients[0] + offset, *self.coefficients[1:]), self.spread)

    def best_chance(self, bid: int, row: Sequence[float], cards: int) -> float:
        """The highest chance any hand like ``row`` (the same hand size and scoring) can
        give ``bid``: that of a hand whose mean is the bid."""
        if 0 < bid < cards:
            return rounded_normal_chance(bid, bid, self.deviation(row), cards)
        return 1.0  # 0 or every trick: certain for a hand far enough below or above


def view_play_features(view: View) -> tuple[list[int], list[list[float]]]:
    """:func:`play_features` of the card ``view``'s seat is to play, as it sees the
    trick: its legal cards and their features, with the tricks its bid still wants
    (none before a bid)."""
    seat = view.own_seat
    trick = [int(card) for _, card in view.trick]
    wanted = tricks_wanted(view.bids[seat], view.cards_dealt) or 0
    return play_features(view.hand, trick, -1 if view.trump is None else int(view.trump),
                         wanted - view.tricks_won[seat], len(trick) == view.players_count - 1,
                         ((1 << 52) - 1) & ~view.played & ~view.turn_up_mask)


@dataclass(frozen=True, slots=True)
class PlayModel:
    """A softmax of ``weights`` · :func:`play_features` over the legal cards."""

    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.weights) != len(PLAY_FEATURES):
            raise ValueError("play model: wrong number of weights")

    def scores(self, rows: list[list[float]]) -> list[float]:
        """Each legal card's score (its log chance, up to a constant)."""
        weights = self.weights
        return [sum(map(operator.mul, weights, row)) for row in rows]

    def log_chance(self, card: int, cards: list[int], rows: list[list[float]]) -> float:
        """The log chance of playing ``card`` among ``cards`` with features ``rows``."""
        return log_softmax(self.scores(rows), cards.index(card))

    def sharpened(self, sharpness: float) -> PlayModel:
        """The same model with every score times ``sharpness`` (above 1: surer)."""
        return PlayModel(tuple(sharpness * w for w in self.weights))


def log_softmax(scores: Sequence[float], index: int) -> float:
    """The log chance of choice ``index`` when each choice's chance goes as exp(score)."""
    top = max(scores)
    return scores[index] - top - math.log(sum(math.exp(s - top) for s in scores))


@dataclass(frozen=True, slots=True)
class Models:
    bid: BidModel
    play: PlayModel

    @staticmethod
    @cache
    def shipped() -> Models | None:
        """The models shipped with the package, or ``None`` if they are missing."""
        try:
            text = resources.files("blackout.bots").joinpath("inference.json").read_text()
        except (FileNotFoundError, OSError):
            return None
        data = json.loads(text)
        bid, play = data["bid"], data["play"]
        # A play model fitted before the tactic features were: they weigh nothing in it.
        untaught = len(PLAY_FEATURES) - len(play["features"])
        if (tuple(bid["features"]) != BID_FEATURES
                or tuple(bid["spread_features"]) != SPREAD_FEATURES
                or untaught not in (0, len(TACTIC_FEATURES))
                or tuple(play["features"]) != PLAY_FEATURES[:len(play["features"])]):
            return None
        return Models(BidModel(tuple(bid["coefficients"]), tuple(bid["spread"])),
                      PlayModel((*play["weights"], *[0.0] * untaught)))


def tricks_wanted(bid: object, cards: int) -> int | None:
    """The tricks a bid asks for (nil none, board all), or ``None`` before a bid."""
    if isinstance(bid, Bid):
        return bid.tricks
    if isinstance(bid, Nil):
        return 0
    if isinstance(bid, Board):
        return cards
    return None


@dataclass(frozen=True, slots=True)
class Habit:
    """How one player departs from the learnt models, as far as its past hands show:
    it bids ``offset`` tricks more than the bid model's mean, with ``spread`` of the
    model's spread, and plays as ``play`` (``None``: the play model as learnt)."""

    offset: float = 0.0
    spread: float = BID_SPREAD_SCALE
    play: PlayModel | None = None


#: The spread of the belief, before a player's hands are seen, in its bid offset (in
#: tricks) and in the logarithms of its bid spread's share and of its play sharpness:
#: a player is taken to bid and play like the self-play the models were fitted to until
#: some hands say otherwise.
OFFSET_PRIOR = 0.5
SPREAD_PRIOR = 0.5
SHARPNESS_PRIOR = 0.5
_OFFSETS = tuple(k / 10 for k in range(-20, 21))
_SPREAD_STEPS = tuple(k / 8 for k in range(-12, 7))  # 0.22 to 2.1 times the prior's
_SHARPNESS_STEPS = tuple(k / 8 for k in range(-8, 17))  # 0.37 to 7.4
#: The least chance a habit gives a bid it saw, so one wild bid does not rule it out.
_BID_FLOOR = 1e-3
#: Besides the learnt play model with its scores scaled to fit a player (one number),
#: the model's every weight fitted to the player, held to the learnt weights by a
#: Gaussian prior of this precision (:data:`TACTIC_WEIGHT_PRECISION` for the tactic
#: features, which the learnt model gives no weight).  Scaling suits a player like the
#: self-play the model was learnt from; weights of its own, a player with firm habits of
#: its own.
PLAY_WEIGHT_PRECISION = 3.0
#: A loose prior: which tactics a player follows is learnt from its cards.
TACTIC_WEIGHT_PRECISION = 0.01
#: How many nats better the player's own weights must have predicted its cards than
#: the scaled model (each hand's cards predicted from the hands before it) to be used:
#: a few hands seen by chance to fit are not taken for a habit.  With these, the basic
#: bot's cards are predicted at 0.36 nats a choice against 0.89 by scaling alone, the
#: expert's exactly as by scaling (bench/RESULTS.md, "Twenty-first session").
OWN_WEIGHTS_EVIDENCE = 2.0
#: Newton steps a refit takes at most: each hand adds a few cards to what was fitted,
#: so the last fit is a close start.
_NEWTON_STEPS = 4


class _OwnWeights:
    """The card choices seen of one player (or of the table), and play weights of its
    own fitted to them (see :data:`PLAY_WEIGHT_PRECISION`), with the nats they lost
    predicting each hand's choices before seeing them (fitted to the hands before it)."""

    def __init__(self, learnt: PlayModel) -> None:
        self.learnt = learnt
        self.choices: list[tuple[list[list[float]], int]] = []
        self.own = learnt
        self.own_loss = 0.0
        self.stale = False

    def add(self, hand: list[tuple[list[list[float]], int]]) -> None:
        """Take in one hand's choices: (each legal card's features, the one played)."""
        self.own_loss += self.own_nats_lost(hand)
        self.choices.extend(hand)
        self.stale = True

    def own_nats_lost(self, hand: list[tuple[list[list[float]], int]]) -> float:
        """How badly the own weights as fitted so far predict ``hand``'s choices."""
        self._fit()
        return _nats_lost(self.own, hand)

    def fitted_own(self) -> PlayModel:
        """The own weights, fitted to every choice taken in."""
        self._fit()
        return self.own

    def _fit(self) -> None:
        if not self.stale:
            return
        self.stale = False
        self.own = PlayModel(tuple(fit_play_weights(
            self.choices, self.learnt.weights, _PRECISIONS, start=self.own.weights)))


class _PlayHabit(_OwnWeights):
    """One player's choices, and two play models fitted to them: the learnt one scaled,
    and one of the player's own weights.  Which one describes the player is told by how
    well each predicted its cards before seeing them (:data:`OWN_WEIGHTS_EVIDENCE`)."""

    def __init__(self, learnt: PlayModel) -> None:
        super().__init__(learnt)
        # The learnt model's scores of each choice's cards, the one played: the scale is
        # refitted to them every hand, and the old choices' scores do not change.
        self.learnt_scores: list[tuple[list[float], int]] = []
        self.scaled = learnt
        self.scaled_loss = 0.0

    def add(self, hand: list[tuple[list[list[float]], int]]) -> None:
        self._fit()
        self.scaled_loss += _nats_lost(self.scaled, hand)
        self.learnt_scores.extend((self.learnt.scores(rows), chosen) for rows, chosen in hand)
        super().add(hand)

    def best(self) -> PlayModel | None:
        """The model that predicted the player better (see
        :data:`OWN_WEIGHTS_EVIDENCE`); ``None`` before any choice is seen."""
        if not self.choices:
            return None
        self._fit()
        return self.own if self._own_is_better() else self.scaled

    def best_loss(self) -> float:
        """The nats lost predicting the player by the model :meth:`best` gives."""
        return self.own_loss if self._own_is_better() else self.scaled_loss

    def _own_is_better(self) -> bool:
        return self.own_loss + OWN_WEIGHTS_EVIDENCE < self.scaled_loss

    def _fit(self) -> None:
        if self.stale:
            sharpness = self._sharpness()
            self.scaled = self.learnt if sharpness == 1 else self.learnt.sharpened(sharpness)
        super()._fit()

    def _sharpness(self) -> float:
        scores = self.learnt_scores

        def log_posterior(step: float) -> float:
            sharpness = math.exp(step)
            return -(step / SHARPNESS_PRIOR) ** 2 / 2 + sum(
                log_softmax([sharpness * s for s in row], chosen) for row, chosen in scores)

        return math.exp(max(_SHARPNESS_STEPS, key=log_posterior))


def _nats_lost(model: PlayModel, choices: list[tuple[list[list[float]], int]]) -> float:
    return -sum(log_softmax(model.scores(rows), chosen) for rows, chosen in choices)


#: Each play weight's prior precision, in :data:`PLAY_FEATURES` order.
_PRECISIONS = tuple(TACTIC_WEIGHT_PRECISION if name in TACTIC_FEATURES
                    else PLAY_WEIGHT_PRECISION for name in PLAY_FEATURES)


def _play_loss(weights: Sequence[float], choices: list[tuple[list[list[float]], int]],
               prior: Sequence[float], precisions: Sequence[float]) -> float:
    """The negative log posterior (up to a constant) of play weights: see
    :func:`fit_play_weights`."""
    total = sum(q / 2 * (w - p) ** 2
                for w, p, q in zip(weights, prior, precisions, strict=True))
    for rows, chosen in choices:
        total -= log_softmax([sum(map(operator.mul, weights, row)) for row in rows], chosen)
    return total


def fit_play_weights(choices: list[tuple[list[list[float]], int]], prior: Sequence[float],
                     precisions: Sequence[float], start: Sequence[float] | None = None,
                     steps: int = _NEWTON_STEPS) -> list[float]:
    """The likeliest weights of a conditional logit (a :class:`PlayModel`) for
    ``choices`` (each legal card's features, the one chosen) under independent Gaussian
    priors around ``prior`` with ``precisions``: Newton's method from ``start`` (default the
    prior), each step halved until it lowers the loss.  Pure Python: a refit on the
    choices of one player in a whole game takes a few tens of milliseconds at most."""
    width = len(prior)
    weights = list(start if start is not None else prior)
    loss = _play_loss(weights, choices, prior, precisions)
    for _ in range(steps):
        gradient = [q * (w - p) for w, p, q in zip(weights, prior, precisions, strict=True)]
        hessian = [[precisions[j] if j == k else 0.0 for k in range(width)]
                   for j in range(width)]
        for rows, chosen in choices:
            scores = [sum(map(operator.mul, weights, row)) for row in rows]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            chances = [e / total for e in exps]
            mean = [sum(c * row[j] for c, row in zip(chances, rows, strict=True))
                    for j in range(width)]
            for j, value in enumerate(rows[chosen]):
                gradient[j] += mean[j] - value
            for chance, row in zip(chances, rows, strict=True):
                deviation = [x - m for x, m in zip(row, mean, strict=True)]
                for j, dj in enumerate(deviation):
                    if dj:
                        line, weighted = hessian[j], chance * dj
                        for k in range(j + 1):
                            line[k] += weighted * deviation[k]
        for j in range(width):
            for k in range(j):
                hessian[k][j] = hessian[j][k]
        step = _solve(hessian, gradient)
        scale = 1.0
        while True:
            trial = [w - scale * s for w, s in zip(weights, step, strict=True)]
            trial_loss = _play_loss(trial, choices, prior, precisions)
            if trial_loss <= loss:
                break
            scale /= 2
            if scale < 1e-3:
                return weights  # no step lowers the loss: at the optimum, as near as it gets
        weights, loss = trial, trial_loss
        if max(map(abs, step)) * scale < 1e-4:
            break
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix`` · x = ``vector``, by Gaussian elimination with partial
    pivoting (``matrix`` is positive definite: the prior's precision is on its
    diagonal)."""
    n = len(vector)
    rows = [[*line, value] for line, value in zip(matrix, vector, strict=True)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        head = rows[column]
        for row in rows[column + 1:]:
            factor = row[column] / head[column]
            if factor:
                for k in range(column, n + 1):
                    row[k] -= factor * head[k]
    solution = [0.0] * n
    for r in range(n - 1, -1, -1):
        row = rows[r]
        solution[r] = (row[n] - sum(row[k] * solution[k] for k in range(r + 1, n))) / row[r]
    return solution


class Habits:
    """What the hands of one game seen so far say of each other player's habits
    (:class:`Habit`), for :class:`HandEvidence`: fed the last view the bot had of each
    hand (:meth:`learn`), it keeps, for every player whose every card of that hand had
    been played by then (its whole hand known), its bid against the bid model's mean
    for that hand and the features of every card it chose among two or more; a
    player's bid habit is the likeliest given those and the prior (:data:`OFFSET_PRIOR`
    and the others), searched on a grid, its play the model that best predicted its
    cards (:class:`_PlayHabit`).

    Beside each player's own weights, one set is fitted to every other player's cards
    together, the table's: a table of players of one habit (bots of one kind) shows it
    with three times the cards a hand, so it is found hands sooner.  A player is played
    by the table's weights when, over all the players' cards, they predicted better than
    each player's learnt model scaled (by :data:`OWN_WEIGHTS_EVIDENCE` nats), and over
    this player's cards better than its own best model: at a mixed table each keeps its
    own (bench/RESULTS.md, "Twenty-fifth session")."""

    def __init__(self, models: Models) -> None:
        self.models = models
        # seat -> each bid seen: (the bid, the model's mean, the model's spread, cards)
        self._bids: dict[int, list[tuple[int, float, float, int]]] = {}
        self._plays: dict[int, _PlayHabit] = {}
        self._table = _OwnWeights(models.play)  # the table's own weights alone are used
        self._table_loss: dict[int, float] = {}  # seat -> nats the table's weights lost
        self._fitted: dict[int, Habit] = {}

    def learn(self, view: View) -> None:
        """Take in the hand of ``view`` (its last view, as the bot saw it)."""
        played = view.played_by()
        known = {s for s in range(view.players_count)
                 if s != view.seat and played[s].bit_count() == view.cards_dealt}
        if not known:
            return
        evidence = HandEvidence(view, known, self.models)
        model = self.models.bid
        for seat, (_, bid, *_) in evidence.bids.items():
            row = evidence.bid_row(seat, 0)  # every card of its hand played
            self._bids.setdefault(seat, []).append(
                (bid, model.mean(row), model.deviation(row), evidence.cards))
            self._fitted.pop(seat, None)
        hand: dict[int, list[tuple[list[list[float]], int]]] = {}
        for seat, card, cards, rows in evidence.choices([0] * view.players_count):
            hand.setdefault(seat, []).append((rows, cards.index(card)))
        for seat, choices in hand.items():
            if seat not in self._plays:
                self._plays[seat] = _PlayHabit(self.models.play)
            self._plays[seat].add(choices)
            self._table_loss[seat] = (self._table_loss.get(seat, 0.0)
                                      + self._table.own_nats_lost(choices))
        if hand:
            self._table.add([choice for choices in hand.values() for choice in choices])
            self._fitted.clear()  # the table's weights are every seat's business

    def habit(self, seat: int) -> Habit:
        """The seat's habit: the prior's (the models as fitted) until it is seen."""
        habit = self._fitted.get(seat)
        if habit is None:
            plays = self._plays.get(seat)
            play = self._table_play(seat)
            if play is None and plays is not None:
                play = plays.best()
            habit = self._fitted[seat] = Habit(*self._fit_bids(seat), play)
        return habit

    def own_play(self, seat: int) -> PlayModel | None:
        """The seat's play model of weights of its own or the table's, if it predicted
        the seat's cards better than the learnt model scaled (see the class docstring
        and :data:`OWN_WEIGHTS_EVIDENCE`): a player with firm habits of its own."""
        table = self._table_play(seat)
        if table is not None:
            return table
        plays = self._plays.get(seat)
        if plays is None:
            return None
        best = plays.best()
        return best if best is plays.own else None

    def _table_play(self, seat: int) -> PlayModel | None:
        """The table's weights, if they are the seat's habit (see the class docstring)."""
        lost = self._table_loss.get(seat)
        if lost is None or lost >= self._plays[seat].best_loss():
            return None
        scaled = sum(self._plays[s].scaled_loss for s in self._table_loss)
        if sum(self._table_loss.values()) + OWN_WEIGHTS_EVIDENCE >= scaled:
            return None
        return self._table.fitted_own()

    def _fit_bids(self, seat: int) -> tuple[float, float]:
        prior = BID_SPREAD_SCALE
        bids = self._bids.get(seat)
        if not bids:
            return 0.0, prior

        def log_posterior(offset: float, step: float) -> float:
            scale = prior * math.exp(step)
            total = -(offset / OFFSET_PRIOR) ** 2 / 2 - (step / SPREAD_PRIOR) ** 2 / 2
            for bid, mean, deviation, cards in bids:
                chance = rounded_normal_chance(bid, mean + offset, scale * deviation, cards)
                total += math.log(max(chance, _BID_FLOOR))
            return total

        offset, step = max(((o, k) for o in _OFFSETS for k in _SPREAD_STEPS),
                           key=lambda point: log_posterior(*point))
        return offset, prior * math.exp(step)


class HandEvidence:
    """What the bids and played cards of ``seats`` (hidden seats of ``view``) say about
    their hands, by ``models`` as each player's habits (``habits``, if any) adjust them
    (see the module docstring)."""

    def __init__(self, view: View, seats: Iterable[int], models: Models,
                 habits: Habits | None = None) -> None:
        seats = {s for s in seats if view.hands[s] is None}
        seen = {s: Habit(spread=BID_SPREAD_SCALE) if habits is None else habits.habit(s)
                for s in seats}
        # Each seat's models, as its habits adjust them.
        self.bid_models = {s: models.bid.shifted(h.offset).sharpened(h.spread)
                           for s, h in seen.items()}
        self.play_models = {s: models.play if h.play is None else h.play
                            for s, h in seen.items()}
        trump = -1 if not view.trump_decided or view.trump is None else int(view.trump)
        self.trump = trump
        self.cards = view.cards_dealt
        played = view.played_by()
        order = view.bidding_order
        # seat -> (its cards played, its bid, the best chance of that bid, first, last)
        self.bids: dict[int, tuple[int, int, float, bool, bool]] = {}
        self.leader = view.first_leader
        self.seen = view.turn_up_mask
        if bid_is_telling(view) and view.trump_decided:
            # The spread depends only on the hand size and the scoring, as here.
            table = bid_features(0, trump, view.players_count, False, False, view.rules,
                                 False, self.seen)
            table[BID_FEATURES.index("cards")] = view.cards_dealt / 13
            for position, seat in enumerate(order):
                bid = view.bids[seat]
                if seat in seats and isinstance(bid, Bid):
                    best = self.bid_models[seat].best_chance(bid.tricks, table,
                                                             view.cards_dealt)
                    self.bids[seat] = (played[seat], bid.tricks, best, position == 0,
                                       position == len(order) - 1)
        self.rules = view.rules
        self.players = view.players_count
        self.plays = self._plays(view, seats)
        # Late in a hand the same few hands come round again and again.
        self._chances: dict[tuple[int, int], float] = {}

    @staticmethod
    def _plays(view: View, seats: set[int]
               ) -> list[tuple[int, int, list[int], int, bool, int]]:
        """Every card ``seats`` played this hand: (seat, card, trick before it, tricks it
        still wanted, last to play, cards unplayed before it)."""
        wanted = [tricks_wanted(b, view.cards_dealt) for b in view.bids]
        seen = ~view.turn_up_mask
        plays = []
        for made in view.plays_made():
            want = wanted[made.seat]
            if made.seat in seats and want is not None:
                plays.append((made.seat, int(made.card), [int(c) for c in made.trick],
                              want - made.won, made.last, made.unplayed & seen))
        return plays

    def __bool__(self) -> bool:
        return bool(self.bids or self.plays)

    def bid_chance(self, seat: int, hand: int) -> float:
        """The chance to keep ``hand`` (the seat's unplayed cards) given the seat's bid:
        the model's chance of the bid over the best chance any hand gives it, mixed
        with :data:`ANY_BID` of a bid that says nothing."""
        if seat not in self.bids:
            return 1.0
        chance = self._chances.get((seat, hand))
        if chance is None:
            _, bid, best, _, _ = self.bids[seat]
            row = self.bid_row(seat, hand)
            model = self.bid_models[seat].chance(bid, row, self.cards) / best
            chance = self._chances[seat, hand] = ANY_BID + (1 - ANY_BID) * model
        return chance

    def bid_row(self, seat: int, hand: int) -> list[float]:
        """The bid features of the hand the bidder ``seat`` was dealt if ``hand`` are its
        unplayed cards."""
        played, _, _, first, last = self.bids[seat]
        return bid_features(hand | played, self.trump, self.players, first, last,
                            self.rules, seat == self.leader, self.seen)

    def choices(self, hands: Sequence[int]
                ) -> Iterator[tuple[int, int, list[int], list[list[float]]]]:
        """Every card the hidden seats played from two or more legal ones, last first,
        with ``hands`` (each seat's unplayed cards): (seat, card, its legal cards, their
        features).  At each play, the seat held its cards left and those it played
        later."""
        later = [0] * len(hands)
        for seat, card, trick, need, last, unplayed in reversed(self.plays):
            later[seat] |= 1 << card
            cards, rows = play_features(hands[seat] | later[seat], trick, self.trump, need,
                                        last, unplayed)
            if len(cards) > 1:
                yield seat, card, cards, rows

    def play_log_likelihood(self, hands: Sequence[int]) -> float:
        """The log chance of the hidden seats' plays with ``hands`` (each seat's unplayed
        cards)."""
        models = self.play_models
        total = 0.0
        for seat, card, cards, rows in self.choices(hands):
            total += models[seat].log_chance(card, cards, rows)
        return total

    def deal_log_weight(self, hands: Sequence[int]) -> float:
        """The log of the weight a search gives a deal of ``hands`` for the plays made:
        their log chance times :data:`PLAY_EVIDENCE_POWER`."""
        return PLAY_EVIDENCE_POWER * self.play_log_likelihood(hands)

    def card_terms(self, unseen: int, allowed: Sequence[int]) -> dict[int, list[float]]:
        """For every seat that has played a card and every card of ``unseen`` it may
        hold (``allowed[seat]``), what holding that card says of the seat's plays, on
        the scale of :meth:`deal_log_weight`: the sum over its plays of how much the
        card, beside the cards the seat is known to have held then (those it played then
        and later), would have changed the log chance of the card it played (``-inf``:
        it could not have played it).  A deal whose hands are drawn in proportion to
        ``exp`` of their cards' terms (:meth:`~blackout.bots.sampling.Sampler.sample_weighted`)
        already explains most of the plays; its weight is the deal's over that chance.
        """
        terms: dict[int, list[float]] = {}
        later = [0] * self.players  # each seat's cards played from each play on
        for seat, card, trick, need, last, unplayed in reversed(self.plays):
            later[seat] |= 1 << card
            held = later[seat]
            candidates = unseen & allowed[seat]
            if trick and card // 13 == trick[0] // 13:
                candidates &= SUIT_MASKS[card // 13]  # the others were no choice then
            if not candidates:
                continue
            model = self.play_models[seat]
            cards, rows = play_features(held, trick, self.trump, need, last, unplayed)
            known = model.log_chance(card, cards, rows)
            row = terms.setdefault(seat, [0.0] * 52)
            while candidates:
                low = candidates & -candidates
                candidates ^= low
                extra = low.bit_length() - 1
                cards, rows = play_features(held | low, trick, self.trump, need, last,
                                            unplayed)
                if card not in cards:
                    row[extra] = -math.inf
                else:
                    row[extra] += PLAY_EVIDENCE_POWER * (model.log_chance(card, cards, rows)
                                                         - known)
        return terms
