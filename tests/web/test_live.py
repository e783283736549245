"""The event stream and concurrency, against a real server with real clients: events in
order and each once, reconnecting with ``after=N``, many clients racing on one move
number, and no hidden card in any payload a seat or spectator receives."""

from __future__ import annotations

import random
import re
import threading
import time
from typing import Any

from .live import Watcher
from .play import mover, play_out, seat_table


def test_reconnect_gets_exactly_the_missed_events(server, services, players):
    ann, bob = players["ann"], players["bob"]
    board = seat_table(ann, players, "standard", {"schedule": [3]}, ["ann", "bob"])
    first = Watcher(server.ws_url, board, token=ann.token)
    start = first.wait_for_state(0)
    assert start["you"]["userid"] == "ann" and start["view"]["hands"][start["you"]["seat"]]
    rng = random.Random(3)
    people = {"ann": ann, "bob": bob}
    for _ in range(3):
        person, state = mover(people, board)
        assert person.move(board, rng.choice(state["view"]["legal_actions"]),
                           state["next_move"]).status_code == 200
    seen = first.wait_for_state(ann.table(board)["event"])
    first.close()
    last = first.events()[-1]["n"]
    assert last == seen["event"]

    for _ in range(3):  # made while ann is away
        person, state = mover(people, board)
        assert person.move(board, rng.choice(state["view"]["legal_actions"]),
                           state["next_move"]).status_code == 200
    now = ann.table(board)["event"]
    again = Watcher(server.ws_url, board, after=last, token=ann.token)
    assert again.wait_for_state(now)["view"] == ann.table(board)["view"]
    missed = [row for row in services.queries.events(board, 0) if row["n"] > last]
    assert [(m["n"], m["event"]) for m in again.events()] == \
        [(row["n"], row["event"]) for row in missed]
    # Then the live ones, still each once.
    play_out(people, board, rng)
    again.wait_for_state(ann.table(board)["event"])
    again.close()
    numbers = [m["n"] for m in first.events() + again.events()]
    assert numbers == [row["n"] for row in services.queries.events(board, 0)]


