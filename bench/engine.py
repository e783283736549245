"""Rules-engine throughput: random legal play, ours against OpenSpiel's ``oh_hell``.

Both engines play the same game: 4 players, one hand of 12 cards, a turned-up trump,
the hook on the last bidder, 1 point a trick + 10 for an exact bid.  Both are driven
from Python the same way, one decision at a time: ``legal_actions`` -> ``random.choice``
-> ``apply``.  OpenSpiel's chance nodes (dealer, 48 cards, the trump card) are sampled
from ``chance_outcomes()`` with the same ``random.Random``; ours deals inside
``Game.new`` from a seed drawn from that generator.  Rounds alternate (ours, theirs,
ours, ...) and medians are reported, because other work shares the machine.  First, a
few hundred hands are played move for move in both engines to check that they really
play the same game.

Run from the repository root (see bench/README.md)::

    python bench/engine.py                 # both engines if open_spiel is installed
    python bench/engine.py --hands 2000 --rounds 9 --json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from abc import ABC, abstractmethod
from datetime import UTC, datetime
from importlib import metadata
from typing import Any

import blackout
from blackout import Card, Game, Play
from blackout.core.fast import COMPILED, FastGame, ReferenceGame

PLAYERS = ("north", "east", "south", "west")
CARDS_PER_HAND = 12

#: OpenSpiel's oh_hell in our terms: seat 0 bids first and leads (the dealer is seat 3),
#: the next card of the deck is trump, the hook binds the last bidder, no blind hand.
RULES = blackout.variant(
    "pbmserv", schedule=[CARDS_PER_HAND], last_hand_no_trump=False,
    scoring="tricks_plus_ten", inorder=True,
)


class Engine(ABC):
    """One engine under test: how to deal a hand and how to play it out at random."""

    name = ""

    @abstractmethod
    def deal(self, rng: random.Random) -> Any:
        """A new hand, dealt, waiting for the first bid."""

    @abstractmethod
    def play_out(self, state: Any, rng: random.Random) -> None:
        """Make random legal decisions until the hand is over."""

    def play(self, hands: int, rng: random.Random) -> None:
        """Deal and play ``hands`` hands, one after the other."""
        deal, play_out = self.deal, self.play_out
        for _ in range(hands):
            play_out(deal(rng), rng)


class Ours(Engine):
    """Our engine: the compiled one when it is built, or the pure-Python reference."""

    def __init__(self, game: type[Game] = Game, name: str = "blackout") -> None:
        self.game = game
        self.name = name

    def deal(self, rng: random.Random) -> Game:
        return self.game.new(RULES, PLAYERS, seed=rng.getrandbits(63))

    def play_out(self, state: Game, rng: random.Random) -> None:
        choice = rng.choice
        while not state.is_over:
            state.apply(choice(state.legal_actions()))


class OpenSpiel(Engine):
    """OpenSpiel's oh_hell driven the fastest ordinary way: every node, chance nodes
    included, by ``apply_action(choice(legal_actions()))``.  Its chance nodes (the
    dealer, each card dealt, the trump card) all have equally likely outcomes, so a
    uniform choice among the legal actions samples them exactly."""

    name = "open_spiel"

    def __init__(self, pyspiel: Any) -> None:
        self.game = pyspiel.load_game(
            "oh_hell", {"players": len(PLAYERS), "num_tricks_fixed": CARDS_PER_HAND})

    def deal(self, rng: random.Random) -> Any:
        state = self.game.new_initial_state()
        choice = rng.choice
        while state.is_chance_node():
            state.apply_action(choice(state.legal_actions()))
        return state

    def play_out(self, state: Any, rng: random.Random) -> None:
        choice = rng.choice
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))

    def play(self, hands: int, rng: random.Random) -> None:
        # One loop for chance and decision nodes alike: the shortest way to drive it.
        new_state, choice = self.game.new_initial_state, rng.choice
        for _ in range(hands):
            state = new_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))


class OpenSpielChanceOutcomes(OpenSpiel):
    """The same, but each chance node sampled from ``chance_outcomes()`` (a list of
    (action, probability) pairs): a slower way, kept as a second, labelled line."""

    name = "open_spiel (chance_outcomes)"

    def deal(self, rng: random.Random) -> Any:
        state = self.game.new_initial_state()
        choice = rng.choice
        while state.is_chance_node():
            state.apply_action(choice(state.chance_outcomes())[0])
        return state

    def play(self, hands: int, rng: random.Random) -> None:
        Engine.play(self, hands, rng)


def check_same_game(pyspiel: Any, hands: int, seed: int = 12345) -> None:
    """Play ``hands`` hands in both engines with the same cards and the same moves,
    and stop the benchmark unless every decision offers the same legal actions to the
    same player and every hand ends with the same scores."""
    engine = OpenSpiel(pyspiel)
    probe = engine.game.new_initial_state()
    probe.apply_action(CARDS_PER_HAND)  # chance: the number of tricks
    probe.apply_action(0)               # chance: the dealer; cards are dealt next
    # OpenSpiel names a card suit first ("DT"), ours rank first ("10D").
    theirs_to_ours = [Card.parse(name[1:] + name[0]) for name in
                      (probe.action_to_string(a) for a in range(52))]
    ours_to_theirs = {card: a for a, card in enumerate(theirs_to_ours)}
    players = len(PLAYERS)
    rng = random.Random(seed)
    for number in range(1, hands + 1):
        state = engine.deal(rng)
        # History: number of tricks, dealer, the cards dealt in turn from player 0,
        # then the trump card.
        _, dealer, *cards = state.history()
        dealt = [theirs_to_ours[a] for a in cards]
        deal = blackout.Deal(hands=[dealt[seat:-1:players] for seat in range(players)],
                             turn_up=dealt[-1], dealer=dealer)
        ours = FastGame.new(RULES, PLAYERS, deals=[deal])
        while not state.is_terminal():
            legal = sorted(state.legal_actions())
            mapped = sorted(_theirs(a, ours_to_theirs) for a in ours.legal_actions())
            if state.current_player() != ours.to_move or legal != mapped:
                sys.exit(f"hand {number}: the engines disagree on the legal moves "
                         f"(OpenSpiel seat {state.current_player()}: {legal}, "
                         f"ours seat {ours.to_move}: {mapped})")
            action = rng.choice(legal)
            state.apply_action(action)
            ours.apply(str(theirs_to_ours[action]) if action < 52 else str(action - 52))
        if not ours.is_over or ours.scores != [round(r) for r in state.returns()]:
            sys.exit(f"hand {number}: the engines disagree on the scores "
                     f"(OpenSpiel {state.returns()}, ours {ours.scores})")


def _theirs(action: Any, ours_to_theirs: dict[Card, int]) -> int:
    """Our action as OpenSpiel's number: cards 0..51, a bid of n is 52 + n."""
    return ours_to_theirs[action.card] if isinstance(action, Play) else 52 + action.tricks


