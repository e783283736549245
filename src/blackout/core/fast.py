"""Which engine plays: the compiled one when it was built, else the pure-Python reference.

:data:`Game` is the default engine — what ``blackout.Game`` is, and what the bots'
arena, the service, the command line and the adapters start their games with.  It is
:class:`CompiledGame` when the C extension was built (``pip install`` compiles it when a
C compiler is present; :data:`COMPILED` says whether it was) and the reference
:class:`blackout.core.game.Game` (also importable here as :class:`ReferenceGame`)
otherwise.  The environment variable ``BLACKOUT_ENGINE``, read when this module is
first imported, chooses: ``reference`` forces the pure-Python engine, ``compiled``
insists on the C one (an error if it was not built), unset or ``auto`` picks the
compiled one when there is one.  :data:`ENGINE` names the choice.  Either engine may
also be used directly, whatever the default: ``blackout.core.game.Game`` is always the
reference.

:class:`CompiledGame` has exactly the API of the reference (it is a subclass of it:
``isinstance(game, blackout.core.game.Game)`` holds for both engines).  Its state and
hot operations — dealing, ``legal_actions``, ``apply`` and its events, trick and hand
completion, scoring, ``copy``, ``undo`` — are C code (``blackout.core._engine``),
driven by the same :class:`~blackout.core.rules.Rules`.  Everything else is the
reference's own code reading the compiled state: the checks and messages of an illegal
move (the C code hands any move it refuses to the reference ``apply``, which raises its
``IllegalAction``), ``view``, ``record``, ``history``.  A game keeps its engine through
``copy()``, ``replay()``, pickling and ``copy.deepcopy``.

:data:`FastGame` is the fastest engine there is, whatever ``BLACKOUT_ENGINE`` says.

>>> from blackout.core.rules import variant
>>> game = FastGame.new(variant("pbmserv"), ["ann", "bob", "cy", "di"], seed=7)
>>> reference = ReferenceGame.new(variant("pbmserv"), ["ann", "bob", "cy", "di"], seed=7)
>>> game.hands == reference.hands and game.legal_actions() == reference.legal_actions()
True
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from blackout.core import actions, events
from blackout.core.cards import CARDS, Suit
from blackout.core.game import BIDDING, CHOOSING_TRUMP, GAME_OVER, PLAYING, Deal, _seeded
from blackout.core.game import Game as ReferenceGame
from blackout.core.rules import SCORINGS, TIEBREAKS, Rules
from blackout.core.view import HandResult

__all__ = ["COMPILED", "ENGINE", "ENGINES", "FastGame", "Game", "ReferenceGame", "choose"]

try:
    from blackout.core import _engine
except ImportError:  # built without a C compiler
    _engine = None  # type: ignore[assignment]

COMPILED = _engine is not None


def _coin(seed: int, tied: list[int]) -> int:
    # The reference's coin flip, from the same seeded generator.
    return _seeded(seed, "coin").choice(tied)


def _reference_apply(game: ReferenceGame, action: Any, seat: int | None) -> Any:
    return ReferenceGame.apply(game, action, seat)


def _deal_info(deals: tuple[Deal, ...]) -> tuple[tuple[Any, ...], ...]:
    """Prearranged deals as the C engine reads them: (masks, turn-up, dealer, size)."""
    return tuple((deal.masks, -1 if deal.turn_up is None else int(deal.turn_up),
                  -1 if deal.dealer is None else deal.dealer, deal.size) for deal in deals)


_TRUMP_RULES = ("turn_up", "spades", "declarer", "none")
_LEADERS = ("left_of_dealer", "dealer", "first_bidder")
Config = tuple[Any, tuple[int, ...], int, int | None]
#: (id(rules), players) -> (rules, the engine's encoding of them, hand sizes, largest,
#: first dealer when no draw decides it)
_CONFIGS: dict[tuple[int, int], tuple[Rules, Any, tuple[int, ...], int, int | None]] = {}


def _config(rules: Rules, n: int) -> Config:
    """The rules encoded for the C engine, checked and built once per rules object."""
    hit = _CONFIGS.get((id(rules), n))
    if hit is not None and hit[0] is rules:
        return hit[1:]
    rules.check_players(n)
    sizes = rules.hand_sizes(n)
    largest = max(sizes)
    config = _engine.Config(
        rules, events.prebuilt(n).cards, sizes, n, rules.teams, rules.hook,
        rules.bid_changes, rules.blind_first_hand, rules.last_hand_no_trump,
        _TRUMP_RULES.index(rules.trump), rules.first_bidder == "dealer",
        _LEADERS.index(rules.leader), SCORINGS.index(rules.scoring),
        rules.team_bid == "at_least", rules.team_bid_cap, rules.target or 0,
        rules.max_hands or 0, TIEBREAKS.index(rules.tiebreak), rules.schedule == "constant",
        largest)
    first = None if rules.first_dealer == "draw" else rules.first_dealer % n
    _CONFIGS[(id(rules), n)] = (rules, config, sizes, largest, first)
    return config, sizes, largest, first


if _engine is not None:
    _engine.setup({
        "CARDS": CARDS, "PLAYS": actions.PLAYS, "BIDS": actions.BIDS, "NIL": actions.NIL,
        "BOARD": actions.BOARD, "TRUMP_CHOICES": actions.TRUMP_CHOICES, "SUITS": tuple(Suit),
        "PHASES": (BIDDING, CHOOSING_TRUMP, PLAYING, GAME_OVER),
        "HandResult": HandResult, "IllegalAction": actions.IllegalAction,
        "parse_action": actions.parse_action, "reference_apply": _reference_apply,
        "coin_choice": _coin, "sha512": hashlib.sha512,
        "Play": actions.Play, "Bid": actions.Bid, "Nil": actions.Nil, "Board": actions.Board,
        "ChooseTrump": actions.ChooseTrump,
        **{name: getattr(events, name) for name in (
            "CardPlayed", "TrickTaken", "HandScored", "GameOver", "HandDealt", "BidMade",
            "BidChanged", "TrumpNamed")},
    })

    class CompiledGame(_engine.Core, ReferenceGame):  # type: ignore[misc]
        """A :class:`~blackout.core.game.Game` whose state lives in the C engine."""

        def __init__(self, rules: Rules, players: Sequence[str], seed: int,
                     deals: Sequence[Deal] = ()) -> None:
            given = tuple(players)
            n = len(given)
            config, sizes, largest, first = _config(rules, n)
            if len(set(given)) != n:
                raise ValueError("every player needs a different name")
            if deals or first is None or not rules.inorder:
                self._start_with_chance(rules, given, seed, tuple(deals), config, sizes,
                                        largest)
            else:  # seats as given, a fixed first dealer: nothing to draw
                self._start(config, given, seed, (), given, None,
                            f"blackout:{seed}:".encode(), (), first)

        def _start_with_chance(self, rules: Rules, given: tuple[str, ...], seed: int,
                               deals: tuple[Deal, ...], config: Any,
                               sizes: tuple[int, ...], largest: int) -> None:
            """Prearranged deals, shuffled seats or a draw for first dealer: the
            reference's own checks and draws, run on a stand-in for the game."""
            start = SimpleNamespace(rules=rules, n=len(given), seed=seed, deals=deals,
                                    _sizes=sizes, _largest=largest, first_dealer_draw=None)
            start._expected_size = lambda index: ReferenceGame._expected_size(start, index)
            if deals:
                ReferenceGame._check_deals(start)  # type: ignore[arg-type]
            seats = list(given)
            if not rules.inorder and not deals:
                _seeded(seed, "seats").shuffle(seats)
            first = ReferenceGame._first_dealer(start)  # type: ignore[arg-type]
            self._start(config, given, seed, deals, tuple(seats), start.first_dealer_draw,
                        f"blackout:{seed}:".encode(), _deal_info(deals), first)

        def _redeal(self, deal: Deal) -> None:
            if len(self.deals) != self.hand_index or self.phase != BIDDING or self._bid_pos:
                raise ValueError("only a hand just dealt, after the prearranged ones, is "
                                 "redealt")
            deals = (*self.deals, deal)
            self._redeal_from(deals, _deal_info(deals))

        def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
            # Pickled and deep-copied as its record: the seed, deals and moves replay it.
            return type(self).replay, (self.record(),)

    FastGame: type[ReferenceGame] = CompiledGame
