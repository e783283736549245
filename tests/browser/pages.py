"""What a person at the browser table does: find the things to click and wait for the answer."""

from __future__ import annotations

import itertools
import os
import re

import httpx
from playwright.sync_api import Browser, BrowserContext, Page

from blackout.core.game import Game

PASSWORD = "correct-horse-battery"
_names = itertools.count(1)

#: Everything that is this seat's own decision now (not a bid change, not a dimmed card).
MY_CHOICES = (".actions.my-turn [data-action]:not([aria-disabled]), "
              ".hand .card.playable[data-action]")
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


def card_name(card: str) -> str:
    """The accessible name the page gives a card: ``"10C"`` -> ``"10 of clubs"``."""
    rank, suit = card[:-1], card[-1]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"


def shown(page: Page, name: str) -> str:
    """One of the table's data attributes (event, nextMove, status, phase)."""
    return page.eval_on_selector(".table-page", f"el => el.dataset.{name} ?? ''")


def open_table(page: Page, board: int) -> None:
    page.goto(f"/tables/{board}")
    page.wait_for_selector(".table-page[data-event]")


def click_and_wait(page: Page, selector: str, *, refused: bool = False) -> str:
    """Click the first match; wait until the table moves on or a notice explains why not.
    Returns the notice's text ("" when the move went through).  ``refused``: the element
    says it is not available (aria-disabled), which Playwright will not click unless told;
    a person can, and is told why not."""
    before = shown(page, "nextMove")
    page.eval_on_selector("#notice", "el => { el.hidden = true; }")  # only a new one counts
    page.locator(selector).first.click(force=refused)
    page.wait_for_function(
        """before => document.querySelector('.table-page').dataset.nextMove !== before
                   || !document.querySelector('#notice').hidden""", arg=before)
    notice = page.locator("#notice")
    return notice.inner_text() if notice.is_visible() else ""


def act_once(page: Page) -> bool:
    """Make one legal choice of this seat's, if it has one now."""
    if page.locator(MY_CHOICES).count() == 0:
        return False
    text = click_and_wait(page, MY_CHOICES)
    assert text == "", f"a legal click was refused: {text} " + page.evaluate(
        "JSON.stringify(document.querySelector('.table-page').dataset)") + page.inner_text("body")
    return True


def game_over(page: Page) -> bool:
    return page.locator(".game-over").count() > 0


def sheet_totals(page: Page) -> list[int]:
    """The running totals of the score sheet's last row, in seat order."""
    cells = page.locator(".game-over .score-sheet tbody tr").last.locator(".ss-total")
    return [int(t) for t in cells.all_inner_texts()]


def engine_game(page: Page, board: int) -> Game:
    """The finished game as the rules engine replays it from the server's record."""
    record = page.context.request.get(f"/api/tables/{board}/record")
    assert record.ok, record.text()
    return Game.replay(record.json())


def card_labels(page: Page) -> set[str]:
    """Every card name the page shows (accessible names and visible text)."""
    pattern = re.compile(r"\b(ace|king|queen|jack|10|[2-9]) of (clubs|diamonds|hearts|spades)\b")
    labels = page.eval_on_selector_all("[aria-label]", "els => els.map(e => e.ariaLabel)")
    text = " ".join([*labels, page.inner_text("body")])
    return {" of ".join(m) for m in pattern.findall(text)}


def new_userid(prefix: str = "p") -> str:
    return f"{prefix}{os.getpid() % 10000}x{next(_names)}"


def signed_up(base: str, prefix: str = "p") -> str:
    """A new account (made over the API; the lobby's own form is tested separately)."""
    userid = new_userid(prefix)
    answer = httpx.post(f"{base}/api/accounts",
                        json={"userid": userid, "email": f"{userid}@example.org",
                              "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return userid


def signed_in(browser: Browser, base: str, userid: str | None = None, *,
              width: int = 1280, height: int = 860) -> BrowserContext:
    """A browser context holding ``userid``'s session cookie (no login: a spectator)."""
    context = browser.new_context(base_url=base, viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    if userid is not None:
        answer = context.request.post("/api/session",
                                      data={"userid": userid, "password": PASSWORD})
        assert answer.ok, answer.text()
    return context


def new_table(context: BrowserContext, variant: str, seats: list[str], *,
              clock: int | None = None, **options: object) -> int:
    answer = context.request.post("/api/tables", data={
        "variant": variant, "options": options, "seats": seats, "private": False,
        "clock": clock})
    assert answer.status == 201, answer.text()
    return int(answer.json()["board"])


def watch_errors(page: Page) -> list[str]:
    """Collect the page's script errors: a stack trace must never be the answer."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors
