"""A rule-based computer player: instant decisions from simple card counting.

Bidding estimates, for each card held, the chance it takes a trick (higher cards still
out and how many of them are in play, guards below it, the chance of being trumped,
long suits, short suits to ruff in, and for small hands whether the suit is ever led).
Those chances give a distribution of tricks, and the bot bids whatever legal bid
scores best on average under the table's scoring, so nullo's reward for an exact 0
and Potomac's penalty for a miss are weighed by the rules themselves.

Play follows one question: does the seat (its team, in partnership) still need
tricks?  If so it wins as cheaply as it can and leads its winners; if not it plays the
highest card that still loses and throws its most dangerous cards when void.  In
partnership it does not overtake a partner who holds the trick, covers a partner's nil
by playing high, and plays low under an opponent's nil to make it take a trick.

>>> import blackout
>>> from blackout.bots.basic import BasicBot
>>> game = blackout.Game.new(blackout.variant("nullo"), ["a", "b", "c"], seed=4)
>>> action, reason = BasicBot().hint(game.view(game.to_move))
>>> action in game.legal_actions(), bool(reason)
(True, True)
"""

from __future__ import annotations

from math import comb

from blackout.bots.playout import _fast
from blackout.core.actions import (
    BIDS,
    BOARD,
    NIL,
    PLAYS,
    TRUMP_CHOICES,
    Action,
    Bid,
    Board,
    ChooseTrump,
    Nil,
    Play,
)
from blackout.core.cards import SUIT_MASKS, Card, Suit, cards_in
from blackout.core.game import beats, trick_winner, trick_winner_position
from blackout.core.procedure import hooked_bid
from blackout.core.rules import Rules
from blackout.core.scoring import player_points
from blackout.core.view import View

__all__ = [
    "BasicBot", "bid_distribution", "bid_for", "hand_distribution", "trick_chances",
    "tricks_distribution",
]

#: Chance a high card survives each higher card it must duck under with a guard.
GUARD_SURVIVAL = 0.55
#: Long-suit winners need the lead; discount them for that.
LENGTH_DISCOUNT = 0.8
#: Chance one short side suit turns into a trick for a low trump.
RUFF_CHANCE = 0.55
#: A side card with no visible prospect still takes a trick about 1.1 / players² of the
#: time (measured).
SIDE_FLOOR_SCALE = 1.1
#: Partnership: bid nil when the estimated chance of taking no trick is at least this.
#: The estimate is cautious: in games between basic bots, which attack nils, such nils
#: succeed about two times in three, and +40 / -10 beats a number contract's average.
NIL_CHANCE = 0.1
#: Partnership: bid board only when taking all thirteen tricks is this likely.
BOARD_CHANCE = 0.6


class BasicBot:
    """Instant rule-based play for every decision of every preset.

    It never changes a Potomac bid out of turn: its bid already was its best estimate
    and nothing new is learnt before the next player bids, so ``choose`` returns
    ``None`` then.  ``seed`` is accepted for the common bot interface; the bot is
    deterministic.
    """

    name = "basic"
    instant = True  # decides in microseconds (see blackout.bots.base.Bot)

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: View) -> Action | None:
        if view.to_move != view.seat or not view.legal_actions:
            return None
        return self.hint(view)[0]

    def hint(self, view: View) -> tuple[Action, str]:
        """The action this bot would take, with a one-line reason."""
        if view.to_move != view.seat or not view.legal_actions:
            raise ValueError("there is nothing for this seat to decide now")
        if view.phase == "bid":
            return choose_bid(view)
        if view.phase == "trump":
            return choose_trump(view)
        return choose_play(view)


# -- estimating tricks -------------------------------------------------------------------


def _binomial_below(trials: int, p: float, below: int) -> float:
    """P(X < below) for X ~ Binomial(trials, p)."""
    return sum(comb(trials, k) * p**k * (1 - p) ** (trials - k)
               for k in range(min(below, trials + 1)))


def _high_chance(higher: int, guards: int, in_play: float) -> float:
    """Chance a card beats the ``higher`` unseen cards of its suit: none is in play, or
    each one in play is ducked under with a guard."""
    return sum(comb(higher, m) * in_play**m * (1 - in_play) ** (higher - m) * GUARD_SURVIVAL**m
               for m in range(min(higher, guards) + 1))


