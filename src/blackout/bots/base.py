"""The bot interface: a bot turns a view into a legal action."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from blackout.core.actions import Action
from blackout.core.view import View


@runtime_checkable
class Bot(Protocol):
    """A computer player.

    ``choose`` is given only what its seat may know (``game.view(seat)``) and returns one
    of ``view.legal_actions``.  It is also asked when ``view.to_move`` is another seat
    but ``view.legal_actions`` is not empty: Potomac lets the last bidder change a bid
    until the next player bids; a bot that keeps its bid returns ``None`` then.

    A bot may also offer ``hint(view) -> tuple[Action, str]``: the action it would take
    when its seat is to move, with a one-line reason for a human (``"need 2 more tricks:
    take it with the AH"``).  It is optional and not part of this protocol; callers look
    for it with ``isinstance(bot, Hinter)`` (``blackout play``'s ``hint`` command does).
    Likewise optional, ``observe(view)`` lets a bot follow a seat it does not play (the
    ``expert`` learns from it how the others play; ``blackout play``'s hint bot follows
    the human's seat): ``isinstance(bot, Observer)``.  A bot whose class says
    ``instant = True`` decides in microseconds: the server then decides inside the
    transaction that finds its turn due, instead of claiming the turn, thinking with no
    transaction open and writing the move in a second one (:func:`blackout.bots.is_instant`).
    """

    name: str

    def choose(self, view: View) -> Action | None: ...


@runtime_checkable
class Hinter(Protocol):
    """A bot that says what it would do when its seat is to move, and why (see :class:`Bot`)."""

    def hint(self, view: View) -> tuple[Action, str]: ...


@runtime_checkable
class Observer(Protocol):
    """A bot that follows a seat it does not play, from that seat's views (see :class:`Bot`)."""

    def observe(self, view: View) -> None: ...
