"""The post-game analysis over HTTP: refused until the game is over, then worked out once
in another process (the same as :func:`blackout.analysis.analyse` on the game's record),
and kept."""

from __future__ import annotations

import random
import time
from typing import Any

from sqlalchemy import select

from blackout.analysis import analyse
from blackout.storage import AnalysisRow

from .live import ANALYSIS_ITERATIONS, WAIT, Player, open_services
from .play import play_out, seat_table


def analysed(person: Player, board: int) -> dict[str, Any]:
    """Ask as the page does until the analysis is ready; every answer before is 'pending'."""
    deadline = time.monotonic() + 6 * WAIT  # a busy machine starts the worker slowly
    while True:
        answer = person.http.get(f"/api/tables/{board}/analysis")
        if answer.status_code == 200:
            return answer.json()
        assert answer.status_code == 202, answer.text
        assert answer.json() == {"status": "pending", "board": board}
        assert answer.headers["retry-after"] == "2"
        assert time.monotonic() < deadline, "the analysis never came"
        time.sleep(0.1)


def test_a_finished_game_is_analysed_once_as_the_library_does(server, services, players,
                                                              db_url):
    people = {"ann": players["ann"], "bob": players["bob"]}
    board = seat_table(players["ann"], people, "standard", {"schedule": [2, 1]},
                       ["ann", "bot:basic", "bob"])
    running = players["cy"].http.get(f"/api/tables/{board}/analysis")
    assert running.status_code == 409
    assert running.json() == {"error": "not_finished", "message": "The game is not over yet: "
                              "only a game played to the end can be analysed"}
    missing = players["cy"].http.get("/api/tables/999999/analysis")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"

    play_out(people, board, random.Random(3))
    record = players["ann"].ok("GET", f"/api/tables/{board}/record")
    # Anyone may ask, as anyone may read the finished game's record.
    first = players["cy"].http.get(f"/api/tables/{board}/analysis")
    assert first.status_code == 202
    ready = analysed(players["cy"], board)
    expected = analyse(record, iterations=ANALYSIS_ITERATIONS).to_dict()
    assert ready == {"status": "ready", "board": board, **expected}
    assert [p["player"] for p in ready["players"]] == ["ann", "bot:basic", "bob"]
    assert ready["decisions"], "a game of three hands has decisions with a choice"

    # Kept: one row, read by a server that never worked it out.
    with services.db.read() as session:
        rows = session.scalars(select(AnalysisRow)).all()
        assert [(row.game_id, row.iterations) for row in rows] == [(board, ANALYSIS_ITERATIONS)]
    assert analysed(players["bob"], board) == ready
    restarted = open_services(db_url)
    try:
        assert restarted.analyses.get(board) == ready
    finally:
        restarted.close()
