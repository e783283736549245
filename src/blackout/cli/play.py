"""``blackout play NAME``: you against computer players in the terminal.

Type a bid (``2``, ``nil``, ``board``), a card (``AD``, ``10C``, ``Q♥``) or a trump
(``trump H``, ``trump NT``), or one of the commands ``hint``, ``help``, ``score``,
``save FILE`` and ``quit``.  In Potomac you are asked right after your bid whether to
``change N`` it before the next player bids.  Input is read line by line, so a game can
be driven from a pipe.  Computer players are seeded from ``--seed`` (seat ``s`` gets
``seed * 100 + s``), so a seeded game is repeatable.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from blackout import bots
from blackout.bots.basic import BasicBot
from blackout.cli.display import (
    bid_text,
    card_text,
    hand_text,
    move_text,
    score_table,
    total_bid,
    trump_text,
    verb,
)
from blackout.cli.main import UserError
from blackout.cli.options import add_option_argument, parse_options
from blackout.core.actions import Action, ChooseTrump, IllegalAction, Play
from blackout.core.cards import Card
from blackout.core.game import Game, Move, trick_winner
from blackout.core.rules import PRESETS, Rules, variant

HELP = """\
Moves:    a bid (0, 3, nil, board), a card (AD, 10C, KH, 2S, Q♥), trump H / trump NT
Commands: hint        what the computer would do, and why
          score       the score sheet so far
          save FILE   save the game record (JSON) to FILE
          help        this text
          quit        leave the game
Potomac:  right after your bid you may type `change N` before the next player bids."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play a game against computer players in the terminal")
    p.add_argument("name", choices=sorted(PRESETS), metavar="NAME",
                   help=f"the rules: {', '.join(sorted(PRESETS))}")
    p.add_argument("--players", type=int, help="number of players, you included "
                   "(default 4, or the nearest number the rules allow)")
    p.add_argument("--seat-name", default="you", help="your name at the table (default: you)")
    p.add_argument("--bots", default="basic", choices=bots.NAMES,
                   help="which computer player to play against (default: basic)")
    p.add_argument("--seed", type=int, help="seed for the shuffle and the bots (repeatable games)")
    add_option_argument(p)
    p.add_argument("--save", metavar="FILE", help="save the game record here when it ends")
    p.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    rules = variant(args.name, **parse_options(args.option))
    names = _player_names(rules, args.players, args.seat_name)
    game = Game.new(rules, names, seed=args.seed)
    seat = game.players.index(args.seat_name)
    opponents = {s: bots.create(args.bots, seed=None if args.seed is None else args.seed * 100 + s)
                 for s in range(game.n) if s != seat}
    console = Console(highlight=False, soft_wrap=True)
    return PlaySession(game, seat, opponents, console, args.save).run()


def _player_names(rules: Rules, count: int | None, me: str) -> list[str]:
    if count is None:
        count = min(max(4, rules.min_players), rules.max_players)
    others = [f"bot{i}" for i in range(1, count)]
    if not me.strip() or me in others:
        raise UserError(f"choose another --seat-name than {me!r}")
    return [me, *others]


