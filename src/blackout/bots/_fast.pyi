"""Types of the search bots' C accelerator (``_fast.c``; see blackout.bots.playout).

Written from the argument formats of ``_fast.c``'s ``PyArg_ParseTuple`` calls: every
function takes its arguments by position only.  Card sets are 52-bit masks (format
``K``), suits are 0..3 with -1 for no trump, sequences are read with
``PySequence_Fast`` (any sequence of ints), ``p`` arguments take any truth value.
"""

from collections.abc import Sequence

from _typeshed import ReadableBuffer

def play_out(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    won: Sequence[int],
    targets: Sequence[int],
    teams: bool,
    greedy: bool,
    models: Sequence[int],
    deck: int,
    points: Sequence[float] | None = None,
    end_tricks: int = 0,
    rivalry: float = 0.0,
    weights: Sequence[float] | None = None,
    /,
) -> list[int]:
    """The tricks each seat won at the end of the hand (see playout.play_out)."""

def basic_card(
    hand: int, unseen: int, trick: Sequence[int], trump: int, need: int, last: bool, /
) -> int:
    """The basic bot's card (see playout.basic_card)."""

def habit_card(
    hand: int,
    others: int,
    trick: Sequence[int],
    trump: int,
    need: int,
    last: bool,
    weights: Sequence[float],
    /,
) -> int:
    """A play habit's best card (see playout.habit_card)."""

def play_scores(
    hand: int,
    others: int,
    trick: Sequence[int],
    trump: int,
    need: int,
    last: bool,
    weights: Sequence[float],
    /,
) -> list[float]:
    """Each legal card's score by ``weights`` (see playout.play_features)."""

def trick_winner_position(cards: Sequence[int], trump: int, /) -> int:
    """The position in ``cards`` of the card that wins the trick."""

def estimate_tricks(hand: int, trump: int, players: int, /) -> float:
    """A quick guess of the tricks ``hand`` takes (see playout.estimate_tricks)."""

def sample(
    seed: int,
    known: Sequence[int],
    hidden: Sequence[int],
    counts: Sequence[int],
    allowed: Sequence[int],
    unseen: int,
    void_tries: int,
    /,
) -> list[int] | None:
    """Every seat's unplayed cards in one deal of the hidden cards that keeps the voids,
    or ``None`` if none of ``void_tries`` shuffles did (see sampling.Sampler)."""

def draw(seed: int, cards: int, want: int, count: int, /) -> list[int]:
    """``count`` hands of ``want`` cards each, drawn at random from the mask ``cards``."""

def replays_basic(hand: int, plays: ReadableBuffer, trump: int, last: int, /) -> bool:
    """Whether basic_card plays each card of the packed int64 records ``plays``."""

def bid_distribution(
    hand: int, unseen: int, cards: int, players: int, leads_first: bool, trump: int, /
) -> list[float]:
    """The chances of taking 0..cards tricks (basic.py's tricks_distribution)."""
