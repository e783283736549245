"""The sample score sheet of seed 004 (Potomac Blackout), cell by cell, and the ScoreSheet
scorekeeper's checks and layout."""

from typing import NamedTuple

import pytest

from blackout import Bid, Game, ScoreSheet, ScoreSheetError, variant
from blackout.core.scoring import hand_points
from conftest import random_deal

RULES = variant("potomac")
PLAYERS = ["Wei-Hwa", "SquashBot", "Twonky", "TrundleBot"]
WEI_HWA, SQUASHBOT, TWONKY, TRUNDLEBOT = range(4)


class SheetRow(NamedTuple):
    cards: int
    dealer: str
    declarer: str
    trump: str          # as entered: a suit letter or NT
    bids: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    took: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]


# Transcribed from seed 004, "Sample Scoresheets": per hand the first line is
# Tricks Dealer Declarer Trump, then Bid Score for each player; the second line is Took
# Total for each player.  Columns: Wei-Hwa, SquashBot, Twonky, TrundleBot.
SHEET = [
    SheetRow(13, "TrundleBot", "Wei-Hwa", "NT", (3, 2, 2, 3), (11, 7, 7, -3),
             (3, 2, 2, 6), (11, 7, 7, -3)),
    SheetRow(12, "Wei-Hwa", "Twonky", "H", (4, 2, 5, 3), (-2, 7, -1, -1),
             (2, 2, 6, 2), (9, 14, 6, -4)),
    SheetRow(11, "SquashBot", "Twonky", "C", (1, 1, 7, 3), (-1, 6, -1, -1),
             (0, 1, 8, 2), (8, 20, 5, -5)),
    SheetRow(10, "Twonky", "SquashBot", "NT", (1, 4, 0, 3), (-1, 10, -5, -2),
             (0, 4, 5, 1), (7, 30, 0, -7)),
    SheetRow(9, "TrundleBot", "Twonky", "S", (0, 3, 4, 1), (5, -1, -1, -3),
             (0, 2, 3, 4), (12, 29, -1, -10)),
    SheetRow(8, "Wei-Hwa", "Twonky", "D", (1, 2, 4, 2), (6, 7, -1, 7),
             (1, 2, 3, 2), (18, 36, -2, -3)),
    SheetRow(7, "SquashBot", "SquashBot", "S", (1, 4, 0, 3), (7, -2, 5, -3),
             (1, 6, 0, 0), (25, 34, 3, -6)),
    SheetRow(6, "Twonky", "Wei-Hwa", "H", (5, 1, 3, 0), (15, -1, -2, 5),
             (5, 0, 1, 0), (40, 33, 1, -1)),
    SheetRow(5, "TrundleBot", "Twonky", "C", (0, 3, 4, 0), (5, -3, 13, 5),
             (0, 0, 4, 0), (45, 30, 14, 4)),
    SheetRow(4, "Wei-Hwa", "Twonky", "S", (0, 0, 2, 0), (-1, 5, -1, -2),
             (1, 0, 1, 2), (44, 35, 13, 2)),
    SheetRow(3, "SquashBot", "Twonky", "D", (0, 1, 2, 1), (5, -1, -1, -1),
             (0, 0, 3, 0), (49, 34, 12, 1)),
    SheetRow(2, "Twonky", "Twonky", "D", (1, 0, 2, 0), (-1, 5, 9, 5),
             (0, 0, 2, 0), (48, 39, 21, 6)),
    SheetRow(1, "TrundleBot", "SquashBot", "S", (0, 1, 0, 1), (5, 7, 5, -1),
             (0, 1, 0, 0), (53, 46, 26, 5)),
]

# Where the sample sheet contradicts the written rules (decision 7), checked below:
#  (a) the 10-card hand: SquashBot, declarer, bid 4 and took 4.  "If declarer makes their
#      bid exactly, they get 5 points plus double their bid": 5 + 2 x 4 = +13; sheet +10.
#  (b) the 7-card hand: Wei-Hwa, not declarer, bid 1 and took 1.  "If a non-declarer
#      player makes their bid exactly, they get 5 points plus their bid": +6; sheet +7.
#  (c) the 5-card hand: tricks taken 0 + 0 + 4 + 0 = 4, but 5 tricks were played.  Every
#      score cell of that row agrees with the tricks as written, so the row is entered
#      as the 4 tricks it adds up to (Potomac points do not depend on the cards dealt).
RULES_GIVE = {(10, SQUASHBOT): 13, (7, WEI_HWA): 6}
SHORT_ROW = 5