else:
    FastGame = ReferenceGame

#: The engines by name: "reference" always, "compiled" when it was built.
ENGINES: dict[str, type[ReferenceGame]] = {"reference": ReferenceGame}
if COMPILED:
    ENGINES["compiled"] = FastGame


def choose(name: str | None) -> type[ReferenceGame]:
    """The engine ``BLACKOUT_ENGINE`` names: ``"reference"``, ``"compiled"`` (which must
    have been built), or ``"auto"``, empty or None for the fastest there is."""
    wanted = (name or "auto").strip().lower()
    if wanted == "auto":
        return FastGame
    if wanted == "compiled" and not COMPILED:
        raise RuntimeError("BLACKOUT_ENGINE=compiled, but the compiled engine was not built "
                           "(no C compiler when blackout was installed)")
    if wanted not in ENGINES:
        raise RuntimeError(f"BLACKOUT_ENGINE must be reference, compiled or auto, not {name!r}")
    return ENGINES[wanted]


if TYPE_CHECKING:  # for the type checker both engines are the reference's type
    from blackout.core.game import Game
else:
    #: The default engine: what ``blackout.Game`` is.
    Game = choose(os.environ.get("BLACKOUT_ENGINE"))

#: "compiled" or "reference": the engine :data:`Game` is.
ENGINE = "reference" if Game is ReferenceGame else "compiled"
