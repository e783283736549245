"""The service's parts as the web front uses them (SERVICE_INTERFACE.md), against a real
database: sessions, tables, the event log, the bus, the runner, queries."""

from __future__ import annotations

import pytest

from blackout.service import Services, errors
from blackout.storage import Database


@pytest.fixture
def services(database: Database, clock, people) -> Services:
    parts = Services(database, clock=clock, bot_iterations=20, takeover_bot="bot:random")
    yield parts
    parts.bus.close()


def test_login_gives_an_opaque_token_stored_hashed_that_expires_and_is_revoked(
        services, database, clock):
    from sqlalchemy import text

    token = services.sessions.login("ann", "ann-pw", "127.0.0.1")
    assert services.sessions.userid_for(token) == "ann"
    with database.engine.connect() as connection:
        stored = connection.execute(text("SELECT * FROM sessions")).all()
    assert token not in repr(stored)
    clock.advance(days=29)
    assert services.sessions.userid_for(token) == "ann"  # used: the idle time restarts
    clock.advance(days=31)
    with pytest.raises(errors.Unauthorized):
        services.sessions.userid_for(token)
    again = services.sessions.login("ann", "ann-pw", "127.0.0.1")
    services.sessions.logout(again)
    with pytest.raises(errors.Unauthorized):
        services.sessions.userid_for(again)
    with pytest.raises(errors.Unauthorized):
        services.sessions.login("ann", "wrong", "127.0.0.1")


def test_a_table_fills_starts_and_is_played_by_people_and_bots(services):
    seen: list[tuple[int, int]] = []
    unsubscribe = services.bus.subscribe(lambda board, n: seen.append((board, n)))
    created = services.tables.create("ann", "standard", {"schedule": [1, 2]},
                                     ["ann", "open", "bot:basic"], private=False, clock=None)
    board = created["board"]
    assert created["invite"] is None
    state = services.queries.table(board, "ann")
    assert state["status"] == "waiting" and state["view"] is None
    assert [s["kind"] for s in state["seats"]] == ["human", "open", "bot"]
    assert services.queries.lobby(None)["open"][0]["board"] == board
    state = services.tables.join(board, "bob", None, None)
    assert state["status"] == "active" and state["you"] == {"userid": "bob", "seat": 1}
    assert seen and seen[-1] == (board, state["event"])
    for _ in range(50):
        services.runner.run_due()
        state = services.queries.table(board, None)
        if state["status"] != "active":
            break
        seat = state["view"]["to_move"]
        userid = ["ann", "bob"][seat]
        mine = services.queries.table(board, userid)
        action = mine["view"]["legal_actions"][0]
        services.tables.move(board, userid, action, mine["next_move"])
    assert state["status"] == "over"
    events = services.queries.events(board, 0)
    assert [e["n"] for e in events] == list(range(1, len(events) + 1))
    kinds = [e["event"]["type"] for e in events]
    assert kinds[:4] == ["table_created", "seat_joined", "game_started", "hand_dealt"]
    assert kinds[-1] == "game_over" and "trick" in kinds and "hand_scored" in kinds
    assert services.queries.events(board, len(events) - 2) == events[-2:]
    unsubscribe()


def test_refusals_are_typed_and_change_nothing(services):
    board = services.tables.create("ann", "standard", {"schedule": [2]},
                                   ["ann", "bob"], private=True, clock=None)["board"]
    with pytest.raises(errors.Forbidden):
        services.tables.join(board, "cy", None, None)  # private, no invite
    with pytest.raises(errors.Forbidden):
        services.tables.join(board, "cy", None, "wrong-code")
    invite = services.queries.table(board, "ann")["invite"]
    assert services.queries.table(board, None)["invite"] is None
    state = services.tables.join(board, "bob", None, invite)
    assert state["status"] == "active"
    events_before = services.queries.events(board, 0)
    mover = ["ann", "bob"][state["view"]["to_move"]]
    other = "bob" if mover == "ann" else "ann"
    with pytest.raises(errors.Stale) as stale:
        services.tables.move(board, mover, "0", 7)
    assert stale.value.next_move == 1
    with pytest.raises(errors.Stale):
        services.tables.move(board, other, "0", None)
    with pytest.raises(errors.Illegal):
        services.tables.move(board, mover, "AS-nonsense", None)
    with pytest.raises(errors.Forbidden):
        services.tables.move(board, "cy", "0", None)
    with pytest.raises(errors.NotFound):
        services.queries.table(999, None)
    assert services.queries.events(board, 0) == events_before


def test_a_spectator_sees_the_public_view(services):
    board = services.tables.create("ann", "standard", {"schedule": [3]},
                                   ["ann", "bot:random"], private=False, clock=None)["board"]
    public = services.queries.table(board, None)["view"]
    assert public["seat"] is None and public["hands"] == [None, None]
    assert public["legal_actions"] == []
    mine = services.queries.table(board, "ann")["view"]
    assert len(mine["hands"][0]) == 3 and mine["hands"][1] is None
