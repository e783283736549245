"""Playing a table through the API: whoever of the given people is to move makes a random
legal move with the move number it expects, until the game is over."""

from __future__ import annotations

import random
import time
from typing import Any

from .live import WAIT, Player

# A short game of every preset: (variant, options, seats); "bot:..." seats are computer
# players, the other names people (the first creates the table, the rest join).
SHORT_GAMES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("pbmserv", {"schedule": [1, 2]}, ["ann", "bot:basic", "bob", "bot:random"]),
    ("standard", {"schedule": [2, 1]}, ["ann", "bot:expert", "bob"]),
    ("nullo", {"schedule": [2]}, ["bot:basic", "ann", "bob"]),
    ("partnership", {"max_cards": 2, "max_hands": 1}, ["ann", "bot:basic", "bob", "bot:random"]),
    ("potomac", {"schedule": [2, 1]}, ["ann", "bob", "bot:basic"]),
]


def seat_table(creator: Player, people: dict[str, Player], variant: str,
               options: dict[str, Any], seats: list[str]) -> int:
    """Create the table and have every invited person join; returns the board."""
    board = creator.create(variant, seats, options)
    for name in dict.fromkeys(seats):
        if name in people and name != creator.userid:
            people[name].ok("POST", f"/api/tables/{board}/join", json={})
    return board


def mover(people: dict[str, Player], board: int) -> tuple[Player, dict[str, Any]] | None:
    """The person whose decision it is, with their table state; None when it is a bot's
    turn (or the game is over)."""
    for person in people.values():
        state = person.table(board)
        view = state["view"]
        if state["status"] != "active" or view is None:
            return None
        if view["seat"] is not None and view["seat"] == view["to_move"] \
                and view["legal_actions"]:
            return person, state
    return None


def play_out(people: dict[str, Player], board: int, rng: random.Random,
             limit: int = 2000) -> list[tuple[int, str, str]]:
    """Play random legal moves for the people until the game ends; returns the moves
    that were accepted as (move number, userid, action)."""
    accepted: list[tuple[int, str, str]] = []
    deadline = time.monotonic() + WAIT * 3
    for _ in range(limit):
        someone = mover(people, board)
        if someone is None:
            status = next(iter(people.values())).table(board)["status"]
            if status in ("over", "forfeited"):
                return accepted
            assert time.monotonic() < deadline, "the game stopped moving"
            time.sleep(0.01)  # a computer player's turn
            continue
        person, state = someone
        action = rng.choice(state["view"]["legal_actions"])
        answer = person.move(board, action, state["next_move"])
        if answer.status_code == 409:
            continue  # a queued or automatic move got there first: look again
        assert answer.status_code == 200, answer.text
        accepted.append((state["next_move"], person.userid, action))
    raise AssertionError("the game did not end")