class PlaySession:
    """One game at the terminal: narrates every move and asks the human seat."""

    def __init__(self, game: Game, seat: int, opponents: dict[int, bots.Bot],
                 console: Console, save_path: str | None) -> None:
        self.game = game
        self.seat = seat
        self.opponents = opponents
        self.console = console
        self.save_path = save_path
        self.names = [escape(p) for p in game.players]
        self._narrated = 0
        self._hands_reported = 0
        self._hand_announced = 0
        self._trick: list[tuple[int, Card]] = []
        self._bidders: set[int] = set()
        self._trump = game.trump

    # -- the game loop -------------------------------------------------------------------

    def run(self) -> int:
        game = self.game
        self.console.print(f"[bold]{game.rules.variant}[/bold]: {', '.join(self.names)}. "
                           "Type `help` for the commands.")
        while not game.is_over:
            self._announce_hand()
            if game.to_move == self.seat:
                outcome = self._human_turn()
                if outcome is not None:
                    return self._leave(outcome)
            else:
                self._bot_turn(game.to_move)
        self._finish()
        return 0

    def _apply(self, action: Action | str, seat: int | None = None) -> None:
        self.game.apply(action, seat=seat)
        self._narrate()

    def _bot_turn(self, seat: int | None) -> None:
        assert seat is not None
        bot = self.opponents[seat]
        action = bot.choose(self.game.view(seat))
        if action is None:
            raise UserError(f"the {bot.name} bot made no move for {self.names[seat]}")
        self._apply(action)
        self._ask_bot_to_change(seat)

    def _ask_bot_to_change(self, seat: int) -> None:
        """Potomac: the bot that just bid may change its bid before the next bid."""
        if not self.game.rules.bid_changes or self.game.phase != "bid":
            return
        view = self.game.view(seat)
        if view.legal_actions:
            change = self.opponents[seat].choose(view)
            if change is not None:
                self._apply(change, seat=seat)

    # -- the human seat ---------------------------------------------------------------------

    def _human_turn(self) -> int | None:
        """Ask until a legal move is made; an exit code when the player leaves."""
        self._show_table()
        while True:
            line = self._ask(self._prompt())
            if line is None:
                return 1
            word = line.split()[0].lower() if line.split() else ""
            if word in ("quit", "exit"):
                return 0
            if word == "change":
                self._say("[yellow]a bid can be changed only right after making it[/yellow]")
            elif (not self._command(word, line) and line.strip()
                  and self._try(line.strip())):
                return self._offer_change()

    def _command(self, word: str, line: str) -> bool:
        """Run ``help``, ``hint``, ``score`` or ``save FILE``; False for anything else."""
        if word == "help":
            self.console.print(HELP, markup=False)
        elif word == "hint":
            self._hint()
        elif word == "score":
            self._show_scores()
        elif word == "save":
            self._save(line.strip()[4:].strip())
        else:
            return False
        return True

    def _try(self, text: str, seat: int | None = None) -> bool:
        try:
            self._apply(text, seat=seat)
        except IllegalAction as exc:
            self._say(f"[red]{escape(str(exc))}[/red]")
            return False
        return True

    def _offer_change(self) -> int | None:
        """Potomac: after bidding, the human may change the bid until the next player bids."""
        game = self.game
        while game.phase == "bid" and game.to_move != self.seat and game.legal_actions(self.seat):
            nxt = self.names[game.to_move or 0]
            line = self._ask(f"`change N` to change your bid, or Enter to let {nxt} bid> ")
            if line is None:
                return 1
            words = line.split()
            if not words:
                return None
            if words[0].lower() in ("quit", "exit"):
                return 0
            if not self._command(words[0].lower(), line):
                self._try(words[-1], seat=self.seat)
        return None

    def _prompt(self) -> str:
        legal = self.game.legal_actions()
        if self.game.phase == "bid":
            return f"Your bid ({' '.join(str(a) for a in legal)})> "
        if self.game.phase == "trump":
            return "Name trump (trump C, D, H, S or NT)> "
        cards = [card_text(a.card) for a in legal if isinstance(a, Play)]
        return f"Your card ({' '.join(cards)})> "

    def _hint(self) -> None:
        if self.game.to_move != self.seat:
            self._say("[yellow]hints are for your own turn[/yellow]")
            return
        name = "expert" if "expert" in bots.NAMES else "basic"
        # A bot without an optional hint method falls back to the basic bot's.
        hint = getattr(bots.create(name), "hint", None) or BasicBot().hint
        action, reason = hint(self.game.view(self.seat))
        self._say(f"hint: [bold]{escape(str(action))}[/bold] — {escape(reason)}")

    def _ask(self, prompt: str) -> str | None:
        try:
            return self.console.input(prompt)
        except EOFError:
            self._say("\n(input ended)")
            return None

    def _say(self, text: str) -> None:
        self.console.print(text)

    # -- narration ---------------------------------------------------------------------------

    def _announce_hand(self) -> None:
        game = self.game
        if self._hand_announced == game.hand_number:
            return
        self._hand_announced = game.hand_number
        self._bidders.clear()
        self._trick.clear()
        self._trump = game.trump
        sizes = game.rules.hand_sizes(game.n)
        of = "" if game.rules.schedule == "constant" else f" of {len(sizes)}"
        if game.rules.schedule != "constant" and game.hand_number > len(sizes):
            of = " (tie-break)"
        trump = "named by the highest bidder" if not game.trump_decided else trump_text(game.trump)
        turned = f" (turned up {card_text(game.turn_up)})" if game.turn_up is not None else ""
        self.console.rule(f"Hand {game.hand_number}{of}: {game.cards} card"
                          f"{'s' if game.cards > 1 else ''}, dealer {self.names[game.dealer]}, "
                          f"trump {trump}{turned}")

    def _narrate(self) -> None:
        history = self.game.history
        for move in history[self._narrated:]:
            self._narrate_move(move)
        self._narrated = len(history)
        while self._hands_reported < len(self.game.hands_played):
            self._report_hand(self._hands_reported)
            self._hands_reported += 1

    def _narrate_move(self, move: Move) -> None:
        name = self.names[move.seat]
        action = move.action
        if isinstance(action, ChooseTrump):
            self._trump = action.suit
        changed = False
        if not isinstance(action, Play | ChooseTrump):
            changed = move.seat in self._bidders
            self._bidders.add(move.seat)
        self._say(("  (auto) " if move.auto else "  ") + move_text(name, action, changed))
        if isinstance(action, Play):
            self._trick.append((move.seat, action.card))
            if len(self._trick) == self.game.n:
                self._finish_trick()

    def _finish_trick(self) -> None:
        leader = self._trick[0][0]
        winner = trick_winner(leader, [c for _, c in self._trick], self._trump, self.game.n)
        self._say(f"  [bold]{verb(self.names[winner], 'take')} the trick[/bold]")
        self._trick.clear()

    def _report_hand(self, index: int) -> None:
        row = self.game.hands_played[index]
        parts = [f"{name} bid {bid_text(b)} took {t}: {p:+d}" for name, b, t, p in
                 zip(self.names, row.bids, row.tricks, row.points, strict=True)]
        self._say(f"[bold]Hand {row.number} over.[/bold] " + "; ".join(parts))
        self._show_scores()

    # -- the table ---------------------------------------------------------------------------

    def _show_table(self) -> None:
        game = self.game
        view = game.view(self.seat)
        table = Table(show_header=True, box=None, pad_edge=False)
        for heading in ("", "Player", "Bid", "Tricks", "Score"):
            table.add_column(heading)
        for s, name in enumerate(self.names):
            marks = ("D" if s == game.dealer else " ") + ("*" if s == view.declarer else " ")
            you = " (you)" if s == self.seat and name.lower() != "you" else ""
            table.add_row(marks, name + you,
                          bid_text(view.bids[s]), str(view.tricks_won[s]), str(view.scores[s]))
        self.console.print(table)
        if not game.rules.teams and any(b is not None for b in view.bids):
            self._say(f"Bids total {total_bid(view.bids)} for {view.cards_dealt} tricks")
        trump = trump_text(view.trump) if view.trump_decided else "not named yet"
        self._say(f"Trump: {trump}" + (f"   turned up: {card_text(view.turn_up)}"
                                       if view.turn_up is not None else ""))
        if view.trick:
            self._say("Trick: " + ", ".join(f"{self.names[s]} {card_text(c)}"
                                            for s, c in view.trick))
        if view.blind:
            self._show_blind(view.hands)
        else:
            self._say(f"Your hand: {hand_text(view.hand)}")

    def _show_blind(self, hands: tuple[int | None, ...]) -> None:
        self._say("Blind hand: you see every card but your own.")
        for s, mask in enumerate(hands):
            if mask is not None:
                self._say(f"  {self.names[s]}: {hand_text(mask)}")

    def _show_scores(self) -> None:
        rows = self.game.hands_played
        if not rows:
            self._say("No hand has been scored yet.")
            return
        declarer = self.game.rules.trump == "declarer"
        self.console.print(score_table(self.names, rows, declarer_column=declarer))

    # -- the end ----------------------------------------------------------------------------------

    def _finish(self) -> None:
        game = self.game
        winners = " and ".join(self.names[s] for s in game.winners)
        scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, game.scores, strict=True))
        self._say(f"[bold]Game over.[/bold] Final scores: {scores}")
        self._say(f"[bold]Winner{'s' if len(game.winners) > 1 else ''}: {winners}[/bold]")
        if self.save_path:
            self._save(self.save_path)
            return
        line = self._ask("Save the game record? File name, or Enter to skip> ")
        if line and line.strip():
            self._save(line.strip())

    def _leave(self, code: int) -> int:
        self._say(f"Game left unfinished in hand {self.game.hand_number}.")
        if self.save_path:
            self._save(self.save_path)
        return code

    def _save(self, path: str) -> None:
        if not path:
            self._say("[red]save needs a file name: save FILE[/red]")
            return
        try:
            Path(path).write_text(json.dumps(self.game.record(), indent=1) + "\n")
        except OSError as exc:
            self._say(f"[red]could not save {escape(path)}: {escape(exc.strerror or str(exc))}"
                      "[/red]")
            return
        self._say(f"Game record saved to {escape(path)}")

