"""Several ``blackout serve`` processes on one database: a move made through one reaches
the WebSocket clients of the other, computer players move once per turn, and a process
killed with SIGKILL mid-game loses no acknowledged move (its clients carry on through the
other process)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import httpx

from .live import Player, ServerProcess, ServerThread, Watcher, open_services
from .play import mover, play_out, seat_table

PLAYED = ("bid", "bid_changed", "trump", "card")


def test_a_move_through_one_process_reaches_the_other(db_url, services, tokens):
    with ServerProcess(db_url) as a, ServerProcess(db_url) as b:
        ann, bob = Player(a.url, "ann", tokens["ann"]), Player(b.url, "bob", tokens["bob"])
        board = ann.create("standard", ["ann", "bot:basic", "bob", "bot:random"],
                           {"schedule": [2, 3]})
        bob.ok("POST", f"/api/tables/{board}/join", json={})
        on_a = Watcher(a.ws_url, board)
        on_b = Watcher(b.ws_url, board, token=bob.token)
        play_out({"ann": ann, "bob": bob}, board, random.Random(5))
        final = ann.table(board)["event"]
        for watcher in (on_a, on_b):
            watcher.wait_for_state(final)
            watcher.close()
    logged = services.queries.events(board, 0)
    for watcher in (on_a, on_b):
        assert [(m["n"], m["event"]) for m in watcher.events()] == \
            [(row["n"], row["event"]) for row in logged]
    assert_each_seat_played_once_per_trick(logged, players=4)


def test_a_move_made_elsewhere_reaches_a_socket_after_another_socket_read_it(
        server: ServerThread, services, db_url, players):
    """A move committed by another process (here: other services on the same database;
    on SQLite this server's bus does not hear them) is read by a second socket opening on
    the board before the poll looks; the first socket must still be told.  (The poll once compared
    the database with what the board's sockets had read, not with what they were told,
    and the first socket waited for a commit that never came.)"""
    ann, bob = players["ann"], players["bob"]
    board = seat_table(ann, {"ann": ann, "bob": bob}, "standard", {"schedule": [3]},
                       ["ann", "bob"])
    first = Watcher(server.ws_url, board, token=ann.token)
    first.wait_for_state(ann.table(board)["event"])
    elsewhere = open_services(db_url)
    try:
        someone = mover({"ann": ann, "bob": bob}, board)
        assert someone is not None
        person, state = someone
        elsewhere.tables.move(board, person.userid, state["view"]["legal_actions"][0],
                              state["next_move"])
        second = Watcher(server.ws_url, board)  # reads the new event before the poll does
        now = ann.table(board)["event"]
        second.wait_for_state(now)
        first.wait_for_state(now)
    finally:
        elsewhere.close()
    for watcher in (first, second):
        watcher.close()
    logged = [row["n"] for row in services.queries.events(board, 0)]
    assert [m["n"] for m in first.events()] == logged and logged[-1] == now


def assert_each_seat_played_once_per_trick(logged: list[dict[str, Any]], players: int):
    """Computer players served by two runners still make exactly one move per turn."""
    cards: list[int] = []
    for row in logged:
        event = row["event"]
        if event["type"] == "card":
            cards.append(event["seat"])
        elif event["type"] == "trick":
            assert sorted(cards) == list(range(players)), cards
            cards = []
        elif event["type"] == "hand_dealt":
            bidders: list[int] = []
        elif event["type"] == "bid":
            bidders.append(event["seat"])
            assert len(bidders) == len(set(bidders)), bidders
    assert logged[-1]["event"]["type"] == "game_over"


def test_kill_9_mid_game_loses_no_acknowledged_move(db_url, services, tokens):
    boards = 3
    with ServerProcess(db_url) as a, ServerProcess(db_url) as b:
        tables = []
        for i in range(boards):
            ann, bob = Player(a.url, "ann", tokens["ann"]), Player(a.url, "bob", tokens["bob"])
            board = ann.create("standard", ["ann", "bob"], {"schedule": [3, 3]})
            bob.ok("POST", f"/api/tables/{board}/join", json={})
            tables.append(Table(board, {"ann": ann, "bob": bob}, a, b, random.Random(i)))
        threads = [threading.Thread(target=table.play) for table in tables]
        for thread in threads:
            thread.start()
        while sum(len(t.accepted) for t in tables) < 4 * boards:
            time.sleep(0.01)
        a.kill()
        for thread in threads:
            thread.join(120)
        assert all(t.error is None for t in tables), [t.error for t in tables]
        for table in tables:
            assert table.switched
            logged = services.queries.events(table.board, 0)
            assert logged[-1]["event"]["type"] == "game_over"
            played = [(row["event"]["seat"], str(row["event"].get("card") or
                                                 row["event"].get("bid")))
                      for row in logged if row["event"]["type"] in ("bid", "card")]
            assert_subsequence(table.accepted, played)
            # The stream, resumed on the other process with after=N, has every event once.
            assert [m["n"] for m in table.events] == [row["n"] for row in logged]


def assert_subsequence(accepted: list[tuple[int, str]], played: list[tuple[int, str]]):
    """Every acknowledged move is in the log, in order (a move whose answer was lost when
    the process died may be there too)."""
    rest = iter(played)
    for move in accepted:
        assert any(move == entry for entry in rest), (move, accepted, played)


class Table:
    """Two people playing one board through process ``a``, moving to ``b`` when ``a``
    stops answering; a WebSocket watcher that reconnects likewise, with after=N."""

    def __init__(self, board: int, people: dict[str, Player], a: ServerProcess,
                 b: ServerProcess, rng: random.Random) -> None:
        self.board, self.people, self.a, self.b, self.rng = board, people, a, b, rng
        self.accepted: list[tuple[int, str]] = []  # (seat, action) answered 200
        self.events: list[dict[str, Any]] = []
        self.switched = False
        self.error: BaseException | None = None

    def play(self) -> None:
        try:
            watcher = Watcher(self.a.ws_url, self.board)
            while not self._over():
                try:
                    self._move()
                except httpx.TransportError:
                    self._switch()
            final = self.people["ann"].table(self.board)["event"]
            if not self.switched:
                return
            watcher = self._resume(watcher)
            watcher.wait_for_state(final)
            watcher.close()
            self.events += watcher.events()
        except BaseException as exc:  # reported by the test thread
            self.error = exc

    def _over(self) -> bool:
        try:
            return self.people["ann"].table(self.board)["status"] == "over"
        except httpx.TransportError:
            self._switch()
            return False

    def _move(self) -> None:
        for person in self.people.values():
            state = person.table(self.board)
            view = state["view"]
            if view["to_move"] == view["seat"] and view["legal_actions"]:
                action = self.rng.choice(view["legal_actions"])
                answer = person.move(self.board, action, state["next_move"])
                if answer.status_code == 200:
                    self.accepted.append((view["seat"], action))
                else:
                    assert answer.status_code == 409, answer.text
                return

    def _switch(self) -> None:
        if not self.switched:
            self.switched = True
            self.people = {name: Player(self.b.url, name, p.token)
                           for name, p in self.people.items()}

    def _resume(self, watcher: Watcher) -> Watcher:
        """The old socket died with its process: reconnect to ``b`` after the last event."""
        watcher.close()
        self.events += watcher.events()
        last = self.events[-1]["n"] if self.events else 0
        return Watcher(self.b.ws_url, self.board, after=last)


def test_workers_serve_the_same_tables(db_url, backend, services, tokens, capsys):
    """``--workers 2`` on PostgreSQL: the requests of one game land on either worker and
    the WebSocket still gets every event once.  SQLite cannot tell one process of another's
    commits, so there the option is refused in one line."""
    if backend == "sqlite":
        from blackout.cli.main import main

        assert main(["serve", "--db", db_url, "--workers", "2"]) == 2
        assert "needs a PostgreSQL database" in capsys.readouterr().err
        return
    with ServerProcess(db_url, workers=2) as server:
        ann, bob = (Player(server.url, name, tokens[name]) for name in ("ann", "bob"))
        board = ann.create("standard", ["ann", "bob", "bot:basic"], {"schedule": [2]})
        bob.ok("POST", f"/api/tables/{board}/join", json={})
        watcher = Watcher(server.ws_url, board)
        play_out({"ann": ann, "bob": bob}, board, random.Random(9))
        watcher.wait_for_state(ann.table(board)["event"])
        watcher.close()
    logged = services.queries.events(board, 0)
    assert [m["n"] for m in watcher.events()] == [row["n"] for row in logged]
    assert_each_seat_played_once_per_trick(logged, players=3)
