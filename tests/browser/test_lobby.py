"""The lobby: signing up, the new-table form (each preset's own options), a private table
joined through its invite link."""

from __future__ import annotations

from playwright.sync_api import Browser

from .pages import PASSWORD, new_table, new_userid, signed_in, signed_up, watch_errors


def test_sign_up_create_a_private_table_and_invite_a_friend(server: str,
                                                            browser: Browser) -> None:
    friend = signed_up(server, "friend")
    me = new_userid("host")
    page = signed_in(browser, server, width=390, height=844).new_page()
    errors = watch_errors(page)
    page.goto("/")
    form = page.locator("#sign-up")
    form.get_by_label("User id").fill(me)
    form.get_by_label("E-mail").fill(f"{me}@example.org")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Create account").click()
    page.get_by_text(f"Signed in as {me}").wait_for()

    # Each preset shows exactly its own options, each with a line of explanation.
    variants = page.context.request.get("/api/variants").json()
    create = page.locator("#create")
    for variant in variants:
        create.locator("select[name=variant]").select_option(variant["name"])
        rows = create.locator("#options .option")
        assert rows.count() == len(variant["options"])
        for option in variant["options"]:
            row = create.locator(f"#options .option:has(#opt-{option['name']})")
            assert row.locator(".help").inner_text().strip() == option["help"].strip()
    assert any(v["options"] for v in variants), "no preset offers any option"

    create.locator("select[name=variant]").select_option("standard")
    create.locator("select[name=players]").select_option("3")
    create.locator("#seat-1").select_option("bot:expert")
    create.locator("#seat-2").select_option("invite")
    create.get_by_label("user id for seat 3").fill(friend)
    create.locator("input[name=private]").check()
    create.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/tables/*")
    page.get_by_role("heading", name="Waiting for players").wait_for()
    invite = page.get_by_label("invite link").input_value()
    assert "?invite=" in invite

    # The friend follows the link, joins, and the game starts for both.
    guest = signed_in(browser, server, friend).new_page()
    guest.goto(invite)
    guest.get_by_role("button", name="Join").click()
    guest.locator(".table-page[data-status=active]").wait_for()
    page.locator(".table-page[data-status=active]").wait_for()
    assert page.locator(".plate").count() == 3
    assert errors == []


def test_a_wrong_password_is_a_sentence(server: str, browser: Browser) -> None:
    me = signed_up(server)
    page = signed_in(browser, server).new_page()
    page.goto("/")
    form = page.locator("#sign-in")
    form.get_by_label("User id").fill(me)
    form.get_by_label("Password").fill("not-the-password")
    form.get_by_role("button", name="Sign in").click()
    notice = page.locator("#lobby-notice")
    notice.wait_for()
    assert "Traceback" not in notice.inner_text()
    assert notice.inner_text().strip()
    assert page.get_by_text("Signed in as").count() == 0


def test_games_in_progress_are_listed_to_watch(server: str, browser: Browser) -> None:
    host = signed_up(server)
    board = new_table(signed_in(browser, server, host), "standard",
                      [host, "bot:basic", "bot:basic"], schedule=[1])
    page = signed_in(browser, server).new_page()
    page.goto("/")
    page.locator(f'#tables a.button[href="/tables/{board}"]').click()
    page.wait_for_url(f"**/tables/{board}")
    page.get_by_text("You are watching").wait_for()
    assert page.locator(".hand [data-action]").count() == 0
