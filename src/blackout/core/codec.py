"""The one JSON form of actions, views, events, hand results and rules (no I/O).

Every front end (the HTTP API, the WebSocket, the game record, the mail and the CLI)
writes game things with these functions, so they all agree; ``docs/api.md`` shows the
shapes.  Cards, bids and actions are always the game's notation (``"AD"``, ``"10C"``,
``"7"``, ``"nil"``, ``"trump H"``); a trump is a suit letter, ``"NT"`` for no trump, or
``null`` while the declarer has not named it.

>>> from blackout.core.events import CardPlayed
>>> from blackout.core.cards import Card
>>> event_to_json(CardPlayed(1, Card.parse("KS")))
{'type': 'card', 'seat': 1, 'card': 'KS', 'auto': False}
>>> event_from_json({'type': 'card', 'seat': 1, 'card': 'KS', 'auto': False})
CardPlayed(seat=1, card=Card('KS'), auto=False)
>>> action_to_json(action_from_json("10c"))
'10C'

Decoders raise :class:`CodecError` (a ``ValueError``) with a one-line message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from blackout.core.actions import Action, Bid, BidAction, Board, IllegalAction, Nil, parse_action
from blackout.core.cards import Card, Suit, cards_in, parse_suit
from blackout.core.events import (
    BidChanged,
    BidMade,
    CardPlayed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    TrickTaken,
    TrumpNamed,
)
from blackout.core.rules import (
    OPTIONS,
    PRESET_OPTIONS,
    PRESETS,
    TITLES,
    VARIANTS,
    Rules,
    RulesError,
    variant,
)
from blackout.core.view import HandResult, View

__all__ = [
    "EVENT_TYPES",
    "CodecError",
    "action_from_json",
    "action_to_json",
    "event_from_json",
    "event_to_json",
    "hand_result_from_json",
    "hand_result_to_json",
    "result_to_json",
    "rules_from_json",
    "rules_to_json",
    "variant_to_json",
    "variants_to_json",
    "view_to_json",
]

JSON = dict[str, Any]


class CodecError(ValueError):
    """JSON that is not the form of what was asked for."""


# -- small things ------------------------------------------------------------------------

def card_to_json(card: Card | None) -> str | None:
    return None if card is None else str(card)


def card_from_json(text: Any) -> Card:
    try:
        return Card.parse(text)
    except (ValueError, TypeError, AttributeError):
        raise CodecError(f"{text!r} is not a card") from None


def trump_to_json(suit: Suit | None, decided: bool = True) -> str | None:
    """A suit letter, ``"NT"`` for no trump, None while undecided."""
    if not decided:
        return None
    return "NT" if suit is None else suit.letter


def trump_from_json(text: Any) -> tuple[Suit | None, bool]:
    """``(suit, decided)`` from :func:`trump_to_json`'s form."""
    if text is None:
        return None, False
    if text == "NT":
        return None, True
    try:
        return parse_suit(text), True
    except (ValueError, TypeError, AttributeError):
        raise CodecError(f"{text!r} is not a trump (C, D, H, S, NT or null)") from None


def action_to_json(action: Action) -> str:
    """An action's notation: ``"7"``, ``"nil"``, ``"AD"``, ``"trump NT"``."""
    return str(action)


def action_from_json(text: Any) -> Action:
    """Read an action's notation; raise :class:`IllegalAction` (the player's message)
    if it is not one."""
    return parse_action(text)


def bid_to_json(bid: BidAction | None) -> str | None:
    return None if bid is None else str(bid)


def bid_from_json(text: Any) -> BidAction | None:
    if text is None:
        return None
    try:
        action = parse_action(text)
    except IllegalAction as exc:
        raise CodecError(str(exc)) from None
    if not isinstance(action, Bid | Nil | Board):
        raise CodecError(f"{text!r} is not a bid")
    return action


# -- hand results ------------------------------------------------------------------------

def hand_result_to_json(result: HandResult) -> JSON:
    """``{number, cards, dealer, declarer, trump, turn_up, bids, tricks, points, totals,
    made, extra}``."""
    return {
        "number": result.number, "cards": result.cards, "dealer": result.dealer,
        "declarer": result.declarer, "trump": trump_to_json(result.trump),
        "turn_up": card_to_json(result.turn_up), "bids": [bid_to_json(b) for b in result.bids],
        "tricks": list(result.tricks), "points": list(result.points),
        "totals": list(result.totals), "made": list(result.made), "extra": result.extra,
    }


