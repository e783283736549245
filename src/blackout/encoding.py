"""Actions as integers and views as flat arrays: the numbering and layout the OpenSpiel
and PettingZoo adapters share (``docs/adapters.md`` has the same tables).

For a game of ``n`` players whose largest hand is ``L`` cards (``L = max hand size`` of
the rules' schedule for ``n`` players):

**Actions** (``60 + L`` ids):

=============  ============================================
id             action
=============  ============================================
0..51          play card ``id`` (``suit * 13 + rank``, clubs 0, diamonds 1, hearts 2,
               spades 3; rank 0 is the two, 12 the ace): ``AD`` is 25
52..52+L       bid ``id - 52`` tricks
53+L           partnership ``nil``
54+L           partnership ``board``
55+L..59+L     name trump: C, D, H, S, then no trump
=============  ============================================

**Observation** of one seat (float32; "seats" blocks are in table order starting from the
observing seat: block 0 is the seat itself, block 1 the seat on its left, ...):

==============  =========  ==================================================
block           size       contents (1.0 where true, else 0.0)
==============  =========  ==================================================
phase           5          dealing, bidding, naming trump, playing, game over
hands           n * 52     the unplayed cards of every hand this seat can see
                           (its own; in pbmserv's blind first hand, the others')
turn_up         52         the turned-up card
trump           5          trump C, D, H, S or no trump, once decided
dealer          n          the dealer
to_move         n          the seat to move (none when dealing or over)
bids            n * (L+3)  each seat's bid: 0..L, nil, board (none: not bid)
tricks_won      n * (L+1)  tricks each seat has taken this hand
trick           n * 52     the card each seat has played to the trick in progress
played          n * 52     the cards each seat has played to finished tricks
cards_dealt     L          the hand size (one-hot: block[size - 1])
declarer        n          the declarer (Potomac) once the bidding is over
scores          n          running scores, in points (not 0/1)
hands_played    1          hands finished so far (a count)
==============  =========  ==================================================

The **information state** (OpenSpiel only) is the observation followed by
``sequence``, ``n * L`` blocks of 52: the k-th card played this hand.  Together they
recall the current hand exactly; earlier hands are summed up by the scores and the
count of hands played (the information-state *string* recalls every move of every
hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from blackout.core.actions import (
    BIDS,
    BOARD,
    NIL,
    PLAYS,
    TRUMP_CHOICES,
    Action,
    Bid,
    ChooseTrump,
    Nil,
    Play,
)
from blackout.core.cards import cards_in
from blackout.core.rules import Rules
from blackout.core.view import View

__all__ = ["PHASES", "Encoding", "default_players", "largest_hand", "position_text"]

#: The phase block's order; "deal" is the adapters' own (chance deals the cards).
PHASES = ("deal", "bid", "trump", "play", "over")


def default_players(rules: Rules) -> int:
    """The adapters' table size when none is given: 4, or the nearest the rules allow."""
    return max(rules.min_players, min(4, rules.max_players))


def largest_hand(rules: Rules, players: int) -> int:
    """The most cards any hand of this game deals each player."""
    return max(rules.hand_sizes(players))


