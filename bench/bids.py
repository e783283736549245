"""How the ``expert`` bids, on the bid positions of real games (``bench/bots.py`` records).

For every bid of the first game of each deal in the given files (``bench/bots.py``'s
per-deal JSON lines, which hold the hands, dealer, bids and tricks), the position is
rebuilt in our engine and the shipped expert asked, on the same seed:

* at ``--iterations`` sampled deals a candidate and at ``--big`` (is the bid limited by
  the size of the search?);
* at ``--iterations`` shown every hand, as ``bench/ab.py cheat`` is (what is a bid
  worth knowing the hidden cards?);

and, for the search's guesses of the bids still to come: the guess the search makes
(``expert._guess_bid``: the rounded hand estimate, off the hooked bid) and basic's rule
(``basic.bid_for``) against the bid the player really made::

    .venv/bin/python bench/bids.py runs.jsonl --deals 30 --iterations 300 --big 3000
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import sys
from typing import Any

from ab import oh_hell_rules  # bench/ is on the path when run as a script
from blackout import Deal, Game
from blackout.bots.basic import bid_for
from blackout.bots.expert import ExpertBot, _guess_bid, _trump_of
from blackout.bots.playout import NO_TRUMP
from blackout.core.actions import BIDS, Bid
from blackout.core.cards import Suit, cards_in
from runs import games

PLAYERS = 4


def record_game(record: dict[str, Any], cards: int | None = None) -> Game:
    """A game record's hand, dealt again in our engine before its first bid (its hand
    size ``cards``, by default the tricks it made)."""
    hands = [sorted(cards_in(h)) for h in record["hands"]]
    size = sum(record["tricks"]) if cards is None else cards
    return Game.new(oh_hell_rules(size), [f"p{s}" for s in range(PLAYERS)],
                    deals=[Deal(hands=hands, turn_up=record["turn_up"], dealer=record["dealer"])])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", help="bench/bots.py output (JSON lines)")
    parser.add_argument("--cards", type=int, default=7)
    parser.add_argument("--deals", type=int, default=30,
                        help="deals whose first game's bids are searched again")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--big", type=int, default=3000)
    args = parser.parse_args()
    searched: collections.Counter[str] = collections.Counter()
    guessed: dict[str, list[int]] = collections.defaultdict(list)
    deals_seen: set[int] = set()
    for deal, record in games(args.records):
        game = record_game(record, args.cards)
        search = deal["deal"] not in deals_seen and len(deals_seen) < args.deals
        deals_seen.add(deal["deal"])
        for position in range(PLAYERS):
            seat = (record["dealer"] + 1 + position) % PLAYERS
            view = game.view(seat)
            bid = record["bids"][seat]
            side = "expert" if seat in record["experts"] else "ismcts"
            trump = _trump_of(view)
            assert trump is not None
            before = sum(b.tricks for b in view.bids if isinstance(b, Bid))
            guess = _guess_bid(view, seat, view.hand, trump, list(view.bids),
                               position == PLAYERS - 1)
            assert isinstance(guess, Bid)
            rule = bid_for(view, seat, view.hand, None if trump == NO_TRUMP else Suit(trump),
                           before)
            guessed[f"{side} bids: search's guess - bid"].append(guess.tricks - bid)
            guessed[f"{side} bids: basic's rule - bid"].append(rule - bid)
            if search:
                key = 1000 * deal["deal"] + seat
                small = ExpertBot(seed=key, iterations=args.iterations).choose(view)
                big = ExpertBot(seed=key, iterations=args.big).choose(view)
                every_hand = tuple(game.view(s).hands[s] for s in range(PLAYERS))
                cheat = ExpertBot(seed=key, iterations=args.iterations).choose(
                    dataclasses.replace(view, hands=every_hand))
                assert isinstance(small, Bid) and isinstance(big, Bid)
                assert isinstance(cheat, Bid)
                searched["bids"] += 1
                for name, other in (("big", big), ("cheat", cheat)):
                    searched[f"{name} same"] += other == small
                    searched[f"{name} higher"] += other.tricks > small.tricks
                    searched[f"{name} lower"] += other.tricks < small.tricks
            game.apply(BIDS[bid])
    print(json.dumps({"searched": dict(searched), "guesses": {
        name: {"n": len(errors), "exact": round(sum(e == 0 for e in errors) / len(errors), 3),
               "mean_error": round(sum(errors) / len(errors), 3),
               "mean_abs_error": round(sum(map(abs, errors)) / len(errors), 3)}
        for name, errors in guessed.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
