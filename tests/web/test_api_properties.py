"""A stateful property of the HTTP API and the WebSocket stream, against a real uvicorn
server (SQLite, and PostgreSQL with ``BLACKOUT_TEST_POSTGRES_URL``) with real clients.

Each example seats a short table of a random preset (people and perhaps a computer
player) and opens a WebSocket for every seat, one for a spectator and one with a bogus
token.  Random clients then post moves: the person to move or someone else, a legal
action or not, with the right, a stale, a future or no ``expect`` number; now and then
several clients race on one number, or a seat's socket drops and reconnects with
``after=`` its last number.  Properties:

* a 200 is exactly one stored move at the number it claimed, and every stored person's
  move got a 200; racing clients on one number get exactly one 200;
* a 409 or 422 changed nothing (the event log, the moves, the caller's table state);
* every socket (reconnections joined up) received the board's event log exactly: each
  event once, in order, no gap; the moves in it are the stored moves, in order;
* every table state a socket or a reply carried is the core's view of the stored game at
  that move number, for that seat or for a spectator: no hidden card anywhere.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from types import SimpleNamespace
from typing import Any

import httpx
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test
from sqlalchemy import select

from blackout.core import codec
from blackout.core.actions import parse_action
from blackout.core.game import Game
from blackout.core.rules import PRESETS, variant
from blackout.service import tables as tables_module
from blackout.storage import GameRow, MoveRow

from .live import WAIT, Player, ServerThread, Watcher

PEOPLE = ("ann", "bob", "cy", "di")
#: Short games of every preset (a few dozen moves at most).
SHORT: dict[str, dict[str, Any]] = {
    "pbmserv": {"schedule": [1, 2]},
    "standard": {"schedule": [2, 1]},
    "nullo": {"schedule": [2]},
    "partnership": {"max_cards": 2, "max_hands": 1},
    "potomac": {"schedule": [2, 1]},
}
NONSENSE = ["AS", "0", "7", "nil", "trump H", "pass", "hello", "13"]


def stored_game(services: Any, board: int, upto: int | None = None
                ) -> tuple[Game, list[MoveRow], GameRow]:
    """The board's game rebuilt by the core from its stored rows (first ``upto`` moves)."""
    with services.db.transaction() as session:
        row = session.get(GameRow, board)
        moves = list(session.scalars(select(MoveRow).where(MoveRow.game_id == board)
                                     .order_by(MoveRow.number)))
    game = Game.new(variant(row.variant, **json.loads(row.options)), json.loads(row.players),
                    seed=row.seed)
    for move in moves[:upto]:
        game.apply(parse_action(move.action), seat=move.seat)
    return game, moves, row