def test_racing_clients_get_exactly_one_move_per_number(server, services, players):
    """Eight clients per person fire at each move number at once: one 200, the rest 409,
    and the log holds exactly the accepted moves."""
    people = {name: players[name] for name in ("ann", "bob", "cy")}
    board = seat_table(players["ann"], people, "standard", {"schedule": [3, 2]},
                       ["ann", "bob", "cy"])
    rng = random.Random(11)
    accepted: list[tuple[int, str]] = []
    for _ in range(12):
        someone = mover(people, board)
        if someone is None:
            break
        person, state = someone
        number = state["next_move"]
        legal = state["view"]["legal_actions"]
        answers: list[tuple[int, str]] = []
        start = threading.Barrier(8 * len(people))

        def fire(who, action, number=number, answers=answers, start=start):
            start.wait()
            answer = who.move(board, action, number)
            answers.append((answer.status_code, action))

        threads = [threading.Thread(target=fire, args=(who, rng.choice(legal)))
                   for who in people.values() for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        codes = sorted(code for code, _ in answers)
        assert codes.count(200) == 1 and set(codes) <= {200, 409}, codes
        winner = next(action for code, action in answers if code == 200)
        accepted.append((number, winner))
        assert person.table(board)["next_move"] == number + 1
    played = [row["event"] for row in services.queries.events(board, 0)
              if row["event"]["type"] in ("bid", "card", "trump")]
    assert [e.get("card") or e.get("bid") for e in played] == [a for _, a in accepted]


CARD = re.compile(r"^(10|[2-9JQKA])[CDHS]$")


def card_strings(payload: Any, skip: tuple[str, ...] = ()) -> set[str]:
    """Every string in the JSON payload that names a card (keys in ``skip`` left out)."""
    found: set[str] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key not in skip:
                found |= card_strings(value, skip)
    elif isinstance(payload, list):
        for value in payload:
            found |= card_strings(value, skip)
    elif isinstance(payload, str) and CARD.match(payload):
        found.add(payload)
    return found


# Parts of a state about finished hands: their turn-up cards may be dealt again since.
PAST = ("hands_played", "result")


def test_no_payload_shows_a_hidden_card(server, players):
    """Random all-human games of three presets (pbmserv's blind first hand included):
    every state over HTTP or WebSocket, to each seat and to a spectator, holds no card
    that seat may not see at that moment; events carry only played cards and turn-ups."""
    games = [("pbmserv", {"schedule": [1, 2]}, ["ann", "bob", "cy", "di"]),
             ("potomac", {"schedule": [2, 1]}, ["ann", "bob", "cy"]),
             ("nullo", {"schedule": [2]}, ["ann", "bob", "cy"])]
    for round_number, (variant, options, seats) in enumerate([*games, games[0]]):
        people = {name: players[name] for name in seats}
        board = seat_table(players[seats[0]], people, variant, options, seats)
        watchers = {name: Watcher(server.ws_url, board, token=p.token)
                    for name, p in people.items()}
        watchers[""] = Watcher(server.ws_url, board)  # a spectator
        check_every_payload(people, watchers, board, random.Random(round_number))


def check_every_payload(people, watchers, board, rng) -> None:
    hands_at: dict[int, dict[int, set[str]]] = {}  # event number -> seat -> its cards
    states: list[tuple[str, dict[str, Any]]] = []
    while True:
        now = {name: person.table(board) for name, person in people.items()}
        event = next(iter(now.values()))["event"]
        hands_at[event] = true_hands(now.values())
        states += [(name, state) for name, state in now.items()]
        record = next(iter(people.values())).ok("GET", f"/api/tables/{board}/record")
        if record.get("status") == "active":  # while it runs: the public part only
            assert "seed" not in record and "deals" not in record
            unplayed = set().union(*hands_at[event].values())
            assert not card_strings(record["view"], skip=PAST) & unplayed
        someone = mover(people, board)
        if someone is None:
            break
        person, state = someone
        action = rng.choice(state["view"]["legal_actions"])
        assert person.move(board, action, state["next_move"]).status_code == 200
    for name, watcher in watchers.items():
        watcher.wait_for_state(event)
        watcher.close()
        states += [(name, m["table"]) for m in watcher.messages if m["type"] == "state"]
        check_events(watcher.events(), hands_at)
    hidden_checked = 0
    for name, state in states:
        hands = hands_at[state["event"]]
        hidden = hidden_from(state, hands, name)
        found = card_strings(state, skip=PAST)
        assert not found & hidden, (name, state["event"], found & hidden)
        hidden_checked += len(hidden)
        seat = (state.get("you") or {}).get("seat")
        if state["view"] and seat is not None and not state["view"]["blind"]:
            assert hands.get(seat, set()) <= found  # the scan does see a seat's own cards
    assert hidden_checked > 100


def true_hands(states) -> dict[int, set[str]]:
    """Each seat's unplayed cards, from the views that show them."""
    hands: dict[int, set[str]] = {}
    for state in states:
        view = state["view"]
        for seat, hand in enumerate(view["hands"] if view else []):
            if hand is not None:
                hands[seat] = set(hand)
    return hands


def hidden_from(state: dict[str, Any], hands: dict[int, set[str]], name: str) -> set[str]:
    """The cards the reader of ``state`` may not see: the other seats' (a spectator: all;
    in the blind first hand of pbmserv, only the reader's own)."""
    view = state["view"]
    seat = state["you"]["seat"] if name and state.get("you") else None
    if view is None:
        return set().union(*hands.values()) if hands else set()
    if view.get("blind") and seat is not None:
        return set(hands.get(seat, set()))
    return set().union(*(cards for s, cards in hands.items() if s != seat))


def check_events(events: list[dict[str, Any]], hands_at) -> None:
    """Only a played card, a trick's cards or a turn-up card is ever in an event, and a
    turn-up is in nobody's hand."""
    played: set[str] = set()
    for message in events:
        event = message["event"]
        kind = event["type"]
        if kind == "card":
            played.add(event["card"])
        elif kind == "trick":
            assert set(event["cards"]) <= played, event
        elif kind == "hand_dealt" and event["turn_up"]:
            after = [n for n in hands_at if n >= message["n"]]
            if after:
                assert not any(event["turn_up"] in cards
                               for cards in hands_at[min(after)].values()), event
        rest = card_strings(event, skip=("card", "cards", "turn_up", "result"))
        assert not rest, (kind, rest)


def test_presence_follows_the_players_sockets(server, players):
    ann, bob = players["ann"], players["bob"]
    board = seat_table(ann, players, "standard", {"schedule": [2]}, ["ann", "bob"])

    def connected() -> dict[str, bool]:
        return {seat["player"]: seat["connected"] for seat in bob.table(board)["seats"]}

    assert connected() == {"ann": False, "bob": False}
    tabs = [Watcher(server.ws_url, board, token=ann.token) for _ in range(2)]
    for tab in tabs:  # the first state already shows ann at the table
        first = tab.wait_for_state(0)
        assert {s["player"]: s["connected"] for s in first["seats"]}["ann"] is True
    assert connected() == {"ann": True, "bob": False}
    tabs[0].close()  # ann still has the other tab open
    assert wait_until(lambda: connected() == {"ann": True, "bob": False})
    tabs[1].close()
    assert wait_until(lambda: connected() == {"ann": False, "bob": False})


def wait_until(condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_missing_board_is_one_error_message_and_a_close(server):
    watcher = Watcher(server.ws_url, 424242)
    assert wait_until(lambda: watcher.closed)
    assert [m["type"] for m in watcher.messages] == ["error"]
    assert watcher.messages[0]["error"] == "not_found"
    assert watcher.socket.close_code == 4404


def test_each_batch_is_read_once_for_all_of_a_boards_sockets(server, players):
    """Three sockets on one board (two seats, a spectator): after each move the board is
    taken once for all three (from the move's own commit, this process made it), and
    each gets only what its seat may see."""
    ann, bob = players["ann"], players["bob"]
    people = {"ann": ann, "bob": bob}
    board = seat_table(ann, people, "standard", {"schedule": [3]}, ["ann", "bob"])
    hub = server.server.config.app.state.hub
    watchers = {"ann": Watcher(server.ws_url, board, token=ann.token),
                "bob": Watcher(server.ws_url, board, token=bob.token),
                None: Watcher(server.ws_url, board)}
    assert wait_until(lambda: all(s["connected"] for s in ann.table(board)["seats"]))
    now = ann.table(board)["event"]
    for watcher in watchers.values():
        watcher.wait_for_state(now)
    time.sleep(0.2)
    feed = hub.feeds[board]
    before, read_before = feed.boards, feed.reads
    rng = random.Random(5)
    moves = 6
    for _ in range(moves):
        person, state = mover(people, board)
        assert person.move(board, rng.choice(state["view"]["legal_actions"]),
                           state["next_move"]).status_code == 200
        now = ann.table(board)["event"]
        for watcher in watchers.values():
            watcher.wait_for_state(now)
    boards, reads = feed.boards - before, feed.reads - read_before
    assert 1 <= boards <= moves + 1, boards  # not one per socket (three a move)
    assert reads <= boards  # the moves were committed here: mostly none is read again
    for userid, watcher in watchers.items():
        table = watcher.last_state()["table"]
        assert table["event"] == now
        view = table["view"]
        mine = None if userid is None else table["you"]["seat"]
        assert view["seat"] == mine
        for seat, hand in enumerate(view["hands"]):
            assert (hand is not None) == (seat == mine), (userid, seat)
    for watcher in watchers.values():
        watcher.close()
