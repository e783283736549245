"""The server's board text, history and mail summaries, told from the core's events,
say what the game says: over random games of every preset, at every position, the tricks
(cards, leader, winner), the hand boundaries and the hand scores they show are checked
against the game's own history, its score sheet rows and the core's trick rule.

The snapshots are built from plain rows as the service stores them (no database); the
events come from the service's replay of those moves (:meth:`Snapshot.game_events`).
The same renderers over a real database are in ``test_board_text.py``.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackout import Game, variant
from blackout.commands.render import Story, board_text, history_text, sheet_text
from blackout.core.actions import Bid, Play
from blackout.core.cards import Card, Suit
from blackout.core.rules import PRESETS
from blackout.core.view import HandResult, trick_winner
from blackout.mail.notices import describe
from blackout.service import MoveAccepted, Snapshot
from blackout.storage import GameRow, MoveRow, SeatRow

PLAYERS = {"pbmserv": 4, "standard": 3, "nullo": 3, "partnership": 4, "potomac": 3}
SHORT = {"partnership": {"max_cards": 4, "max_hands": 2}, "standard": {"schedule": [1, 2, 3]},
         "nullo": {"schedule": [3, 2]}, "potomac": {"schedule": [3, 1, 2]},
         "pbmserv": {"schedule": [1, 2, 3]}}
NAMES = ["ann", "averyverylongname_x", "cy", "di"]


def snapshot(game: Game, given: list[str], moves: list[tuple[int, str]]) -> Snapshot:
    """The snapshot the service would load after ``moves`` (rows as stored)."""
    rules = game.rules
    over = game.is_over
    row = GameRow(id=101, variant=rules.variant, options=json.dumps(rules.options()),
                  seed=game.seed, players=json.dumps(given),
                  status="over" if over else "active", live=False, move_count=len(moves),
                  result=json.dumps({"scores": game.scores, "winners": game.winners,
                                     "resigned": []}) if over else None)
    seats = [SeatRow(game_id=101, seat=s, name=p, controller=p, resigned=False, joined=True)
             for s, p in enumerate(game.players)]
    rows = [MoveRow(game_id=101, number=k, seat=seat, action=action, kind="player",
                    comment=None) for k, (seat, action) in enumerate(moves, start=1)]
    return Snapshot(row, seats, rows, game)


def oracle_tricks(game: Game) -> list[list[tuple[int, tuple[Card, ...], int]]]:
    """Per hand (finished ones, then the one in progress), its completed tricks as
    (leader, cards, winner), from the game's history of plays and the core's trick rule
    (not from any event)."""
    plays = [(m.seat, m.action.card) for m in game.history if isinstance(m.action, Play)]
    hands: list[tuple[int, Suit | None]] = [(r.cards, r.trump) for r in game.hands_played]
    if not game.is_over:
        view = game.public_view()
        hands.append((view.cards_dealt, view.trump))
    out, start, n = [], 0, game.n
    for cards, trump in hands:
        chunk = plays[start:start + cards * n]
        start += cards * n
        tricks = []
        for first in range(0, len(chunk) - len(chunk) % n, n):
            leader = chunk[first][0]
            played = tuple(card for _, card in chunk[first:first + n])
            tricks.append((leader, played, trick_winner(leader, played, trump, n)))
        out.append(tricks)
    assert start >= len(plays)
    return out


def trick_line(trick: tuple[int, tuple[Card, ...], int], names: tuple[str, ...]) -> str:
    leader, cards, winner = trick
    n = len(names)
    played = ", ".join(f"{names[(leader + i) % n]} {c}" for i, c in enumerate(cards))
    return f"{played}; won by {names[winner]}"


def result_line(result: HandResult, names: tuple[str, ...]) -> str:
    return f"Hand {result.number} result: " + "; ".join(
        f"{name} bid {'-' if b is None else b} took {t} {p:+d} = {total}"
        for name, b, t, p, total in zip(names, result.bids, result.tricks, result.points,
                                        result.totals, strict=True))


def expected_last_trick(game: Game, tricks: list[list]) -> list[str]:
    """What the board must say about the last trick: the current hand's last one; before
    the next hand's first card, and after the game's end, the hand before's with its
    result."""
    names = game.players
    if game.is_over:
        last = game.hands_played[-1]
        return [f"Last trick of hand {last.number}: {trick_line(tricks[-1][-1], names)}",
                result_line(last, names)]
    current = tricks[-1]
    if current:
        return [f"Last trick: {trick_line(current[-1], names)}"]
    if game.public_view().trick or len(tricks) < 2:
        return []
    last = game.hands_played[-1]
    return [f"Last trick of hand {last.number}: {trick_line(tricks[-2][-1], names)}",
            result_line(last, names)]


def sheet_lines(text: str) -> list[str]:
    if "\nScore sheet:\n" not in text:
        return []
    return text.split("\nScore sheet:\n")[1].split("\n\n")[0].splitlines()


def check_sheet(lines: list[str], names: tuple[str, ...], rows: list[HandResult]) -> None:
    """The sheet holds the game's rows, and every cell lines up under its player's
    name, each of its two parts right-aligned in a column of its own."""
    if not rows:
        assert lines == []
        return
    assert len(lines) == 3 + 2 * len(rows)
    header = lines[0]
    ends, position = [], header.index("Trump") + len("Trump")
    for name in names:
        position = header.index(name, position) + len(name)
        ends.append(position)
    # Where each line's left part (cards, dealer, declarer, trump) ends at the latest.
    floors = [header.index("Trump") + len("Trump")] * 2
    for result, line in zip(rows, lines[3::2], strict=True):
        trump = "No Trumps" if result.trump is None else result.trump.plural.title()
        floors += [line.index(trump) + len(trump), 0]
    first_ends: list[set[int]] = [set() for _ in names]
    cells = []
    for k, line in enumerate(lines[1:]):
        assert len(line) == ends[-1], (line, header)
        row = []
        for j, end in enumerate(ends):
            assert line[end - 1] != " " and line[end:end + 1] in ("", " "), (line, header)
            first, second = line[:end].split()[-2:]
            assert line[end - len(second) - 1:end] == " " + second, (line, header)
            first_end = line.rindex(first, 0, end - len(second)) + len(first)
            floor = ends[j - 1] if j else floors[k]
            assert first_end - len(first) > floor, (line, header)
            first_ends[j].add(first_end)
            row.append((first, second))
        cells.append(row)
    assert all(len(e) == 1 for e in first_ends), lines  # the first parts line up too
    assert cells[0] == [("Bid", "Score")] * len(names)
    assert cells[1] == [("Took", "Total")] * len(names)
    for k, result in enumerate(rows):
        assert cells[2 + 2 * k] == [("-" if b is None else str(b), f"{p:+d}")
                                    for b, p in zip(result.bids, result.points, strict=True)]
        assert cells[3 + 2 * k] == [(str(t), str(total))
                                    for t, total in zip(result.tricks, result.totals,
                                                        strict=True)]


def check_position(game: Game, given: list[str], moves: list[tuple[int, str]],
                   hands_of_moves: list[int], before: tuple[int, int]) -> tuple[int, int]:
    """Check the renderers at the game's position; ``before``: how many tricks and hand
    results there were before the last move (returns the same now)."""
    snap = snapshot(game, given, moves)
    names = game.players
    tricks = oracle_tricks(game)
    story = Story.of(snap.game_events(), snap.moves, game.n)
    # The story (from the events) against the game.
    assert story.results == game.hands_played
    assert [m.hand for m in story.moves] == hands_of_moves
    told = [[(t.leader, t.cards, t.winner) for t in hand.tricks] for hand in story.hands]
    assert told == tricks
    for hand, result in zip(story.hands, game.hands_played, strict=False):
        won = [sum(t.winner == s for t in hand.tricks) for s in range(game.n)]
        assert tuple(won) == result.tricks
    # The board text, for a seat and for an outsider.
    for seat in (0, None):
        text = board_text(snap, seat)
        said = [line for line in text.splitlines()
                if line.startswith("Last trick") or re.match(r"Hand \d+ result:", line)]
        assert said == expected_last_trick(game, tricks), text
        check_sheet(sheet_lines(text), names, game.hands_played)
    # The history: hand headers where the game's hand changed; every trick and result.
    history = history_text(snap).splitlines()
    hand, headers = 0, []
    trick_lines, result_lines = [], []
    for line in history[1:]:
        if re.fullmatch(r"Hand \d+:", line):
            hand = int(line[5:-1])
        elif line.startswith("#"):
            headers.append(hand)
        elif line.strip().startswith("Trick: "):
            trick_lines.append(line.strip()[len("Trick: "):])
        elif "result:" in line:
            result_lines.append(line.strip())
    assert headers == hands_of_moves
    assert trick_lines == [trick_line(t, names) for hand_tricks in tricks for t in hand_tricks]
    assert result_lines == [result_line(r, names) for r in game.hands_played]
    # The mail summary of the last move tells the tricks and the result it caused.
    if moves:
        seat, action = moves[-1]
        lines = describe(MoveAccepted(101, len(moves), seat, names[seat], action, "player"),
                         dict(enumerate(snap.game_events())), names)
        assert lines[0] == f"Move #{len(moves)}: {names[seat]} {action}"
        taken = [line.strip()[len("Trick: "):] for line in lines[1:]
                 if line.strip().startswith("Trick: ")]
        assert taken == trick_lines[before[0]:]
        ended = [line.strip() for line in lines[1:] if "result:" in line]
        assert ended == result_lines[before[1]:]
    return len(trick_lines), len(result_lines)


@pytest.mark.parametrize("name", sorted(PRESETS))
@given(seed=st.integers(0, 2**32), changes=st.floats(0, 0.3))
@settings(max_examples=15, deadline=None)
def test_board_history_and_mail_say_what_the_game_says(name: str, seed: int,
                                                       changes: float) -> None:
    rng = random.Random(seed)
    given_names = NAMES[:PLAYERS[name]]
    game = Game.new(variant(name, **SHORT[name]), given_names, seed=seed)
    moves: list[tuple[int, str]] = []
    hands_of_moves: list[int] = []
    before = check_position(game, given_names, moves, hands_of_moves, (0, 0))
    while not game.is_over:
        changer = game._changeable_seat()
        if changer is not None and rng.random() < changes:
            seat, action = changer, rng.choice(game.legal_actions(changer))
        else:
            seat, action = game.to_move, rng.choice(game.legal_actions())
        hands_of_moves.append(game.hand_number)
        game.apply(action, seat=seat)
        moves.append((seat, str(action)))
        before = check_position(game, given_names, moves, hands_of_moves, before)


def test_sheet_columns_line_up_with_long_and_short_names_and_wide_scores() -> None:
    rules = variant("potomac")
    names = ("a", "averyverylongname_x", "bo")
    rows = [HandResult(number=1, cards=13, dealer=1, declarer=1, trump=None, turn_up=None,
                       bids=(Bid(13), Bid(0), Bid(2)), tricks=(0, 13, 0),
                       points=(-13, -13, -2), totals=(-13, -13, -2),
                       made=(False, False, False)),
            HandResult(number=2, cards=12, dealer=2, declarer=0, trump=Suit.HEARTS,
                       turn_up=None, bids=(Bid(12), Bid(1), Bid(0)), tricks=(12, 0, 0),
                       points=(+29, -1, +5), totals=(1016, -1014, 3),
                       made=(True, False, True))]
    lines = sheet_text(rules, names, rows).splitlines()
    check_sheet(lines, names, rows)
    assert lines[0].split()[:4] == ["Cards", "Dealer", "Declarer", "Trump"]
    assert lines[3].split()[:4] == ["13", "averyverylongname_x", "averyverylongname_x",
                                    "No"]
