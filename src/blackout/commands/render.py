"""Boards, histories and tables as plain text, for the terminal and for mail.

A board is drawn from one seat's view (:meth:`blackout.Game.view`), so it holds only
the cards that seat may see; an outsider's board holds no unplayed card at all.

What happened in the game (who took each trick, where a hand ended, its scores) is told
by the core's events (:mod:`blackout.core.events`), as the game returned them when the
stored moves were replayed (:meth:`Snapshot.game_events`): :class:`Story` folds them,
and nothing here works a trick's winner or a hand boundary out for itself.  Events are
public by construction (a card is in one only once it is played).  The board mail's
story is a brief one, kept up to date move by move next to the cached position
(:func:`told_board_text`), so its board costs the same at move 10 and at move 1000.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from blackout.core.actions import BidAction
from blackout.core.cards import Card, Suit, cards_in
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
from blackout.core.game import Events, Game
from blackout.core.rules import Rules
from blackout.core.view import HandResult, Phase, View
from blackout.service import Snapshot, Standing
from blackout.storage import GameRow, MoveRow, SeatRow


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards) or "-"


# -- the game as its events tell it ------------------------------------------------------

@dataclass
class HandStory:
    """One hand as its events tell it: the deal, the tricks taken, its score sheet row."""

    dealt: HandDealt
    tricks: list[TrickTaken] = field(default_factory=list)
    played: int = 0  # cards played in the hand so far
    result: HandResult | None = None

    @property
    def number(self) -> int:
        return self.dealt.hand_number


@dataclass
class MoveStory:
    """One stored move: the hand it was made in and everything it caused after itself
    (the rules' automatic plays, tricks taken, the hand's end, the game's end)."""

    hand: int
    caused: list[Event]


@dataclass(frozen=True)
class Said:
    """A comment a player made with their move."""

    number: int
    seat: int
    comment: str


@dataclass
class Story:
    """A game told by its events, move by move (:meth:`tell`): the opening events, then
    what each stored move caused (:meth:`Snapshot.game_events`), with the moves' seats
    and comments.

    A ``brief`` story keeps only what a board shows (the last two hands, the score
    sheet, the comments some seat has not moved since), so that it stays small however
    long the game: the board mail keeps one next to each cached position
    (:meth:`blackout.service.store.PositionCache.telling`).  A full one also keeps every
    hand and every move (for the history)."""

    seats: int
    brief: bool = False
    hands: list[HandStory] = field(default_factory=list)
    moves: list[MoveStory] = field(default_factory=list)
    #: The score sheet: a row per finished hand.
    results: list[HandResult] = field(default_factory=list)
    over: GameOver | None = None
    #: The moves told.
    count: int = 0
    #: Per seat, the number of the last move made from it (0: none yet).
    last_moved: list[int] = field(default_factory=list)
    said: list[Said] = field(default_factory=list)
    #: The score sheet laid out (:meth:`sheet`): for how many rows, with which names.
    laid_out: tuple[int, Sequence[str], str] | None = None

    def __post_init__(self) -> None:
        self.last_moved = self.last_moved or [0] * self.seats

    @classmethod
    def of(cls, events: Sequence[Events], moves: Sequence[MoveRow], seats: int) -> Story:
        """The full story of a game whose ``moves`` caused ``events`` (after the
        opening events: ``events[0]``)."""
        story = cls(seats)
        story.tell(None, events[0])
        for move, caused in zip(moves, events[1:], strict=True):
            story.tell(move, caused)
        return story

    @classmethod
    def begin(cls, game: Game) -> Story:
        """A brief story of ``game``, which has told nothing yet."""
        return cls(game.n, brief=True)

    def tell(self, move: MoveRow | None, events: Events) -> None:
        """Fold what ``move`` caused (None: the game's opening events)."""
        told = MoveStory(self.hands[-1].number if self.hands else 0, [])
        for event in events:
            self._add(event)
            if not _is_the_move(event):
                told.caused.append(event)
        if move is None:
            return
        self.count = move.number
        self.last_moved[move.seat] = move.number
        if move.comment:
            self.said.append(Said(move.number, move.seat, move.comment))
        if not self.brief:
            self.moves.append(told)
            return
        del self.hands[:-2]
        # Every seat's board shows the comments since that seat's last move.
        since = min(self.last_moved)
        self.said = [said for said in self.said if said.number > since]

    def copy(self) -> Story:
        return replace(self, hands=[replace(h, tricks=list(h.tricks)) for h in self.hands],
                       moves=list(self.moves), results=list(self.results),
                       last_moved=list(self.last_moved), said=list(self.said))

    def _add(self, event: Event) -> None:
        if isinstance(event, HandDealt):
            self.hands.append(HandStory(event))
            return
        hand = self.hands[-1]
        if isinstance(event, CardPlayed):
            hand.played += 1
        elif isinstance(event, TrickTaken):
            hand.tricks.append(event)
        elif isinstance(event, HandScored):
            hand.result = event.result
            self.results.append(event.result)
        elif isinstance(event, GameOver):
            self.over = event

    def sheet(self, rules: Rules, names: Sequence[str]) -> str:
        """:func:`sheet_text` of ``results``, laid out once per finished hand: a kept
        story carries it from move to move (every row's width depends on every row;
        a story is of one game, whose rules never change)."""
        if self.laid_out is None or self.laid_out[:2] != (len(self.results), names):
            self.laid_out = (len(self.results), names, sheet_text(rules, names, self.results))
        return self.laid_out[2]

    def last_trick(self) -> tuple[HandStory, TrickTaken] | None:
        """The last trick taken, while it is worth showing: the current hand's last one,
        or, until the next hand's first card (and once the game is over), the last
        trick of the hand before."""
        if not self.hands:
            return None
        current = self.hands[-1]
        if current.tricks:
            return current, current.tricks[-1]
        if current.played or len(self.hands) < 2:
            return None
        previous = self.hands[-2]
        return (previous, previous.tricks[-1]) if previous.tricks else None


def _is_the_move(event: Event) -> bool:
    """Whether ``event`` is a player's move itself (not something it caused)."""
    if isinstance(event, CardPlayed):
        return not event.auto
    return isinstance(event, BidMade | BidChanged | TrumpNamed)


def story_of(snap: Snapshot) -> Story:
    return Story.of(snap.game_events(), snap.moves, snap.game.n)


def trick_text(trick: TrickTaken, names: Sequence[str]) -> str:
    """``ann AS, bob KS; won by ann``."""
    played = ", ".join(f"{names[trick.seat_of(i, len(names))]} {c}"
                       for i, c in enumerate(trick.cards))
    return f"{played}; won by {names[trick.winner]}"


def result_text(result: HandResult, names: Sequence[str]) -> str:
    """``Hand 3 result: ann bid 1 took 1 +11 = 11; bob bid 2 took 2 +12 = 20``."""
    return f"Hand {result.number} result: " + "; ".join(
        f"{name} bid {_bid(bid)} took {took} {points:+d} = {total}"
        for name, bid, took, points, total in zip(names, result.bids, result.tricks,
                                                   result.points, result.totals,
                                                   strict=True))


def consequence_lines(caused: Sequence[Event], names: Sequence[str]) -> list[str]:
    """What a move caused, a line each: the rules' automatic plays, the tricks taken,
    the hand's result (the next deal and the game's end are told elsewhere)."""
    lines = []
    for event in caused:
        if isinstance(event, CardPlayed):
            lines.append(f"{names[event.seat]} {event.card} (automatic)")
        elif isinstance(event, TrickTaken):
            lines.append(f"Trick: {trick_text(event, names)}")
        elif isinstance(event, HandScored):
            lines.append(result_text(event.result, names))
    return lines


def _bid(bid: BidAction | None) -> str:
    return "-" if bid is None else str(bid)


# -- boards ------------------------------------------------------------------------------

def _names(seats: Sequence[SeatRow]) -> list[str]:
    names = []
    for seat in seats:
        if seat.resigned:
            names.append(f"{seat.name} (now {seat.controller})")
        else:
            names.append(seat.name)
    return names


def board_text(snap: Snapshot, seat: int | None = None, title: str = "") -> str:
    """The board as ``seat`` sees it (``None``: an outsider, who sees no hand)."""
    return told_board_text(snap.row, snap.seats, snap.game, story_of(snap), seat, title)


def told_board_text(row: GameRow, seats: Sequence[SeatRow], game: Game, story: Story,
                    seat: int | None = None, title: str = "") -> str:
    """The board of ``row`` as ``seat`` sees it, ``game`` being its position after the
    moves ``story`` told (a brief story is enough)."""
    lines = [f"Board {row.id}: blackout ({game.rules.variant}){title}",
             "Players: " + ", ".join(f"{i + 1}. {n}" for i, n in enumerate(_names(seats)))]
    # A replay of an earlier position (fewer moves than stored) shows that position.
    earlier = story.count < row.move_count
    if game.is_over or (row.status != "active" and not earlier):
        lines.append(_result_line(row, game))
        lines += _last_trick_lines(story, game.players)
    else:
        lines += _hand_lines(game, story,
                             game.view(seat) if seat is not None else game.public_view(), seat)
    if story.results:
        lines += ["", "Score sheet:", story.sheet(game.rules, game.players)]
    lines += _comment_lines(story, game.players, seat)
    return "\n".join(lines)


def _result_line(row: GameRow, game: Game) -> str:
    result = json.loads(row.result or "{}")
    names = game.players
    winners = ", ".join(names[s] for s in result.get("winners", [])) or "nobody"
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, game.scores, strict=True))
    ended = "was forfeited" if row.status == "forfeited" else "has ended"
    return f"The game {ended}. Winner: {winners}. Scores: {scores}."


