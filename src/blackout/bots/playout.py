"""Fast play-outs of one hand on bare integers, for search.

The search bots simulate thousands of hands per decision, so this module plays cards
on bit masks and lists instead of :class:`~blackout.core.game.Game` objects.  A
:class:`Goals` value says what every seat is after (take tricks or avoid them), and
:func:`choose_card` is the play policy seats use inside a simulation: take a
trick while more are needed, duck when the bid is made.  A seat the search takes for a
basic bot plays :func:`basic_card`, the basic bot's own rules on bit masks, and one whose
play habit it has learnt (:mod:`blackout.bots.inference`) :func:`habit_card`, the best
card by that habit's weights over :func:`play_features`.
``tests/test_bots_expert.py`` checks that play-outs here and in the engine give the
same tricks.

A suit is ``card // 13``; ``trump`` is a suit number or ``-1`` for no trump.

:func:`play_out` (its habit cards too) and :func:`estimate_tricks` run in C when the
optional extension ``blackout.bots._fast`` was built (``_fast.c``, the same policy card
for card, about forty times faster); the Python code here is the reference and the
fallback.  The basic bot's bid estimate and the search's fitting sampler use the same
extension.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from blackout.core.actions import Bid, BidAction
from blackout.core.cards import SUIT_MASKS, suit_tables
from blackout.core.game import beats, playable, trick_winner_position
from blackout.core.rules import Rules
from blackout.core.scoring import hand_points, player_points, team_contract

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

    class _Accelerator(Protocol):
        """The functions of ``blackout.bots._fast`` (typed in ``_fast.pyi``): the type of
        ``_fast`` below, the module or ``None``.  mypy checks that the module matches."""

        def play_out(self, hands: Sequence[int], trump: int, leader: int,
                     trick: Sequence[int], won: Sequence[int], targets: Sequence[int],
                     teams: bool, greedy: bool, models: Sequence[int], deck: int,
                     points: Sequence[float] | None = None, end_tricks: int = 0,
                     rivalry: float = 0.0, weights: Sequence[float] | None = None, /
                     ) -> list[int]: ...
        def basic_card(self, hand: int, unseen: int, trick: Sequence[int], trump: int,
                       need: int, last: bool, /) -> int: ...
        def habit_card(self, hand: int, others: int, trick: Sequence[int], trump: int,
                       need: int, last: bool, weights: Sequence[float], /) -> int: ...
        def play_scores(self, hand: int, others: int, trick: Sequence[int], trump: int,
                        need: int, last: bool, weights: Sequence[float], /
                        ) -> list[float]: ...
        def trick_winner_position(self, cards: Sequence[int], trump: int, /) -> int: ...
        def estimate_tricks(self, hand: int, trump: int, players: int, /) -> float: ...
        def sample(self, seed: int, known: Sequence[int], hidden: Sequence[int],
                   counts: Sequence[int], allowed: Sequence[int], unseen: int,
                   void_tries: int, /) -> list[int] | None: ...
        def draw(self, seed: int, cards: int, want: int, count: int, /) -> list[int]: ...
        def replays_basic(self, hand: int, plays: ReadableBuffer, trump: int,
                          last: int, /) -> bool: ...
        def bid_distribution(self, hand: int, unseen: int, cards: int, players: int,
                             leads_first: bool, trump: int, /) -> list[float]: ...

#: The C accelerator, or None.  Typed as a protocol, not as the module: mypy would take
#: ``_fast is None`` for always false and leave the Python code of that branch unchecked.
_fast: _Accelerator | None
try:
    from blackout.bots import _fast
except ImportError:  # installed without a C compiler: the Python code below does the work
    _fast = None

__all__ = [
    "BASIC",
    "HABIT",
    "PLAY_FEATURES",
    "POLICY",
    "SUIT_MASKS",
    "TACTIC_FEATURES",
    "Endgame",
    "Goals",
    "basic_card",
    "choose_card",
    "endgame_for",
    "estimate_tricks",
    "goals_for",
    "habit_card",
    "model_card",
    "model_habit_card",
    "next_turn",
    "play_features",
    "play_out",
    "seat_weights",
    "solve_endgame",
    "trick_winner_position",
]

NO_TRUMP = -1
#: A need that no hand can satisfy: the seat wants every trick (covering a nil partner).
EVERY_TRICK = 99
#: The need of a nil bidder: never take a trick.
NO_TRICK = -99


@dataclass(frozen=True, slots=True)
class Goals:
    """How many tricks each seat is after.

    Individually scored games: ``targets[s]`` is seat ``s``'s bid.  In partnership
    (``teams``) a target counts the team's tricks; a nil bidder's target is
    :data:`NO_TRICK` and its partner's :data:`EVERY_TRICK` (it covers).
    """

    targets: tuple[int, ...]
    teams: bool = False
    #: Whether a seat already over its bid still wants tricks (each one scores).
    greedy_when_over: bool = False

    def need(self, seat: int, won: Sequence[int]) -> int:
        """Tricks seat ``seat`` still wants (zero or less: it wants no more)."""
        target = self.targets[seat]
        if target == NO_TRICK:
            return -1
        need = target - won[seat] - won[(seat + 2) % 4] if self.teams else target - won[seat]
        return EVERY_TRICK if need < 0 and self.greedy_when_over else need


def goals_for(rules: Rules, bids: Sequence[BidAction | None]) -> Goals:
    """What every seat plays for, given the bids (a partnership's contract per team)."""
    if not rules.teams:
        return Goals(tuple(b.tricks if isinstance(b, Bid) else -1 for b in bids),
                     greedy_when_over=_over_pays(rules))
    targets = [0] * 4
    for team in (0, 1):
        contract = team_contract(rules, bids, team)
        for seat in (team, team + 2):
            if contract.kind == "nil":
                targets[seat] = NO_TRICK if seat == contract.nil_seat else EVERY_TRICK
            else:
                targets[seat] = contract.tricks
    return Goals(tuple(targets), teams=True)


def _over_pays(rules: Rules) -> bool:
    """Whether, under the table's scoring, a trick taken beyond the bid still scores."""
    return player_points(rules, 13, 0, 2) > player_points(rules, 13, 0, 1)


_C, _D, _H, _S = suit_tables(int)


def _cards(mask: int) -> list[int]:
    return [*_C[mask & 0x1FFF], *_D[mask >> 13 & 0x1FFF], *_H[mask >> 26 & 0x1FFF],
            *_S[mask >> 39]]


def _shed_key(card: int, trump: int) -> int:
    # Rank, with trumps counted above every plain card: they are the hardest to lose.
    return card % 13 + (13 if card // 13 == trump else 0)


def _lowest(cards: list[int], trump: int) -> int:
    return min(cards, key=lambda c: _shed_key(c, trump))


def _highest(cards: list[int], trump: int) -> int:
    return max(cards, key=lambda c: _shed_key(c, trump))


def _is_master(card: int, others: int) -> bool:
    """No other hand holds a higher card of its suit."""
    above = SUIT_MASKS[card // 13] & ~((2 << card) - 1)
    return not others & above


def _lead(hand: int, others: int, trump: int, need: int) -> int:
    cards = _cards(hand)
    if need <= 0:
        return max(cards, key=lambda c: _beaten_by(c, others))
    masters = [c for c in cards if _is_master(c, others)]
    if len(masters) >= need and len(masters) < len(cards):
        # Enough sure tricks in hand: keep them and give the lead away with a card
        # that should lose, rather than cash them and have to lead again.
        return _lowest([c for c in cards if c not in masters], trump)
    plain_masters = [c for c in masters if c // 13 != trump]
    if plain_masters:
        return max(plain_masters)
    if masters:
        return max(masters)
    # Nothing sure: lead low from the longest plain suit to set up its higher cards.
    plain = [c for c in cards if c // 13 != trump] or cards
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    longest = max(plain, key=lambda c: (lengths[c // 13], -(c % 13)))
    return min(c for c in plain if c // 13 == longest // 13)


def _beaten_by(card: int, others: int) -> tuple[int, int]:
    """How many unseen cards of its suit beat ``card`` (then its rank): a seat that wants
    no trick leads the card likeliest to be beaten, the higher of equals, since a high
    card kept is a trick it may be forced to take later.  A low trump often is that
    card: every trump above it is still out."""
    above = SUIT_MASKS[card // 13] & ~((2 << card) - 1) & others
    return above.bit_count(), card % 13


def choose_card(hand: int, others: int, trick: list[int], trump: int, need: int,
                last: bool, ally_winning: bool) -> int:
    """The policy card: win a trick while ``need`` > 0, duck otherwise.

    ``others`` is every unplayed card not in ``hand`` (to spot master cards),
    ``last`` whether this seat plays last to the trick, ``ally_winning`` whether a
    partner's card is winning it now.
    """
    if not trick:
        return _lead(hand, others, trump, need)
    cards = _cards(playable(hand, trick))
    best = trick[trick_winner_position(trick, trump)]
    winners = [c for c in cards if beats(c, best, trump)]
    if need > 0:
        if ally_winning:
            return _lowest(cards, trump)
        if winners:
            return min(winners) if last else max(winners)
        return _lowest(cards, trump)
    losers = [c for c in cards if c not in winners]
    if losers:
        return _highest(losers, trump)
    return _highest(cards, trump) if last else min(cards)


def basic_card(hand: int, unseen: int, trick: list[int], trump: int, need: int,
               last: bool) -> int:
    """The card the ``basic`` bot plays (individual scoring), on bit masks.

    ``unseen`` is what that seat has not seen: every card not in ``hand``, not played and
    not turned up, so a card left in the deck counts as possibly held.  The same rules
    as :func:`blackout.bots.basic.choose_play`: while ``need`` > 0 lead a card nothing
    unseen beats (plain suits first) or the least dangerous one, take a trick with the
    cheapest winner; otherwise lead the plain card the most unseen cards beat and play
    the highest card that loses.

    >>> from blackout.core.cards import Card, mask_of
    >>> hand, unseen = mask_of(["AS", "2S", "KH"]), mask_of(["KS", "QS", "AH", "3H"])
    >>> str(Card(basic_card(hand, unseen, [], -1, need=1, last=False)))  # a sure winner
    'AS'
    >>> str(Card(basic_card(hand, unseen, [], -1, need=0, last=False)))  # most cards beat it
    '2S'
    >>> led = [int(Card.parse("QH"))]
    >>> str(Card(basic_card(hand, unseen, led, -1, need=1, last=False)))  # cheapest winner
    'KH'
    >>> str(Card(basic_card(hand, unseen, led, 2, need=0, last=True)))   # must take it: high
    'KH'
    """
    if not trick:
        cards = _cards(hand)
        if need > 0:
            bosses = [c for c in cards if not unseen & SUIT_MASKS[c // 13] & ~((2 << c) - 1)]
            if bosses:
                return max(bosses, key=lambda c: (c // 13 != trump, c % 13))
            return _lowest(cards, trump)
        return max(cards, key=lambda c: (c // 13 != trump, _beaten_by(c, unseen)[0], -c))
    cards = _cards(playable(hand, trick))
    best = trick[trick_winner_position(trick, trump)]
    winners = [c for c in cards if beats(c, best, trump)]
    if need > 0:
        return _lowest(winners or cards, trump)
    losers = [c for c in cards if c not in winners]
    if losers:
        return _highest(losers, trump)
    return _highest(cards, trump) if last else _lowest(cards, trump)


#: :func:`basic_card`, in C when the accelerator was built.
model_card = basic_card if _fast is None else _fast.basic_card


#: The common tactics as play features, each for the player that still wants tricks
#: (``need``) or wants no more (``done``): following, the cheapest card that wins the
#: trick, the dearest that loses it, the lowest card, the highest when last to play;
#: leading, the best card no unseen card of its suit beats (plain suits first) and the
#: plain card the most unseen cards beat.  The shipped learnt model was fitted before
#: they were features and gives them no weight
#: (:meth:`blackout.bots.inference.Models.shipped`); a player's own weights
#: (:class:`blackout.bots.inference.Habits`) learn them, and with them a rule-based
#: player's cards are all but certain (bench/RESULTS.md, "Twenty-first session").
TACTIC_FEATURES = (
    "cheapest_win_need", "dearest_loss_done", "lowest_need", "highest_last_done",
    "lead_best_top_need", "lead_most_out_done",
)
PLAY_FEATURES = (
    "rank", "trump", "lead_rank", "lead_trump", "wins", "wins_need", "wins_last_need",
    "wins_last_done", "highest", "lowest", "highest_need", "lowest_done", "discard_rank",
    "ruff", "lead_need_rank", "top", "top_need", "top_lead", *TACTIC_FEATURES,
)


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
    # Whether each card takes the trick so far, and how many unseen cards of its suit
    # beat it.
    wins = [bool(trick) and beats(card, best, trump) for card in cards]
    above = [(others & SUIT_MASKS[card // 13] & ~((2 << card) - 1)).bit_count()
             for card in cards]
    cheapest_win, dearest_loss, best_top, most_out = _tactics(cards, keys, wins, above, trump,
                                                               leading)
    rows = []
    for card, key, won, higher in zip(cards, keys, wins, above, strict=True):
        suit, rank = divmod(card, 13)
        r = rank / 12
        is_trump = 1.0 if suit == trump else 0.0
        win = 1.0 if won else 0.0
        following = bool(trick) and suit == trick[0] // 13
        top = 0.0 if higher else 1.0
        rows.append([
            r, is_trump, r * leading, is_trump * leading, win, win * wants,
            win * last * wants, win * last * done, float(key == high), float(key == low_key),
            float(key == high) * wants, float(key == low_key) * done,
            r * (not leading and not following and not is_trump),
            is_trump * (not leading and not following), r * leading * wants,
            top, top * wants, top * leading,
            float(card == cheapest_win) * wants, float(card == dearest_loss) * done,
            float(key == low_key) * wants, float(key == high) * last * done,
            float(card == best_top) * wants, float(card == most_out) * done,
        ])
    return cards, rows


def _tactics(cards: list[int], keys: list[int], wins: list[bool], above: list[int],
             trump: int, leading: bool) -> tuple[int, int, int, int]:
    """The cards the common tactics name (-1: none), from each card's shedding key,
    whether it takes the trick so far and how many unseen cards of its suit beat it:
    following, the cheapest card that wins the trick and the dearest that loses it;
    leading, the best card no unseen card beats (plain suits first) and the plain card
    the most unseen cards beat (ties: the lowest card)."""
    if not leading:
        winners = [(k, c) for c, k, w in zip(cards, keys, wins, strict=True) if w]
        losers = [(k, c) for c, k, w in zip(cards, keys, wins, strict=True) if not w]
        return (min(winners)[1] if winners else -1, max(losers)[1] if losers else -1, -1, -1)
    plain = [c // 13 != trump for c in cards]
    tops = [(p, c % 13, -c) for c, p, a in zip(cards, plain, above, strict=True) if not a]
    most_out = max(zip(plain, above, [-c for c in cards], strict=True))
    return -1, -1, -max(tops)[2] if tops else -1, -most_out[2]


def habit_card(hand: int, others: int, trick: list[int], trump: int, need: int, last: bool,
               weights: Sequence[float]) -> int:
    """The card a player of play habit ``weights`` (over :data:`PLAY_FEATURES`, a
    :class:`blackout.bots.inference.PlayModel`'s) likes best: the legal card of the
    highest score, the lowest of equals.  ``others`` is every card not in ``hand`` that
    the player has not seen played or turned up."""
    cards, rows = play_features(hand, trick, trump, need, last, hand | others)
    scores = [sum(map(operator.mul, weights, row)) for row in rows]
    return cards[scores.index(max(scores))]


#: :func:`habit_card`, in C when the accelerator was built.
model_habit_card = habit_card if _fast is None else _fast.habit_card


#: What a seat plays in a play-out: the search's policy (:func:`choose_card`), the
#: ``basic`` bot's rules (:func:`basic_card`) or its play habit's best card
#: (:func:`habit_card`, with that seat's weights).
POLICY, BASIC, HABIT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Endgame:
    """How to end a play-out exactly: the last ``tricks`` tricks are solved with every
    card seen (:func:`solve_endgame`), seat ``s`` valuing an end where it took ``t``
    tricks at ``points[s * (cards + 1) + t]`` (from the table's own scoring, see
    :func:`endgame_for`), less ``rivalry`` times its rivals' average."""

    points: tuple[float, ...]
    tricks: int
    rivalry: float = 0.0


def endgame_for(rules: Rules, cards: int, bids: Sequence[BidAction | None],
                declarer: int | None, tricks: int, rivalry: float = 0.0) -> Endgame | None:
    """The :class:`Endgame` of a hand, or ``None`` where a seat's points do not follow
    from its own tricks alone (partnership) or ``tricks`` is 0."""
    if rules.teams or tricks <= 0 or any(not isinstance(b, Bid) for b in bids):
        return None
    n = len(bids)
    rows = [hand_points(rules, cards, bids, [t] * n, declarer) for t in range(cards + 1)]
    return Endgame(tuple(float(rows[t][s]) for s in range(n) for t in range(cards + 1)),
                   tricks, rivalry)


def play_out(hands: list[int], trump: int, leader: int, trick: list[int], won: list[int],
             goals: Goals, models: Sequence[int] | None = None, deck: int = 0,
             endgame: Endgame | None = None,
             weights: Sequence[float] | None = None) -> list[int]:
    """Play the hand to its end, every seat by its model (default :data:`POLICY`).

    ``hands`` are the unplayed cards (used up: their contents afterwards are
    unspecified), ``trick`` the cards already played to the trick ``leader`` led,
    ``won`` the tricks taken so far (updated and returned), ``models`` each seat's
    :data:`POLICY`, :data:`BASIC` or :data:`HABIT` (individual scoring only), ``weights``
    every seat's play habit (:data:`PLAY_FEATURES` weights), seat after seat, read for
    the :data:`HABIT` seats only, ``deck`` the cards nobody holds (not played, not turned
    up), which a :data:`BASIC` or :data:`HABIT` seat cannot tell from held ones.  With an
    ``endgame`` its last tricks are solved exactly instead of played by policy.
    """
    if models is None:
        models = (POLICY,) * len(hands)
    if _fast is None:
        return play_out_python(hands, trump, leader, trick, won, goals, models, deck, endgame,
                               weights)
    if endgame is None:
        won[:] = _fast.play_out(hands, trump, leader, trick, won, goals.targets, goals.teams,
                                goals.greedy_when_over, models, deck, None, 0, 0.0, weights)
    else:
        won[:] = _fast.play_out(hands, trump, leader, trick, won, goals.targets, goals.teams,
                                goals.greedy_when_over, models, deck, endgame.points,
                                endgame.tricks, endgame.rivalry, weights)
    return won


def seat_weights(weights: Sequence[float] | None, seat: int) -> Sequence[float]:
    """A :data:`HABIT` seat's row of ``weights`` (see :func:`play_out`)."""
    size = len(PLAY_FEATURES)
    if weights is None or len(weights) < (seat + 1) * size:
        raise ValueError("weights: one row of play weights per player")
    return weights[seat * size:(seat + 1) * size]


def play_out_python(hands: list[int], trump: int, leader: int, trick: list[int],
                    won: list[int], goals: Goals, models: Sequence[int] | None = None,
                    deck: int = 0, endgame: Endgame | None = None,
                    weights: Sequence[float] | None = None) -> list[int]:
    """:func:`play_out` in Python: the reference for the C version."""
    n = len(hands)
    if models is None:
        models = (POLICY,) * n
    trick = list(trick)
    remaining = 0
    for hand in hands:
        remaining |= hand
    seat = (leader + len(trick)) % n
    targets, teams, greedy = goals.targets, goals.teams, goals.greedy_when_over
    while remaining:
        if endgame is not None and remaining.bit_count() + len(trick) <= endgame.tricks * n:
            won[:] = solve_endgame(hands, trump, leader, trick, won, endgame, models,
                                   targets, deck, weights)
            return won
        hand = hands[seat]
        target = targets[seat]
        # Goals.need, inlined: this loop is where the search spends its time.
        if target == NO_TRICK:
            need = -1
        elif teams:
            need = target - won[seat] - won[(seat + 2) % 4]
        else:
            need = target - won[seat]
        if need < 0 and greedy:
            need = EVERY_TRICK
        ally_winning = False
        if teams and trick and targets[(seat + 2) % 4] != NO_TRICK:
            ally_winning = (leader + trick_winner_position(trick, trump)) % n == (seat + 2) % 4
        if models[seat] == BASIC:
            card = basic_card(hand, remaining & ~hand | deck, trick, trump, target - won[seat],
                              len(trick) == n - 1)
        elif models[seat] == HABIT:
            card = habit_card(hand, remaining & ~hand | deck, trick, trump, target - won[seat],
                              len(trick) == n - 1, seat_weights(weights, seat))
        else:
            card = choose_card(hand, remaining & ~hand, trick, trump, need,
                               len(trick) == n - 1, ally_winning)
        hands[seat] = hand & ~(1 << card)
        remaining &= ~(1 << card)
        trick.append(card)
        trick, leader, seat = next_turn(trick, leader, won, trump, n)
    return won


def solve_endgame(hands: list[int], trump: int, leader: int, trick: list[int],
                  won: Sequence[int], endgame: Endgame, models: Sequence[int],
                  targets: Sequence[int], deck: int = 0,
                  weights: Sequence[float] | None = None) -> list[int]:
    """The tricks each seat ends with when the rest of the hand is played with every
    card seen, each seat choosing the card that leads to the best end for itself
    (max^n: the game is not zero-sum, so there are no alpha-beta cut-offs); a seat
    ``models`` takes for a basic bot plays :func:`basic_card`, one of a :data:`HABIT`
    its :func:`habit_card` (its row of ``weights``, see :func:`play_out`).  Of cards
    that nothing still in play separates, only the lowest is tried; ties go to the lower
    card."""
    n = len(hands)
    stride = len(endgame.points) // n
    points, rivalry = endgame.points, endgame.rivalry

    def value(seat: int, end: list[int]) -> float:
        own = points[seat * stride + end[seat]]
        if not rivalry:
            return own
        others = sum(points[s * stride + end[s]] for s in range(n) if s != seat)
        return own - rivalry * others / (n - 1)

    def solve(leader: int, trick: list[int], won: list[int]) -> list[int]:
        remaining = 0
        for hand in hands:
            remaining |= hand
        if not remaining:
            return list(won)
        seat = (leader + len(trick)) % n
        hand = hands[seat]
        if models[seat] == BASIC:
            cards = [basic_card(hand, remaining & ~hand | deck, trick, trump,
                                targets[seat] - won[seat], len(trick) == n - 1)]
        elif models[seat] == HABIT:
            cards = [habit_card(hand, remaining & ~hand | deck, trick, trump,
                                targets[seat] - won[seat], len(trick) == n - 1,
                                seat_weights(weights, seat))]
        else:
            cards = _cards(playable(hand, trick))
        in_play = remaining | sum(1 << c for c in trick)
        best, best_end, previous = -math.inf, list(won), -2
        for card in cards:
            between = ((1 << card) - 1) & ~((2 << previous) - 1) if previous >= 0 else 0
            if previous // 13 == card // 13 and not in_play & between:
                previous = card
                continue
            previous = card
            hands[seat] = hand & ~(1 << card)
            played = [*trick, card]
            if len(played) == n:
                winner = (leader + trick_winner_position(played, trump)) % n
                after = list(won)
                after[winner] += 1
                end = solve(winner, [], after)
            else:
                end = solve(leader, played, won)
            hands[seat] = hand
            score = value(seat, end)
            if score > best:
                best, best_end = score, end
        return best_end

    return solve(leader, list(trick), list(won))


def next_turn(trick: list[int], leader: int, won: list[int], trump: int,
              players: int) -> tuple[list[int], int, int]:
    """After a card joins ``trick`` (led by ``leader``): the trick, its leader and the
    seat to play next.  A full trick is credited to its winner in ``won`` and a new,
    empty one is led by that winner."""
    if len(trick) == players:
        leader = (leader + trick_winner_position(trick, trump)) % players
        won[leader] += 1
        return [], leader, leader
    return trick, leader, (leader + len(trick)) % players


# Expected tricks from one card, by rank index (0 = two .. 12 = ace), given the suit's
# length in hand: plain suits and the trump suit.  Rough values; they only say which
# bids are worth searching and guess the bids of players who have not bid yet.
_PLAIN = {12: (0.85, 0.85, 0.8, 0.75), 11: (0.2, 0.55, 0.55, 0.45), 10: (0.05, 0.15, 0.35, 0.3)}
_TRUMP = {12: 1.0, 11: 0.85, 10: 0.65, 9: 0.45}
# What the table above credits a card on average (four players): measured by playing
# out random deals, where each card takes 0.25 tricks.
_HIGH_CARD_SHARE = 0.145


def estimate_tricks(hand: int, trump: int, players: int) -> float:
    """A quick guess of how many tricks a hand takes, for bid guesses."""
    if _fast is not None:
        return _fast.estimate_tricks(hand, trump, players)
    return estimate_tricks_python(hand, trump, players)


def estimate_tricks_python(hand: int, trump: int, players: int) -> float:
    """:func:`estimate_tricks` in Python: the reference for the C version."""
    total = 0.0
    for suit in range(4):
        bits = hand >> (13 * suit) & 0x1FFF
        length = bits.bit_count()
        if not length:
            continue
        if suit == trump:
            for rank in range(13):
                if bits >> rank & 1:
                    total += _TRUMP.get(rank, 0.0)
            total += max(0, length - 3) * 0.55
        else:
            for rank in (12, 11, 10):
                if bits >> rank & 1:
                    total += _PLAIN[rank][min(length, 4) - 1]
            if trump == NO_TRUMP:
                total += max(0, length - 4) * 0.4
    # With more players a high card is likelier to be beaten or trumped.
    scale: float = (4 / players) ** 0.5  # as the C code computes it, to the last bit
    # Low cards win tricks too (when the others are void, or duck): what the table
    # misses of the fair share (cards / players) is spread evenly over the hands.
    cards = hand.bit_count()
    return total * scale + max(0.0, cards / players - _HIGH_CARD_SHARE * cards * scale)