def hand_result_from_json(data: Any) -> HandResult:
    try:
        return HandResult(
            number=data["number"], cards=data["cards"], dealer=data["dealer"],
            declarer=data["declarer"], trump=trump_from_json(data["trump"])[0],
            turn_up=_optional_card(data["turn_up"]),
            bids=tuple(bid_from_json(b) for b in data["bids"]),
            tricks=tuple(data["tricks"]), points=tuple(data["points"]),
            totals=tuple(data["totals"]), made=tuple(data["made"]), extra=data["extra"],
        )
    except (KeyError, TypeError) as exc:
        raise CodecError(f"not a hand result: missing or bad {exc}") from None


def _optional_card(text: Any) -> Card | None:
    return None if text is None else card_from_json(text)


# -- events ------------------------------------------------------------------------------

#: Event class -> its ``type`` in JSON (docs/api.md's event table).
EVENT_TYPES: dict[type, str] = {
    HandDealt: "hand_dealt", BidMade: "bid", BidChanged: "bid_changed", TrumpNamed: "trump",
    CardPlayed: "card", TrickTaken: "trick", HandScored: "hand_scored", GameOver: "game_over",
}

_ENCODE: dict[type, Callable[[Any], JSON]] = {
    HandDealt: lambda e: {"hand_number": e.hand_number, "cards": e.cards, "dealer": e.dealer,
                          "turn_up": card_to_json(e.turn_up),
                          "trump": trump_to_json(e.trump, e.trump_decided)},
    BidMade: lambda e: {"seat": e.seat, "bid": str(e.bid)},
    BidChanged: lambda e: {"seat": e.seat, "bid": str(e.bid), "previous": str(e.previous)},
    TrumpNamed: lambda e: {"seat": e.seat, "trump": trump_to_json(e.trump)},
    CardPlayed: lambda e: {"seat": e.seat, "card": str(e.card), "auto": e.auto},
    TrickTaken: lambda e: {"leader": e.leader, "cards": [str(c) for c in e.cards],
                           "winner": e.winner},
    HandScored: lambda e: {"result": hand_result_to_json(e.result)},
    GameOver: lambda e: result_to_json(e.scores, e.winners),
}

_DECODE: dict[str, Callable[[JSON], Event]] = {
    "hand_dealt": lambda d: HandDealt(d["hand_number"], d["cards"], d["dealer"],
                                      _optional_card(d["turn_up"]), *trump_from_json(d["trump"])),
    "bid": lambda d: BidMade(d["seat"], _bid(d["bid"])),
    "bid_changed": lambda d: BidChanged(d["seat"], _bid(d["bid"]), _bid(d["previous"])),
    "trump": lambda d: TrumpNamed(d["seat"], _named_trump(d["trump"])),
    "card": lambda d: CardPlayed(d["seat"], card_from_json(d["card"]), d["auto"]),
    "trick": lambda d: TrickTaken(d["leader"], tuple(map(card_from_json, d["cards"])),
                                  d["winner"]),
    "hand_scored": lambda d: HandScored(hand_result_from_json(d["result"])),
    "game_over": lambda d: GameOver(tuple(d["scores"]), tuple(d["winners"])),
}


def _bid(text: Any) -> BidAction:
    bid = bid_from_json(text)
    if bid is None:
        raise CodecError("a bid is missing")
    return bid


def _named_trump(text: Any) -> Suit | None:
    suit, decided = trump_from_json(text)
    if not decided:
        raise CodecError("a named trump cannot be null")
    return suit


def result_to_json(scores: Sequence[int], winners: Sequence[int]) -> JSON:
    """A finished game's result: ``{"scores": [...], "winners": [...]}``."""
    return {"scores": list(scores), "winners": list(winners)}


def event_to_json(event: Event) -> JSON:
    """``{"type": ..., fields...}`` as in docs/api.md's event table."""
    return {"type": EVENT_TYPES[type(event)], **_ENCODE[type(event)](event)}