def _lead_access(cards: int, players: int, leads_first: bool, rounds: int) -> float:
    """Chance a side suit is led ``rounds`` times while the seat still holds the card:
    certain in big hands, doubtful in a one-card hand unless the seat leads."""
    my_leads = (cards - 1) / players + (1.0 if leads_first else 0.0)
    other_leads = cards - my_leads
    missing = max(0.0, 1 - my_leads / rounds) * 0.75 ** (other_leads / rounds)
    return 1 - min(1.0, float(missing))


class _Table:
    """What the estimate needs to know about the hand being bid: its cards, the cards
    its holder had not seen when it bid, the cards dealt each, the players, and whether
    it leads first."""

    def __init__(self, hand: int, unseen: int, cards: int, players: int,
                 leads_first: bool) -> None:
        self.hand = hand
        self.unseen = unseen
        self.cards = cards
        self.players = players
        self.leads_first = leads_first
        self.unseen_count = max(1, unseen.bit_count())
        # Chance a given unseen card sits in an opponent's hand (Potomac leaves cards out).
        self.in_play = min(1.0, cards * (players - 1) / self.unseen_count)
        # The share of each suit among the unseen cards.
        self.shares = [(unseen & m).bit_count() / self.unseen_count for m in SUIT_MASKS]

    @classmethod
    def at_bid(cls, view: View, hand: int, seat: int) -> _Table:
        """``seat`` holding ``hand`` as it bid in the hand of ``view``."""
        return cls(hand, _unseen_at_bid(view, hand, seat), view.cards_dealt,
                   view.players_count, view.first_leader == seat)


def _unseen_at_bid(view: View, hand: int, seat: int) -> int:
    if seat == view.seat:
        return view.unseen() & ~hand
    # What another seat holding ``hand`` had not seen when it bid.
    return (1 << 52) - 1 & ~hand & ~view.turn_up_mask


def trick_chances(view: View, trump: Suit | None, hand: int | None = None,
                  seat: int | None = None) -> list[float]:
    """For each card of ``hand`` (default: the seat's own), suit by suit from clubs and
    high cards first, the chance it takes a trick with ``trump`` as the trump suit
    (``None``: no trump); ``seat`` (default: the view's) is whose hand it is (another
    seat's: as it was when that seat bid, before any card was played)."""
    seat = view.own_seat if seat is None else seat
    return _chances(_Table.at_bid(view, view.hand if hand is None else hand, seat), trump)


def _chances(table: _Table, trump: Suit | None) -> list[float]:
    chances: list[float] = []
    for suit in Suit:
        mine = sorted(cards_in(table.hand & SUIT_MASKS[suit]), reverse=True)
        suit_chances = [_card_chance(table, card, i, len(mine), trump)
                        for i, card in enumerate(mine)]
        if suit == trump:
            suit_chances = _with_ruffs(table, suit_chances, trump)
        chances += [_calibrated(p, suit == trump, table.players) for p in suit_chances]
    return chances


def _calibrated(p: float, is_trump: bool, players: int) -> float:
    """Correct the estimate toward what cards of that estimate really take, measured in
    games between basic bots (standard with 3, 4 and 6 players): trumps win more often
    than the count of higher trumps suggests (those are spent ruffing and drawing),
    middling side cards less often, and even hopeless side cards sometimes win when
    nobody else can follow, the more often the fewer the players."""
    if is_trump:
        return 1 - (1 - p) * (1 - (1 + p) / players)
    floor = SIDE_FLOOR_SCALE / players**2
    return floor + (1 - floor) * float(p ** 1.4)


def _card_chance(table: _Table, card: Card, position: int, length: int,
                 trump: Suit | None) -> float:
    suit = card // 13
    above = table.unseen & SUIT_MASKS[suit] & ~((2 << card) - 1)
    chance = _high_chance(above.bit_count(), length - position - 1, table.in_play)
    share = table.shares[suit]
    if trump is None or suit != trump:
        chance *= _lead_access(table.cards, table.players, table.leads_first, position + 1)
    if trump is not None and suit != trump:
        void = _binomial_below(table.cards, share, position + 1)
        holds_trump = 1 - (1 - table.shares[trump]) ** table.cards
        return chance * (1 - void * holds_trump) ** (table.players - 1)
    if position < 2:
        return chance
    # The third and later cards of a trump suit, or of any suit at no trump, win once
    # the others have run out of the suit.
    run_out = _binomial_below(table.cards, share, position + 1) ** (table.players - 1)
    return max(chance, LENGTH_DISCOUNT * run_out)


