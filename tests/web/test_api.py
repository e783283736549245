"""The HTTP API against a real uvicorn server: sessions, errors, full games of every
preset with people and computer players, and refused requests that change nothing."""

from __future__ import annotations

import random
import re
import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest

from blackout.service import Services

from .conftest import BACKENDS
from .live import PASSWORDS, WAIT, Player, ServerThread, Watcher
from .play import SHORT_GAMES, mover, play_out, seat_table


def test_accounts_sessions_and_the_cookie(server):
    http = httpx.Client(base_url=server.url)
    answer = http.post("/api/accounts", json={"userid": "ed", "email": "ed@example.org",
                                               "password": "ed-pw-123"})
    assert answer.status_code == 201 and answer.json() == {"userid": "ed"}
    again = http.post("/api/accounts", json={"userid": "ed", "email": "e@example.org",
                                              "password": "ed-pw-123"})
    assert 400 <= again.status_code < 500 and again.json()["error"]
    assert http.get("/api/me").status_code == 401

    wrong = http.post("/api/session", json={"userid": "ed", "password": "nope"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "unauthorized"
    login = http.post("/api/session", json={"userid": "ed", "password": "ed-pw-123"})
    assert login.status_code == 200
    token = login.json()["token"]
    cookie = login.headers["set-cookie"].lower()
    assert "blackout_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    # The cookie (kept by the client) and the bearer token both say who is asking.
    assert http.get("/api/me").json() == {"userid": "ed"}
    bearer = httpx.get(f"{server.url}/api/me", headers={"Authorization": f"Bearer {token}"})
    assert bearer.json() == {"userid": "ed"}

    assert http.delete("/api/session").status_code == 204
    assert http.get("/api/me").status_code == 401
    revoked = httpx.get(f"{server.url}/api/me", headers={"Authorization": f"Bearer {token}"})
    assert revoked.status_code == 401 and revoked.json()["error"] == "unauthorized"


@pytest.mark.parametrize(("variant", "options", "seats"), SHORT_GAMES,
                         ids=[game[0] for game in SHORT_GAMES])
def test_a_full_game_of_every_preset(server, services, players, variant, options, seats):
    people = {name: players[name] for name in seats if name in players}
    board = seat_table(players[seats[0] if seats[0] in players else "ann"], people,
                       variant, options, seats)
    spectator = Watcher(server.ws_url, board)
    accepted = play_out(people, board, random.Random(7))
    final = players["ann"].table(board)
    assert final["status"] == "over" and final["result"]["winners"]
    spectator.wait_for_state(final["event"])
    spectator.close()

    # Every event once, in order, as the log has them.
    logged = services.queries.events(board, 0)
    assert [m["n"] for m in spectator.events()] == [row["n"] for row in logged]
    assert [m["event"] for m in spectator.events()] == [row["event"] for row in logged]
    assert logged[-1]["event"]["type"] == "game_over"
    # Every accepted move is in the record, at its number.
    record = players["ann"].ok("GET", f"/api/tables/{board}/record")
    text = str(record)
    for _number, _userid, action in accepted:
        assert action in text


def test_refused_requests_answer_clearly_and_change_nothing(server, services, players):
    ann, bob = players["ann"], players["bob"]
    board = seat_table(ann, players, "standard", {"schedule": [2, 1]}, ["ann", "bob"])
    before = ann.table(board)
    view = before["view"]
    mover = ann if view["to_move"] == view["seat"] else bob
    waiter = bob if mover is ann else ann
    number = before["next_move"]
    legal = mover.table(board)["view"]["legal_actions"]

    def refused(person, method, path, status, error, **kwargs):
        answer = person.http.request(method, path, **kwargs)
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert body["error"] == error and body["message"], body
        assert "Traceback" not in answer.text
        return body

    moves = f"/api/tables/{board}/moves"
    refused(mover, "POST", moves, 409, "stale", json={"action": legal[0], "expect": number + 1})
    body = refused(waiter, "POST", moves, 409, "stale", json={"action": legal[0],
                                                            "expect": number})
    assert body["next_move"] == number
    illegal = "AS" if view["phase"] == "bid" else "99"
    assert illegal not in legal
    refused(mover, "POST", moves, 422, "illegal", json={"action": illegal, "expect": number})
    refused(mover, "POST", moves, 422, "bad_request", json={"action": legal[0],
                                                            "expect": "x"})
    refused(mover, "POST", moves, 422, "bad_request", content=b"{not json",
            headers={"content-type": "application/json"})
    refused(mover, "POST", moves, 422, "bad_request", json={"action": "7\x00",
                                                            "expect": number})
    anonymous = Player(server.url, "nobody", None)
    refused(anonymous, "POST", moves, 401, "unauthorized", json={"action": legal[0]})
    stranger = Player(server.url, "nobody", "not-a-token")
    refused(stranger, "POST", moves, 401, "unauthorized", json={"action": legal[0]})
    refused(mover, "POST", "/api/tables/999999/moves", 404, "not_found",
            json={"action": legal[0], "expect": number})
    refused(mover, "GET", "/api/tables/99999999999999999999", 422, "bad_request")
    refused(mover, "GET", "/api/no-such-route", 404, "not_found")
    refused(mover, "POST", "/api/tables", 400, "bad_request",
            json={"variant": "no-such-game", "options": {}, "seats": ["ann", "open"]})
    refused(players["cy"], "POST", f"/api/tables/{board}/join", 403, "forbidden", json={})
    refused(stranger, "GET", "/api/players/nobody-at-all", 404, "not_found")
    assert ann.table(board) == before
    assert services.queries.events(board, 0)[-1]["n"] == before["event"]

    # A spectator reads the table without a login and sees nobody's cards.
    public = anonymous.table(board)
    assert public["view"]["seat"] is None and public["you"] in (None, {})
    assert public["view"]["hands"] == [None] * len(public["seats"])
    assert public["view"]["legal_actions"] == []


def test_login_lockout_answers_429(server, players):
    http = httpx.Client(base_url=server.url)
    codes = [http.post("/api/session", json={"userid": "cy", "password": "wrong"}).status_code
             for _ in range(7)]
    assert codes[0] == 401 and codes[-1] == 429
    locked = http.post("/api/session", json={"userid": "cy", "password": PASSWORDS["cy"]})
    assert locked.status_code == 429 and locked.json()["error"] == "locked"


def test_every_route_of_the_api_document_is_served(server):
    """docs/api.md's route table and the OpenAPI of the running server agree."""
    document = (Path(__file__).parents[2] / "docs" / "api.md").read_text()
    documented = set(re.findall(r"^\| `(GET|POST|DELETE|WS) (/[^`? ]*)[^`]*`", document, re.M))
    served = httpx.get(f"{server.url}/openapi.json").json()["paths"]
    offered = {(method.upper(), path) for path, methods in served.items() for method in methods}
    assert {route for route in documented if route[0] != "WS"} == offered
    assert ("WS", "/api/tables/{board}/live") in documented
    for page in ("/", "/tables/101"):
        answer = httpx.get(server.url + page)
        assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
    assert httpx.get(f"{server.url}/docs").status_code == 200
    assert httpx.get(f"{server.url}/static/style.css").status_code == 200


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_move_waits_for_another_writer_while_the_server_answers_everyone(
        server, players, db_url):
    """SQLite: a move sent while another process holds the write lock (a `blackout move`
    in a terminal) waits for it in a worker thread and is then applied; meanwhile the
    server goes on answering (its event loop never waits for the lock)."""
    ann, bob = players["ann"], players["bob"]
    board = seat_table(ann, players, "standard", {"schedule": [3]}, ["ann", "bob"])
    person, state = mover({"ann": ann, "bob": bob}, board)
    other = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None,
                            check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    answers: list[httpx.Response] = []
    sender = threading.Thread(target=lambda: answers.append(person.move(
        board, state["view"]["legal_actions"][0], state["next_move"])))
    sender.start()
    time.sleep(0.3)
    # While the move waits: reads and other requests are answered (they would time out
    # if the loop were stuck behind the lock).
    assert bob.table(board)["next_move"] == state["next_move"]
    assert ann.ok("GET", "/api/variants")
    assert not answers  # still waiting for the other writer
    other.execute("COMMIT")
    other.close()
    sender.join()
    assert answers[0].status_code == 200, answers[0].text
    assert answers[0].json()["next_move"] == state["next_move"] + 1
    assert bob.table(board)["next_move"] == state["next_move"] + 1


@pytest.mark.parametrize("backend", ["postgresql"] if "postgresql" in BACKENDS else [],
                         indirect=True)
def test_a_move_waits_for_a_row_lock_while_the_server_answers_everyone(server, players,
                                                                       db_url):
    """PostgreSQL: a move sent while another process holds the board's row (a mail move
    mid-transaction) waits for it on the event loop, through the asynchronous driver,
    and is then applied; meanwhile the server goes on answering everyone."""
    from sqlalchemy import create_engine, text

    ann, bob = players["ann"], players["bob"]
    board = seat_table(ann, players, "standard", {"schedule": [3]}, ["ann", "bob"])
    person, state = mover({"ann": ann, "bob": bob}, board)
    other = create_engine(db_url)
    answers: list[httpx.Response] = []
    with other.connect() as holder:
        holder.execute(text("SELECT id FROM games WHERE id = :b FOR UPDATE"), {"b": board})
        sender = threading.Thread(target=lambda: answers.append(person.move(
            board, state["view"]["legal_actions"][0], state["next_move"])))
        sender.start()
        time.sleep(0.3)
        assert bob.table(board)["next_move"] == state["next_move"]  # answered meanwhile
        assert ann.ok("GET", "/api/variants")
        assert not answers  # still waiting for the row
        holder.commit()
    other.dispose()
    sender.join()
    assert answers[0].status_code == 200, answers[0].text
    assert answers[0].json()["next_move"] == state["next_move"] + 1
    assert bob.table(board)["next_move"] == state["next_move"] + 1


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_bot_turn_due_while_another_writer_holds_the_lock_waits_for_it(db_url, tokens):
    """SQLite: a computer player's turn that falls due while another process holds the
    write lock is played once the lock is free, and the server answers everyone while it
    waits (the runner waits in a worker thread, never on the event loop)."""
    services = Services.open(url=db_url, bot_pace=1.0, bot_think=0.05, bot_iterations=40)
    with ServerThread(services) as server:
        ann = Player(server.url, "ann", tokens["ann"])
        board = ann.create("standard", ["ann", "bot:basic"], {"schedule": [3]})
        deadline = time.monotonic() + WAIT
        while (found := mover({"ann": ann}, board)) is None:  # the bot may open
            assert time.monotonic() < deadline, "ann never got a turn"
            time.sleep(0.05)
        _, state = found
        assert ann.move(board, state["view"]["legal_actions"][0],
                        state["next_move"]).status_code == 200
        other = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None,
                                check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")  # before the bot's pace (1 s) is over
        time.sleep(2.0)  # the bot's turn is due meanwhile
        held = ann.table(board)  # answered while the lock is held
        assert ann.ok("GET", "/api/variants")
        other.execute("COMMIT")
        other.close()
        assert held["next_move"] == state["next_move"] + 1  # the bot has not moved yet
        while ann.table(board)["next_move"] == held["next_move"]:
            assert time.monotonic() < deadline + WAIT, "the bot never moved"
            time.sleep(0.05)
        ann.close()
    services.close()