def measure(engine: Engine, hands: int, seed: int) -> dict[str, float]:
    """Hands per second dealing and playing one hand after another, then the same
    work split in two: microseconds a hand to deal, and to make the 52 decisions."""
    rng = random.Random(seed)
    gc.collect()
    start = time.perf_counter()
    engine.play(hands, rng)
    rate = hands / (time.perf_counter() - start)
    gc.collect()
    start = time.perf_counter()
    states = [engine.deal(rng) for _ in range(hands)]
    dealt = time.perf_counter()
    for state in states:
        engine.play_out(state, rng)
    done = time.perf_counter()
    return {"hands_per_second": rate, "deal_us": (dealt - start) / hands * 1e6,
            "decisions_us": (done - dealt) / hands * 1e6}


#: A whole game of the standard preset for the memory of a long game: 25 hands of 1 to 13
#: and back down, each kept as a finished hand (and what undo needs to take it back).
WHOLE_GAME = blackout.variant("standard")


def bytes_per_game(game_class: type[Game], stage: str, games: int = 500) -> int:
    """Memory held by one of our game objects (tracemalloc, shared tables excluded).

    ``stage``: ``"new"`` just dealt, ``"mid"`` after the bids and 6 tricks,
    ``"over"`` after the hand (history, tricks and the score row included), ``"game"``
    a whole 25-hand game of the standard preset played to its end.
    """
    rng = random.Random(7)
    rules = WHOLE_GAME if stage == "game" else RULES
    moves = {"new": 0, "mid": len(PLAYERS) * (1 + 6), "over": 10_000, "game": 10**6}[stage]
    if stage == "game":
        games = max(1, games // 5)
    Ours(game_class).play(1, rng)  # load every lazily built table before measuring
    game_class.new(rules, PLAYERS, seed=0)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    kept = []
    for _ in range(games):
        game = game_class.new(rules, PLAYERS, seed=rng.getrandbits(63))
        for _ in range(moves):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        kept.append(game)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return round(used / games)


#: The bench's hand followed by a second one: for an undo across a hand's end.
TWO_HANDS = blackout.variant(
    "pbmserv", schedule=[CARDS_PER_HAND, CARDS_PER_HAND - 1], last_hand_no_trump=False,
    scoring="tricks_plus_ten", inorder=True,
)


def _played(game_class: type[Game], rules: Any, moves: int) -> Game:
    rng = random.Random(3)
    game = game_class.new(rules, PLAYERS, seed=5)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
    return game


def search_costs(pyspiel: Any | None, rounds: int = 7, calls: int = 20_000) -> dict[str, float]:
    """Microseconds a call of what a search does at every node, halfway through a hand
    (bids made, 18 cards played), for each of our engines: ``copy()``, and ``apply`` +
    ``undo`` of one card — one in mid-trick, one that ends a trick, and one that ends
    the hand (the hand is scored and the next one dealt, then all taken back) — beside
    OpenSpiel's ``clone()`` (its ``oh_hell`` has no undo); medians of rounds that
    alternate between them."""
    timed: dict[str, Any] = {}
    for ours in our_engines():
        game = _played(ours.game, RULES, len(PLAYERS) + 18)
        card = game.legal_actions()[0]
        ender = _played(ours.game, RULES, len(PLAYERS) + 19)
        last_card = ender.legal_actions()[0]
        hand_ender = _played(ours.game, TWO_HANDS, len(PLAYERS) * (1 + CARDS_PER_HAND) - 1)
        hand_last = hand_ender.legal_actions()[0]
        assert hand_ender.hand_number == 1 and ender.trick and len(ender.trick) == 3

        def pair(game: Game, action: Any) -> Any:
            apply, undo = game.apply, game.undo

            def play_and_undo() -> None:
                apply(action)
                undo()
            return play_and_undo

        timed[f"{ours.name} copy()"] = game.copy
        timed[f"{ours.name} apply() + undo()"] = pair(game, card)
        timed[f"{ours.name} apply() + undo(), a trick's last card"] = pair(ender, last_card)
        timed[f"{ours.name} apply() + undo(), a hand's last card"] = pair(hand_ender,
                                                                           hand_last)
    if pyspiel is not None:
        rng = random.Random(3)
        state = OpenSpiel(pyspiel).deal(rng)
        for _ in range(len(PLAYERS) + 18):
            state.apply_action(rng.choice(state.legal_actions()))
        timed["open_spiel clone()"] = state.clone
    samples: dict[str, list[float]] = {name: [] for name in timed}
    for _ in range(rounds):
        for name, call in timed.items():
            slow = "python" in name or "hand's last" in name
            count = calls // 10 if slow else calls
            start = time.perf_counter()
            for _ in range(count):
                call()
            samples[name].append((time.perf_counter() - start) / count * 1e6)
    return {name: round(statistics.median(times), 3) for name, times in samples.items()}


def versions(pyspiel: Any | None) -> dict[str, str]:
    out = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "blackout": blackout.__version__,
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}",
    }
    if pyspiel is not None:
        out["open_spiel"] = metadata.version("open_spiel")
    return out


def load_pyspiel() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def our_engines() -> list[Ours]:
    """The compiled engine when it is built, and the pure-Python reference."""
    if COMPILED:
        return [Ours(FastGame, "blackout"), Ours(ReferenceGame, "blackout (python)")]
    return [Ours(ReferenceGame, "blackout (python)")]


def run(hands: int, rounds: int, check: int) -> dict[str, Any]:
    pyspiel = load_pyspiel()
    ours = our_engines()
    engines: list[Engine] = list(ours)
    if pyspiel is not None:
        check_same_game(pyspiel, check)
        print(f"same game: {check} hands played move for move in both engines agree",
              file=sys.stderr)
        engines += [OpenSpiel(pyspiel), OpenSpielChanceOutcomes(pyspiel)]
    samples: dict[str, list[dict[str, float]]] = {e.name: [] for e in engines}
    for round_number in range(rounds):
        for engine in engines:
            sample = measure(engine, hands, seed=round_number)
            samples[engine.name].append(sample)
            print(f"round {round_number + 1}/{rounds}  {engine.name:<28} "
                  f"{sample['hands_per_second']:7.0f} hands/s  deal {sample['deal_us']:5.1f} us"
                  f"  decisions {sample['decisions_us']:6.1f} us", file=sys.stderr)
    result: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "versions": versions(pyspiel),
        "compiled_engine": COMPILED,
        "hands_per_round": hands,
        "rounds": rounds,
        "engines": {name: _summary(runs) for name, runs in samples.items()},
        "search_us_per_call": search_costs(pyspiel),
        "bytes_per_game": {e.name: {stage: bytes_per_game(e.game, stage)
                                    for stage in ("new", "mid", "over", "game")}
                           for e in ours},
    }
    if pyspiel is not None:
        result["same_game_checked_hands"] = check
        # The headline compares our fastest engine with OpenSpiel's fastest way.
        summaries = result["engines"]
        theirs = max(("open_spiel", "open_spiel (chance_outcomes)"),
                     key=lambda name: summaries[name]["hands_per_second"]["median"])
        result["ratios"] = {
            e.name: _ratios(samples[e.name], samples[theirs], against=theirs) for e in ours}
    return result