def _last_trick_lines(story: Story, names: Sequence[str]) -> list[str]:
    """The last trick taken and who won it; when it ended its hand (the next hand has
    no card played yet, or the game is over), the hand's result too."""
    shown = story.last_trick()
    if shown is None:
        return []
    hand, trick = shown
    if hand is story.hands[-1] and hand.result is None:
        return [f"Last trick: {trick_text(trick, names)}"]
    lines = [f"Last trick of hand {hand.number}: {trick_text(trick, names)}"]
    if hand.result is not None:
        lines.append(result_text(hand.result, names))
    return lines


def _hand_lines(game: Game, story: Story, view: View, seat: int | None) -> list[str]:
    names = game.players
    plural = "s" if view.cards_dealt > 1 else ""
    lines = [f"Hand {view.hand_number}, {view.cards_dealt} card{plural} each, "
             f"dealer {names[view.dealer]}"]
    if not view.trump_decided:
        lines.append("Trump: named by the declarer after the bidding")
    else:
        trump = "no trump" if view.trump is None else view.trump.plural
        turned = f" (turned up {view.turn_up})" if view.turn_up is not None else ""
        declarer = f", named by {names[view.declarer]}" if game.rules.trump == \
            "declarer" and view.declarer is not None else ""
        lines.append(f"Trump: {trump}{turned}{declarer}")
    bids = ", ".join(f"{names[s]} {_bid(view.bids[s])}" for s in view.bidding_order)
    lines.append(f"Bids: {bids}")
    if view.phase == Phase.PLAY:
        lines.append("Tricks taken: " + ", ".join(
            f"{names[s]} {view.tricks_won[s]}" for s in range(len(names))))
        lines += _last_trick_lines(story, names)
        lines.append("Trick in progress: " + (", ".join(
            f"{names[s]} {c}" for s, c in view.trick) or "none yet"))
    else:
        lines += _last_trick_lines(story, names)  # the hand before's, until a card is led
    if view.to_move is not None:
        doing = {Phase.BID: "to bid", Phase.TRUMP: "to name trump",
                 Phase.PLAY: "to play"}[view.phase]
        lines.append(f"To move: {names[view.to_move]} ({doing}), move #{story.count + 1}")
    if seat is not None:
        lines += _seat_lines(view, names, seat)
    return lines