def seat(name: str) -> int:
    return PLAYERS.index(name)


def test_transcription_is_consistent_with_itself() -> None:
    # Guards the transcription: sizes 13..1, the deal passing clockwise, and every
    # total the running sum of the sheet's own score cells.
    assert [row.cards for row in SHEET] == list(range(13, 0, -1))
    assert [seat(row.dealer) for row in SHEET] == [(3 + i) % 4 for i in range(13)]
    running = [0, 0, 0, 0]
    for row in SHEET:
        running = [t + s for t, s in zip(running, row.scores, strict=True)]
        assert tuple(running) == row.totals
    short = [row for row in SHEET if sum(row.took) != row.cards]
    assert [(row.cards, sum(row.took)) for row in short] == [(SHORT_ROW, 4)]


def test_every_score_cell_but_two_follows_the_written_rules() -> None:
    differences = {}
    for row in SHEET:
        ours = hand_points(RULES, row.cards, [Bid(b) for b in row.bids], row.took,
                           declarer=seat(row.declarer))
        for player in range(4):
            if ours[player] != row.scores[player]:
                differences[row.cards, player] = ours[player]
    assert differences == RULES_GIVE


def test_every_hand_was_bid_legally_and_the_sheet_names_the_engines_declarer() -> None:
    # Replays each hand's bidding in the engine: bidding from the dealer's left, the hook
    # on the dealer, and "the person who made the largest bid is now declarer. (In case
    # of a tie, the first player to make that bid is declarer.)"  The 13- and 1-card
    # hands are ties (Wei-Hwa before TrundleBot, SquashBot before TrundleBot).
    for number, row in enumerate(SHEET):
        rules = variant("potomac", schedule=[row.cards])
        deal = random_deal(row.cards, 4, seed=number, dealer=seat(row.dealer))
        game = Game.new(rules, PLAYERS, deals=[deal])
        while game.phase == "bid":
            game.apply(str(row.bids[game.to_move]))
        assert game.phase == "trump"
        assert game.declarer == seat(row.declarer), row


def carried(row_index: int) -> tuple[int, ...]:
    """What the sheet's totals carry over ours after the row: (a) and (b) above."""
    difference = [0, 0, 0, 0]
    for row in SHEET[:row_index + 1]:
        for (cards, player), ours in RULES_GIVE.items():
            if row.cards == cards:
                difference[player] += row.scores[player] - ours
    return tuple(difference)


def test_score_sheet_reproduces_the_sample() -> None:
    sheet = ScoreSheet(RULES, PLAYERS)
    for index, row in enumerate(SHEET):
        if row.cards == SHORT_ROW:
            before = (list(sheet.rows), list(sheet.totals), sheet.render())
            with pytest.raises(ScoreSheetError, match=r"^tricks add up to 4, but 5 were played$"):
                sheet.add_hand(bids=row.bids, tricks=row.took, dealer=row.dealer,
                               declarer=row.declarer, trump=row.trump)
            assert (sheet.rows, sheet.totals, sheet.render()) == before
            entered = sheet.add_hand(bids=row.bids, tricks=row.took, dealer=row.dealer,
                                     declarer=row.declarer, trump=row.trump, cards=4)
        else:
            assert sheet.next_cards == row.cards
            entered = sheet.add_hand(bids=row.bids, tricks=row.took, dealer=row.dealer,
                                     declarer=row.declarer, trump=row.trump)
        expected = tuple(RULES_GIVE.get((row.cards, p), row.scores[p]) for p in range(4))
        assert entered.points == expected
        assert entered.bids == tuple(Bid(b) for b in row.bids)
        assert entered.dealer == seat(row.dealer)
        assert entered.declarer == seat(row.declarer)
        assert tuple(sheet.totals) == entered.totals
        sheet_minus_carried = tuple(
            total - extra for total, extra in zip(row.totals, carried(index), strict=True))
        assert entered.totals == sheet_minus_carried
    assert carried(len(SHEET) - 1) == (1, -3, 0, 0)
    assert sheet.totals == [52, 49, 26, 5]
    assert sheet.rows[0].made == (True, True, True, False)