def _ratios(ours: list[dict[str, float]], theirs: list[dict[str, float]],
            against: str) -> dict[str, Any]:
    mine = statistics.median(r["hands_per_second"] for r in ours)
    other = statistics.median(r["hands_per_second"] for r in theirs)
    # Each round's runs are back to back, so their ratio shares the machine's load of
    # the moment; the median of these ratios is the steadier comparison.
    paired = [a["hands_per_second"] / b["hands_per_second"]
              for a, b in zip(ours, theirs, strict=True)]
    return {"against": against, "ratio_of_medians": round(mine / other, 2),
            "paired_ratio_median": round(statistics.median(paired), 2)}


def _summary(runs: list[dict[str, float]]) -> dict[str, Any]:
    rates = [r["hands_per_second"] for r in runs]
    return {
        "hands_per_second": {"median": round(statistics.median(rates)),
                             "min": round(min(rates)), "max": round(max(rates))},
        "deal_us_median": round(statistics.median(r["deal_us"] for r in runs), 1),
        "decisions_us_median": round(statistics.median(r["decisions_us"] for r in runs), 1),
    }


def report(result: dict[str, Any]) -> str:
    lines = [f"{result['date']}; " + ", ".join(f"{k} {v}" for k, v in
                                                result["versions"].items())]
    lines.append(f"{result['rounds']} interleaved rounds of {result['hands_per_round']} hands "
                 "(4 players, 12 cards, turned-up trump, hook), medians:")
    for name, summary in result["engines"].items():
        rate = summary["hands_per_second"]
        lines.append(f"  {name:<28} {rate['median']:>6} hands/s (min {rate['min']}, "
                     f"max {rate['max']}); per hand: deal {summary['deal_us_median']} us, "
                     f"52 decisions {summary['decisions_us_median']} us")
    if "same_game_checked_hands" in result:
        lines.append(f"  same game: {result['same_game_checked_hands']} hands played move "
                     "for move in both engines gave the same legal moves and scores")
    if "ratios" in result:
        for name, ratio in result["ratios"].items():
            lines.append(f"  {name} / {ratio['against']} = {ratio['ratio_of_medians']} "
                         f"(ratio of medians); {ratio['paired_ratio_median']} "
                         "(median of the per-round ratios)")
    else:
        lines.append("  open_spiel is not installed: measured blackout only "
                     "(pip install -e '.[bench]' to compare)")
    lines.append("search, us a call halfway through a hand: " + ", ".join(
        f"{name} {us}" for name, us in result["search_us_per_call"].items()))
    for name, memory in result["bytes_per_game"].items():
        lines.append(f"memory per {name} game object: {memory['new']} bytes new, "
                     f"{memory['mid']} after bids + 6 tricks, {memory['over']} finished; "
                     f"{memory['game']} after a whole 25-hand standard game")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per round (1000)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds per engine (15)")
    parser.add_argument("--check", type=int, default=200,
                        help="hands first played move for move in both engines to check "
                             "they play the same game (200)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    if args.hands < 1 or args.rounds < 1 or args.check < 0:
        parser.error("--hands and --rounds must be at least 1, --check at least 0")
    if load_pyspiel() is None:
        print("open_spiel is not installed: measuring blackout only "
              "(pip install -e '.[bench]' to compare with OpenSpiel's oh_hell)",
              file=sys.stderr)
    result = run(args.hands, args.rounds, args.check)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
