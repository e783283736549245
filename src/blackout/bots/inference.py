"""What the others' bids and cards say about their hidden hands: two learnt models.

* :class:`BidModel`: a player's bid is a normal around a line in features of the hand it
  was dealt (the search's own estimate of its tricks, trump length and honours, plain
  aces, kings and queens, voids and singletons beside a trump, first or last to bid, the
  hand size and the kind of scoring), rounded to whole tricks and censored at 0 and at
  the hand size; its spread depends on the hand size and the scoring (the search
  assumes :data:`BID_SPREAD_SCALE` of the fitted spread).  Used only where
  a bid was made seeing the trump and one's own cards (not in a blind hand, nor where
  trump is named after the bidding) and for plain bids (not partnership nil or board).
* :class:`PlayModel`: a player's card is a conditional logit over its legal cards
  (rank, trump, whether the card takes the trick so far, highest or lowest of them, top
  of its suit among the cards still out, each against whether the player still needs
  tricks; leading, discarding, ruffing).

Both are fitted to seeded self-play of every preset by ``tools/train_inference.py``
and shipped as package data (``inference.json``); pure Python at run time.

:class:`HandEvidence` puts them to work for one view: :meth:`HandEvidence.bid_chance`
is the chance (scaled so the likeliest hand for the bid has 1) to keep a sampled hand
for a seat given its bid, for rejection sampling seat by seat
(:meth:`~blackout.bots.sampling.Sampler.sample_fitting`), and
:meth:`HandEvidence.play_log_likelihood` the log chance, with a sampled deal's hands, of
every card the hidden seats have played this hand, by which :mod:`blackout.bots.tree`
draws the deals it searches (measured in bench/RESULTS.md, "Twelfth session").
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from blackout.bots.playout import _shed_key, estimate_tricks
from blackout.core.actions import Bid, Board, Nil
from blackout.core.cards import SUIT_MASKS
from blackout.core.game import beats, playable, trick_winner_position
from blackout.core.rules import Rules
from blackout.core.view import View

__all__ = [
    "ANY_BID",
    "BID_FEATURES",
    "BID_SPREAD_SCALE",
    "PLAY_FEATURES",
    "SCORINGS",
    "SPREAD_FEATURES",
    "BidModel",
    "HandEvidence",
    "Models",
    "PlayModel",
    "bid_features",
    "bid_is_telling",
    "play_features",
    "rounded_normal_chance",
]

#: The scorings with a term of their own in the bid model (``ten_plus_bid`` is the base).
SCORINGS = ("five_plus_cards", "nullo", "tricks_plus_ten", "partnership")
BID_FEATURES = (
    "bias", "estimate", "trumps", "trump_ace", "trump_king", "trump_queen", "trump_jack",
    "aces", "kings", "queens", "voids_beside_trump", "singletons_beside_trump", "last",
    "first", "cards", *SCORINGS,
)
#: The bid's spread is the exponential of a line in these of :data:`BID_FEATURES` (how
#: closely players bid depends on the hand size and the scoring).
SPREAD_FEATURES = ("bias", "cards", *SCORINGS)
_SPREAD_COLUMNS = tuple(BID_FEATURES.index(name) for name in SPREAD_FEATURES)
PLAY_FEATURES = (
    "rank", "trump", "lead_rank", "lead_trump", "wins", "wins_need", "wins_last_need",
    "wins_last_done", "highest", "lowest", "highest_need", "lowest_done", "discard_rank",
    "ruff", "lead_need_rank", "top", "top_need", "top_lead",
)
#: The share of the fitted spread the search assumes of a bid: the self-play bids the
#: model is fitted to (a modest budget, tables of 2 to 6) scatter more than a strong
#: player's, and a sharper model drew better deals (bench/RESULTS.md, "Twelfth session":
#: 0.6 chosen on one set of deals and checked on another).
BID_SPREAD_SCALE = 0.6
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
                 rules: Rules) -> list[float]:
    """The features (in :data:`BID_FEATURES` order) of a dealt hand (all its cards) for
    its bid; ``trump`` is a suit number or -1 for no trump."""
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
        1.0, estimate_tricks(hand, trump, players), trumps.bit_count(), trumps >> 12 & 1,
        trumps >> 11 & 1, trumps >> 10 & 1, trumps >> 9 & 1, aces, kings, queens,
        voids * beside_trump, singletons * beside_trump, float(last), float(first),
        hand.bit_count() / 13, *(float(rules.scoring == s) for s in SCORINGS),
    ]


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
        mean: float = sum(map(operator.mul, self.coefficients, row))
        return rounded_normal_chance(bid, mean, self.deviation(row), cards)

    def deviation(self, row: Sequence[float]) -> float:
        """The spread of the bid of a hand with features ``row``."""
        return math.exp(sum(w * row[i] for w, i in zip(self.spread, _SPREAD_COLUMNS,
                                                       strict=True)))

    def sharpened(self, scale: float) -> BidModel:
        """The same model with its spread times ``scale``."""
        spread = (self.spread[0] + math.log(scale), *self.spread[1:])
        return BidModel(self.coefficients, spread)

    def best_chance(self, bid: int, row: Sequence[float], cards: int) -> float:
        """The highest chance any hand like ``row`` (the same hand size and scoring) can
        give ``bid``: that of a hand whose mean is the bid."""
        if 0 < bid < cards:
            return rounded_normal_chance(bid, bid, self.deviation(row), cards)
        return 1.0  # 0 or every trick: certain for a hand far enough below or above


def play_features(hand: int, trick: Sequence[int], trump: int, need: int, last: bool,
                  unplayed: int) -> tuple[list[int], list[list[float]]]:
    """The legal cards of ``hand`` in ``trick`` and each one's features (in
    :data:`PLAY_FEATURES` order); ``need`` is the tricks the player still wants,
    ``unplayed`` the cards not yet played this hand."""
    legal = playable(hand, trick)
    cards = []
    while legal:
        low = legal & -legal
        legal ^= low
        cards.append(low.bit_length() - 1)
    keys = [_shed_key(c, trump) for c in cards]
    high, low_key = max(keys), min(keys)
    leading = not trick
    best = trick[trick_winner_position(trick, trump)] if trick else -1
    wants = 1.0 if need > 0 else 0.0
    done = 1.0 - wants
    others = unplayed & ~hand
    rows = []
    for card, key in zip(cards, keys, strict=True):
        suit, rank = divmod(card, 13)
        r = rank / 12
        is_trump = 1.0 if suit == trump else 0.0
        wins = 1.0 if trick and beats(card, best, trump) else 0.0
        following = bool(trick) and suit == trick[0] // 13
        higher = others & SUIT_MASKS[suit] & ~((2 << card) - 1)
        top = 0.0 if higher else 1.0
        rows.append([
            r, is_trump, r * leading, is_trump * leading, wins, wins * wants,
            wins * last * wants, wins * last * done, float(key == high), float(key == low_key),
            float(key == high) * wants, float(key == low_key) * done,
            r * (not leading and not following and not is_trump),
            is_trump * (not leading and not following), r * leading * wants,
            top, top * wants, top * leading,
        ])
    return cards, rows


@dataclass(frozen=True, slots=True)
class PlayModel:
    """A softmax of ``weights`` · :func:`play_features` over the legal cards."""

    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.weights) != len(PLAY_FEATURES):
            raise ValueError("play model: wrong number of weights")

    def log_chance(self, card: int, cards: list[int], rows: list[list[float]]) -> float:
        """The log chance of playing ``card`` among ``cards`` with features ``rows``."""
        weights = self.weights
        scores: list[float] = [sum(map(operator.mul, weights, row)) for row in rows]
        top = max(scores)
        total = sum(math.exp(s - top) for s in scores)
        return scores[cards.index(card)] - top - math.log(total)


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
        if (tuple(bid["features"]) != BID_FEATURES
                or tuple(bid["spread_features"]) != SPREAD_FEATURES
                or tuple(play["features"]) != PLAY_FEATURES):
            return None
        return Models(BidModel(tuple(bid["coefficients"]), tuple(bid["spread"])),
                      PlayModel(tuple(play["weights"])))


def tricks_wanted(bid: object, cards: int) -> int | None:
    """The tricks a bid asks for (nil none, board all), or ``None`` before a bid."""
    if isinstance(bid, Bid):
        return bid.tricks
    if isinstance(bid, Nil):
        return 0
    if isinstance(bid, Board):
        return cards
    return None


class HandEvidence:
    """What the bids and played cards of ``seats`` (hidden seats of ``view``) say about
    their hands, by ``models`` (see the module docstring)."""

    def __init__(self, view: View, seats: Iterable[int], models: Models) -> None:
        self.models = models
        self.bid_model = models.bid.sharpened(BID_SPREAD_SCALE)
        seats = {s for s in seats if view.hands[s] is None}
        trump = -1 if not view.trump_decided or view.trump is None else int(view.trump)
        self.trump = trump
        self.cards = view.cards_dealt
        played = view.played_by()
        order = view.bidding_order
        # seat -> (its cards played, its bid, the best chance of that bid, first, last)
        self.bids: dict[int, tuple[int, int, float, bool, bool]] = {}
        if bid_is_telling(view) and view.trump_decided:
            # The spread depends only on the hand size and the scoring, as here.
            table = bid_features(0, trump, view.players_count, False, False, view.rules)
            table[BID_FEATURES.index("cards")] = view.cards_dealt / 13
            for position, seat in enumerate(order):
                bid = view.bids[seat]
                if seat in seats and isinstance(bid, Bid):
                    best = self.bid_model.best_chance(bid.tricks, table, view.cards_dealt)
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
        plays = []
        for made in view.plays_made():
            want = wanted[made.seat]
            if made.seat in seats and want is not None:
                plays.append((made.seat, int(made.card), [int(c) for c in made.trick],
                              want - made.won, made.last, made.unplayed))
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
            played, bid, best, first, last = self.bids[seat]
            row = bid_features(hand | played, self.trump, self.players, first, last,
                               self.rules)
            model = self.bid_model.chance(bid, row, self.cards) / best
            chance = self._chances[seat, hand] = ANY_BID + (1 - ANY_BID) * model
        return chance

    def play_log_likelihood(self, hands: Sequence[int]) -> float:
        """The log chance of the hidden seats' plays with ``hands`` (each seat's unplayed
        cards): at each play, the seat held its cards left and those it played later."""
        model = self.models.play
        total = 0.0
        later = [0] * len(hands)
        for seat, card, trick, need, last, unplayed in reversed(self.plays):
            later[seat] |= 1 << card
            cards, rows = play_features(hands[seat] | later[seat], trick, self.trump, need,
                                        last, unplayed)
            if len(cards) > 1:
                total += model.log_chance(card, cards, rows)
        return total