def test_render_lays_the_sheet_out_like_the_sample() -> None:
    sheet = ScoreSheet(RULES, PLAYERS)
    for row in SHEET[:3]:
        sheet.add_hand(bids=row.bids, tricks=row.took, dealer=row.dealer,
                       declarer=row.declarer, trump=row.trump)
    lines = sheet.render().splitlines()
    assert len(lines) == 3 + 2 * 3         # three header lines, two lines a hand
    header = lines[0]
    assert header.split()[:4] == ["Cards", "Dealer", "Declarer", "Trump"]  # the hand size
    assert header.split()[4:] == PLAYERS
    assert lines[1].split() == ["Bid", "Score"] * 4
    assert lines[2].split() == ["Took", "Total"] * 4
    # Each player's two cells sit under the player's name, right-aligned to it.
    ends = [header.index(name) + len(name) for name in PLAYERS]
    width = ends[1] - ends[0]

    def cells(line: str) -> list[str]:
        return [line[end - width:end].strip() for end in ends]

    assert cells(lines[1]) == ["Bid Score"] * 4
    assert cells(lines[2]) == ["Took Total"] * 4
    assert cells(lines[3]) == ["3 +11", "2 +7", "2 +7", "3 -3"]
    assert cells(lines[4]) == ["3 11", "2 7", "2 7", "6 -3"]
    assert cells(lines[5]) == ["4 -2", "2 +7", "5 -1", "3 -1"]
    assert cells(lines[6]) == ["2 9", "2 14", "6 6", "2 -4"]
    assert cells(lines[8]) == ["0 8", "1 20", "8 5", "2 -5"]
    assert lines[3].split()[:5] == ["13", "TrundleBot", "Wei-Hwa", "No", "Trumps"]
    assert lines[5].split()[:4] == ["12", "Wei-Hwa", "Twonky", "Hearts"]
    assert lines[7].split()[:4] == ["11", "SquashBot", "Twonky", "Clubs"]
    assert lines[4][:ends[0] - width].strip() == ""   # the second line has cells only
    assert all(len(line) == len(header) for line in lines)


FIRST = SHEET[0]


def refused(sheet: ScoreSheet, message: str, **changes: object) -> None:
    """Entering the 13-card hand with ``changes`` is refused and changes nothing."""
    entry: dict[str, object] = {"bids": FIRST.bids, "tricks": FIRST.took,
                                "dealer": FIRST.dealer, "declarer": FIRST.declarer,
                                "trump": FIRST.trump}
    entry.update(changes)
    before = (list(sheet.rows), list(sheet.totals), sheet.render())
    with pytest.raises(ScoreSheetError) as caught:
        sheet.add_hand(**entry)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert (sheet.rows, sheet.totals, sheet.render()) == before


def test_score_sheet_checks_each_hand() -> None:
    sheet = ScoreSheet(RULES, PLAYERS)
    refused(sheet, "the hook: TrundleBot, bidding last, may not make the bids total 13",
            bids=(3, 2, 2, 6))
    refused(sheet, "tricks add up to 12, but 13 were played", tricks=(3, 2, 2, 5))
    refused(sheet, "tricks taken are 0 to 13 each", tricks=(14, 0, 0, -1))
    refused(sheet, "the declarer must be the first highest bidder (bid 3): Wei-Hwa",
            declarer="Twonky")
    refused(sheet, "the declarer must be the first highest bidder (bid 3): Wei-Hwa",
            declarer="TrundleBot")
    refused(sheet, "bid 14: bids are 0 to 13", bids=(14, 2, 2, 3))
    refused(sheet, "'x' is not a move", bids=("x", 2, 2, 3))
    refused(sheet, "give 4 bids and 4 trick counts", bids=(3, 2, 2))
    refused(sheet, "the dealer 'Bob' is not a player here", dealer="Bob")
    refused(sheet, "name the declarer", declarer=None)
    refused(sheet, "name the trump the declarer chose", trump=None)
    refused(sheet, "is not a suit", trump="purple")
    sheet.add_hand(bids=FIRST.bids, tricks=FIRST.took, dealer=FIRST.dealer,
                   declarer=FIRST.declarer, trump=FIRST.trump)
    second = SHEET[1]
    with pytest.raises(ScoreSheetError, match="the deal passes clockwise: Wei-Hwa deals"):
        sheet.add_hand(bids=second.bids, tricks=second.took, dealer="Twonky",
                       declarer=second.declarer, trump=second.trump)
    assert len(sheet.rows) == 1


