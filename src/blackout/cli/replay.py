"""``blackout replay FILE [--step]``: show a saved game record hand by hand.

The record is checked move by move first (:meth:`blackout.Game.replay`); a record that
does not replay is reported in one line with exit code 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from blackout.cli.display import bid_text, card_text, move_text, trump_text
from blackout.cli.main import UserError
from blackout.core.actions import ChooseTrump, Play
from blackout.core.game import Game, Move, trick_winner
from blackout.core.record import RecordError
from blackout.core.view import HandResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="replay a saved game record hand by hand")
    p.add_argument("file", metavar="FILE", help="a game record (JSON), e.g. from `play --save`")
    p.add_argument("--step", action="store_true", help="wait for Enter after each hand")
    p.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    game = load_game(args.file)
    console = Console(highlight=False)
    # Word-wrap on a terminal; piped output keeps each line whole.
    console.soft_wrap = not console.is_terminal
    Replayer(game, console, step=args.step).show()
    return 0


def load_game(path: str) -> Game:
    """Read and check a record; every problem becomes one :class:`UserError` line."""
    try:
        record: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # bad JSON or not text at all
        raise UserError(f"{path} is not a JSON game record ({exc})") from None
    try:
        return Game.replay(record)
    except RecordError as exc:
        raise UserError(f"{path}: {exc}") from None
    except (TypeError, AttributeError, KeyError) as exc:
        # Fields of the wrong JSON type that the record checks do not catch.
        raise UserError(f"{path}: record has a field of the wrong kind ({exc})") from None


def hands_of(game: Game) -> Iterator[tuple[HandResult | None, list[Move]]]:
    """The history split by hand: each finished hand's result and moves, then the moves
    of an unfinished hand (result ``None``) if any."""
    moves = game.history
    position = 0
    for result in game.hands_played:
        plays_left = result.cards * game.n
        start = position
        while plays_left:
            plays_left -= isinstance(moves[position].action, Play)
            position += 1
        yield result, moves[start:position]
    if position < len(moves):
        yield None, moves[position:]


class Replayer:
    """Prints a replayed game: per hand the bids, every trick and the points."""

    def __init__(self, game: Game, console: Console, step: bool = False) -> None:
        self.game = game
        self.console = console
        self.step = step
        self.names = [escape(p) for p in game.players]

    def show(self) -> None:
        game = self.game
        self.console.print(f"[bold]{game.rules.variant}[/bold] game: {', '.join(self.names)}"
                           f" (seed {game.seed})")
        for result, moves in hands_of(game):
            self._show_hand(result, moves)
            self._pause()
        if game.is_over:
            scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, game.scores, strict=True))
            winners = " and ".join(self.names[s] for s in game.winners)
            self.console.print(f"[bold]Final scores:[/bold] {scores}")
            self.console.print(f"[bold]Winner{'s' if len(game.winners) > 1 else ''}:[/bold] "
                               f"{winners}")
        else:
            self.console.print("[bold]The record ends here; the game is not finished.[/bold]")

    def _show_hand(self, result: HandResult | None, moves: list[Move]) -> None:
        game = self.game
        number = result.number if result else game.hand_number
        cards = result.cards if result else game.cards
        dealer = result.dealer if result else game.dealer
        trump = result.trump if result else game.trump
        self.console.rule(f"Hand {number}: {cards} card{'s' if cards > 1 else ''}, "
                          f"dealer {self.names[dealer]}")
        self._show_bidding(moves)
        turned = result.turn_up if result else game.turn_up
        named = result is not None or game.trump_decided
        self.console.print(f"Trump: {trump_text(trump) if named else 'not named yet'}"
                           + (f" (turned up {card_text(turned)})" if turned is not None else ""))
        self._show_tricks([m for m in moves if isinstance(m.action, Play)], trump)
        if result is not None:
            self._show_points(result)

    def _show_bidding(self, moves: list[Move]) -> None:
        said: set[int] = set()
        parts = []
        for move in moves:
            if isinstance(move.action, Play):
                break
            if isinstance(move.action, ChooseTrump):
                parts.append(move_text(self.names[move.seat], move.action))
                continue
            parts.append(move_text(self.names[move.seat], move.action, move.seat in said))
            said.add(move.seat)
        self.console.print("Bidding: " + ", ".join(parts))

    def _show_tricks(self, plays: list[Move], trump: Any) -> None:
        n = self.game.n
        for start in range(0, len(plays), n):
            trick = plays[start:start + n]
            cards = [m.action.card for m in trick if isinstance(m.action, Play)]
            line = ", ".join(f"{self.names[m.seat]} {card_text(c)}" for m, c in
                             zip(trick, cards, strict=True))
            auto = " (played automatically)" if trick[0].auto else ""
            if len(trick) == n:
                winner = trick_winner(trick[0].seat, cards, trump, n)
                line += f" → {self.names[winner]}"
            self.console.print(f"  Trick {start // n + 1}: {line}{auto}")

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
