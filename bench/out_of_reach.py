"""When an expert seat's bid goes out of reach in a `bench/bots.py` run, and what its
rivals then make.

A seat's exact bid is out of reach once no way the rest of the hand can go makes it
(:func:`out_of_reach`: more tricks taken than bid, or more needed than are left).  From
then on its own points are a point a trick, while a rival's exact bid is worth 10 more:
the moment "if you can't make yours, break theirs" is about, and the one where the
`spoiler` variant of `bench/variants/` plays otherwise.  For every expert seat-hand this
finds the first card it plays with its bid out of reach and at least two cards in hand
(with one it has no choice left), and prints how often that happens, by cards left, and
how often its rivals then made their bids exactly: the rate a spoiling expert should
lower, compared between runs on the same deals::

    .venv/bin/python bench/out_of_reach.py RUN.jsonl [RUN.jsonl ...]

With ``--choices N`` it also has the shipped expert, the spoiler and the shipped expert
on another seed choose at every expert decision with the bid out of reach and a choice of
cards (``N`` iterations a candidate, one worker), and prints how often the spoiler and the
other seed choose otherwise than the shipped expert: whether the spoiler plays otherwise
at all, against the search's own noise (the variant on the path)::

    PYTHONPATH=bench/variants .venv/bin/python bench/out_of_reach.py --choices 1000 RUN.jsonl

The files are `bench/bots.py`'s output (with the plays), read by `bench/runs.py`.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from bids import PLAYERS, record_game  # bench/ is on the path when run as a script
from blackout.core.actions import BIDS, PLAYS
from blackout.core.scoring import made_bid
from blackout.core.view import View
from runs import RunFileError, answer, games


def out_of_reach(view: View) -> bool:
    """Whether no way the rest of the hand can go makes the seat's bid exactly (in the
    play of a game without partnerships; never before it)."""
    if view.phase != "play" or view.rules.teams:
        return False
    seat, won = view.own_seat, list(view.tricks_won)
    left = view.hand.bit_count()  # a card a trick still to play, this one included
    for more in range(left + 1):
        ended = list(won)
        ended[seat] += more
        if made_bid(view.rules, view.bids, ended, seat):
            return False
    return True


def _expert_turns(paths: Iterable[str]
                  ) -> Iterator[tuple[int, dict[str, Any], dict[str, Any], int, View]]:
    """(number of the game, deal record, game record, number of the card in the hand's
    play, the seat's view) before every card an expert seat plays, in record order."""
    for number, (deal, record) in enumerate(games(paths)):
        if "plays" not in record:
            raise RunFileError("these runs hold no plays; make them with this version of "
                               "bench/bots.py")
        game = record_game(record)
        while game.phase == "bid":  # in the order the engine asks for the bids
            bidder = game.to_move
            assert bidder is not None
            game.apply(BIDS[record["bids"][bidder]])
        for index, card in enumerate(record["plays"]):
            seat = game.to_move
            assert seat is not None
            if seat in record["experts"]:
                yield number, deal, record, index, game.view(seat)
            game.apply(PLAYS[card])


def count(paths: Iterable[str]) -> dict[str, Any]:
    """The expert seat-hands, those whose bid went out of reach with cards to spare (by
    cards left), and how many of their rivals made their bids exactly."""
    games_seen: dict[int, int] = {}  # number of a game: its expert seats
    reached: Counter[int] = Counter()
    rivals_exact: Counter[int] = Counter()
    found: set[tuple[int, int]] = set()  # (game, seat) already counted
    for number, _deal, record, _index, view in _expert_turns(paths):
        games_seen[number] = len(record["experts"])
        seat, left = view.own_seat, view.hand.bit_count()
        if (number, seat) not in found and left > 1 and out_of_reach(view):
            found.add((number, seat))
            reached[left] += 1
            rivals_exact[left] += sum(record["bids"][s] == record["tricks"][s]
                                      for s in range(PLAYERS) if s != seat)
    seat_hands, states = sum(games_seen.values()), sum(reached.values())
    rivals = PLAYERS - 1
    return {"expert_seat_hands": seat_hands, "out_of_reach": states,
            "share": round(states / seat_hands, 4) if seat_hands else 0.0,
            "rivals_exact": (round(sum(rivals_exact.values()) / (rivals * states), 4)
                             if states else None),
            "by_cards_left": {
                left: {"seat_hands": reached[left],
                       "rivals_exact": round(rivals_exact[left] / (rivals * reached[left]), 4)}
                for left in sorted(reached)}}


def choices(paths: Iterable[str], iterations: int) -> dict[str, Any]:
    """At every expert decision with its bid out of reach and a choice of cards, how
    often the spoiler and the shipped expert on another seed choose otherwise than the
    shipped expert."""
    import spoiler  # bench/variants/, on the path only for this

    from blackout.bots.expert import ExpertBot

    positions = spoiled = reseeded = 0
    for _number, deal, _record, index, view in _expert_turns(paths):
        if len(view.legal_actions) > 1 and out_of_reach(view):
            key = 1000 * deal["deal"] + index
            shipped = ExpertBot(seed=key, iterations=iterations, workers=1).choose(view)
            spoiled += spoiler.ExpertBot(seed=key, iterations=iterations,
                                         workers=1).choose(view) != shipped
            reseeded += ExpertBot(seed=key + 1, iterations=iterations,
                                  workers=1).choose(view) != shipped
            positions += 1
    return {"positions": positions, "spoiler_otherwise": spoiled,
            "other_seed_otherwise": reseeded}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="bench/bots.py output (JSON lines)")
    parser.add_argument("--choices", type=int, metavar="N",
                        help="also compare the spoiler's choices at N iterations")
    args = parser.parse_args()

    def work() -> dict[str, Any]:
        found = count(args.runs)
        if args.choices:
            found["choices"] = choices(args.runs, args.choices)
        return found

    return answer("out_of_reach.py", parser, work)


if __name__ == "__main__":
    sys.exit(main())
