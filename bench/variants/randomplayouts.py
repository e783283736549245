"""The shipped expert with every play-out below its trees played at random (each seat a
legal card, uniformly), as OpenSpiel's ISMCTS plays its rollouts, instead of by the fast
policy; the trees, the deals and the scoring as shipped.  The play-outs run in Python
(the C play-out has no random seat), so a timed search does fewer iterations."""

import random
from typing import Any

from _swap import swapped

from blackout.bots import expert, tree
from blackout.bots.playout import next_turn
from blackout.core.cards import cards_in
from blackout.core.game import playable

# Its own generator, seeded once: a fixed-iteration search stays repeatable in one process.
_RNG = random.Random(20261130)


def _random_play_out(hands: list[int], trump: int, leader: int, trick: list[int],
                     won: list[int], *_args: Any, **_options: Any) -> list[int]:
    n = len(hands)
    trick = list(trick)
    remaining = 0
    for hand in hands:
        remaining |= hand
    seat = (leader + len(trick)) % n
    while remaining:
        cards = list(cards_in(playable(hands[seat], trick)))
        card = cards[_RNG.randrange(len(cards))]
        hands[seat] &= ~(1 << card)
        remaining &= ~(1 << card)
        trick.append(card)
        trick, leader, seat = next_turn(trick, leader, won, trump, n)
    return won


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(tree, play_out=_random_play_out):
            return super()._search(view, also)
