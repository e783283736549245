"""``blackout score NAME --players A,B,C,D``: keep score for a game played with real cards.

For each hand it asks the dealer (Enter: the next one clockwise), the bids and the
tricks taken in seat order, and the declarer and trump when the rules need them.  Each
answer is checked as it is typed (the dealer's turn, each bid against the hand size and
the hook, tricks adding up, the declarer being the first highest bidder) and asked again
at once when wrong.  ``help`` explains the prompt, ``undo`` removes the last hand,
``quit`` stops; ``--file SHEET.json`` saves the sheet after every hand and resumes it
next time.  Input is read line by line, so it works from a pipe.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.markup import escape

from blackout.cli.display import score_table
from blackout.cli.main import UserError
from blackout.cli.options import add_option_argument, parse_options
from blackout.core.actions import BidAction
from blackout.core.rules import PRESETS, Rules, RulesError, variant
from blackout.core.scoresheet import ScoreSheet, ScoreSheetError

SHEET_FORMAT = "blackout-score-sheet"

_T = TypeVar("_T")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("score", help="keep score for a game played with real cards")
    p.add_argument("name", choices=sorted(PRESETS), metavar="NAME",
                   help=f"the rules: {', '.join(sorted(PRESETS))}")
    p.add_argument("--players", metavar="A,B,C",
                   help="player names in seat order (clockwise), comma separated "
                   "(not needed when --file resumes a sheet)")
    p.add_argument("--file", metavar="SHEET.json", type=Path,
                   help="save the sheet to this file after every hand; if it exists, "
                   "resume it")
    add_option_argument(p)
    p.set_defaults(run=run_score)


def run_score(args: argparse.Namespace) -> int:
    rules = variant(args.name, **parse_options(args.option))
    players = [name.strip() for name in (args.players or "").split(",") if name.strip()]
    entries: list[dict[str, Any]] = []
    if args.file is not None and args.file.exists():
        rules, players, entries = _load_sheet(args.file, rules, players)
    elif not players:
        raise UserError("give the players: --players A,B,C (in seat order)")
    console = Console(highlight=False)
    # Word-wrap on a terminal; piped output keeps each message on one line.
    console.soft_wrap = not console.is_terminal
    return ScoreKeeper(rules, players, console, args.file, entries).run()


def _load_sheet(path: Path, rules: Rules, players: list[str]
                ) -> tuple[Rules, list[str], list[dict[str, Any]]]:
    """A saved sheet's rules, players and hands; they must agree with the command line."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != SHEET_FORMAT:
            raise ValueError("not a score sheet")
        saved_rules = Rules.from_dict(data["rules"])
        saved_players = [str(p) for p in data["players"]]
        entries = [dict(e) for e in data["hands"]]
    except (ValueError, KeyError, TypeError, RulesError) as exc:
        raise UserError(f"{path} is not a saved score sheet ({exc})") from None
    if saved_rules != rules:
        raise UserError(f"{path} keeps score under other rules: {saved_rules.to_dict()}")
    if players and players != saved_players:
        raise UserError(f"{path} is the sheet of {', '.join(saved_players)}")
    return saved_rules, saved_players, entries


class _Undo(Exception):
    """The user typed ``undo``."""


class _Quit(Exception):
    """The user typed ``quit`` or the input ended."""


_HELP = {
    "dealer": "Type the dealer's name as listed (any case); Enter takes the one shown in "
              "[brackets], the next player clockwise.",
    "bids": "Type each player's bid in seat order, separated by spaces: numbers from 0 to "
            "the cards dealt.",
    "tricks": "Type the tricks each player took in seat order, separated by spaces; they "
              "add up to the cards dealt.",
    "declarer": "Type the declarer: the highest bidder, the first in bidding order on a "
                "tie (Enter takes the one shown).",
    "trump": "Type the trump the declarer named: C, D, H, S (or the suit's name) or NT.",
}
_COMMON_HELP = "`undo` removes the last hand, `quit` stops."


