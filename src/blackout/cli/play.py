"""``blackout play NAME``: you against computer players in the terminal.

Type a bid (``2``, ``nil``, ``board``), a card (``AD``, ``10C``, ``Q♥``) or a trump
(``H``, ``trump NT``), or one of the commands ``hint``, ``help``, ``score``,
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
    deed_text,
    display_sorted,
    hand_text,
    score_table,
    total_bid,
    trump_text,
    verb,
)
from blackout.cli.main import UserError
from blackout.cli.options import add_option_argument, parse_options
from blackout.core.actions import (
    Action,
    Bid,
    BidAction,
    ChooseTrump,
    IllegalAction,
    Play,
    parse_action,
)
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
from blackout.core.fast import Game
from blackout.core.rules import PRESETS, VARIANTS, Rules, variant
from blackout.core.view import HandResult, View

COMMANDS_HELP = """\
Commands: hint        what the computer would do, and why
          score       the score sheet so far
          save FILE   save the game record (JSON) to FILE
          help        this text
          quit        leave the game (Ctrl-D too)"""


def help_text(rules: Rules) -> str:
    """The moves these rules allow, then the commands; every line fits 80 columns."""
    bids = "a number from the prompt" + (", nil or board" if rules.teams else "")
    lines = [f"Bid:      {bids}",
             "Play:     rank then suit: AD, 10C, KH, 2S (or Q♥)"]
    if rules.teams:
        lines += ["Nil:      you take no trick yourself; your partner's number bid is void",
                  "Board:    your team takes every trick; your partner's number bid is void"]
    if rules.trump == "declarer":
        lines.append("Trump:    if you are the highest bidder: C, D, H, S or NT")
    if rules.bid_changes:
        lines.append("Change:   right after your bid, `change N` until the next player bids")
    return "\n".join([*lines, COMMANDS_HELP])


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
    console = Console(highlight=False)
    # Word-wrap on a terminal; piped output keeps each message on one line.
    console.soft_wrap = not console.is_terminal
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
        self._hinter: bots.Bot | None = None

    # -- the game loop -------------------------------------------------------------------

    def run(self) -> int:
        game = self.game
        self.console.print(f"[bold]{game.rules.variant}[/bold]: {', '.join(self.names)}. "
                           "Type `help` for the commands.")
        name = game.rules.variant
        if name in VARIANTS:
            changed = " (changed by your -o options)" if game.rules != PRESETS[name] else ""
            self._say(f"[dim]{escape(VARIANTS[name])}{changed}[/dim]")
        if game.rules.teams:
            self._say(f"Partners sit opposite: {self._team_text(0)} against "
                      f"{self._team_text(1)}.")
        self._narrate(game.opening_events())
        while not game.is_over:
            if game.to_move == self.seat:
                outcome = self._human_turn()
                if outcome is not None:
                    return self._leave(outcome)
            else:
                self._bot_turn(game.to_move)
        self._finish()
        return 0

    def _team_text(self, first_seat: int) -> str:
        return " and ".join(self.names[s] for s in range(first_seat, self.game.n, 2))

    def _apply(self, action: Action | str, seat: int | None = None) -> None:
        self._narrate(self.game.apply(action, seat=seat))

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
        if not self._just_bid(seat):
            return
        view = self.game.view(seat)
        if view.legal_actions:
            change = self.opponents[seat].choose(view)
            if change is not None:
                self._apply(change, seat=seat)

    def _just_bid(self, seat: int) -> bool:
        """Whether ``seat`` made the last move, a bid, and the bidding goes on without it
        (not when its last card ended a hand and it bids first in the next)."""
        game = self.game
        last = game.history[-1] if game.history else None
        return (game.rules.bid_changes and game.phase == "bid" and game.to_move != seat
                and last is not None and last.seat == seat
                and not isinstance(last.action, Play | ChooseTrump))

    # -- the human seat ---------------------------------------------------------------------

    def _human_turn(self) -> int | None:
        """Ask until a legal move is made; an exit code when the player leaves."""
        observe = getattr(self._hint_bot(), "observe", None)
        if observe is not None:
            observe(self.game.view(self.seat))
        self._show_table()
        while True:
            line = self._ask(self._prompt())
            if line is None:  # Ctrl-D: leaving, as `quit` does
                return 0
            word = line.split()[0].lower() if line.split() else ""
            if word in ("quit", "exit"):
                return 0
            if word == "change":
                self._say("[yellow]a bid can be changed only right after making it[/yellow]"
                          if self.game.rules.bid_changes else
                          "[yellow]these rules do not allow changing a bid[/yellow]")
            elif (not self._command(word, line) and line.strip()
                  and self._try(line.strip())):
                return self._offer_change()

    def _command(self, word: str, line: str) -> bool:
        """Run ``help``, ``hint``, ``score`` or ``save FILE``; False for anything else."""
        if word == "help":
            self.console.print(help_text(self.game.rules), markup=False)
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
        typed = text
        if self.game.phase == "trump" and not text.lower().startswith("trump"):
            text = f"trump {text}"  # the suit alone (S, spades, NT) is enough here
        elif self.game.phase == "play":
            text = "".join(text.split())  # "10 C" as well as "10C"
        try:
            parse_action(text)
        except IllegalAction:
            self._say(f"[red]{escape(repr(typed))} is not a {self._expected()}; "
                      "type `help` for the commands[/red]")
            return False
        try:
            self._apply(text, seat=seat)
        except IllegalAction as exc:
            self._say(f"[red]{escape(str(exc))}[/red]")
            return False
        return True

    def _expected(self) -> str:
        phase = self.game.phase
        if phase == "bid":
            return "bid"
        return "trump suit (C, D, H, S or NT)" if phase == "trump" else "card (e.g. AD, 10C)"

    def _offer_change(self) -> int | None:
        """Potomac: after bidding, the human may change the bid until the next player bids."""
        game = self.game
        while self._just_bid(self.seat) and game.legal_actions(self.seat):
            nxt = self.names[game.to_move or 0]
            line = self._ask(f"`change N` to change your bid, or Enter to let {nxt} bid> ")
            if line is None:  # Ctrl-D: leaving, as `quit` does
                return 0
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
            return "Name trump (C, D, H, S or NT)> "
        cards = [card_text(c) for c in display_sorted([a.card for a in legal
                                                        if isinstance(a, Play)])]
        return f"Your card ({' '.join(cards)})> "

    def _hint(self) -> None:
        if self.game.to_move != self.seat:
            self._say("[yellow]hints are for your own turn[/yellow]")
            return
        # A bot without an optional hint method falls back to the basic bot's.
        hint = getattr(self._hint_bot(), "hint", None) or BasicBot().hint
        action, reason = hint(self.game.view(self.seat))
        self._say(f"hint: [bold]{escape(str(action))}[/bold] — {escape(reason)}")

    def _hint_bot(self) -> bots.Bot:
        """The bot that gives hints, one for the whole game: it follows the human's
        seat (see _human_turn) and so learns who at the table plays like ``basic``."""
        if self._hinter is None:
            self._hinter = bots.create("expert" if "expert" in bots.NAMES else "basic")
        return self._hinter

    def _ask(self, prompt: str) -> str | None:
        try:
            return self.console.input(prompt)
        except EOFError:
            self._say("\n(input ended)")
            return None

    def _say(self, text: str) -> None:
        self.console.print(text)

    # -- narration ---------------------------------------------------------------------------

    def _narrate(self, events: tuple[Event, ...]) -> None:
        for event in events:
            if isinstance(event, HandDealt):
                self._announce_hand(event)
            elif isinstance(event, BidMade | BidChanged | TrumpNamed | CardPlayed):
                auto = isinstance(event, CardPlayed) and event.auto
                self._say(("  (auto) " if auto else "  ") + deed_text(self.names[event.seat],
                                                                     event))
            elif isinstance(event, TrickTaken):
                card = event.cards[(event.winner - event.leader) % self.game.n]
                self._say(f"  [bold]{verb(self.names[event.winner], 'take')} the trick[/bold] "
                          f"with {card_text(card)}\n")
            elif isinstance(event, HandScored):
                self._report_hand(event.result)

    def _announce_hand(self, dealt: HandDealt) -> None:
        rules = self.game.rules
        scheduled = rules.hand_count(self.game.n)
        of = "" if rules.schedule == "constant" else f" of {scheduled}"
        if scheduled is not None and dealt.hand_number > scheduled:
            of = " (tie-break)"
        trump = trump_text(dealt.trump) if dealt.trump_decided else "named by the highest bidder"
        turned = f" (turned up {card_text(dealt.turn_up)})" if dealt.turn_up is not None else ""
        self.console.rule(f"Hand {dealt.hand_number}{of}: {dealt.cards} card"
                          f"{'s' if dealt.cards > 1 else ''}, dealer {self.names[dealt.dealer]}, "
                          f"trump {trump}{turned}")

    def _report_hand(self, row: HandResult) -> None:
        took = [f"{name} bid {bid_text(b)} took {t}" for name, b, t in
                zip(self.names, row.bids, row.tricks, strict=True)]
        if self.game.rules.teams:  # partners share one score: say it once per team
            parts = [f"{took[first]}, {took[first + 2]}: {row.points[first]:+d} for "
                     f"{self._team_text(first)}" for first in (0, 1)]
        else:
            parts = [f"{text}: {p:+d}" for text, p in zip(took, row.points, strict=True)]
        self._say(f"[bold]Hand {row.number} over.[/bold] " + "; ".join(parts))
        # The whole sheet would grow to a screenful; `score` and the game's end show it.
        if self.game.rules.teams:
            totals = ", ".join(f"{self._team_text(s)} {row.totals[s]}" for s in (0, 1))
        else:
            totals = ", ".join(f"{n} {t}" for n, t in zip(self.names, row.totals, strict=True))
        self._say(f"Scores: {totals}  (`score` shows the sheet)\n")

    # -- the table ---------------------------------------------------------------------------

    def _show_table(self) -> None:
        game = self.game
        view = game.view(self.seat)
        table = Table(show_header=True, box=None, pad_edge=False)
        for heading in ("Player", "Bid", "Tricks", "Score", ""):
            table.add_column(heading)
        for s, name in enumerate(self.names):
            table.add_row(name, self._bid_cell(view.bids, s), str(view.tricks_won[s]),
                          str(view.scores[s]), ", ".join(self._roles(s, view.declarer)))
        self.console.print(table)
        if not game.rules.teams and any(b is not None for b in view.bids):
            tricks = view.cards_dealt
            self._say(f"Bids total {total_bid(view.bids)} for {tricks} "
                      f"trick{'s' if tricks != 1 else ''}" + self._hook_note(view))
        if game.rules.teams and any(b is not None for b in view.bids):
            self._say("Teams: " + "; ".join(self._team_bid(view, first) for first in (0, 1)))
        trump = trump_text(view.trump) if view.trump_decided else "not named yet"
        self._say(f"Trump: {trump}" + (f"   turned up: {card_text(view.turn_up)}"
                                       if view.turn_up is not None else ""))
        if view.trick:
            self._say("Trick: " + ", ".join(
                f"{self.names[s]} {'led ' if i == 0 else ''}{card_text(c)}"
                for i, (s, c) in enumerate(view.trick)))
        if view.blind:
            self._show_blind(view.hands)
        else:
            self._say(f"Your hand: {hand_text(view.hand)}")

    def _team_bid(self, view: View, first: int) -> str:
        """``you and bot2 bid 5, took 3``; a nil or board is the team's whole bid."""
        seats = range(first, len(view.bids), 2)
        bids = [view.bids[s] for s in seats]
        special = [str(b) for b in bids if b is not None and not isinstance(b, Bid)]
        anyone = any(b is not None for b in bids)
        said = special[0] if special else (str(total_bid(bids)) if anyone else "-")
        took = sum(view.tricks_won[s] for s in seats)
        return f"{self._team_text(first)} bid {said}, took {took}"

    def _bid_cell(self, bids: tuple[BidAction | None, ...], seat: int) -> str:
        """The bid as said; a number bid voided by the partner's nil or board says so."""
        partner_bid = bids[(seat + 2) % len(bids)]
        voided = (self.game.rules.teams and isinstance(bids[seat], Bid)
                  and partner_bid is not None and not isinstance(partner_bid, Bid))
        return bid_text(bids[seat]) + (" (void)" if voided else "")

    def _hook_note(self, view: View) -> str:
        """Why the hook leaves a bid out of your choices, when it does."""
        if view.hooked_bid is None or view.to_move != self.seat:
            return ""
        return f" (you may not bid {view.hooked_bid[0]}: that makes {view.cards_dealt})"

    def _roles(self, seat: int, declarer: int | None) -> list[str]:
        game = self.game
        roles = []
        if seat == self.seat and self.names[seat].lower() != "you":
            roles.append("you")
        if game.rules.teams and seat != self.seat and (seat - self.seat) % 2 == 0:
            roles.append("partner")
        if seat == game.dealer:
            roles.append("dealer")
        if seat == declarer:
            roles.append("declarer")
        return roles

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
        self._show_scores()
        self._say(f"[bold]Game over.[/bold] Final scores: {scores}")
        self._say(f"[bold]Winner{'s' if len(game.winners) > 1 else ''}: {winners}[/bold]")
        if self.save_path:
            self._save(self.save_path)
            return
        while (line := self._ask("Save the game record? File name, or Enter to skip> ")):
            name = line.strip()
            word = name.split()[0].lower() if name else ""
            if word in ("", "quit", "exit"):
                return
            if word == "save":  # `save FILE` works here too
                name = name[4:].strip()
            # A move or command typed after the last trick must not become a file "AH".
            if name and word not in _COMMAND_WORDS and not _looks_like_a_move(name):
                self._save(name)
                return
            self._say("[yellow]the game is over: type a file name, or Enter to skip[/yellow]")

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


_COMMAND_WORDS = {"help", "hint", "score", "change"}


def _looks_like_a_move(text: str) -> bool:
    try:
        parse_action("".join(text.split()))
    except IllegalAction:
        return False
    return True
