"""Every Blackout preset as an OpenSpiel game (``pip install 'blackout[openspiel]'``).

Importing this module registers ``blackout_pbmserv``, ``blackout_standard``,
``blackout_nullo``, ``blackout_partnership`` and ``blackout_potomac``::

    import pyspiel
    import blackout.openspiel  # registers the games
    game = pyspiel.load_game("blackout_standard", {"players": 3, "schedule": "[1-2]"})
    same = pyspiel.load_game("blackout_standard(players=3,schedule=[1-2])")

**Parameters.**  ``players`` (default 4) and every rule option of
:class:`blackout.Rules` except ``min_players``/``max_players``/``teams``, with the
preset's values as defaults.  A schedule is a name or hand sizes, ``"[3-2-1]"``, and
``first_dealer`` is ``"draw"`` or a seat, ``"seat0"`` (``"seat-1"`` counts from the
end): in OpenSpiel's game strings a comma ends a value and digits alone read as a
number.  ``0`` means "none" for ``max_cards``, ``target`` and ``max_hands``.
``hand_limit`` (default 0, automatic) ends the game after that many hands, scored as it
stands: OpenSpiel needs a bound on a game's length, and tie-break hands
(``tiebreak="extra_hands"``) or a target score can run on without one.  Automatic is
the scheduled hands, plus ``L`` tie-break hands when ties are played off, or 100 hands
when a target score ends the game.

**Chance.**  The whole game is one OpenSpiel game: hand after hand, each card dealt is
a chance outcome (the card id, uniform over the cards not yet dealt), dealt singly from
the dealer's left as at the table, then the turned-up card when the rules turn one up.
When the rules draw for the first dealer, the first chance node picks the dealer seat,
uniformly (drawing high card gives every seat the same chance).  Fixed, not chance:
OpenSpiel's player ``p`` sits in seat ``p`` (a random seating only renames players);
pbmserv's tie-break coin names a winner but changes no score, so returns ignore it.

**Moves.**  Action ids are :mod:`blackout.encoding`'s: cards 0..51, bids ``52 + k``,
then nil, board and the five trump choices.  Potomac's bid changes are not offered: in
a turn-based game nothing happens between a bid and its change, so a change is the same
as having bid the other number.  pbmserv's blind one-card hand plays itself after the
bidding, as in the core.

**Observations.**  Information-state and observation tensors have the layout of
:mod:`blackout.encoding`; the information-state string lists every move the player has
seen, hand by hand (its own cards as dealt, every bid, trump and card played); the
observation string is the present position as the player sees it.

**Returns** are the final scores in the preset's points (general-sum; partners share
their team's score), 0 until the end.

**Resampling.**  ``state.resample_from_infostate(player, sampler)`` deals every hand
the player cannot see afresh from all the cards it cannot see, undealt ones included,
uniformly among the deals in which no player holds a suit it has shown void in.  (It
is a Python method, which OpenSpiel's C++ algorithms cannot call: use the Python
``open_spiel.python.algorithms.ismcts.ISMCTSBot``.  OpenSpiel 2.0.2's C++
``pyspiel.ISMCTSBot`` crashes on every Python game, its own ``python_kuhn_poker`` too.)
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable
from typing import Any

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as missing:
    raise ModuleNotFoundError(f"blackout.openspiel needs `pip install 'blackout[openspiel]'` "
                              f"(missing: {missing.name})", name=missing.name) from None

from blackout.bots.sampling import Sampler
from blackout.core.cards import CARDS, Card, cards_in
from blackout.core.fast import Game
from blackout.core.game import Deal
from blackout.core.rules import PRESETS, Rules, RulesError, variant
from blackout.core.view import View
from blackout.encoding import Encoding, default_players, largest_hand, position_text

__all__ = ["GAME_NAMES", "BlackoutGame", "BlackoutState", "game_name", "rules_of"]

# Uniform deals tried for a resample before falling back on the bots' sampler, which
# keeps to the voids by dealing the most constrained seat first (nearly uniform).
_UNIFORM_TRIES = 2000
_OPTIONS = tuple(f.name for f in dataclasses.fields(Rules)
                 if f.name not in ("variant", "min_players", "max_players", "teams"))


def game_name(preset: str) -> str:
    return f"blackout_{preset}"


GAME_NAMES = tuple(game_name(p) for p in PRESETS)

# -- parameters ------------------------------------------------------------------------


def _parameter_value(name: str, value: Any) -> Any:
    """A rule option as an OpenSpiel parameter (ints, floats, strings and bools only).

    OpenSpiel's game strings (``blackout_standard(schedule=[3-2-1],first_dealer=seat0)``)
    end a value at a comma and read a value of digits as a number, so hand sizes are
    written ``[3-2-1]`` and a seat number ``seat0``.
    """
    if name == "schedule":
        return value if isinstance(value, str) else f"[{'-'.join(map(str, value))}]"
    if name == "first_dealer":
        return value if value == "draw" else f"seat{value}"
    if name in ("max_cards", "target", "max_hands"):
        return value or 0
    return value


def _option_value(name: str, value: Any) -> Any:
    """The rule option of a parameter; in a parameter dict ``"3,2,1"`` and ``"3"`` also do."""
    try:
        if name == "schedule":
            sizes = value.strip("[]")
            if sizes[:1].isdigit():
                return tuple(int(size) for size in re.split(r"[-,]", sizes))
        if name == "first_dealer":
            return value if value == "draw" else int(value.removeprefix("seat"))
    except ValueError:
        example = "'[3-2-1]' or a name" if name == "schedule" else "'draw' or 'seat0'"
        raise RulesError(f"{name} must be {example}, not {value!r}") from None
    if name in ("max_cards", "target", "max_hands"):
        return value or None
    return value


def rules_of(preset: str, params: dict[str, Any]) -> Rules:
    """The rules an OpenSpiel parameter dict names."""
    options = {name: _option_value(name, params[name]) for name in _OPTIONS if name in params}
    return variant(preset, **options)


def _parameter_specification(preset: str) -> dict[str, Any]:
    rules = PRESETS[preset]
    spec = {"players": default_players(rules), "hand_limit": 0}
    spec.update({name: _parameter_value(name, getattr(rules, name)) for name in _OPTIONS})
    return spec


def _game_type(preset: str) -> pyspiel.GameType:
    rules = PRESETS[preset]
    return pyspiel.GameType(
        short_name=game_name(preset),
        long_name=f"Blackout ({preset})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(preset),
    )


def hand_limit(rules: Rules, players: int, given: int = 0) -> int:
    """The most hands a game can last in OpenSpiel (see ``hand_limit`` above)."""
    if given:
        return given
    if rules.target is not None:
        return rules.max_hands or 100
    scheduled = len(rules.hand_sizes(players))
    if rules.max_hands is not None:
        scheduled = min(scheduled, rules.max_hands)
    if rules.tiebreak == "extra_hands":
        scheduled += largest_hand(rules, players)
    return scheduled


# -- the game ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Setup:
    """What every state of one game shares (never copied with a state)."""

    rules: Rules
    players: int
    encoding: Encoding
    hand_limit: int
    first_size: int
    first_dealer: int | None  # None: drawn by chance
    names: tuple[str, ...]
    template: Game  # a game before its first deal: only its public start is read

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self

    def turn_up_dealt(self, size: int) -> bool:
        """Whether a hand of ``size`` cards turns up a trump card (dealt by chance)."""
        rules = self.rules
        no_trump = rules.last_hand_no_trump and size == self.encoding.largest
        return rules.trump == "turn_up" and not no_trump and size * self.players < 52


class BlackoutGame(pyspiel.Game):
    """One preset with its parameters; ``new_initial_state()`` starts before the deal."""

    preset = "standard"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        preset = self.preset
        params = {**_parameter_specification(preset), **(params or {})}
        players = int(params["players"])
        rules = rules_of(preset, params)
        rules.check_players(players)
        encoding = Encoding(rules, players)
        limit = hand_limit(rules, players, int(params["hand_limit"]))
        top = encoding.largest
        names = tuple(f"p{s}" for s in range(players))
        template = Game.new(rules, names, seed=0)
        self.setup = _Setup(
            rules=rules, players=players, encoding=encoding, hand_limit=limit,
            first_size=template.cards,
            first_dealer=None if rules.first_dealer == "draw" else template.dealer,
            names=names, template=template)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=52,
            num_players=players,
            # A hand scores at most 5 + 2 x 26 (Potomac's declarer) or 40 (nil, board),
            # and loses at most 10 (a failed nil or board) or L (a Potomac miss).
            min_utility=-float(max(10, top) * limit),
            max_utility=float(57 * limit),
            utility_sum=None,
            max_game_length=limit * (players * (top + 1) + 1),
        )
        super().__init__(_game_type(preset), info, params)

    def new_initial_state(self) -> BlackoutState:
        return BlackoutState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.setup.hand_limit * 52 + 1

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            return _Observer(self.setup, perfect_recall=False, private=True)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations of every player's private cards are not offered")
        return _Observer(self.setup, perfect_recall=iig_obs_type.perfect_recall,
                         private=private == pyspiel.PrivateInfoType.SINGLE_PLAYER)


# -- the state ---------------------------------------------------------------------------

# Who may see an entry of the information log: everybody, one seat, or all but one seat.
_ALL, _SEAT, _OTHERS = 0, 1, 2


class _Table:
    """The mutable part of a state: the core game and the deal in progress.  Copied with
    ``Game.copy`` (cheap) when OpenSpiel clones the state."""

    def __init__(self, setup: _Setup) -> None:
        self.game: Game | None = None
        self.dealer = setup.first_dealer
        self.size = setup.first_size
        self.dealing = True
        self.dealt: list[int] = []  # chance outcomes of the hand being dealt
        self.hand_start = 0  # index in the history where that hand's deal began
        self.log: list[tuple[int, int, str]] = []  # (who sees it, seat, text)
        self.blind_cards: list[Card] = []  # pbmserv's blind hand, by seat
        # (hand_start, the state then): shared by copies, never changed once made.
        self.start_cache: tuple[int, BlackoutState] | None = None
        self.over = False

    def receiver(self, position: int, players: int) -> int:
        """The seat dealt the ``position``-th card (singly, from the dealer's left)."""
        assert self.dealer is not None
        return (self.dealer + 1 + position) % players

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        twin = object.__new__(_Table)
        twin.__dict__.update(self.__dict__)
        twin.game = None if self.game is None else self.game.copy()
        twin.dealt = list(self.dealt)
        twin.log = list(self.log)
        return twin


class BlackoutState(pyspiel.State):
    """A position of a Blackout game (see the module docstring)."""

    def __init__(self, game: BlackoutGame) -> None:
        super().__init__(game)
        self.setup = game.setup
        self.table = _Table(game.setup)
        if self.table.dealer is not None:
            self._log_hand_start()

    # -- whose turn ----------------------------------------------------------------------

    def current_player(self) -> int:
        table = self.table
        if table.over:
            return pyspiel.PlayerId.TERMINAL
        if table.dealing:
            return pyspiel.PlayerId.CHANCE
        assert table.game is not None and table.game.to_move is not None
        return table.game.to_move

    def is_terminal(self) -> bool:
        return self.table.over

    def _legal_actions(self, player: int) -> list[int]:
        game = self.table.game
        assert game is not None
        return self.setup.encoding.action_ids(game.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        table = self.table
        if table.dealer is None:
            return [(seat, 1.0 / self.setup.players) for seat in range(self.setup.players)]
        left = sorted(set(range(52)) - set(table.dealt))
        return [(card, 1.0 / len(left)) for card in left]

    def returns(self) -> list[float]:
        game = self.table.game
        if not self.table.over or game is None:
            return [0.0] * self.setup.players
        return [float(score) for score in game.scores]

    # -- moves -------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table.dealing:
            self._deal(action)
            return
        game = table.game
        assert game is not None
        seat, hands, blind = game.to_move, len(game.hands_played), self._blind_hand()
        move = self.setup.encoding.action(action)
        game.apply(move)
        table.log.append((_ALL, 0, f"p{seat} {move}"))
        if blind and len(game.hands_played) > hands:
            # pbmserv's blind hand played itself once bid: every card is shown.
            shown = " ".join(f"p{s} {c}" for s, c in enumerate(table.blind_cards))
            table.log.append((_ALL, 0, f"the blind hand plays itself: {shown}"))
        if game.is_over or len(game.hands_played) >= self.setup.hand_limit:
            table.over = True
        elif len(game.hands_played) > hands:
            self._next_hand(game)

    def _deal(self, outcome: int) -> None:
        table, setup = self.table, self.setup
        if table.dealer is None:  # the draw for first dealer
            table.dealer = outcome
            self._log_hand_start()
            table.hand_start = len(self.history()) + 1
            return
        n = setup.players
        position = len(table.dealt)
        table.dealt.append(outcome)
        card = CARDS[outcome]
        if position < table.size * n:
            seat = table.receiver(position, n)
            kind = _OTHERS if self._blind_hand() else _SEAT
            table.log.append((kind, seat, f"p{seat} is dealt {card}"))
        else:
            table.log.append((_ALL, 0, f"turn-up {card}"))
        if len(table.dealt) == table.size * n + setup.turn_up_dealt(table.size):
            self._start_play()

    def _blind_hand(self) -> bool:
        """Whether the hand being dealt or played is pbmserv's blind first hand."""
        table = self.table
        first = table.game is None or table.game.hand_index == 0
        return self.setup.rules.blind_first_hand and first and table.size == 1

    def _start_play(self) -> None:
        table, setup = self.table, self.setup
        n = setup.players
        dealt = table.size * n
        hands = [[table.dealt[k] for k in range(dealt) if table.receiver(k, n) == seat]
                 for seat in range(n)]
        turn_up = table.dealt[dealt] if len(table.dealt) > dealt else None
        if self._blind_hand():
            table.blind_cards = [CARDS[hand[0]] for hand in hands]
        if table.game is None:
            table.game = Game.new(setup.rules, setup.names,
                                  deals=[Deal(hands=hands, turn_up=turn_up, dealer=table.dealer)])
        else:
            _deal_next_hand(table.game, Deal(hands=hands, turn_up=turn_up))
        table.dealing = False
        table.dealt = []

    def _next_hand(self, game: Game) -> None:
        table = self.table
        table.dealing = True
        table.dealer = game.dealer
        table.size = game.cards
        table.hand_start = len(self.history()) + 1  # this action is not in it yet
        self._log_hand_start()

    def _log_hand_start(self) -> None:
        table = self.table
        number = 1 if table.game is None else table.game.hand_number
        cards = "1 card" if table.size == 1 else f"{table.size} cards"
        self.table.log.append((_ALL, 0, f"hand {number}: {cards}, dealer p{table.dealer}"))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.table.dealer is None:
                return f"first dealer p{action}"
            return f"deal {CARDS[action]}"
        return str(self.setup.encoding.action(action))

    def __str__(self) -> str:
        game = self.table.game
        if game is None:
            return "dealing the first hand"
        state = "over" if self.table.over else f"hand {game.hand_number}, {game.phase}"
        hands = " | ".join(" ".join(map(str, cards_in(h))) for h in game.hands)
        return f"{state}; scores {game.scores}; hands {hands}"

    # -- what a player knows -------------------------------------------------------------

    def view(self, player: int) -> tuple[View, bool]:
        """What ``player`` may know now, and whether its hand is still being dealt."""
        table, setup = self.table, self.setup
        if not table.dealing:
            assert table.game is not None
            return table.game.view(player), False
        base = (setup.template if table.game is None else table.game).view(player)
        n = setup.players
        received = [0] * n
        for k, card in enumerate(table.dealt[:table.size * n]):
            received[table.receiver(k, n)] |= 1 << card
        visible = [(s != player) == self._blind_hand() for s in range(n)]
        view = dataclasses.replace(
            base, hands=tuple(received[s] if visible[s] else None for s in range(n)),
            dealer=-1 if table.dealer is None else table.dealer, cards_dealt=table.size,
            to_move=None, bids=(None,) * n, turn_up=None, trump=None, trump_decided=False,
            declarer=None, leader=None, trick=(), tricks=(), tricks_won=(0,) * n,
            legal_actions=(), blind=self._blind_hand())
        return view, True

    def information_log(self, player: int, private: bool = True) -> list[str]:
        """Every entry of the game's log ``player`` has seen, in order (``private``
        False: only what every player has seen)."""
        return [text for kind, seat, text in self.table.log
                if kind == _ALL or (private and (kind == _SEAT) == (seat == player))]

    # -- resampling --------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> BlackoutState:
        """A state ``player_id`` cannot tell from this one, the hidden cards of the hand in
        play dealt uniformly from every card it cannot see, voids respected."""
        rng = random.Random(int(probability_sampler() * 2.0**53))
        table = self.table
        history = self.history()
        if table.dealer is None or (table.dealing and not table.dealt):
            return self._replayed(history)
        view, dealing = self.view(player_id)
        if dealing:
            counts = [0] * self.setup.players
            for k in range(min(len(table.dealt), table.size * self.setup.players)):
                counts[table.receiver(k, self.setup.players)] += 1
            unplayed = _deal_partial(view, counts, rng)
        else:
            unplayed = _deal_unseen(view, rng)
        played = view.played_by() if not dealing else [0] * self.setup.players
        fresh = [unplayed[s] | played[s] for s in range(self.setup.players)]
        start = table.hand_start
        n, size = self.setup.players, table.size
        dealt = history[start:start + min(len(history) - start, size * n)]
        new_cards = {s: sorted(cards_in(fresh[s])) for s in range(n)}
        redealt = []
        for k, card in enumerate(dealt):
            seat = table.receiver(k, n)
            if view.hands[seat] is not None:
                redealt.append(card)  # a hand the player sees keeps its order
            else:
                redealt.append(int(new_cards[seat].pop()))
        state = self._at_hand_start()
        for action in [*redealt, *history[start + len(dealt):]]:
            state.apply_action(action)
        return state

    def _at_hand_start(self) -> BlackoutState:
        """A fresh copy of this game as it stood when the hand in play began to be dealt
        (replayed once per hand, then kept: search resamples one position many times)."""
        table = self.table
        if table.start_cache is None or table.start_cache[0] != table.hand_start:
            table.start_cache = (table.hand_start,
                                 self._replayed(self.history()[:table.hand_start]))
        return table.start_cache[1].clone()

    def _replayed(self, actions: list[int]) -> BlackoutState:
        state = self.get_game().new_initial_state()
        for action in actions:
            state.apply_action(action)
        return state


def _deal_next_hand(game: Game, deal: Deal) -> None:
    """Replace the hand the core dealt from its seed by the cards chance dealt.

    The core starts each hand by itself when the last one ends; a game given its deals
    in advance plays them instead, so the deal is added to the game's deals and the hand
    started again from it (nothing of the new hand has happened yet).
    """
    game._redeal(deal)


def _deal_unseen(view: View, rng: random.Random) -> list[int]:
    """Every seat's unplayed cards: the hands ``view`` sees as they are, the others
    dealt uniformly from the cards it has not seen, among the deals that respect every
    void shown.  Whole deals are drawn and the ones that break a void refused (exactly
    uniform); after many refusals the bots' sampler, which deals the most constrained
    seat first, gives a nearly uniform one."""
    sampler = Sampler(view)
    pool = list(cards_in(sampler.unseen))
    for _ in range(_UNIFORM_TRIES):
        rng.shuffle(pool)
        hands = [h or 0 for h in sampler.known]
        at = 0
        for seat in sampler.hidden:
            want = sampler.counts[seat]
            hand = sum(1 << card for card in pool[at:at + want])
            at += want
            if hand & ~sampler.allowed[seat]:
                break
            hands[seat] = hand
        else:
            return hands
    return sampler.sample_python(rng)


def _deal_partial(view: View, counts: list[int], rng: random.Random) -> list[int]:
    """While a hand is being dealt: the cards already dealt to the hands ``view`` does not
    see (``counts[seat]`` of them), drawn afresh from the cards it has not seen."""
    seen = 0
    for hand in view.hands:
        seen |= hand or 0
    pool = [c for c in range(52) if not seen >> c & 1]
    rng.shuffle(pool)
    hands = []
    for seat, known in enumerate(view.hands):
        if known is not None:
            hands.append(known)
            continue
        take, pool = pool[:counts[seat]], pool[counts[seat]:]
        hands.append(sum(1 << c for c in take))
    return hands


# -- observations --------------------------------------------------------------------------


class _Observer:
    """OpenSpiel's Python observer: the tensors and strings of one player's view, or of
    the public part of it alone (``private`` False: no hand is shown)."""

    def __init__(self, setup: _Setup, perfect_recall: bool, private: bool) -> None:
        self.setup = setup
        self.perfect_recall = perfect_recall
        self.private = private
        encoding = setup.encoding
        blocks = list(encoding.blocks())
        if perfect_recall:
            blocks.append(("sequence", encoding.sequence_size))
        self.tensor = np.zeros(sum(size for _, size in blocks), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in blocks:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def _view(self, state: BlackoutState, player: int) -> tuple[View, bool]:
        view, dealing = state.view(player)
        if not self.private:
            view = dataclasses.replace(view, hands=(None,) * len(view.hands))
        return view, dealing

    def set_from(self, state: BlackoutState, player: int) -> None:
        view, dealing = self._view(state, player)
        encoding = self.setup.encoding
        size = encoding.observation_size
        encoding.fill_observation(self.tensor[:size], view, dealing)
        if self.perfect_recall:
            self.tensor[size:] = encoding.sequence(view)

    def string_from(self, state: BlackoutState, player: int) -> str:
        if self.perfect_recall:
            seen = state.information_log(player, private=self.private)
            return f"p{player}: " + "; ".join(seen)
        return position_text(*self._view(state, player))


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for preset in PRESETS:
        if game_name(preset) in registered:
            continue
        # A class per preset, as OpenSpiel's own Python games register (a plain
        # function as the creator crashes the interpreter as it exits).
        game_class = type(f"Blackout{preset.title()}Game", (BlackoutGame,),
                          {"preset": preset, "__module__": __name__})
        pyspiel.register_game(_game_type(preset), game_class)


_register()
