"""``blackout replay FILE [--step]``: show a saved game record hand by hand.

The record is checked move by move first (:meth:`blackout.Game.replay`); a record that
does not replay is reported in one line with exit code 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from blackout.cli.display import Deed, bid_text, card_text, deed_text, trump_text
from blackout.cli.main import UserError
from blackout.core.events import (
    BidChanged,
    BidMade,
    CardPlayed,
    Event,
    HandDealt,
    HandScored,
    TrickTaken,
    TrumpNamed,
)
from blackout.core.game import Game
from blackout.core.record import RecordError, replay_record
from blackout.core.view import HandResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="replay a saved game record hand by hand")
    p.add_argument("file", metavar="FILE", help="a game record (JSON), e.g. from `play --save`")
    p.add_argument("--step", action="store_true", help="wait for Enter after each hand")
    p.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    events: list[Event] = []
    game = load_game(args.file, events)
    console = Console(highlight=False)
    # Word-wrap on a terminal; piped output keeps each line whole.
    console.soft_wrap = not console.is_terminal
    Replayer(game, events, console, step=args.step).show()
    return 0


def load_game(path: str, events: list[Event] | None = None) -> Game:
    """Read and check a record (its events go to ``events``); every problem becomes one
    :class:`UserError` line."""
    try:
        record: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # bad JSON or not text at all
        raise UserError(f"{path} is not a JSON game record ({exc})") from None
    try:
        return replay_record(record, events)
    except RecordError as exc:
        raise UserError(f"{path}: {exc}") from None
    except (TypeError, AttributeError, KeyError) as exc:
        # Fields of the wrong JSON type that the record checks do not catch.
        raise UserError(f"{path}: record has a field of the wrong kind ({exc})") from None


class Hand:
    """One hand as the events tell it: the deal, what the players did, the tricks taken
    and, once it is over, its result."""

    def __init__(self, dealt: HandDealt) -> None:
        self.dealt = dealt
        self.bidding: list[Deed] = []  # bids, changes and the naming of trump
        self.trump_named: TrumpNamed | None = None
        self.plays: list[list[CardPlayed]] = []  # by trick
        self.winners: list[int] = []  # of the tricks taken so far
        self.result: HandResult | None = None

    def add(self, event: Event) -> None:
        if isinstance(event, CardPlayed):
            if len(self.plays) == len(self.winners):
                self.plays.append([])
            self.plays[-1].append(event)
        elif isinstance(event, TrickTaken):
            self.winners.append(event.winner)
        elif isinstance(event, HandScored):
            self.result = event.result
        elif isinstance(event, BidMade | BidChanged | TrumpNamed):
            self.bidding.append(event)
            if isinstance(event, TrumpNamed):
                self.trump_named = event


def hands_told(events: list[Event]) -> list[Hand]:
    """The events split by hand; a hand dealt but not yet begun is left out."""
    hands: list[Hand] = []
    for event in events:
        if isinstance(event, HandDealt):
            hands.append(Hand(event))
        elif hands:
            hands[-1].add(event)
    return [hand for hand in hands if hand.bidding]


class Replayer:
    """Prints a replayed game from its events: per hand the bids, every trick and the
    points."""

    def __init__(self, game: Game, events: list[Event], console: Console,
                 step: bool = False) -> None:
        self.game = game
        self.events = events
        self.console = console
        self.step = step
        self.names = [escape(p) for p in game.players]

    def show(self) -> None:
        game = self.game
        self.console.print(f"[bold]{game.rules.variant}[/bold] game: {', '.join(self.names)}"
                           f" (seed {game.seed})")
        for hand in hands_told(self.events):
            self._show_hand(hand)
            self._pause()
        if game.is_over:
            scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, game.scores, strict=True))
            winners = " and ".join(self.names[s] for s in game.winners)
            self.console.print(f"[bold]Final scores:[/bold] {scores}")
            self.console.print(f"[bold]Winner{'s' if len(game.winners) > 1 else ''}:[/bold] "
                               f"{winners}")
        else:
            self.console.print("[bold]The record ends here; the game is not finished.[/bold]")

    def _show_hand(self, hand: Hand) -> None:
        dealt = hand.dealt
        cards = dealt.cards
        self.console.rule(f"Hand {dealt.hand_number}: {cards} card{'s' if cards > 1 else ''}, "
                          f"dealer {self.names[dealt.dealer]}")
        self.console.print("Bidding: " + ", ".join(
            deed_text(self.names[d.seat], d) for d in hand.bidding))
        if dealt.trump_decided:
            trump = trump_text(dealt.trump)
        else:
            trump = trump_text(hand.trump_named.trump) if hand.trump_named else "not named yet"
        self.console.print(f"Trump: {trump}" + (f" (turned up {card_text(dealt.turn_up)})"
                                                if dealt.turn_up is not None else ""))
        for number, trick in enumerate(hand.plays, start=1):
            line = ", ".join(f"{self.names[p.seat]} {card_text(p.card)}" for p in trick)
            if number <= len(hand.winners):
                line += f" → {self.names[hand.winners[number - 1]]}"
            auto = " (played automatically)" if trick[0].auto else ""
            self.console.print(f"  Trick {number}: {line}{auto}")
        if hand.result is not None:
            self._show_points(hand.result)
    def _show_points(self, result: HandResult) -> None:
        parts = [f"{name} bid {bid_text(b)} took {t} {p:+d} = {total}" for name, b, t, p, total
                 in zip(self.names, result.bids, result.tricks, result.points, result.totals,
                        strict=True)]
        self.console.print("Points: " + "; ".join(parts))

    def _pause(self) -> None:
        if not self.step:
            return
        try:
            input("(Enter for the next hand) ")
        except EOFError:
            self.step = False
