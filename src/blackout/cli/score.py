"""``blackout score NAME --players A,B,C,D``: keep score for a game played with real cards.

For each hand it asks the dealer (Enter: the next one clockwise), the bids and the
tricks taken in seat order, and the declarer and trump when the rules need them.  A
wrong count, an unknown name or tricks that do not add up are asked again at once; a
hand the sheet still refuses is reported in one line and not entered.  ``undo`` removes the last
hand, ``quit`` stops; input is read line by line, so it works from a pipe.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markup import escape

from blackout.cli.display import score_table
from blackout.cli.options import add_option_argument, parse_options
from blackout.core.rules import PRESETS, Rules, variant
from blackout.core.scoresheet import ScoreSheet, ScoreSheetError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("score", help="keep score for a game played with real cards")
    p.add_argument("name", choices=sorted(PRESETS), metavar="NAME",
                   help=f"the rules: {', '.join(sorted(PRESETS))}")
    p.add_argument("--players", required=True, metavar="A,B,C",
                   help="player names in seat order (clockwise), comma separated")
    add_option_argument(p)
    p.set_defaults(run=run_score)


def run_score(args: argparse.Namespace) -> int:
    rules = variant(args.name, **parse_options(args.option))
    players = [name.strip() for name in args.players.split(",") if name.strip()]
    console = Console(highlight=False)
    # Word-wrap on a terminal; piped output keeps each message on one line.
    console.soft_wrap = not console.is_terminal
    return ScoreKeeper(rules, players, console).run()


class _Undo(Exception):
    """The user typed ``undo``."""


class _Quit(Exception):
    """The user typed ``quit`` or the input ended."""


class ScoreKeeper:
    """The prompts around a :class:`ScoreSheet`; ``undo`` rebuilds it without the last hand."""

    def __init__(self, rules: Rules, players: list[str], console: Console) -> None:
        self.rules = rules
        self.players = players
        self.console = console
        self.sheet = ScoreSheet(rules, players)
        self.entries: list[dict[str, Any]] = []

    def run(self) -> int:
        self._say(f"Scoring {self.rules.variant} for {', '.join(map(escape, self.players))}. "
                  "Enter bids and tricks in seat order, separated by spaces; "
                  "`undo` removes the last hand, `quit` stops.")
        while not self._finished():
            try:
                self._enter(self._ask_hand())
            except _Undo:
                self._undo()
            except _Quit:
                break
        self._say("Totals: " + ", ".join(f"{escape(p)} {t}" for p, t in
                                          zip(self.players, self.sheet.totals, strict=True)))
        return 0

    def _finished(self) -> bool:
        rows = len(self.sheet.rows)
        rules = self.rules
        if rules.max_hands is not None and rows >= rules.max_hands:
            return True
        if rules.target is not None and rows and max(self.sheet.totals) >= rules.target:
            return True
        return rules.schedule != "constant" and rows >= len(rules.hand_sizes(len(self.players)))

    def _enter(self, entry: dict[str, Any]) -> None:
        try:
            self.sheet.add_hand(**entry)
        except ScoreSheetError as exc:
            self._say(f"[red]error: {escape(str(exc))}[/red] (sheet unchanged; enter the hand "
                      "again)")
            return
        self.entries.append(entry)
        self._show_sheet()

    def _undo(self) -> None:
        if not self.entries:
            self._say("[yellow]nothing to undo[/yellow]")
            return
        self.entries.pop()
        self.sheet = ScoreSheet(self.rules, self.players)
        for entry in self.entries:
            self.sheet.add_hand(**entry)
        self._say(f"Removed the last hand; {len(self.entries)} hand(s) on the sheet.")
        if self.entries:
            self._show_sheet()

    def _show_sheet(self) -> None:
        names = [escape(p) for p in self.players]
        declarer = self.rules.trump == "declarer"  # only then is the trump asked
        self.console.print(score_table(names, self.sheet.rows, declarer_column=declarer,
                                       trump_column=declarer))

    # -- one hand ------------------------------------------------------------------------

    def _ask_hand(self) -> dict[str, Any]:
        number = len(self.sheet.rows) + 1
        cards = self.sheet.next_cards
        self.console.rule(f"Hand {number}: {cards} card{'s' if cards > 1 else ''} each")
        entry: dict[str, Any] = {"dealer": self._ask_dealer()}
        order = " ".join(self.players)
        skipped = "; - for a skipped player" if self.rules.teams else ""
        entry["bids"] = self._ask_list(f"Bids ({order}{skipped})> ", number=False)
        entry["tricks"] = self._ask_tricks(f"Tricks taken ({order})> ", cards)
        if self.rules.trump == "declarer":
            entry["declarer"] = self._ask_declarer(entry["bids"], entry["dealer"])
            entry["trump"] = self._read("Trump named (C, D, H, S or NT)> ").strip()
        return entry

    def _ask_dealer(self) -> str:
        rows = self.sheet.rows
        default = self.players[(rows[-1].dealer + 1) % len(self.players)] if rows else None
        prompt = f"Dealer [{default}]> " if default else "Dealer> "
        return self._ask_player(prompt, default)

    def _ask_declarer(self, bids: list[Any], dealer: str) -> str:
        default = _first_highest(bids, self.players, dealer)
        prompt = f"Declarer [{default}]> " if default else "Declarer> "
        return self._ask_player(prompt, default)

    def _ask_player(self, prompt: str, default: str | None) -> str:
        """A player's name as listed, typed in any case; Enter takes the default."""
        while True:
            name = self._read(prompt).strip() or default
            if not name:
                continue
            for player in self.players:
                if player.lower() == name.lower():
                    return player
            self._say(f"[red]{escape(repr(name))} is not a player here: "
                      f"{escape(', '.join(self.players))}[/red]")

    def _ask_list(self, prompt: str, number: bool) -> list[Any]:
        """One word per player (``-`` for no bid); numbers only if ``number``."""
        n = len(self.players)
        while True:
            words = self._read(prompt).replace(",", " ").split()
            if len(words) != n:
                self._say(f"[red]give {n} {'numbers' if number else 'bids'}, one per player "
                          f"in seat order (you gave {len(words)})[/red]")
            elif not number:
                return [None if w == "-" else w for w in words]
            elif all(w.isdigit() for w in words):
                return [int(w) for w in words]
            else:
                self._say("[red]tricks are whole numbers, one per player[/red]")

    def _ask_tricks(self, prompt: str, cards: int) -> list[int]:
        """Tricks taken; they must add up to the cards dealt, which is easy to mistype."""
        while True:
            tricks = self._ask_list(prompt, number=True)
            if sum(tricks) == cards:
                return tricks
            self._say(f"[red]those add up to {sum(tricks)}, but {cards} tricks were "
                      "played[/red]")

    def _read(self, prompt: str) -> str:
        try:
            line = self.console.input(escape(prompt))
        except EOFError:
            raise _Quit from None
        word = line.strip().lower()
        if word == "undo":
            raise _Undo
        if word in ("quit", "exit"):
            raise _Quit
        return line

    def _say(self, text: str) -> None:
        self.console.print(text)


def _first_highest(bids: list[Any], players: list[str], dealer: str) -> str | None:
    """The default declarer: the highest bidder, the earliest in bidding order on a tie
    (bids cannot be timed here, so bidding order from the dealer's left stands in)."""
    try:
        numbers = [int(b) for b in bids]
        start = players.index(dealer) + 1
    except (TypeError, ValueError):
        return None
    if len(numbers) != len(players):
        return None
    top = max(numbers)
    order = [(start + i) % len(players) for i in range(len(players))]
    return next(players[s] for s in order if numbers[s] == top)


__all__ = ["ScoreKeeper", "register", "run_score"]
