"""Rules as data: one frozen :class:`Rules` value holds every choice a table makes.

Each seed document is a named preset; keyword options override single fields::

>>> rules = variant("standard", scoring="ten_plus_bid", schedule="down")
>>> rules.hand_sizes(5)
(10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
>>> variant("potomac").hand_sizes(4)[:3], len(variant("potomac").hand_sizes(4))
((13, 12, 11), 25)
>>> variant("pbmserv", schedule=[7]).hand_sizes(4)
(7,)

``docs/rules.md`` states every preset in plain words, with the seed it comes from.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

__all__ = ["OPTIONS", "PRESET_OPTIONS", "TITLES", "VARIANTS", "OptionSpec", "Rules", "RulesError",
           "variant"]

Schedule = Literal["up", "down", "full_rotation", "down_up", "constant"]
TrumpRule = Literal["turn_up", "spades", "declarer", "none"]
Scoring = Literal[
    "ten_plus_bid", "five_plus_cards", "nullo", "potomac", "tricks_plus_ten", "partnership"
]
Tiebreak = Literal["exact_bids_then_coin", "extra_hands", "shared"]

SCHEDULES = ("up", "down", "full_rotation", "down_up", "constant")
TRUMP_RULES = ("turn_up", "spades", "declarer", "none")
SCORINGS = ("ten_plus_bid", "five_plus_cards", "nullo", "potomac", "tricks_plus_ten", "partnership")
TIEBREAKS = ("exact_bids_then_coin", "extra_hands", "shared")
SEAT_ROLES = ("left_of_dealer", "dealer")
LEADERS = ("left_of_dealer", "dealer", "first_bidder")


class RulesError(ValueError):
    """Rules that cannot be played: an unknown variant or option, or a bad combination."""


@dataclass(frozen=True)
class Rules:
    """Every rule of one Blackout game.  Build it with :func:`variant`.

    The fields, grouped by what they decide:

    * Players: ``min_players``..``max_players``; ``teams`` seats partners opposite
      (seats 0+2 against 1+3); ``inorder`` keeps the seats as listed, otherwise they
      are shuffled from the game's seed.
    * Hands: ``schedule`` is ``"up"`` (1..max), ``"down"`` (max..1),
      ``"full_rotation"`` (1..max..1), ``"down_up"`` (max..1..max), ``"constant"``
      (max every hand) or an explicit tuple of hand sizes; ``max_cards`` caps the
      largest hand (default ``52 // players``).
    * Dealer and turn order: ``first_dealer`` is ``"draw"`` (high card deals, suits
      ranking clubs < diamonds < hearts < spades) or a seat number (negative counts
      from the end: ``-1`` makes seat 0 bid first); the deal passes clockwise (to the
      next seat).  ``first_bidder`` and ``leader`` say who bids first and who leads the
      first trick.
    * Trump: ``trump`` is ``"turn_up"`` (next card of the deck; no trump when no card
      is left), ``"spades"``, ``"declarer"`` (highest bidder names it after bidding) or
      ``"none"``; ``last_hand_no_trump`` plays the largest hand of the schedule at no
      trump whatever the trump rule.
    * Bidding: ``pass_bid`` reads the word ``pass`` as a bid of 0 (seed 002; seed 004
      refuses it: "it is not possible to pass"); ``hook`` forbids the last bidder to
      make the bids total the cards dealt; ``bid_changes`` lets a player change a bid
      until the next player has bid; ``blind_first_hand`` plays a first hand of one
      card blind (pbmserv): each seat sees every card but its own, and the trick plays
      itself.
    * Scoring: ``scoring`` names the formula; ``team_bid`` is ``"exact"`` or
      ``"at_least"`` for partnership number bids; ``team_bid_cap`` caps a team's total.
    * End: ``target`` (a score that ends the game) and ``max_hands``; ``tiebreak`` is
      ``"exact_bids_then_coin"``, ``"extra_hands"`` or ``"shared"``.
    """

    variant: str
    min_players: int
    max_players: int
    teams: bool = False
    inorder: bool = True
    schedule: Schedule | tuple[int, ...] = "up"
    max_cards: int | None = None
    first_dealer: Literal["draw"] | int = "draw"
    first_bidder: Literal["left_of_dealer", "dealer"] = "left_of_dealer"
    leader: Literal["left_of_dealer", "dealer", "first_bidder"] = "left_of_dealer"
    trump: TrumpRule = "turn_up"
    last_hand_no_trump: bool = False
    pass_bid: bool = True
    hook: bool = False
    bid_changes: bool = False
    blind_first_hand: bool = False
    scoring: Scoring = "ten_plus_bid"
    team_bid: Literal["exact", "at_least"] = "exact"
    team_bid_cap: int = 12
    target: int | None = None
    max_hands: int | None = None
    tiebreak: Tiebreak = "shared"

    def __post_init__(self) -> None:
        if isinstance(self.schedule, list | tuple):
            object.__setattr__(self, "schedule", tuple(self.schedule))
        _validate(self)

    # -- hand sizes ---------------------------------------------------------------

    def largest_hand(self, players: int) -> int:
        """The most cards each player can be dealt: ``52 // players`` unless capped."""
        deck_max = 52 // players
        return deck_max if self.max_cards is None else min(self.max_cards, deck_max)

    def hand_sizes(self, players: int) -> tuple[int, ...]:
        """The scheduled hand sizes, first hand first (``"constant"``: one entry per hand
        up to ``max_hands``, or a single entry when the game ends on ``target`` alone)."""
        top = self.largest_hand(players)
        if isinstance(self.schedule, tuple):
            return self.schedule
        up = tuple(range(1, top + 1))
        down = up[::-1]
        return {
            "up": up,
            "down": down,
            "full_rotation": up + down[1:],
            "down_up": down + up[1:],
            "constant": (top,) * (self.max_hands or 1),
        }[self.schedule]

    def extra_hand_size(self, players: int, extra: int) -> int:
        """Cards dealt in the ``extra``-th tie-break hand (from 1) after the schedule:
        the largest hand for a constant schedule, else 1, 2, 3... up to the schedule's
        largest hand and round again (seed 002: "starting over with the one card hand")."""
        largest = max(self.hand_sizes(players))
        return largest if self.schedule == "constant" else (extra - 1) % largest + 1

    def schedule_done(self, players: int, played: int, top_score: int) -> bool:
        """Whether the scheduled hands are over after ``played`` hands with ``top_score``
        the highest total (any further hand is a tie-break hand)."""
        if self.max_hands is not None and played >= self.max_hands:
            return True
        if self.target is not None and top_score >= self.target:
            return True
        return self.schedule != "constant" and played >= len(self.hand_sizes(players))

    def first_bidder_seat(self, dealer: int, players: int) -> int:
        """Who bids first in a hand ``dealer`` deals; the others follow clockwise."""
        return (dealer + 1) % players if self.first_bidder == "left_of_dealer" else dealer

    def hand_count(self, players: int) -> int | None:
        """How many hands the schedule plays (tie-break hands not counted); None when
        only a ``target`` score ends the game."""
        if self.schedule == "constant":
            return self.max_hands
        scheduled = len(self.hand_sizes(players))
        return scheduled if self.max_hands is None else min(scheduled, self.max_hands)

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless this many players can play these rules."""
        if not self.min_players <= players <= self.max_players:
            span = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise RulesError(f"{self.variant} needs {span} players, not {players}")
        if isinstance(self.schedule, tuple) and max(self.schedule) > 52 // players:
            raise RulesError(
                f"a hand of {max(self.schedule)} cards cannot be dealt to {players} players"
            )

    # -- records ------------------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """The fields that differ from the preset, as JSON-able keyword options."""
        preset = PRESETS[self.variant]
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "variant":
                continue
            value = getattr(self, f.name)
            if value != getattr(preset, f.name):
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def to_dict(self) -> dict[str, Any]:
        """``{"variant": name, "options": {...}}``; :func:`variant` rebuilds it."""
        return {"variant": self.variant, "options": self.options()}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        return variant(data["variant"], **data.get("options", {}))


#: The most hands a schedule or ``max_hands`` may name: the longest named schedule has 51
#: (two players, ``down_up``); a game of hundreds of hands is a mistake, and a long one
#: would occupy a server (issue 19.6).
MAX_HANDS = 100
#: The highest ``target`` score: far above any real game's (100 to 200 in seed 000).
MAX_TARGET = 10_000


def _fail_unless(ok: bool, message: str) -> None:
    if not ok:
        raise RulesError(message)


def _is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not ``True``/``False`` (which Python counts as ints)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _int_in(value: object, low: int, high: int) -> bool:
    return _is_int(value) and low <= value <= high


def _validate(r: Rules) -> None:
    """Reject rules that cannot be played, with a message naming the field."""
    _fail_unless(_int_in(r.min_players, 2, 52) and _int_in(r.max_players, 2, 52),
                 "min_players and max_players must be numbers from 2 to 52")
    _fail_unless(r.min_players <= r.max_players,
                 f"min_players ({r.min_players}) is more than max_players ({r.max_players})")
    if isinstance(r.schedule, tuple):
        _fail_unless(
            bool(r.schedule) and all(_int_in(n, 1, 26) for n in r.schedule),
            "schedule must be a name or a non-empty list of hand sizes from 1 to 26",
        )
        _fail_unless(len(r.schedule) <= MAX_HANDS,
                     f"a schedule has at most {MAX_HANDS} hands, not {len(r.schedule)}")
    else:
        _fail_unless(r.schedule in SCHEDULES, f"schedule must be one of {', '.join(SCHEDULES)}"
                     " or a list of hand sizes")
    _fail_unless(r.max_cards is None or _int_in(r.max_cards, 1, 26),
                 "max_cards must be a number from 1 to 26")
    _fail_unless(r.first_dealer == "draw" or _int_in(r.first_dealer, -52, 51),
                 "first_dealer must be 'draw' or a seat number (-52 to 51)")
    _fail_unless(r.first_bidder in SEAT_ROLES, f"first_bidder must be one of {SEAT_ROLES}")
    _fail_unless(r.leader in LEADERS, f"leader must be one of {LEADERS}")
    _fail_unless(r.trump in TRUMP_RULES, f"trump must be one of {', '.join(TRUMP_RULES)}")
    _fail_unless(r.scoring in SCORINGS, f"scoring must be one of {', '.join(SCORINGS)}")
    _fail_unless(r.tiebreak in TIEBREAKS, f"tiebreak must be one of {', '.join(TIEBREAKS)}")
    _fail_unless(r.team_bid in ("exact", "at_least"), "team_bid must be 'exact' or 'at_least'")
    _fail_unless(r.target is None or _int_in(r.target, 1, MAX_TARGET),
                 f"target must be a score from 1 to {MAX_TARGET}")
    _fail_unless(r.max_hands is None or _int_in(r.max_hands, 1, MAX_HANDS),
                 f"max_hands must be a number from 1 to {MAX_HANDS}")
    for flag in ("teams", "inorder", "last_hand_no_trump", "pass_bid", "hook", "bid_changes",
                 "blind_first_hand"):
        _fail_unless(isinstance(getattr(r, flag), bool), f"{flag} must be true or false")
    if r.teams:
        _fail_unless(r.min_players == r.max_players == 4, "team play needs exactly 4 players")
        _fail_unless(r.scoring == "partnership", "team play is scored with scoring='partnership'")
        _fail_unless(not r.hook, "the hook does not apply to partnership bidding (hook=False)")
        _fail_unless(not r.bid_changes, "partnership bids cannot be changed (bid_changes=False)")
        _fail_unless(_int_in(r.team_bid_cap, 1, 13), "team_bid_cap must be 1 to 13")
    else:
        _fail_unless(r.scoring != "partnership", "scoring='partnership' needs teams=True")
    _fail_unless(r.schedule != "constant" or r.target is not None or r.max_hands is not None,
                 "a constant schedule needs target= or max_hands= to end the game")
    _fail_unless(not (r.trump == "declarer" and r.blind_first_hand),
                 "a blind first hand cannot have a declarer naming trump")


PRESETS: dict[str, Rules] = {
    "pbmserv": Rules(
        variant="pbmserv", min_players=4, max_players=4, inorder=False, schedule="up",
        first_dealer=-1, leader="first_bidder", trump="turn_up", last_hand_no_trump=True,
        hook=True, blind_first_hand=True, scoring="ten_plus_bid",
        tiebreak="exact_bids_then_coin",
    ),
    "standard": Rules(
        variant="standard", min_players=2, max_players=7, schedule="up", first_dealer="draw",
        trump="turn_up", last_hand_no_trump=True, scoring="five_plus_cards",
        tiebreak="extra_hands",
    ),
    "nullo": Rules(
        variant="nullo", min_players=3, max_players=7, schedule="up", first_dealer="draw",
        first_bidder="dealer", leader="left_of_dealer", trump="turn_up", scoring="nullo",
    ),
    "partnership": Rules(
        variant="partnership", min_players=4, max_players=4, teams=True, schedule="constant",
        first_dealer="draw", trump="spades", scoring="partnership", target=200,
        tiebreak="extra_hands",
    ),
    "potomac": Rules(
        variant="potomac", min_players=2, max_players=10, schedule="down_up", first_dealer="draw",
        leader="dealer", trump="declarer", pass_bid=False, hook=True, bid_changes=True,
        scoring="potomac",
    ),
}

#: Variant name -> one-line description.
VARIANTS: dict[str, str] = {
    "pbmserv": "The play-by-email server's game (seed 001): 4 players, hands of 1 to 13 cards, "
    "the hook, a blind first hand, bid+10 for an exact bid.",
    "standard": "The common game (seed 002): 2-7 players, hands of 1 up to 52/players cards, "
    "5 + cards dealt for an exact bid, tied winners play extra hands.",
    "nullo": "Oh Pshaw with nullo bids (seed 003): 3-7 players, dealer bids first, 10 + tricks "
    "for an exact bid, 5 + cards dealt for an exact nullo.",
    "partnership": "Partnership Blackout (seed 000): 2 teams of 2, 13 cards, spades trump, "
    "number, board and nil bids, first team to 200.",
    "potomac": "Potomac Blackout (seed 004): 2-10 players, hands max..1..max, the top bidder "
    "names trump, exact 5 + bid (declarer 5 + 2 x bid), a miss loses the difference.",
}

#: Variant name -> a short title for menus and headings.
TITLES: dict[str, str] = {
    "pbmserv": "Play-by-email server (seed 001)",
    "standard": "Standard (seed 002)",
    "nullo": "Nullo (seed 003)",
    "partnership": "Partnership (seed 000)",
    "potomac": "Potomac (seed 004)",
}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What a rule option is, for a front end's form: its ``kind`` (``"bool"``,
    ``"int"`` (None allowed when the preset's default is None), ``"choice"`` or
    ``"schedule"`` (one of ``choices`` or a list of hand sizes)), bounds and a help line."""

    name: str
    kind: Literal["bool", "int", "choice", "schedule"]
    help: str
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None


_PLAYER_SCORINGS = tuple(s for s in SCORINGS if s != "partnership")

#: Every option a front end may offer, with its help line.
OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in (
    OptionSpec("schedule", "schedule", "hand sizes: up, down, full_rotation, down_up, constant, "
               "or a list such as 7,6,5", choices=SCHEDULES),
    OptionSpec("max_cards", "int", "the most cards a hand may have (default: 52 / players)",
               min=1, max=26),
    OptionSpec("trump", "choice", "how trump is chosen: the turned-up card, always spades, "
               "named by the highest bidder, or none", choices=TRUMP_RULES),
    OptionSpec("last_hand_no_trump", "bool", "the largest hand of the schedule is played at no "
               "trump"),
    OptionSpec("hook", "bool", "the last bidder may not make the bids total the cards dealt"),
    OptionSpec("bid_changes", "bool", "a player may change a bid until the next player bids"),
    OptionSpec("blind_first_hand", "bool", "a first hand of one card is bid blind and plays "
               "itself"),
    OptionSpec("scoring", "choice", "how a hand is scored", choices=_PLAYER_SCORINGS),
    OptionSpec("team_bid", "choice", "a team's number bid must be made exactly or at least",
               choices=("exact", "at_least")),
    OptionSpec("team_bid_cap", "int", "the highest total a team may bid", min=1, max=13),
    OptionSpec("target", "int", "a score that ends the game (none: play the schedule)", min=1,
               max=10000),
    OptionSpec("max_hands", "int", "stop after this many hands (none: play the schedule)",
               min=1, max=1000),
    OptionSpec("tiebreak", "choice", "how a tie for first place is settled", choices=TIEBREAKS),
)}

#: Variant name -> the options a table of that preset may change.
PRESET_OPTIONS: dict[str, tuple[str, ...]] = {
    "pbmserv": ("schedule", "max_cards", "hook", "blind_first_hand", "last_hand_no_trump",
                "scoring", "tiebreak"),
    "standard": ("schedule", "max_cards", "trump", "last_hand_no_trump", "hook", "scoring",
                 "target", "max_hands", "tiebreak"),
    "nullo": ("schedule", "max_cards", "trump", "last_hand_no_trump", "hook", "target",
              "max_hands", "tiebreak"),
    "partnership": ("target", "max_hands", "team_bid", "team_bid_cap", "tiebreak"),
    "potomac": ("schedule", "max_cards", "hook", "bid_changes", "target", "max_hands",
                "tiebreak"),
}

_OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules) if f.name not in
                      ("variant", "teams"))


def variant(name: str, **options: Any) -> Rules:
    """The rules of a named preset, with keyword options overriding single fields.

    >>> variant("pbmserv", hook=False).hook
    False
    >>> variant("pbmserv", hooks=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    blackout.core.rules.RulesError: unknown option 'hooks' (options: min_players, ...)
    """
    preset = PRESETS.get(name)
    if preset is None:
        raise RulesError(f"unknown variant {name!r}; variants are {', '.join(PRESETS)}")
    for key in options:
        if key not in _OPTION_NAMES:
            listed = ", ".join(_OPTION_NAMES)
            raise RulesError(f"unknown option {key!r} (options: {listed})")
    try:
        return dataclasses.replace(preset, **options)
    except TypeError as exc:  # a value of the wrong kind caught while comparing
        raise RulesError(str(exc)) from None
