"""Game records: the JSON form of a whole game, what PGN is to chess.

A record holds the rules, the players, the seed or prearranged deals and every
decision in order; the cards of each hand follow from the seed or deals, and moves
the rules make by themselves (pbmserv's blind hand) are not listed.  The format is
specified in ``docs/record-format.md``.  What it holds is written in the forms of
:mod:`blackout.core.codec` (rules, action notation, the result), as the API writes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blackout.core.actions import IllegalAction
from blackout.core.codec import action_to_json, result_to_json, rules_from_json, rules_to_json
from blackout.core.rules import RulesError

if TYPE_CHECKING:
    from blackout.core.events import Event
    from blackout.core.game import Game

__all__ = ["FORMAT", "VERSION", "RecordError", "make_record", "replay_record"]

FORMAT = "blackout-record"
VERSION = 1


class RecordError(ValueError):
    """A record that is malformed or does not replay (with the reason)."""


def make_record(game: Game, public: bool = False) -> dict[str, Any]:
    """The game's record; ``public`` leaves out the seed and prearranged deals, which
    would tell the cards still unplayed (what a spectator may have of a running game)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_to_json(game.rules, game.n),
        "players": list(game.given_players),
        "seats": list(game.players),
    }
    if not public:
        record["seed"] = game.seed
        if game.deals:
            record["deals"] = [deal.to_dict() for deal in game.deals]
    record["moves"] = [[m.seat, action_to_json(m.action)] for m in game.history if not m.auto]
    if game.is_over:
        record["result"] = result_to_json(game.scores, game.winners)
    return record


def replay_record(record: dict[str, Any], events: list[Event] | None = None,
                  engine: type[Game] | None = None) -> Game:
    """Rebuild the game a record describes, checking every move; given a list,
    ``events`` receives the game's events in order, the opening deal first.  The game is
    played by ``engine``, by default the default engine (:data:`blackout.core.fast.Game`)."""
    from blackout.core.fast import Game as default_engine
    from blackout.core.game import Deal

    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a Blackout game record (no \"format\": \"{FORMAT}\")")
    if record.get("version") != VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported "
                          f"(this is version {VERSION})")
    seed, moves, result = record.get("seed"), record.get("moves", []), record.get("result")
    # Any seed would deal some game, just not the recorded one: insist on the integer.
    if type(seed) is not int:
        raise RecordError(f"record's seed must be an integer, not {seed!r}")
    if not isinstance(moves, list):
        raise RecordError('record\'s moves must be a list of [seat, "move"]')
    if not isinstance(result, dict | None):
        raise RecordError('record\'s result must be {"scores": [...], "winners": [...]}')
    try:
        rules = rules_from_json(record["rules"])
        deals = [Deal.from_dict(d) for d in record.get("deals", [])]
        game = (engine or default_engine).new(rules, record["players"], seed=seed, deals=deals)
    except (KeyError, TypeError) as exc:
        raise RecordError(f"record is missing or has a bad field: {exc}") from None
    except (RulesError, ValueError) as exc:
        raise RecordError(f"record cannot start a game: {exc}") from None
    if events is not None:
        events += game.opening_events()
    if "seats" in record and record["seats"] != list(game.players):
        raise RecordError("record's seats do not match the seating its seed gives")
    for number, move in enumerate(moves, start=1):
        if not (isinstance(move, list) and len(move) == 2 and type(move[0]) is int
                and isinstance(move[1], str)):
            raise RecordError(f"move {number} is not [seat, \"move\"]: {move!r}")
        try:
            happened = game.apply(move[1], seat=move[0])
        except IllegalAction as exc:
            raise RecordError(f"move {number} ({move!r}) is illegal: {exc}") from None
        if events is not None:
            events += happened
    if result is not None and (
        not game.is_over
        or result.get("scores") != game.scores
        or result.get("winners") != game.winners
    ):
        raise RecordError("record's result does not match its moves")
    return game