def event_from_json(data: Any) -> Event:
    """The game event a JSON object describes (the game's events only, not the table's)."""
    if not isinstance(data, dict) or data.get("type") not in _DECODE:
        raise CodecError(f"not a game event: {data!r:.80}")
    try:
        return _DECODE[data["type"]](data)
    except (KeyError, TypeError) as exc:
        raise CodecError(f"{data['type']} event: missing or bad {exc}") from None


# -- views -------------------------------------------------------------------------------

def view_to_json(view: View) -> JSON:
    """What the view's seat (None: a spectator) may know, as docs/api.md's ``view``."""
    n = len(view.players)
    hooked = view.hooked_bid
    changer = view.changeable
    return {
        "seat": view.seat,
        "players": list(view.players),
        "phase": str(view.phase),
        "hand_number": view.hand_number,
        "hands_total": view.rules.hand_count(n),
        "cards_dealt": view.cards_dealt,
        "dealer": view.dealer,
        "to_move": view.to_move,
        "hands": [None if h is None else _cards(h) for h in view.hands],
        "hand_sizes": list(view.hand_sizes()),
        "bids": [bid_to_json(b) for b in view.bids],
        "bidding_order": list(view.bidding_order),
        "turn_up": card_to_json(view.turn_up),
        "trump": trump_to_json(view.trump, view.trump_decided),
        "trump_decided": view.trump_decided,
        "declarer": view.declarer,
        "leader": view.leader,
        "trick": [{"seat": seat, "card": str(card)} for seat, card in view.trick],
        "winning": view.winning(),
        "tricks": [_ENCODE[TrickTaken](t) for t in view.tricks],
        "tricks_won": list(view.tricks_won),
        "scores": list(view.scores),
        "hands_played": [hand_result_to_json(r) for r in view.hands_played],
        "legal_actions": [str(a) for a in view.legal_actions],
        "hooked_bid": None if hooked is None else {"bid": str(hooked[0]), "reason": hooked[1]},
        "changeable_bid": None if changer is None else {
            "seat": changer, "bid": bid_to_json(view.bids[changer])},
        "blind": view.blind,
        "winners": list(view.winners),
    }


def _cards(mask: int) -> list[str]:
    return [str(c) for c in cards_in(mask)]


# -- rules -------------------------------------------------------------------------------

def rules_to_json(rules: Rules, players: int | None = None) -> JSON:
    """``{"variant", "options", "hands"}``: the preset, the options that differ from it,
    and (given the number of players) the scheduled hand sizes, first hand first."""
    out: JSON = rules.to_dict()
    if players is not None:
        sizes = rules.hand_sizes(players)
        total = rules.hand_count(players)
        out["hands"] = list(sizes if total is None else sizes[:total])
    return out


def rules_from_json(data: Any) -> Rules:
    """The rules ``{"variant": NAME, "options": {...}}`` names (``hands`` is ignored: it
    follows from the rest); raise :class:`RulesError` with the reason if they are bad."""
    if not isinstance(data, dict) or not isinstance(data.get("variant"), str):
        raise RulesError('rules must be {"variant": NAME, "options": {...}}')
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RulesError("rules' options must be an object")
    return variant(data["variant"], **options)


def variant_to_json(name: str) -> JSON:
    """One preset for GET /api/variants: ``{name, title, players: [min, max], summary,
    options: [{name, kind, default, choices?, min?, max?, help}]}``."""
    preset = PRESETS[name]
    options = []
    for option in PRESET_OPTIONS[name]:
        spec = OPTIONS[option]
        default = getattr(preset, option)
        entry: JSON = {"name": option, "kind": spec.kind,
                       "default": list(default) if isinstance(default, tuple) else default}
        if spec.choices:
            entry["choices"] = list(spec.choices)
        if spec.min is not None:
            entry["min"] = spec.min
        if spec.max is not None:
            entry["max"] = spec.max
        entry["help"] = spec.help
        options.append(entry)
    return {"name": name, "title": TITLES[name],
            "players": [preset.min_players, preset.max_players], "summary": VARIANTS[name],
            "options": options}


def variants_to_json() -> list[JSON]:
    """Every preset, as :func:`variant_to_json` gives it."""
    return [variant_to_json(name) for name in PRESETS]