def move_events(events: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    """(kind, seat, what) of every event a move makes (auto-played cards are not moves)."""
    out = []
    for event in events:
        kind = event["type"]
        if kind in ("bid", "bid_changed"):
            out.append(("bid", event["seat"], event["bid"]))
        elif kind == "trump":
            out.append(("trump", event["seat"], event["trump"]))
        elif kind == "card" and not event["auto"]:
            out.append(("card", event["seat"], event["card"]))
    return out


def as_event(seat: int, action: str) -> tuple[str, int, str]:
    """The (kind, seat, what) the move ``action`` of ``seat`` shows in the event log."""
    if action.startswith("trump "):
        return ("trump", seat, action.split()[1])
    try:
        return ("card", seat, str(codec.card_from_json(action)))
    except ValueError:
        return ("bid", seat, action)


class ApiMachine(RuleBasedStateMachine):
    server: ServerThread
    services: Any
    tokens: dict[str, str]

    def __init__(self) -> None:
        super().__init__()
        self.clients = {u: Player(self.server.url, u, t) for u, t in self.tokens.items()}
        self.stranger = Player(self.server.url, "nobody", "not-a-token")
        self.board = 0
        self.pass_bid = True
        self.names: list[str] = []
        self.watchers: dict[str, list[Watcher]] = {}
        self.accepted: list[tuple[int, int, str]] = []  # (number, seat, action) of 200s
        self.replies: list[tuple[int | None, dict[str, Any]]] = []  # (seat, table state)

    @initialize(name=st.sampled_from(sorted(SHORT)), data=st.data(),
                seed=st.integers(0, 2**32))
    def seat_table(self, name: str, data: st.DataObject, seed: int) -> None:
        # The server runs in this process: its tables' seeds (the deal, the computer
        # players' choices) come from the example's seed, so a failure replays and shrinks.
        luck = random.Random(seed)
        self._secrets = tables_module.secrets
        tables_module.secrets = SimpleNamespace(  # type: ignore[assignment,unused-ignore]
            randbits=luck.getrandbits, compare_digest=secrets.compare_digest,
            token_urlsafe=lambda size: f"invite-{luck.getrandbits(48):012x}")
        preset = PRESETS[name]
        self.pass_bid = variant(name, **SHORT[name]).pass_bid
        count = data.draw(st.integers(preset.min_players, min(preset.max_players, 4)))
        people = list(PEOPLE[:count])
        if data.draw(st.booleans(), label="a computer player"):
            people[data.draw(st.integers(1, count - 1))] = "bot:basic"
        ann = self.clients["ann"]
        self.board = ann.create(name, people, SHORT[name])
        for userid in people[1:]:
            if userid in self.clients:
                self.clients[userid].ok("POST", f"/api/tables/{self.board}/join", json={})
        self.names = people
        for userid in [u for u in people if u in self.clients] + ["spectator", "bogus"]:
            token = self.tokens.get(userid, "bogus-token" if userid == "bogus" else None)
            self.watchers[userid] = [Watcher(self.server.ws_url, self.board, token=token)]
        self.settle()

    def teardown(self) -> None:
        try:
            if self.board:
                self.check_streams()
        finally:
            if hasattr(self, "_secrets"):
                tables_module.secrets = self._secrets
            for sockets in self.watchers.values():
                for watcher in sockets:
                    watcher.close()
            for client in [*self.clients.values(), self.stranger]:
                client.close()

    # -- helpers ------------------------------------------------------------------------------

    def settle(self) -> dict[str, Any]:
        """Wait until no computer player is to move (the server's runner is done)."""
        deadline = time.monotonic() + WAIT * 2
        while True:
            state = self.services.queries.table(self.board, None)
            view = state["view"]
            if state["status"] != "active" or state["seats"][view["to_move"]]["kind"] == "human":
                return state
            assert time.monotonic() < deadline, "the computer players stopped"
            time.sleep(0.01)

    def snapshot(self, userid: str) -> Any:
        """What a refused request must leave as it was (sockets opening and closing
        change only who is connected, which is left out)."""
        _, moves, row = stored_game(self.services, self.board)
        table = self.services.queries.table(self.board, userid)
        for seat in table["seats"]:
            del seat["connected"], seat["away"]
        return (self.services.queries.events(self.board, 0),
                [(m.number, m.seat, m.action, m.kind) for m in moves], table, row.status)

    def post(self, client: Player, action: str, expect: int | None) -> httpx.Response:
        return client.move(self.board, action, expect)

    def canonical(self, action: str) -> str:
        try:
            return str(parse_action(action, self.pass_bid))
        except ValueError:
            return action

    def record_reply(self, answer: httpx.Response, seat: int | None) -> None:
        self.replies.append((seat, answer.json()))

    # -- rules --------------------------------------------------------------------------------

    @rule(data=st.data())
    def post_a_move(self, data: st.DataObject) -> None:
        state = self.settle()
        if state["status"] != "active":
            return
        view = state["view"]
        mover = self.names[view["to_move"]]
        userid = mover if data.draw(st.booleans(), label="the mover posts") else \
            data.draw(st.sampled_from(sorted(self.clients)), label="someone")
        mine = self.clients[userid].table(self.board)
        seat = mine["you"]["seat"]
        legal = mine["view"]["legal_actions"]
        action = data.draw(st.sampled_from(legal * 3 + NONSENSE if legal else NONSENSE),
                           label="action")
        following = state["next_move"]
        expect = data.draw(st.sampled_from([following, following, None, following - 1,
                                            following + 1, 0]), label="expect")
        before = self.snapshot(userid)
        answer = self.post(self.clients[userid], action, expect)
        action = self.canonical(action)  # "pass" is the bid 0 where the rules allow it
        if answer.status_code == 200:
            assert seat is not None and action in legal and expect in (following, None), \
                f"{userid} {action} #{expect} accepted"
            self.accepted.append((following, seat, action))
            self.record_reply(answer, seat)
            return
        assert answer.status_code in (403, 409, 422), answer.text
        body = answer.json()
        assert set(body) <= {"error", "message", "next_move"} and body["message"]
        if answer.status_code == 409:
            assert body["next_move"] == following
        assert self.snapshot(userid) == before, f"a {answer.status_code} changed something"
        if seat is not None and action in legal and expect in (following, None):
            raise AssertionError(f"a right move was refused: {answer.text}")

    @rule(data=st.data(), racers=st.integers(2, 4))
    def race(self, data: st.DataObject, racers: int) -> None:
        """Several clients of the mover post a legal move with the same right number (the
        same move: which one wins must not change the game, so an example replays)."""
        state = self.settle()
        if state["status"] != "active":
            return
        mover = self.names[state["view"]["to_move"]]
        mine = self.clients[mover].table(self.board)
        legal = mine["view"]["legal_actions"]
        actions = [data.draw(st.sampled_from(legal), label="racing action")] * racers
        following = state["next_move"]
        clients = [Player(self.server.url, mover, self.tokens[mover]) for _ in actions]
        answers: list[httpx.Response | None] = [None] * racers
        go = threading.Barrier(racers)

        def fire(i: int) -> None:
            go.wait(WAIT)
            answers[i] = self.post(clients[i], actions[i], following)

        threads = [threading.Thread(target=fire, args=(i,)) for i in range(racers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 2)
        for client in clients:
            client.close()
        codes = sorted(a.status_code for a in answers if a is not None)
        if 200 in codes:
            self.accepted.append((following, mine["you"]["seat"], actions[0]))
        losers = [409] * (racers - 1)
        assert codes == sorted([200, *losers]), [(a.status_code, a.text) for a in answers if a]

    @rule()
    def a_stranger_posts(self) -> None:
        """No session: 401, nothing changes."""
        self.settle()
        before = self.snapshot("ann")
        answer = self.post(self.stranger, "0", None)
        assert answer.status_code == 401
        assert self.snapshot("ann") == before

    @rule(data=st.data())
    def reconnect(self, data: st.DataObject) -> None:
        """A socket drops; its owner comes back with ``after=`` the last number it got."""
        userid = data.draw(st.sampled_from(sorted(self.watchers)), label="reconnects")
        sockets = self.watchers[userid]
        sockets[-1].close()
        after = max((m["n"] for w in sockets for m in w.events()), default=0)
        token = self.tokens.get(userid, "bogus-token" if userid == "bogus" else None)
        self.watchers[userid].append(Watcher(self.server.ws_url, self.board, after=after,
                                             token=token))

    @rule()
    def check_streams(self) -> None:
        """Every socket got the log exactly; every state it got is the core's view."""
        self.settle()
        events = self.services.queries.events(self.board, 0)
        _, moves, row = stored_game(self.services, self.board)
        log = [(e["n"], e["event"]) for e in events]
        # The moves: each 200 is stored at its number, each stored person's move was a 200.
        stored = {m.number: (m.seat, m.action, m.kind) for m in moves}
        assert [m.number for m in moves] == list(range(1, len(moves) + 1))
        for number, seat, action in self.accepted:
            assert stored[number][:2] == (seat, action), f"move #{number} was answered 200"
        people_moves = sorted(n for n, (_, _, kind) in stored.items() if kind == "player")
        assert people_moves == sorted(n for n, _, _ in self.accepted)
        assert move_events([e for _, e in log]) == [as_event(m.seat, m.action) for m in moves]
        for userid, sockets in self.watchers.items():
            sockets[-1].wait_for_state(row.last_event)
            got = [(m["n"], m["event"]) for w in sockets for m in w.events()]
            assert got == log, f"{userid}'s socket did not get the log exactly once"
            watching = None if userid in ("spectator", "bogus") else self.names.index(userid)
            for watcher in sockets:
                with watcher._changed:
                    states = [m for m in watcher.messages if m["type"] == "state"]
                for message in states:
                    self.check_state(watching, message["table"])
        for replied, table in self.replies:
            self.check_state(replied, table)
        self.replies.clear()

    def check_state(self, seat: int | None, table: dict[str, Any]) -> None:
        you = table["you"]
        assert (you["seat"] if you else None) == seat
        if table["view"] is None:
            return
        game, _, _ = stored_game(self.services, self.board, table["next_move"] - 1)
        expected = game.view(seat) if seat is not None else game.public_view()
        assert table["view"] == codec.view_to_json(expected), "a view shows what it may not"


def test_the_api_and_the_stream_keep_their_promises(server, services, tokens, backend) -> None:
    class Machine(ApiMachine):
        pass

    Machine.server, Machine.services, Machine.tokens = server, services, tokens
    run_state_machine_as_test(Machine, settings=settings(
        max_examples=5 if backend == "sqlite" else 3, stateful_step_count=25, deadline=None,
        suppress_health_check=list(HealthCheck), print_blob=True))