class ScoreKeeper:
    """The prompts around a :class:`ScoreSheet`; ``undo`` rebuilds it without the last hand."""

    def __init__(self, rules: Rules, players: list[str], console: Console,
                 file: Path | None = None, entries: list[dict[str, Any]] | None = None) -> None:
        self.rules = rules
        self.players = players
        self.console = console
        self.file = file
        self.sheet = ScoreSheet(rules, players)
        self.entries: list[dict[str, Any]] = []
        for entry in entries or []:
            try:
                self.sheet.add_hand(**entry)
            except (ScoreSheetError, TypeError) as exc:
                raise UserError(f"{file}: hand {len(self.entries) + 1} cannot be entered: "
                                f"{exc}") from None
            self.entries.append(entry)

    def run(self) -> int:
        self._say(f"Scoring {self.rules.variant} for {', '.join(map(escape, self.players))}. "
                  "Enter bids and tricks in seat order, separated by spaces; "
                  "`help` explains a prompt, `undo` removes the last hand, `quit` stops.")
        if self.entries:
            self._say(f"Resumed {escape(str(self.file))}: {len(self.entries)} hand(s) on "
                      "the sheet.")
            self._show_sheet()
        while not self.sheet.is_over:
            try:
                self._enter(self._ask_hand())
            except _Undo:
                self._undo()
            except _Quit:
                break
        self._say("Totals: " + ", ".join(f"{escape(p)} {t}" for p, t in
                                          zip(self.players, self.sheet.totals, strict=True)))
        return 0

    def _enter(self, entry: dict[str, Any]) -> None:
        try:
            self.sheet.add_hand(**entry)
        except ScoreSheetError as exc:
            self._say(f"[red]error: {escape(str(exc))}[/red] (sheet unchanged; enter the hand "
                      "again)")
            return
        self.entries.append(entry)
        self._save()
        self._show_sheet()

    def _undo(self) -> None:
        if not self.entries:
            self._say("[yellow]nothing to undo[/yellow]")
            return
        self.entries.pop()
        self.sheet = ScoreSheet(self.rules, self.players)
        for entry in self.entries:
            self.sheet.add_hand(**entry)
        self._save()
        self._say(f"Removed the last hand; {len(self.entries)} hand(s) on the sheet.")
        if self.entries:
            self._show_sheet()

    def _save(self) -> None:
        if self.file is None:
            return
        data = {"format": SHEET_FORMAT, "version": 1, "rules": self.rules.to_dict(),
                "players": self.players, "hands": self.entries}
        temporary = self.file.with_name(self.file.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        temporary.replace(self.file)  # a crash never leaves half a sheet

    def _show_sheet(self) -> None:
        names = [escape(p) for p in self.players]
        declarer = self.rules.trump == "declarer"  # only then is the trump asked
        self.console.print(score_table(names, self.sheet.rows, declarer_column=declarer,
                                       trump_column=declarer))

    # -- one hand ------------------------------------------------------------------------

    def _ask_hand(self) -> dict[str, Any]:
        number = len(self.sheet.rows) + 1
        cards = self.sheet.next_cards
        extra = " (a tie-break hand)" if self.sheet.next_is_tiebreak else ""
        self.console.rule(f"Hand {number}: {cards} card{'s' if cards > 1 else ''} each{extra}")
        dealer = self._ask_dealer()
        dealer_seat = self.players.index(dealer)
        order = " ".join(self.players)
        skipped = "; - for a skipped player" if self.rules.teams else ""
        bids: list[Any] = []
        parsed = self._ask(f"Bids ({order}{skipped})> ", "bids",
                           lambda line: self._check_bids(line, dealer_seat, bids))
        tricks = self._ask(f"Tricks taken ({order})> ", "tricks", self._check_tricks)
        entry: dict[str, Any] = {"dealer": dealer, "bids": bids, "tricks": tricks}
        if self.rules.trump == "declarer":
            entry["declarer"] = self._ask_declarer(parsed, dealer_seat)
            entry["trump"] = self._ask("Trump named (C, D, H, S or NT)> ", "trump",
                                       self._check_trump)
        return entry

    def _ask_dealer(self) -> str:
        rows = self.sheet.rows
        default = self.players[(rows[-1].dealer + 1) % len(self.players)] if rows else None
        prompt = f"Dealer [{default}]> " if default else "Dealer> "
        return self._ask(prompt, "dealer", lambda line: self._check_player(
            line, default, self.sheet.check_dealer))

    def _ask_declarer(self, bids: list[BidAction | None], dealer: int) -> str:
        default = self.players[self.sheet.first_highest_bidder(bids, dealer)]
        return self._ask(f"Declarer [{default}]> ", "declarer", lambda line: self._check_player(
            line, default, lambda name: self.sheet.check_declarer(name, bids, dealer)))

    def _check_player(self, line: str, default: str | None,
                      check: Callable[[str], object]) -> str:
        """A player's name as listed, typed in any case (Enter: the default), checked."""
        name = line.strip() or default
        if not name:
            raise ScoreSheetError("type a player's name")
        player = next((p for p in self.players if p.lower() == name.lower()), None)
        if player is None:
            raise ScoreSheetError(f"{name!r} is not a player here: {', '.join(self.players)}")
        check(player)
        return player

    def _words(self, line: str, what: str) -> list[str]:
        words = line.replace(",", " ").split()
        if len(words) != len(self.players):
            raise ScoreSheetError(f"give {len(self.players)} {what}, one per player in seat "
                                  f"order (you gave {len(words)})")
        return words

    def _check_bids(self, line: str, dealer: int, keep: list[Any]) -> list[BidAction | None]:
        words: list[Any] = [None if w == "-" else w for w in self._words(line, "bids")]
        parsed = self.sheet.check_bids(words, dealer)
        keep[:] = words
        return parsed

    def _check_tricks(self, line: str) -> list[int]:
        words = self._words(line, "numbers")
        if not all(w.isdigit() for w in words):
            raise ScoreSheetError("tricks are whole numbers, one per player")
        tricks = [int(w) for w in words]
        cards = self.sheet.next_cards
        if sum(tricks) != cards:
            raise ScoreSheetError(f"those add up to {sum(tricks)}, but {cards} tricks were "
                                  "played")
        self.sheet.check_tricks(tricks)
        return tricks

    def _check_trump(self, line: str) -> str:
        self.sheet.check_trump(line.strip())
        return line.strip()

    def _ask(self, prompt: str, topic: str, check: Callable[[str], _T]) -> _T:
        """Ask until ``check`` accepts the answer; ``help`` explains the prompt."""
        while True:
            line = self._read(prompt)
            if line.strip().lower() in ("help", "?"):
                self._say(f"{escape(_HELP[topic])} {_COMMON_HELP}")
                continue
            try:
                return check(line)
            except ScoreSheetError as exc:
                self._say(f"[red]{escape(str(exc))}[/red]")

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


__all__ = ["ScoreKeeper", "register", "run_score"]
