"""The review of a finished game: asked for with one click, shown as the server worked it
out (screenshots in build/screenshots/ for people to look at)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from .pages import act_once, game_over, new_table, open_table, signed_in, signed_up, watch_errors

OUT = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def test_a_finished_game_is_reviewed_with_one_click(server: str, browser: Browser) -> None:
    me = signed_up(server)
    context = signed_in(browser, server, me)
    board = new_table(context, "pbmserv", [me] + ["bot:basic"] * 3, schedule=[1, 2, 3])
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 860})
    errors = watch_errors(page)
    open_table(page, board)
    for _ in range(400):
        if game_over(page):
            break
        if not act_once(page):
            page.wait_for_timeout(40)
    assert game_over(page), "the game did not end"
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=OUT / "review-offered-desktop.png", full_page=True,
                    animations="disabled")

    page.get_by_role("button", name="Analyse the game").click()
    page.locator(".review .analysis-summary").wait_for(timeout=120_000)
    served = page.context.request.get(f"/api/tables/{board}/analysis").json()
    assert served["status"] == "ready"

    rows = page.locator(".analysis-summary tbody tr")
    assert rows.locator("th").all_inner_texts() == [me, "basic bot", "basic bot 2",
                                                    "basic bot 3"]
    shown_lost = [float(t) for t in rows.locator("td:nth-child(6)").all_inner_texts()]
    served_lost = [p["play_points_lost"] for p in served["players"]]
    # Shown to a tenth: JavaScript's toFixed rounds a tie (0.25) up, Python's round to even.
    assert all(abs(shown - lost) <= 0.05 + 1e-9
               for shown, lost in zip(shown_lost, served_lost, strict=True))
    costly = [d for d in served["decisions"] if d["lost"] > served["accurate_within"]]
    assert page.locator(".costliest li").count() == min(8, len(costly))
    summary = page.locator(".every-decision summary")
    assert summary.inner_text() == f"Every decision ({len(served['decisions'])})"
    summary.click()
    assert page.locator(".analysis-decisions tbody tr").count() == len(served["decisions"])
    assert errors == []

    page.screenshot(path=OUT / "review-desktop.png", full_page=True, animations="disabled")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=OUT / "review-phone.png", full_page=True, animations="disabled")

    # The lobby lists the finished game among mine, to review.
    page.goto(server + "/")
    review = page.locator(f'.tables a.button[href="/tables/{board}"]')
    review.wait_for()
    assert review.inner_text() == "Review"
