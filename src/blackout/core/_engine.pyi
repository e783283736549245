"""Types of the compiled rules engine (``_engine.c``; see blackout.core.fast).

Written from ``_engine.c``: its getters (``Core_getset``, all read-only), its methods
(``Core_methods``) and the argument formats of ``Config_new``, ``Core_start`` and
``setup``.  The attributes answer with the reference Game's own types, because
``setup`` hands the engine the very objects (cards, actions, events, phases) it
returns.
"""

from collections.abc import Sequence
from typing import Any, Self, final

from typing_extensions import disjoint_base

from blackout.core.actions import Action, BidAction
from blackout.core.cards import Card, Suit
from blackout.core.events import Event
from blackout.core.game import Deal
from blackout.core.rules import Rules
from blackout.core.view import HandResult, Phase, Trick

#: ``(masks, turn_up, dealer, size)`` of each prearranged deal, -1 for none.
_DealInfo = tuple[tuple[int, ...], int, int, int]

@final
class Config:
    """The rules of one game for a number of players, encoded for the engine."""

    def __new__(
        cls,
        rules: Rules,
        card_events: Sequence[Sequence[tuple[Event]]],
        sizes: tuple[int, ...],
        n: int,
        teams: int,
        hook: int,
        bid_changes: int,
        blind_first: int,
        last_no_trump: int,
        trump_rule: int,
        first_bidder: int,
        leader_rule: int,
        scoring: int,
        at_least: int,
        cap: int,
        target: int,
        max_hands: int,
        tiebreak: int,
        constant: int,
        largest: int,
        /,
    ) -> Self: ...

@disjoint_base
class Core:
    """The state of a game and its hot operations."""

    @property
    def rules(self) -> Rules: ...
    @property
    def given_players(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int: ...
    @property
    def deals(self) -> tuple[Deal, ...]: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def first_dealer_draw(self) -> tuple[Card, ...] | None: ...
    @property
    def seed_prefix(self) -> bytes: ...
    @property
    def hands_played(self) -> list[HandResult]: ...
    @property
    def opening(self) -> tuple[Event, ...]: ...
    @property
    def deal_info(self) -> tuple[_DealInfo, ...]: ...
    @property
    def n(self) -> int: ...
    @property
    def hand_index(self) -> int: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def cards(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def leader(self) -> int | None: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def blind(self) -> bool: ...
    @property
    def trump_decided(self) -> bool: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def trump(self) -> Suit | None: ...
    @property
    def turn_up(self) -> Card | None: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def tricks_won(self) -> list[int]: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def _exact(self) -> list[int]: ...
    @property
    def _bid_time(self) -> list[int]: ...
    @property
    def _bid_pos(self) -> int: ...
    @property
    def _extra_hands(self) -> int: ...
    @property
    def bidding_order(self) -> tuple[int, ...]: ...
    @property
    def bids(self) -> list[BidAction | None]: ...
    @property
    def hands(self) -> list[int]: ...
    @property
    def dealt(self) -> tuple[int, ...]: ...
    @property
    def trick_cards(self) -> list[Card]: ...
    @property
    def tricks(self) -> list[Trick]: ...
    @property
    def _moves(self) -> list[tuple[int, Action, bool]]: ...
    def legal_actions(self, seat: int | None = None, /) -> list[Action]:
        """What the seat to move (or ``seat``) may do now."""
    def apply(self, action: Action | str, seat: int | None = None) -> tuple[Event, ...]:
        """Make a move; return the events it caused."""
    def copy(self) -> Self:
        """An independent copy (for search)."""
    def undo(self) -> None:
        """Take back the last move a player made, with the moves the rules then made
        (for search); ValueError when no move was made."""
    def opening_events(self) -> tuple[Event, ...]:
        """The events that started the game: the first hand's deal."""
    def _start(
        self,
        config: Config,
        given_players: tuple[str, ...],
        seed: int,
        deals: tuple[Deal, ...],
        players: tuple[str, ...],
        first_dealer_draw: tuple[Card, ...] | None,
        seed_prefix: bytes,
        deal_info: tuple[_DealInfo, ...],
        first_dealer: int,
        /,
    ) -> None:
        """Start the game (once, from FastGame.__init__)."""

    def _redeal_from(
        self, deals: tuple[Deal, ...], deal_info: tuple[_DealInfo, ...], /
    ) -> None:
        """Deal the hand just started again, from the last of ``deals``."""

def setup(names: dict[str, Any], /) -> None:
    """Give the engine the Python objects it answers with (see blackout.core.fast)."""