def _seat_lines(view: View, names: tuple[str, ...], seat: int) -> list[str]:
    lines = []
    if view.blind:
        lines.append("Your hand: hidden (the first hand is bid blind)")
        for s, mask in enumerate(view.hands):
            if mask is not None and s != seat:
                lines.append(f"{names[s]} holds: {cards_text(list(cards_in(mask)))}")
    else:
        lines.append(f"Your hand ({names[seat]}): {cards_text(view.my_cards)}")
    if view.legal_actions:
        lines.append("Your moves: " + ", ".join(str(a) for a in view.legal_actions))
    return lines


def _comment_lines(story: Story, names: Sequence[str], seat: int | None) -> list[str]:
    """Comments on the moves since ``seat`` last moved (outsiders: the last move)."""
    since = story.last_moved[seat] if seat is not None else story.count - 1
    said = [f"  {names[s.seat]} (move #{s.number}): {s.comment}"
            for s in story.said if s.number > since]
    return ["", "Comments:", *said] if said else []


# -- the score sheet ---------------------------------------------------------------------

def _trump_name(trump: Suit | None) -> str:
    return "No Trumps" if trump is None else trump.plural.title()


def sheet_text(rules: Rules, names: Sequence[str], rows: Sequence[HandResult]) -> str:
    """The score sheet laid out like seed 004's sample (per hand a line of bids and
    points, then one of tricks taken and running totals), in columns that line up
    whatever the names and numbers: every width is measured from what it holds."""
    heads = ["Cards", "Dealer", *(["Declarer"] if rules.trump == "declarer" else []),
             "Trump"]
    left_rows = [[str(row.cards), names[row.dealer],
                  *([("" if row.declarer is None else names[row.declarer])]
                    if rules.trump == "declarer" else []),
                  _trump_name(row.trump)] for row in rows]
    widths = [max(len(text) for text in column) for column in zip(heads, *left_rows,
                                                                   strict=True)]

    def left(cells: Sequence[str]) -> str:
        return " ".join(cell.rjust(w) if i == 0 else cell.ljust(w)
                        for i, (cell, w) in enumerate(zip(cells, widths, strict=True)))

    # Each player's column holds two right-aligned parts: bid over took, points over total.
    firsts = [_bid(b) for row in rows for b in row.bids] + [str(t) for row in rows
                                                           for t in row.tricks]
    seconds = [f"{p:+d}" for row in rows for p in row.points] + [
        str(t) for row in rows for t in row.totals]
    one = max([len("Took"), *(len(t) for t in firsts)])
    two = max([len("Total"), *(len(t) for t in seconds)])
    wide = [max(len(name), one + 1 + two) for name in names]

    def players(pairs: Sequence[tuple[str, str]]) -> str:
        return "".join(" " + f"{a:>{one}} {b:>{two}}".rjust(w)
                       for (a, b), w in zip(pairs, wide, strict=True))

    blank = " " * len(left(heads))
    lines = [left(heads) + "".join(f" {name:>{w}}" for name, w in zip(names, wide,
                                                                        strict=True)),
             blank + players([("Bid", "Score")] * len(names)),
             blank + players([("Took", "Total")] * len(names))]
    for row, cells in zip(rows, left_rows, strict=True):
        lines.append(left(cells) + players([(_bid(b), f"{p:+d}")
                                            for b, p in zip(row.bids, row.points,
                                                            strict=True)]))
        lines.append(blank + players([(str(t), str(total))
                                      for t, total in zip(row.tricks, row.totals,
                                                          strict=True)]))
    return "\n".join(line.rstrip() for line in lines)


