"""One board, two front ends: a move made with ``blackout move`` (the command language the
mail gateway also speaks, in another process) reaches the browser's WebSocket, and a move
made through the API is in the command line's ``history``."""

from __future__ import annotations

import os
import subprocess
import sys

from .live import PASSWORDS, Watcher
from .play import seat_table


def blackout(*words: str, db: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "BLACKOUT_DATABASE_URL"}
    done = subprocess.run([sys.executable, "-m", "blackout.cli.main", *words, "--db", db],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_command_line_move_and_a_web_move_each_reach_the_other(server, services, players,
                                                                 db_url):
    people = {"ann": players["ann"], "bob": players["bob"]}
    board = seat_table(players["ann"], people, "standard", {"schedule": [2]}, ["ann", "bob"])
    state = players["ann"].table(board)
    seats = {person.table(board)["you"]["seat"]: name for name, person in people.items()}
    watcher = Watcher(server.ws_url, board, token=players["ann"].token)
    watcher.wait_for_state(state["event"])

    first = seats[state["view"]["to_move"]]
    bid = people[first].table(board)["view"]["legal_actions"][-1]
    said = blackout("move", str(board), first, PASSWORDS[first], f"{bid}#1", db=db_url)
    assert "accepted" in said
    seen = watcher.wait_for_state(state["event"] + 1)
    assert seen["next_move"] == 2 and seen["view"]["bids"][state["view"]["to_move"]] == bid
    assert watcher.events()[-1]["event"]["type"] == "bid"

    second = seats[seen["view"]["to_move"]]
    reply = people[second].table(board)["view"]["legal_actions"][0]
    answer = people[second].move(board, reply, 2)
    assert answer.status_code == 200, answer.text
    history = blackout("history", str(board), db=db_url)
    assert f"#1    {first} {bid}" in history and f"#2    {second} {reply}" in history
    watcher.close()
