"""Screenshots of a Potomac table in each phase, at phone and desktop width, for people to
look at (build/screenshots/, not kept in git).  The test checks each phase was reached and
drawn; the looking is done by a person."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from .pages import (
    MY_CHOICES,
    PASSWORD,
    click_and_wait,
    game_over,
    new_table,
    open_table,
    shown,
    signed_in,
)

OUT = Path(__file__).resolve().parents[2] / "build" / "screenshots"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 860)}


def settled(pages: list[Page]) -> None:
    """Both screens show the same position, with no finished trick lingering."""
    target = shown(pages[0], "event")
    for page in pages:
        page.wait_for_function(
            """n => { const d = document.querySelector('.table-page').dataset;
                      return d.event === n && d.held === ''; }""", arg=target)


def snap(pages: list[Page], phase: str) -> None:
    settled(pages)
    for (width, _), page in zip(WIDTHS.values(), pages, strict=True):
        page.screenshot(path=OUT / f"potomac-{phase}-{width}.png", full_page=True,
                        animations="disabled")


def table_now(page: Page) -> dict[str, Any]:
    """What the table shows, read at one moment (separate reads may straddle a redraw:
    a phase read just before a computer player's move, then that move's turn for me):
    the phase, whether a finished trick is held on show, whether it is my turn, how many
    seats have yet to bid, and how many cards are on the table."""
    return page.evaluate("""() => {
        const d = document.querySelector('.table-page').dataset;
        const stats = [...document.querySelectorAll('.plate .stat')];
        return {phase: d.phase ?? '', held: d.held ?? '',
                mine: document.querySelector('.actions.my-turn') !== null,
                unbid: stats.filter((s) => s.innerText.includes('bid –')).length,
                trick: document.querySelectorAll('.trick-card').length};
    }""")


def my_choice(page: Page) -> str:
    """The highest bid when bidding (to be declarer), else the first legal choice."""
    bids = page.locator(".actions.my-turn .bids:not(.trumps) [data-action]:not([aria-disabled])")
    numbers = bids.evaluate_all("els => els.map(e => e.dataset.action)")
    if not numbers:
        return MY_CHOICES
    return f'.actions.my-turn [data-action="{max(numbers, key=int)}"]'


def test_screenshots_of_each_phase(server: str, browser: Browser) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    me = "ann"  # a plain name for the pictures (the README shows one); unique in this server
    assert httpx.post(f"{server}/api/accounts", json={
        "userid": me, "email": "ann@example.org", "password": PASSWORD}).status_code == 201
    pages = [signed_in(browser, server, me, width=w, height=h).new_page()
             for w, h in WIDTHS.values()]
    # Seat 0 bids first in hand 1 and deals hand 2; its highest bid makes it declarer.
    board = new_table(pages[0].context, "potomac", [me, "bot:basic", "bot:expert", "bot:basic"],
                      schedule=[6, 2], first_dealer=-1)
    for page in pages:
        open_table(page, board)
    player = pages[0]
    taken: set[str] = set()
    for _ in range(300):
        if game_over(player):
            break
        now = table_now(player)
        if not now["mine"]:
            player.wait_for_timeout(40)
            continue
        # snap() waits until no finished trick is held on either screen.
        if now["phase"] == "bid" and now["unbid"] == 1:
            snap(pages, "bidding")  # the last to bid: everyone else's bid is on the table
            taken.add("bidding")
        if now["phase"] == "trump":
            snap(pages, "trump-choice")
            taken.add("trump-choice")
        if now["phase"] == "play" and "play" not in taken and now["trick"] \
                and now["held"] == "":
            snap(pages, "play")
            taken.add("play")
        assert click_and_wait(player, my_choice(player)) == ""
    assert game_over(player)
    pages[1].locator(".game-over").wait_for()
    snap(pages, "score-sheet")
    pages[0].locator("#sheet-button").click()
    taken.add("score-sheet")
    # ann bid all six cards first in hand 1: a tie goes to the earlier bid, so she names
    # trump (a bot may outbid her in hand 2, where she bids last under the hook).
    assert taken == {"bidding", "trump-choice", "play", "score-sheet"}
    for phase in taken:
        for width, _ in WIDTHS.values():
            assert (OUT / f"potomac-{phase}-{width}.png").stat().st_size > 10_000