# -- histories and lists -----------------------------------------------------------------

def history_text(snap: Snapshot) -> str:
    """Every move so far, hand by hand, each followed by what it caused (the rules'
    automatic plays, tricks taken, the hand's result); computer players' and queued
    moves marked."""
    names = snap.game.players
    story = story_of(snap)
    lines = [f"Board {snap.board}: {len(snap.moves)} moves"]
    hand = 0
    for move, told in zip(snap.moves, story.moves, strict=True):
        if told.hand != hand:
            hand = told.hand
            lines.append(f"Hand {hand}:")
        mark = {"bot": " (computer)", "queued": " (queued)"}.get(move.kind, "")
        note = f"  -- {move.comment}" if move.comment else ""
        lines.append(f"#{move.number:<4} {names[move.seat]} {move.action}{mark}{note}")
        lines += [f"      {line}" for line in consequence_lines(told.caused, names)]
    return "\n".join(lines)


def games_text(snaps: list[Snapshot]) -> str:
    if not snaps:
        return "no games"
    lines = []
    for snap in snaps:
        game = snap.game
        if snap.row.status != "active":
            state = snap.row.status
        else:
            mover = "-" if game.to_move is None else snap.controller(game.to_move)
            state = f"hand {game.hand_number}, to move: {mover}"
        lines.append(f"{snap.board:<6} {game.rules.variant:<12} {state:<36} "
                     + ", ".join(_names(snap.seats)))
    return "\n".join(lines)


def standings_text(table: list[Standing]) -> str:
    if not table:
        return "no finished games"
    width = max(len(s.player) for s in table)
    lines = [f"{'player':<{width}}  played  won"]
    lines += [f"{s.player:<{width}}  {s.played:>6}  {s.won:>3}" for s in table]
    return "\n".join(lines)


def ratings_text(ratings: dict[str, float]) -> str:
    if not ratings:
        return "no finished games"
    width = max(len(p) for p in ratings)
    return "\n".join([f"{'player':<{width}}  rating",
                      *(f"{p:<{width}}  {r:6.0f}" for p, r in ratings.items())])
