"""Several people at one table: live moves, a spectator who sees no hidden card, reload,
and a stale second tab."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, WebSocket, WebSocketRoute

from .pages import (
    MY_CHOICES,
    act_once,
    card_labels,
    card_name,
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


def record_frames(page: Page) -> list[str]:
    """Every WebSocket frame the page receives."""
    frames: list[str] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", watch)
    return frames


def plate(page: Page, seat: int) -> str:
    return page.locator(f'.plate[data-seat="{seat}"] .stat').inner_text()


def my_hand(page: Page) -> list[str]:
    return page.locator(".hand [data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)")


def spectator_look(watcher: Page, people: list[Page], board: int) -> tuple[set[str], set[str]]:
    """The card names on the spectator's screen and those of the cards in the people's
    hands (from the server, not from the pages), both at one position: looked at again
    while the game moves on (a computer player's turn).  A finished trick still on show
    is waited out first: its cards are a past trick's, and may have been dealt to someone
    again since."""
    for _ in range(100):
        now = people[0].context.request.get(f"/api/tables/{board}").json()["event"]
        watcher.wait_for_function(
            """n => { const d = document.querySelector('.table-page').dataset;
                      return Number(d.event) >= n && d.held === ''; }""", arg=now)
        shows = shown(watcher, "event")
        seen = card_labels(watcher)
        views = [page.context.request.get(f"/api/tables/{board}").json() for page in people]
        if shown(watcher, "event") == shows and shown(watcher, "held") == "" and \
                all(str(table["event"]) == shows for table in views):
            return seen, {card_name(card) for table in views
                          for card in table["view"]["hands"][table["view"]["seat"]] or []}
    raise AssertionError("the spectator's screen and the table never stood still together")


def test_two_players_and_a_spectator(server: str, browser: Browser) -> None:
    ann, bob = signed_up(server, "ann"), signed_up(server, "bob")
    ann_page = signed_in(browser, server, ann).new_page()
    bob_page = signed_in(browser, server, bob, width=390, height=844).new_page()
    watcher = signed_in(browser, server).new_page()
    errors = [watch_errors(p) for p in (ann_page, bob_page, watcher)]
    frames = record_frames(watcher)
    # Potomac, seat 2 deals: ann bids first, then bob, then the computer.
    board = new_table(ann_page.context, "potomac", [ann, bob, "bot:basic"], schedule=[2, 1],
                      first_dealer=-1)
    assert bob_page.context.request.post(f"/api/tables/{board}/join", data={}).ok
    for page in (ann_page, bob_page, watcher):
        open_table(page, board)

    # ann bids; bob sees it without reloading.
    first = ann_page.locator(f"{MY_CHOICES}").first.get_attribute("data-action")
    assert click_and_wait(ann_page, f'.actions.my-turn [data-action="{first}"]') == ""
    bob_page.wait_for_function(f"() => document.querySelector('.plate[data-seat=\"0\"] .stat')"
                               f".innerText.startsWith('bid {first}')")
    # Potomac: ann may change her bid until bob bids, and bob sees the change.
    change = ann_page.locator(".actions:not(.my-turn) .bids [data-action]").first
    other = change.get_attribute("data-action")
    assert other != first
    assert click_and_wait(ann_page, f'.actions:not(.my-turn) [data-action="{other}"]') == ""
    bob_page.wait_for_function(f"() => document.querySelector('.plate[data-seat=\"0\"] .stat')"
                               f".innerText.startsWith('bid {other}')")
    assert plate(watcher, 0).startswith(f"bid {other}")

    # Chat reaches the other player.
    ann_page.locator("#chat-toggle").click()
    ann_page.locator("#chat-text").fill("good luck, bob")
    ann_page.locator("#chat-form button").click()
    bob_page.locator("#chat-log li", has_text="good luck, bob").wait_for(state="attached")

    spectator_checks = 0
    for _ in range(600):
        if game_over(ann_page):
            break
        # At every position the people stop at (bidding, naming trump, playing).
        seen, secret = spectator_look(watcher, [ann_page, bob_page], board)
        assert not seen & secret, f"the spectator sees {seen & secret}"
        spectator_checks += 1
        if not any([act_once(ann_page), act_once(bob_page)]):
            ann_page.wait_for_timeout(40)
    assert game_over(ann_page)
    bob_page.locator(".game-over").wait_for()
    watcher.locator(".game-over").wait_for()
    game = engine_game(ann_page, board)
    for page in (ann_page, bob_page, watcher):
        assert sheet_totals(page) == list(game.scores)
    assert spectator_checks > 3

    # Every frame the spectator got: no hand but empty ones, no legal action, no seat.
    assert frames
    states = [json.loads(f)["table"] for f in frames if json.loads(f)["type"] == "state"]
    assert states
    for table in states:
        view = table["view"]
        if view is not None:
            assert view["seat"] is None
            assert all(hand is None for hand in view["hands"]), view["hands"]
            assert view["legal_actions"] == []
    assert watcher.locator("[data-action]").count() == 0
    assert errors == [[], [], []]


def test_reload_comes_back_to_the_same_position(server: str, browser: Browser) -> None:
    me = signed_up(server)
    page = signed_in(browser, server, me).new_page()
    board = new_table(page.context, "standard", [me, "bot:basic", "bot:basic"],
                      schedule=[3, 4])
    open_table(page, board)
    for _ in range(300):  # into the play, with cards already played this hand
        if shown(page, "phase") == "play" and page.locator(".hand .card.playable").count() \
                and len(my_hand(page)) < 3:
            if shown(page, "held") == "":
                break
            page.wait_for_timeout(40)  # the last trick is still on show
            continue
        if not act_once(page):
            page.wait_for_timeout(40)
    before = (my_hand(page), shown(page, "nextMove"), [plate(page, s) for s in range(3)],
              page.locator(".trick-card").count())
    assert before[0] and shown(page, "phase") == "play"
    page.reload()
    page.wait_for_selector(".table-page[data-event]")
    page.locator(".hand .card.playable").first.wait_for()
    after = (my_hand(page), shown(page, "nextMove"), [plate(page, s) for s in range(3)],
             page.locator(".trick-card").count())
    assert after == before

    # Cards are named for assistive tools as people say them.
    for card in my_hand(page):
        assert page.locator(f'.hand [data-action="{card}"]').get_attribute(
            "aria-label") == card_name(card)
    # The last trick, on demand: one card from each player, the winner marked.
    page.get_by_role("button", name="Last trick").click()
    dialog = page.locator("#last-dialog")
    assert dialog.locator(".last-trick li").count() == 3
    assert dialog.locator(".last-trick li.winning").count() == 1
    dialog.get_by_role("button", name="Close").click()

    # The hint names one of the legal choices, with a reason, and puts the focus on it;
    # the keyboard plays it.
    page.get_by_role("button", name="Hint").click()
    notice = page.locator("#notice.hint")
    notice.wait_for()
    assert notice.inner_text().startswith("Hint: play the ")
    hinted = page.locator(".hand .card.playable.hinted")
    assert hinted.count() == 1
    card = hinted.get_attribute("data-action")
    assert page.evaluate("document.activeElement.dataset.action") == card
    page.keyboard.press("Enter")
    page.wait_for_function(
        "c => !document.querySelector(`.hand [data-action='${c}']`)", arg=card)


def test_a_stale_second_tab_is_refused_then_brought_up_to_date(server: str,
                                                               browser: Browser) -> None:
    me = signed_up(server)
    context = signed_in(browser, server, me)
    board = new_table(context, "standard", [me, "bot:basic"], schedule=[2])
    first = context.new_page()
    open_table(first, board)
    first.locator(MY_CHOICES).first.wait_for()
    # The second tab hears nothing live (its socket goes nowhere), so it falls behind.
    second = context.new_page()
    second.route_web_socket("**/live*", lambda ws: None)
    open_table(second, board)
    second.locator(MY_CHOICES).first.wait_for()
    assert shown(second, "nextMove") == shown(first, "nextMove")

    stale = int(shown(second, "nextMove"))
    assert click_and_wait(first, MY_CHOICES) == ""
    moved_on = int(shown(first, "nextMove"))
    notice = click_and_wait(second, MY_CHOICES)
    assert "brought up to date" in notice
    # Refused, nothing applied twice: the server took exactly the first tab's move...
    assert context.request.get(f"/api/tables/{board}").json()["next_move"] >= moved_on
    # ...and the second tab now shows at least that position, without a reload.
    second.wait_for_function(
        "n => Number(document.querySelector('.table-page').dataset.nextMove) >= n", arg=moved_on)
    assert int(shown(second, "nextMove")) > stale


def test_a_dropped_connection_resumes_after_the_last_event(server: str,
                                                          browser: Browser) -> None:
    me = signed_up(server)
    page = signed_in(browser, server, me).new_page()
    board = new_table(page.context, "nullo", [me, "bot:basic", "bot:basic"], schedule=[3])
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/live*", through)
    open_table(page, board)
    page.locator(MY_CHOICES).first.wait_for()
    assert act_once(page)
    before = int(shown(page, "event"))
    sockets[0].close()  # the network drops; the computer players go on moving
    page.wait_for_function("() => !document.querySelector('#link').hidden")
    page.wait_for_function("() => document.querySelector('#link').hidden")
    assert len(sockets) == 2
    after = int(sockets[1].url.split("after=")[1])
    assert after >= before  # resumed from the last event it had, not from the start
    server_state = page.context.request.get(f"/api/tables/{board}").json()
    page.wait_for_function(
        "n => Number(document.querySelector('.table-page').dataset.event) >= n",
        arg=server_state["event"])
