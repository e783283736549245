"""The JSON the service hands out (docs/api.md), in one place.

Everything delegates to the core's codec (:mod:`blackout.core.codec`) when it is
there; until it lands, the few shapes the service needs are written here, from the
core's own types (events, views, hand results), never re-derived.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from blackout.core.actions import Bid, Board, ChooseTrump, Nil, Play
from blackout.core.cards import Card, Suit
from blackout.core.view import View

try:  # the core's codec, once it lands, is the one definition
    from blackout.core import codec as _codec  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the core's progress
    _codec = None


def plain(value: Any) -> Any:
    """Cards, suits, actions, tuples and dataclasses as JSON-able values."""
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, Card | Enum | Bid | Nil | Board | Play | ChooseTrump):
        return str(value)  # a card or an action: its notation
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


_EVENT_TYPES = {"HandDealt": "hand_dealt", "BidMade": "bid", "BidChanged": "bid_changed",
                "TrumpNamed": "trump", "CardPlayed": "card", "TrickTaken": "trick",
                "HandScored": "hand_scored", "GameOver": "game_over"}


def event(value: Any) -> dict[str, Any]:
    """A core event (:mod:`blackout.core.events`) as ``{"type": ..., fields}``."""
    if _codec is not None and hasattr(_codec, "event_to_json"):
        return dict(_codec.event_to_json(value))
    body = {"type": _EVENT_TYPES[type(value).__name__]}
    names = getattr(value, "_fields", None) or [f.name for f in dataclasses.fields(value)]
    body.update({name: plain(getattr(value, name)) for name in names})
    if body["type"] == "hand_dealt":
        body["trump"] = _trump(value.trump, value.trump_decided)
    elif body["type"] == "trump":
        body["trump"] = "NT" if value.trump is None else value.trump.letter
    return body


def _trump(trump: Suit | None, decided: bool) -> str | None:
    if not decided:
        return None
    return "NT" if trump is None else trump.letter


def view(value: View) -> dict[str, Any]:
    """A seat's (or the public) view, as docs/api.md's ``view``."""
    if _codec is not None and hasattr(_codec, "view_to_json"):
        return dict(_codec.view_to_json(value))
    n = len(value.players)
    return {
        "seat": value.seat,
        "players": list(value.players),
        "phase": str(value.phase),
        "hand_number": value.hand_number,
        "hands_total": None,
        "cards_dealt": value.cards_dealt,
        "dealer": value.dealer,
        "to_move": value.to_move,
        "hands": [None if mask is None else [str(c) for c in _cards(mask)]
                  for mask in value.hands],
        "hand_sizes": _hand_sizes(value),
        "bids": [None if b is None else str(b) for b in value.bids],
        "bidding_order": list(value.bidding_order),
        "turn_up": None if value.turn_up is None else str(value.turn_up),
        "trump": _trump(value.trump, value.trump_decided),
        "trump_decided": value.trump_decided,
        "declarer": value.declarer,
        "leader": value.leader,
        "trick": [{"seat": s, "card": str(c)} for s, c in value.trick],
        "tricks": [{"leader": t.leader, "cards": [str(c) for c in t.cards],
                    "winner": t.winner} for t in value.tricks],
        "tricks_won": list(value.tricks_won),
        "scores": list(value.scores),
        "hands_played": [plain(r) for r in value.hands_played],
        "legal_actions": [str(a) for a in value.legal_actions],
        "hooked_bid": None if getattr(value, "hooked_bid", None) is None else {
            "bid": str(value.hooked_bid[0]), "reason": value.hooked_bid[1]},
        "changeable_bid": getattr(value, "changeable", None),
        "blind": value.blind,
        "winners": list(getattr(value, "winners", ())),
        "players_count": n,
    }


def _cards(mask: int) -> list[Card]:
    from blackout.core.cards import cards_in

    return list(cards_in(mask))


def _hand_sizes(value: View) -> list[int]:
    played = value.played_by()
    return [value.cards_dealt - played[s].bit_count() for s in range(len(value.players))]


def rules(value: Any) -> dict[str, Any]:
    if _codec is not None and hasattr(_codec, "rules_to_json"):
        return dict(_codec.rules_to_json(value))
    return {"variant": value.variant, "options": plain(value.options())}