@dataclass(frozen=True)
class Encoding:
    """Action ids and observation arrays for ``players`` players under ``rules``."""

    rules: Rules
    players: int

    @cached_property
    def largest(self) -> int:
        return largest_hand(self.rules, self.players)

    # -- actions ---------------------------------------------------------------------

    @property
    def num_actions(self) -> int:
        return 60 + self.largest

    def action_id(self, action: Action) -> int:
        top = self.largest
        if isinstance(action, Play):
            return int(action.card)
        if isinstance(action, Bid):
            return 52 + action.tricks
        if isinstance(action, Nil):
            return 53 + top
        if isinstance(action, ChooseTrump):
            return 55 + top + (4 if action.suit is None else int(action.suit))
        return 54 + top  # board

    def action(self, action_id: int) -> Action:
        """The action of an id; ``ValueError`` if the id names none."""
        top = self.largest
        if not 0 <= action_id < self.num_actions:
            raise ValueError(f"action id {action_id} is not 0 to {self.num_actions - 1}")
        if action_id < 52:
            return PLAYS[action_id]
        if action_id <= 52 + top:
            return BIDS[action_id - 52]
        if action_id == 53 + top:
            return NIL
        if action_id == 54 + top:
            return BOARD
        return TRUMP_CHOICES[action_id - 55 - top]

    def action_ids(self, actions: tuple[Action, ...] | list[Action]) -> list[int]:
        return sorted(self.action_id(a) for a in actions)

    # -- observations ----------------------------------------------------------------

    @cached_property
    def offsets(self) -> dict[str, int]:
        """Where each block starts."""
        offsets, at = {}, 0
        for name, size in self.blocks():
            offsets[name] = at
            at += size
        return offsets

    def blocks(self) -> list[tuple[str, int]]:
        """``(name, size)`` of each observation block, in order."""
        n, top = self.players, self.largest
        return [("phase", 5), ("hands", n * 52), ("turn_up", 52), ("trump", 5),
                ("dealer", n), ("to_move", n), ("bids", n * (top + 3)),
                ("tricks_won", n * (top + 1)), ("trick", n * 52), ("played", n * 52),
                ("cards_dealt", top), ("declarer", n), ("scores", n), ("hands_played", 1)]

    @cached_property
    def observation_size(self) -> int:
        return sum(size for _, size in self.blocks())

    @property
    def sequence_size(self) -> int:
        return self.players * self.largest * 52

    def observation(self, view: View, dealing: bool = False) -> np.ndarray:
        """The observation array of ``view`` (``dealing``: its hand is still being dealt)."""
        out = np.zeros(self.observation_size, np.float32)
        self.fill_observation(out, view, dealing)
        return out

    def fill_observation(self, out: np.ndarray, view: View, dealing: bool = False) -> None:
        """Write the observation of ``view`` into ``out`` (zeroed first)."""
        out.fill(0.0)
        n, top, me = self.players, self.largest, view.seat
        if me is None:
            raise ValueError("an observation is one seat's view, not the public view")
        offsets = self.offsets

        def rel(seat: int) -> int:
            return (seat - me) % n

        def mark_mask(block: str, index: int, mask: int) -> None:
            base = offsets[block] + index * 52
            while mask:
                low = mask & -mask
                out[base + low.bit_length() - 1] = 1.0
                mask ^= low

        phase = "deal" if dealing else str(view.phase)
        out[offsets["phase"] + PHASES.index(phase)] = 1.0
        for seat, hand in enumerate(view.hands):
            if hand is not None:
                mark_mask("hands", rel(seat), hand)
        if view.turn_up is not None:
            out[offsets["turn_up"] + int(view.turn_up)] = 1.0
        if view.trump_decided and not dealing:
            out[offsets["trump"] + (4 if view.trump is None else int(view.trump))] = 1.0
        out[offsets["dealer"] + rel(view.dealer)] = 1.0
        if view.to_move is not None and not dealing:
            out[offsets["to_move"] + rel(view.to_move)] = 1.0
        for seat, bid in enumerate(view.bids):
            if bid is not None:
                column = bid.tricks if isinstance(bid, Bid) else top + (1 if bid == NIL else 2)
                out[offsets["bids"] + rel(seat) * (top + 3) + column] = 1.0
        for seat, won in enumerate(view.tricks_won):
            out[offsets["tricks_won"] + rel(seat) * (top + 1) + won] = 1.0
        for seat, card in view.trick:
            out[offsets["trick"] + rel(seat) * 52 + int(card)] = 1.0
        finished = view.played_by()
        for seat, _card in view.trick:
            finished[seat] &= ~(1 << _card)
        for seat, mask in enumerate(finished):
            mark_mask("played", rel(seat), mask)
        out[offsets["cards_dealt"] + view.cards_dealt - 1] = 1.0
        if view.declarer is not None:
            out[offsets["declarer"] + rel(view.declarer)] = 1.0
        out[offsets["scores"]:offsets["scores"] + n] = [
            view.scores[(me + i) % n] for i in range(n)]
        out[offsets["hands_played"]] = len(view.hands_played)

    def sequence(self, view: View) -> np.ndarray:
        """The cards played this hand, in order: ``n * L`` one-hot blocks of 52."""
        out = np.zeros(self.sequence_size, np.float32)
        position = 0
        for trick in view.tricks:
            for card in trick.cards:
                out[position * 52 + int(card)] = 1.0
                position += 1
        for _, card in view.trick:
            out[position * 52 + int(card)] = 1.0
            position += 1
        return out


def position_text(view: View, dealing: bool = False) -> str:
    """The position as ``view``'s seat sees it, on one line (observation strings, render)."""

    def cards(mask: int | None) -> str:
        return "?" if mask is None else " ".join(map(str, cards_in(mask))) or "-"

    parts = [f"p{view.seat}", f"hand {view.hand_number} ({view.cards_dealt} cards)",
             "dealing" if dealing else str(view.phase), f"dealer p{view.dealer}",
             "hands " + " | ".join(cards(h) for h in view.hands)]
    if view.turn_up is not None:
        parts.append(f"turn-up {view.turn_up}")
    if view.trump_decided and not dealing:
        parts.append(f"trump {'NT' if view.trump is None else view.trump}")
    parts.append("bids " + " ".join("-" if b is None else str(b) for b in view.bids))
    parts.append("trick " + " ".join(f"p{s}:{c}" for s, c in view.trick))
    parts.append("won " + " ".join(map(str, view.tricks_won)))
    parts.append("scores " + " ".join(map(str, view.scores)))
    return "; ".join(parts)
