"""One full game of each preset, played by clicking the page against computer players."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

from .pages import (
    MY_CHOICES,
    act_once,
    click_and_wait,
    engine_game,
    game_over,
    new_table,
    open_table,
    sheet_totals,
    shown,
    signed_in,
    signed_up,
    watch_errors,
)

# Short schedules so each game is a few tricks; every other rule is the preset's own.
GAMES = {
    "pbmserv": (4, {"schedule": [1, 2]}),  # the blind one-card hand, then two cards
    "standard": (3, {"schedule": [1, 2]}),
    "nullo": (3, {"schedule": [2, 1]}),
    "partnership": (4, {"schedule": [2], "tiebreak": "shared", "first_dealer": -1}),
    "potomac": (3, {"schedule": [2, 1]}),
}


@pytest.mark.parametrize("variant", list(GAMES))
def test_a_full_game_by_clicking(server: str, browser: Browser, variant: str) -> None:
    players, options = GAMES[variant]
    me = signed_up(server)
    context = signed_in(browser, server, me)
    board = new_table(context, variant, [me] + ["bot:basic"] * (players - 1), **options)
    page = context.new_page()
    errors = watch_errors(page)
    open_table(page, board)
    opening(page, variant)
    refused_card = None
    for _ in range(400):
        if game_over(page):
            break
        dimmed = page.locator(".actions.my-turn ~ .hand .card.dimmed")
        if refused_card is None and dimmed.count():
            # A card that does not follow suit: the rules' own sentence comes back.
            refused_card = dimmed.first.get_attribute("data-action")
            lead = page.locator(".actions.my-turn .prompt .suit-icon use").first
            suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[
                lead.get_attribute("href")[-1]]
            text = click_and_wait(page, f'.hand [data-action="{refused_card}"]', refused=True)
            assert text == f"you must follow {suit}"
            assert page.locator(f'.hand [data-action="{refused_card}"]').count() == 1
            continue
        if not act_once(page):
            page.wait_for_timeout(40)
    assert game_over(page), "the game did not end"
    game = engine_game(page, board)
    assert game.is_over
    assert sheet_totals(page) == list(game.scores)
    rows = page.locator(".game-over .score-sheet tbody tr")
    assert rows.count() == len(game.hands_played)
    winners = page.locator(".standings li.winner .score").all_inner_texts()
    assert [int(w) for w in winners] == [game.scores[s] for s in game.winners]
    assert shown(page, "status") == "over"
    assert page.locator(MY_CHOICES).count() == 0
    assert errors == []


def opening(page: Page, variant: str) -> None:
    """What only some presets show, checked on their first hand (seat 0 bids first)."""
    if variant == "pbmserv":
        # The blind first hand: the others' cards face up, mine face down.
        page.locator(".actions.my-turn").wait_for()
        assert page.locator(".hand.blind .face-down").count() == 1
        assert page.locator(".hand [data-action]").count() == 0
        assert page.locator(".mini-hand.shown .mini-card").count() == 3
    if variant == "partnership":
        # Nil and board are bids like the numbers; my nil means my partner does not bid.
        page.locator('.actions.my-turn [data-action="board"]').wait_for()
        assert page.get_by_role("button", name="bid nil", exact=True).count() == 1
        assert click_and_wait(page, '.actions.my-turn [data-action="nil"]') == ""
        page.locator('.plate[data-seat="2"] .skipped').wait_for()
        assert page.locator('.plate[data-seat="0"] .stat').inner_text().startswith("bid nil")


def test_the_hooked_bid_is_shown_disabled_and_explained(server: str, browser: Browser) -> None:
    """Two players, the hook on, and I deal: whatever the computer bids, one bid of mine
    is forbidden; it is on the page, marked, with the reason, and a click is refused.
    The table has a move clock, shown counting down for the player to move."""
    me = signed_up(server)
    context = signed_in(browser, server, me)
    board = new_table(context, "standard", ["bot:basic", me], schedule=[3], hook=True,
                      first_dealer=1, clock=60)
    page = context.new_page()
    open_table(page, board)
    hooked = page.locator(".bids .bid.hooked")
    hooked.wait_for()
    # The move clock runs on the plate of the player to move: mine.
    clock = page.locator('.plate.me [data-clock]')
    assert re.fullmatch(r"[01]:\d\d", clock.inner_text()), clock.inner_text()
    reason = hooked.get_attribute("title")
    bid = hooked.get_attribute("data-action")
    assert re.fullmatch(rf"the dealer may not bid {bid}: bids would total 3", reason)
    assert hooked.get_attribute("aria-disabled") == "true"
    assert page.locator('.bids [data-action]:not([aria-disabled])').count() == 3
    assert click_and_wait(page, ".bids .bid.hooked", refused=True) == reason
    assert page.locator(".bids .bid.hooked").count() == 1  # nothing changed