def test_score_sheet_for_other_presets() -> None:
    sheet = ScoreSheet(variant("standard"), ["a", "b", "c"])
    row = sheet.add_hand(bids=[1, 0, 1], tricks=[1, 0, 0], dealer="c")
    assert row.cards == 1 and row.points == (6, 6, 0)
    with pytest.raises(ScoreSheetError, match="these rules have no declarer"):
        sheet.add_hand(bids=[1, 0, 1], tricks=[1, 1, 0], dealer="a", declarer="a")
    team = ScoreSheet(variant("partnership"), ["n", "e", "s", "w"])
    row = team.add_hand(bids=["board", 3, None, 2], tricks=[10, 0, 3, 0], dealer="w")
    assert row.points == (40, 0, 40, 0)
    with pytest.raises(ScoreSheetError, match="bids are 1 to 12, nil or board"):
        team.add_hand(bids=[0, 3, 3, 2], tricks=[10, 1, 2, 0], dealer="n")
    with pytest.raises(ScoreSheetError, match="player names must be different"):
        ScoreSheet(variant("standard"), ["a", "a"])


@pytest.mark.parametrize(("bids", "message"), [
    # Seed 000: "players get to bid once unless their partner bid 'board' or 'nil' before
    # them".  West deals, so the order is n, e, s, w.
    ([None, None, None, None], "n must bid"),
    ([3, 2, None, 1], "s must bid"),
    (["nil", 3, "nil", 2], "s is skipped: the partner bid nil earlier"),
    ([2, "board", 3, 1], "w is skipped: the partner bid board earlier"),
])
def test_partnership_sheet_checks_who_was_skipped(bids: list[object], message: str) -> None:
    sheet = ScoreSheet(variant("partnership"), ["n", "e", "s", "w"])
    with pytest.raises(ScoreSheetError, match=message):
        sheet.add_hand(bids=bids, tricks=[13, 0, 0, 0], dealer="w")  # type: ignore[arg-type]
    assert sheet.rows == [] and sheet.totals == [0, 0, 0, 0]
    # A later partner's board or nil voids an earlier number bid: nobody is skipped.
    row = sheet.add_hand(bids=[3, 2, "nil", 1], tricks=[13, 0, 0, 0], dealer="w")
    assert row.points == (40, 0, 40, 0)


def test_a_reverse_schedule_breaks_ties_with_the_engines_hand_sizes() -> None:
    # Issue 19.18: seed 002's extra hands start "over with the one card hand" whatever the
    # schedule; the engine deals 1 card, and the sheet must expect 1 too (not the first
    # scheduled size again).
    rules = variant("standard", schedule="down", max_cards=2)
    sheet = ScoreSheet(rules, ["ann", "bob"])
    assert sheet.next_cards == 2
    sheet.add_hand(bids=[1, 1], tricks=[1, 1], dealer="ann")
    sheet.add_hand(bids=[0, 1], tricks=[0, 1], dealer="bob")
    assert sheet.totals == [13, 13] and not sheet.is_over
    assert sheet.next_is_tiebreak and sheet.next_cards == rules.extra_hand_size(2, 1) == 1
    row = sheet.add_hand(bids=[1, 1], tricks=[1, 0], dealer="ann")
    assert row.extra and sheet.is_over