def _with_ruffs(table: _Table, trump_chances: list[float], trump: Suit) -> list[float]:
    """Low trumps (the end of ``trump_chances``) take tricks by ruffing side suits the
    seat is short in."""
    if table.cards < 3:
        return trump_chances
    shortness = sum(1.0 if n == 0 else 0.5 if n == 1 else 0.0 for n in (
        (table.hand & SUIT_MASKS[s]).bit_count() for s in Suit if s != trump))
    ruffs = min(len(trump_chances), round(shortness))
    keep = len(trump_chances) - ruffs
    return trump_chances[:keep] + [max(p, RUFF_CHANCE) for p in trump_chances[keep:]]


def tricks_distribution(chances: list[float]) -> list[float]:
    """P(exactly t tricks) for t = 0..len(chances), treating cards as independent."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for t, q in enumerate(dist):
            nxt[t] += q * (1 - p)
            nxt[t + 1] += q * p
        dist = nxt
    return dist


def expected_points(rules: Rules, cards: int, bid: int, dist: list[float],
                    declarer: bool = False) -> float:
    """Average points of an individual ``bid`` when the tricks follow ``dist`` (the
    table's own scoring, :func:`~blackout.core.scoring.player_points`)."""
    if rules.teams:
        raise ValueError(f"no individual bids under scoring {rules.scoring!r}")
    return sum(q * player_points(rules, cards, bid, took, declarer)
               for took, q in enumerate(dist) if q)


def _mean(dist: list[float]) -> float:
    return sum(t * q for t, q in enumerate(dist))


# -- bidding -------------------------------------------------------------------------------


def choose_bid(view: View) -> tuple[Action, str]:
    if view.blind:
        return _blind_bid(view)
    if view.rules.teams:
        return _team_bid(view)
    if not view.trump_decided:
        return _declarer_game_bid(view)
    chances = trick_chances(view, view.trump)
    dist = bid_distribution(view, view.trump, view.hand, view.own_seat)
    return _best_bid(view, dist, declarer=False, chances=chances)


def bid_for(view: View, seat: int, hand: int, trump: Suit | None, others: int) -> int:
    """The number bid this bot would make in ``seat`` holding ``hand`` (individual
    scoring, trump known), when the bids before it add up to ``others`` (for the hook):
    how a search player guesses the bids of a seat it takes for a basic bot."""
    dist = bid_distribution(view, trump, hand, seat)
    cards = view.cards_dealt
    hooked = hooked_bid(view.rules, cards, others, seat == view.bidding_order[-1])
    bids = [BIDS[t] for t in range(cards + 1) if t != hooked]
    best = max(_plausible(bids, dist),
               key=lambda b: expected_points(view.rules, cards, b.tricks, dist))
    return best.tricks


def bid_distribution(view: View, trump: Suit | None, hand: int, seat: int) -> list[float]:
    """``tricks_distribution(trick_chances(view, trump, hand, seat))``: a search player
    asks for it thousands of times a decision (:func:`bid_for`), and the bot's own bid
    takes it from here too, so the two always agree."""
    return hand_distribution(hand, _unseen_at_bid(view, hand, seat), view.cards_dealt,
                             view.players_count, view.first_leader == seat,
                             -1 if trump is None else int(trump))


def hand_distribution(hand: int, unseen: int, cards: int, players: int, leads_first: bool,
                      trump: int) -> list[float]:
    """The chances of taking 0..``cards`` tricks with ``hand`` (``trump`` a suit number,
    -1 for no trump) for a bidder who had not seen ``unseen``, from the C accelerator when
    it is built (the same numbers, see tests/test_bots_fast.py)."""
    if _fast is None:
        table = _Table(hand, unseen, cards, players, leads_first)
        return tricks_distribution(_chances(table, None if trump < 0 else Suit(trump)))
    return _fast.bid_distribution(hand, unseen, cards, players, leads_first, trump)


def _best_bid(view: View, dist: list[float], declarer: bool,
              chances: list[float] | None = None) -> tuple[Action, str]:
    """The legal bid with the best average points; ``chances`` (when trump is known)
    only feed the reason."""
    bids = [a for a in view.legal_actions if isinstance(a, Bid)]
    best = max(_plausible(bids, dist), key=lambda b: expected_points(
        view.rules, view.cards_dealt, b.tricks, dist, declarer))
    details = []
    if chances is not None:
        details.append(f"{sum(1 for p in chances if p > 0.8)} sure")
    if view.trump_decided and view.trump is not None:
        details.append(f"{view.suit_count(view.trump)} trumps")
    why = f"bid {best}: expect about {_mean(dist):.1f} tricks"
    if details:
        why += f" ({', '.join(details)})"
    return best, why + _hook_note(view, bids) + _not_nearest(view, best, dist, declarer)


def _not_nearest(view: View, best: Bid, dist: list[float], declarer: bool) -> str:
    """Why the bid is not the one nearest the expected tricks, when it is not: that
    one scores less on average under the table's scoring (or the hook forbids it)."""
    mean = _mean(dist)
    nearest = min(round(mean), view.cards_dealt)
    if abs(best.tricks - mean) < 1 or BIDS[nearest] not in view.legal_actions:
        return ""
    rules, cards = view.rules, view.cards_dealt
    return (f"; {best} averages {expected_points(rules, cards, best.tricks, dist, declarer):.1f}"
            f" points, {nearest} {expected_points(rules, cards, nearest, dist, declarer):.1f}")


def _hook_note(view: View, bids: list[Bid]) -> str:
    hooked = set(range(view.cards_dealt + 1)) - {b.tricks for b in bids}
    return f"; the hook forbids {hooked.pop()}" if hooked and not view.rules.teams else ""


def _plausible(bids: list[Bid], dist: list[float]) -> list[Bid]:
    """The bids worth scoring: within 3 of the expected tricks, or 0 (nullo rewards an
    exact 0 generously); all of them if none is that close."""
    mean = _mean(dist)
    near = [b for b in bids if b.tricks == 0 or abs(b.tricks - mean) <= 3]
    return near or bids


def _blind_bid(view: View) -> tuple[Action, str]:
    """pbmserv's first hand: the seat sees every card but its own; count how many of
    the cards it might hold would win the single trick."""
    unseen = list(cards_in(view.unseen()))
    order = [(view.bidding_order[0] + i) % view.players_count
             for i in range(view.players_count)]
    wins = 0
    for card in unseen:
        played = [card if s == view.seat else next(cards_in(view.hands[s] or 0)) for s in order]
        wins += trick_winner(order[0], played, view.trump, view.players_count) == view.seat
    p = wins / max(1, len(unseen))
    dist = [1 - p, p]
    bids = [a for a in view.legal_actions if isinstance(a, Bid)]
    best = max(bids, key=lambda b: expected_points(view.rules, 1, b.tricks, dist))
    return best, (f"bid {best}: {wins} of the {len(unseen)} cards I could hold win the trick"
                  + _hook_note(view, bids))


def _declarer_game_bid(view: View) -> tuple[Action, str]:
    """Potomac: trump is named after the bidding by the top bidder.  Bid to become
    declarer when the hand's best trump makes that pay, else bid on an average trump."""
    per_option = {c.suit: trick_chances(view, c.suit) for c in TRUMP_CHOICES}
    average = tricks_distribution([sum(ps) / len(ps) for ps in
                                   zip(*per_option.values(), strict=True)])
    plain, plain_why = _best_bid(view, average, declarer=False)
    assert isinstance(plain, Bid)
    plain_value = expected_points(view.rules, view.cards_dealt, plain.tricks, average)
    declaring = _best_declarer_bid(view, per_option)
    if declaring is not None and declaring[0] > plain_value:
        _, bid, trump = declaring
        name = "no trump" if trump is None else trump.plural
        return bid, f"bid {bid}: to be declarer with {name} as trump"
    return plain, plain_why


def _best_declarer_bid(view: View, per_option: dict[Suit | None, list[float]]
                       ) -> tuple[float, Bid, Suit | None] | None:
    """The best (average points, bid, trump) among bids that would top every bid so far
    (a tie goes to the earlier bidder), or None if no bid can."""
    top_other = max((b.tricks for b in view.bids if isinstance(b, Bid)), default=-1)
    topping = [a for a in view.legal_actions if isinstance(a, Bid) and a.tricks > top_other]
    best: tuple[float, Bid, Suit | None] | None = None
    for trump, chances in per_option.items():
        dist = tricks_distribution(chances)
        for bid in _plausible(topping, dist):
            value = expected_points(view.rules, view.cards_dealt, bid.tricks, dist, True)
            if best is None or value > best[0]:
                best = (value, bid, trump)
    return best


def _team_bid(view: View) -> tuple[Action, str]:
    chances = trick_chances(view, view.trump)
    dist = tricks_distribution(chances)
    legal = view.legal_actions
    if BOARD in legal and dist[-1] >= BOARD_CHANCE:
        return BOARD, "board: this hand should take every trick"
    partner_bid = view.bids[(view.own_seat + 2) % 4]
    if NIL in legal and dist[0] >= NIL_CHANCE and max(chances, default=0) < 0.5:
        return NIL, f"nil: a {dist[0]:.0%} chance of taking no trick"
    mine = max(1, round(_mean(dist)))
    numbers = [a for a in legal if isinstance(a, Bid)]
    bid = min(numbers, key=lambda b: abs(b.tricks - mine))
    why = f"bid {bid}: expect about {_mean(dist):.1f} tricks toward the team"
    if isinstance(partner_bid, Bid):
        why += f" (partner bid {partner_bid})"
    return bid, why


# -- naming trump --------------------------------------------------------------------------


def choose_trump(view: View) -> tuple[Action, str]:
    """Potomac declarer: the trump (or no trump) that best fits the bid."""
    bid = view.bids[view.own_seat]
    tricks = bid.tricks if isinstance(bid, Bid) else 0
    legal = [a for a in view.legal_actions if isinstance(a, ChooseTrump)]

    def value(option: ChooseTrump) -> float:
        dist = tricks_distribution(trick_chances(view, option.suit))
        return expected_points(view.rules, view.cards_dealt, tricks, dist, declarer=True)

    best = max(legal, key=value)
    name = "no trump" if best.suit is None else best.suit.plural
    length = 0 if best.suit is None else view.suit_count(best.suit)
    detail = f" with {length} of them" if best.suit is not None else ""
    return best, f"{best}: {name}{detail} fits a bid of {tricks} best"


# -- playing -------------------------------------------------------------------------------


def _beats(card: int, best: int, trump: Suit | None) -> bool:
    return beats(card, best, -1 if trump is None else int(trump))


def _current_winner(view: View) -> tuple[int, Card] | None:
    if not view.trick:
        return None
    cards = [card for _, card in view.trick]
    return view.trick[trick_winner_position(cards, -1 if view.trump is None else int(view.trump))]


def _danger(card: Card, trump: Suit | None) -> int:
    """How likely a card is to win a trick later: rank, trumps above every side card."""
    return card % 13 + (13 if trump is not None and card // 13 == trump else 0)


def _higher_out(view: View, card: Card) -> int:
    """How many cards of its suit that beat it the seat has not seen yet."""
    return (view.unseen() & SUIT_MASKS[card // 13] & ~((2 << card) - 1)).bit_count()


def _is_boss(view: View, card: Card) -> bool:
    """No card still out beats it in its own suit (ruffs aside)."""
    return _higher_out(view, card) == 0


class _Goal:
    """What the seat plays for this hand: ``need`` tricks more (<= 0: none), and in
    partnership whether a partner's nil must be protected or the partner is winning."""

    def __init__(self, view: View) -> None:
        self.partner: int | None = (view.own_seat + 2) % 4 if view.rules.teams else None
        self.protect_nil = False
        self.need = self._need(view)

    def _need(self, view: View) -> int:
        seat = view.own_seat
        own = view.bids[seat]
        left = view.cards_dealt - len(view.tricks)
        if self.partner is None:
            return (own.tricks if isinstance(own, Bid) else 0) - view.tricks_won[seat]
        partner_bid = view.bids[self.partner]
        if isinstance(own, Nil):
            return -1
        if isinstance(own, Board) or isinstance(partner_bid, Board):
            return left
        if isinstance(partner_bid, Nil):
            self.protect_nil = True
            return left
        total = sum(b.tricks for b in (own, partner_bid) if isinstance(b, Bid))
        taken = view.tricks_won[seat] + view.tricks_won[self.partner]
        need = min(total, view.rules.team_bid_cap) - taken
        return left if view.rules.team_bid == "at_least" and need > 0 else need


def choose_play(view: View) -> tuple[Action, str]:
    goal = _Goal(view)
    legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
    target = _intact_opponent_nil(view, goal)
    attack = _attack_nil(view, legal, target) if target is not None else None
    if goal.protect_nil:
        card, why = _protect(view, legal, goal)
    elif attack is not None:
        card, why = attack
    elif goal.need > 0:
        card, why = _take(view, legal, goal)
    else:
        card, why = _duck(view, legal)
    return PLAYS[card], why


def _need_text(goal: _Goal) -> str:
    if goal.need <= 0:
        return "no more tricks wanted"
    return f"need {goal.need} more trick{'s' if goal.need > 1 else ''}"


def _take(view: View, legal: list[Card], goal: _Goal) -> tuple[Card, str]:
    trump = view.trump
    current = _current_winner(view)
    if current is None:
        bosses = [c for c in legal if _is_boss(view, c)]
        if bosses:
            card = max(bosses, key=lambda c: (c // 13 != trump, c % 13))
            return card, f"{_need_text(goal)}: lead the {card}, the best card left in its suit"
        card = min(legal, key=lambda c: (_danger(c, trump), c))
        return card, f"{_need_text(goal)}: no sure winner, lead the low {card}"
    seat, best = current
    if seat == goal.partner and (_last_to_play(view) or _is_boss(view, best)):
        card = min(legal, key=lambda c: (_danger(c, trump), c))
        return card, f"{_need_text(goal)}: partner has this trick, play the low {card}"
    winners = [c for c in legal if _beats(c, best, trump)]
    if winners:
        card = min(winners, key=lambda c: _danger(c, trump))
        return card, f"{_need_text(goal)}: take it with the {card}"
    card = min(legal, key=lambda c: (_danger(c, trump), c))
    return card, f"{_need_text(goal)}, but nothing wins this trick: throw the {card}"


def _duck(view: View, legal: list[Card]) -> tuple[Card, str]:
    trump = view.trump
    current = _current_winner(view)
    if current is None:
        # Lead the side card with the most cards still out above it.
        card = max(legal, key=lambda c: (c // 13 != trump, _higher_out(view, c), -c))
        return card, f"no more tricks wanted: lead the {card}, {_higher_out(view, card)} " \
            "cards still out beat it"
    best = current[1]
    losers = [c for c in legal if not _beats(c, best, trump)]
    if losers:
        card = max(losers, key=lambda c: _danger(c, trump))
        return card, f"no more tricks wanted: the {card} loses to the {best}"
    if _last_to_play(view):
        card = max(legal, key=lambda c: _danger(c, trump))
        return card, f"this trick is mine anyway: get rid of the {card}"
    card = min(legal, key=lambda c: _danger(c, trump))
    return card, f"every card wins so far: the {card} may still be beaten"


def _protect(view: View, legal: list[Card], goal: _Goal) -> tuple[Card, str]:
    """Partner bid nil: win the tricks the partner might otherwise take."""
    trump = view.trump
    partner = goal.partner
    played = {s for s, _ in view.trick}
    current = _current_winner(view)
    partner_safe = partner in played and current is not None and current[0] != partner
    if partner_safe:
        card = min(legal, key=lambda c: (_danger(c, trump), c))
        return card, f"partner's nil is safe this trick: keep the high cards, play {card}"
    card = max(legal, key=lambda c: _danger(c, trump))
    return card, f"cover partner's nil: play high with the {card}"


def _last_to_play(view: View) -> bool:
    return len(view.trick) == view.players_count - 1


def _intact_opponent_nil(view: View, goal: _Goal) -> int | None:
    """Partnership: an opponent who bid nil and has not taken a trick yet."""
    if goal.partner is None:
        return None
    for seat in ((view.own_seat + 1) % 4, (view.own_seat + 3) % 4):
        if isinstance(view.bids[seat], Nil) and view.tricks_won[seat] == 0:
            return seat
    return None


def _attack_nil(view: View, legal: list[Card], target: int) -> tuple[Card, str] | None:
    """Play low so the nil bidder has to take the trick; None when this trick cannot
    hurt the nil any more (the nil bidder played and is beaten)."""
    trump = view.trump
    current = _current_winner(view)
    played = {s for s, _ in view.trick}
    if target in played and current is not None and current[0] != target:
        return None
    if target in played and current is not None:
        losers = [c for c in legal if not _beats(c, current[1], trump)]
        if losers:
            card = max(losers, key=lambda c: _danger(c, trump))
            return card, f"set the nil: stay under {view.players[target]}'s {current[1]}"
    card = min(legal, key=lambda c: (_danger(c, trump), c))
    return card, f"set {view.players[target]}'s nil: play low with the {card}"
