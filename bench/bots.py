"""The ``expert`` bot against OpenSpiel's ``ISMCTSBot`` on OpenSpiel's own ``oh_hell``.

One hand of 7 or 12 cards, 4 players, a turned-up trump, the hook on the dealer (who
bids last), 1 point a trick + 10 for an exact bid.  Every deal is played twice: one
expert seat against three ISMCTS seats, then one ISMCTS seat against three experts
(the lone seat moves round the table from deal to deal), with the same cards both
times and the same wall-clock time per decision for every bot.

Each game runs in OpenSpiel and in our engine side by side: OpenSpiel deals (chance
actions), the deal is mirrored into ours as a :class:`blackout.Deal`, and every move is
applied to both.  The bench asserts at every decision that both engines offer the same
legal actions, and at the end that both give the same scores.

**OpenSpiel's oh_hell leaks the deal to ISMCTS.**  ISMCTS draws a world for every
simulation with the game's ``ResampleFromInfostate``, and oh_hell's (open_spiel 2.0.2)
deals the opponents only cards they really hold: it shuffles the true opponents' cards
among them and never deals a card that was left in the deck (``--leak-check`` measures
it).  With 7 cards a hand, 23 of the 44 cards a player cannot see are not in play, and
ISMCTS is told which.  So by default (``--ismcts-root redealt``) every ISMCTS decision
is searched from roots whose hidden cards were dealt afresh from everything the player
cannot see (voids respected, :class:`blackout.bots.sampling.Sampler`): ``--redeals K``
roots (by default its best at 0.5 s a decision: 32 on 7 cards, 8 on 12), each searched
for 1/K of the budget, their root visit counts added, the most visited action played, as
OpenSpiel's ``MAX_VISIT_COUNT`` does.  Its own resampler still shuffles a root's cards
among the opponents in every simulation.  Its UCB constant (``--uct-c``, 5) and one random
rollout a leaf (``--rollouts``, 1) are also its best measured at 0.5 s a decision: with 32
roots on 7 cards 2.5 and 10 did no better and 4 rollouts worse, with 8 roots on 12 cards
none of them did measurably better (bench/RESULTS.md, "Thirty-seventh session" and
"Thirty-eighth session").
``--ismcts-root as-is`` plays OpenSpiel's bot exactly as shipped, leak included.
``--ismcts-root inferred`` draws the redealt roots as the expert draws the deals it
searches (the others' bids and cards judged by the learnt models, see
:mod:`blackout.bots.inference`), the time the draw takes out of ISMCTS's clock: OpenSpiel's
search on the expert's knowledge of the hidden cards, which says how much of a margin is
the search's and how much the inference's.

Every deal is a game of one hand, and by default every game gets new experts.  With
``--match`` an expert seat is played from deal to deal by the bot that played it at the
same table (the same seats experts), which takes in each hand it ends as it takes in the
hands of a game (:func:`learn_the_hand`): a match against the same players, in which it
learns their habits.

Margin per hand = score of the expert seat(s) minus score of the ISMCTS seat(s) (the
mean over a side when it holds three seats).  Run from the repository root in the
venv that has open_spiel and blackout::

    /tmp/osvenv/bin/python bench/bots.py --cards 7 --deals 40 --think 0.2
    /tmp/osvenv/bin/python bench/bots.py --tune --cards 7 --deals 10   # ISMCTS settings
    /tmp/osvenv/bin/python bench/bots.py --leak-check                  # the resampling leak

With ``--simulations N --iterations M`` both bots get fixed budgets instead of a clock
(ISMCTS ``N`` simulations a decision, the expert ``M`` sampled deals per candidate on
one worker), so the result does not depend on the machine's load and two expert
versions can be compared on the same deals, on a busy machine too.  (The expert is
then repeatable from its seed; OpenSpiel's ISMCTS is not quite: the same seed and
simulations sometimes give another card.)::

    /tmp/osvenv/bin/python bench/bots.py --cards 7 --deals 80 --simulations 6000 --iterations 1000
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import pyspiel

from ab import make_bot, oh_hell_rules  # bench/ is on the path when run as a script
from blackout import Deal, Game
from blackout.arena import mean_interval
from blackout.bots import tree
from blackout.bots.expert import ExpertBot
from blackout.bots.sampling import Sampler
from blackout.core.actions import BIDS, PLAYS, Action, Bid, Play
from blackout.core.cards import mask_of
from blackout.core.view import View

PLAYERS = 4
# OpenSpiel's suits are C, D, S, H (kSuitChar "CDSH"), ours C, D, H, S.
_OUR_SUIT = (0, 1, 3, 2)
_OS_SUIT = (0, 1, 3, 2)


def os_card_to_ours(card: int) -> int:
    """OpenSpiel card id ``rank * 4 + suit`` to ours ``suit * 13 + rank``."""
    rank, suit = divmod(card, 4)
    return _OUR_SUIT[suit] * 13 + rank


def our_card_to_os(card: int) -> int:
    suit, rank = divmod(card, 13)
    return rank * 4 + _OS_SUIT[suit]


def os_action_to_ours(action: int) -> Action:
    """Bids are ``52 + n`` in OpenSpiel's oh_hell, cards are card ids."""
    return BIDS[action - 52] if action >= 52 else PLAYS[os_card_to_ours(action)]


def our_action_to_os(action: Action) -> int:
    if isinstance(action, Bid):
        return 52 + action.tricks
    assert isinstance(action, Play)
    return our_card_to_os(action.card)


def deal_openspiel(game: pyspiel.Game, rng: random.Random) -> pyspiel.State:
    """A new OpenSpiel state with the chance moves (hand size, dealer, cards) made."""
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, _ = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choice(actions))
    return state


def mirror_deal(state: pyspiel.State, cards: int) -> Deal:
    """Our Deal for an OpenSpiel state just dealt: seat ``p`` is OpenSpiel's player ``p``."""
    history = state.history()
    # History: [hand size, dealer, then the dealt cards in order, the last one is trump].
    dealer = history[1]
    dealt = history[2:2 + PLAYERS * cards]
    hands = [[os_card_to_ours(c) for c in dealt[p::PLAYERS]] for p in range(PLAYERS)]
    return Deal(hands=hands, turn_up=os_card_to_ours(history[2 + PLAYERS * cards]),
                dealer=dealer)


def redeal(os_game: pyspiel.Game, state: pyspiel.State, view: View,
           rng: random.Random, unplayed: list[int] | None = None) -> pyspiel.State:
    """A state the deciding player cannot tell from ``state``: its own cards, every card
    played and the trump card where they are, the cards it cannot see (``view`` is its
    view in our engine) dealt afresh, voids respected (or as ``unplayed`` deals every
    seat's unplayed cards)."""
    players, cards = view.players_count, view.cards_dealt
    if unplayed is None:
        unplayed = Sampler(view).sample(rng)
    played = view.played_by()
    dealt = [[our_card_to_os(c) for c in range(52) if (unplayed[p] | played[p]) >> c & 1]
             for p in range(players)]
    history = state.history()
    fresh = os_game.new_initial_state()
    fresh.apply_action(history[0])  # hand size
    fresh.apply_action(history[1])  # dealer
    for i in range(players * cards):  # OpenSpiel deals card i to player i mod players
        fresh.apply_action(dealt[i % players][i // players])
    for action in history[2 + players * cards:]:  # the trump card, bids and plays
        fresh.apply_action(action)
    assert (fresh.information_state_string(view.seat)
            == state.information_state_string(view.seat))
    return fresh


class ISMCTS:
    """OpenSpiel's C++ information-set MCTS, on a clock or a fixed number of simulations.

    ``redeals`` 0 plays it as shipped, searching the real state (whose hidden cards its
    resampler leaks, see the module docstring); ``redeals`` K searches K roots with the
    hidden cards dealt afresh, 1/K of the budget each, and plays the action most visited
    over all of them.  With ``inferred`` those roots are drawn as the expert draws the
    deals it searches (:func:`inferred_roots`): ISMCTS's search on the expert's knowledge
    of the hidden cards, the time the draw takes out of its budget.
    """

    def __init__(self, seed: int, think: float, uct_c: float, final_policy: str,
                 rollouts: int, simulations: int | None = None, redeals: int = 0,
                 inferred: bool = False) -> None:
        evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
        self.redeals = redeals
        self.rng = random.Random(seed)
        # Only its inference is used: how the others' bids and cards weigh their hands.
        self.inference = ExpertBot(seed=seed, others="policy", workers=1) if inferred else None
        self.uct_c, self.think = uct_c, think
        if redeals:  # read the visit counts of every root, add them up, play the most visited
            final_policy = "NORMALIZED_VISIT_COUNT"
            think /= redeals
            simulations = None if simulations is None else max(1, simulations // redeals)
        policy = getattr(pyspiel.ISMCTSFinalPolicyType, final_policy)
        if simulations is None:  # the clock decides
            self.bot = pyspiel.ISMCTSBot(seed, evaluator, uct_c, 10**7, -1, policy, False,
                                         False, think)
        else:
            self.bot = pyspiel.ISMCTSBot(seed, evaluator, uct_c, simulations, -1, policy,
                                         False, False)
        self._evaluator = evaluator  # keep it alive as long as the bot
        self._one_simulation = pyspiel.ISMCTSBot(seed, evaluator, uct_c, 1, -1, policy, False,
                                                 False)

    def step(self, os_game: pyspiel.Game, state: pyspiel.State, view: View) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        if not self.redeals:
            return int(self.bot.step(state))
        visits = dict.fromkeys(legal, 0.0)
        bot = self.bot
        deals: list[list[int] | None] = [None] * self.redeals  # None: redeal() deals afresh
        if self.inference is not None:
            started = time.monotonic()
            deals = list(inferred_roots(self.inference, view, self.redeals, self.rng))
            left = self.think - (time.monotonic() - started)
            bot = self._timed_bot(max(left, 0.001) / self.redeals)
        for unplayed in deals:
            root = redeal(os_game, state, view, self.rng, unplayed)
            try:
                policy = bot.get_policy(root)
            except pyspiel.SpielError:  # no simulation ended inside this root's slice
                continue
            for action, share in policy:
                visits[action] += share
        if not any(visits.values()):  # a clock too short for even one simulation a root
            return int(self._one_simulation.step(redeal(os_game, state, view, self.rng)))
        return int(max(legal, key=visits.__getitem__))

    def _timed_bot(self, seconds: float) -> Any:
        """A bot searching each root for ``seconds`` (the clock left after the draw)."""
        policy = pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT
        return pyspiel.ISMCTSBot(self.rng.randrange(2**31), self._evaluator, self.uct_c,
                                 10**7, -1, policy, False, False, seconds)


#: Redealt roots a fair ISMCTS decision searches by default, on hands of up to
#: ``MANY_OUT_OF_PLAY`` cards and on larger ones: its best at the issue's 0.5 s a decision.
#: On 7 cards (23 of the 44 unseen cards out of play) 32 and 64 roots did equally well and
#: 8 worse; on 12 cards (3 of 39) 32 did no better than 8 (bench/RESULTS.md,
#: "Thirty-sixth session"; at 0.05 s 8 did best on 7 cards, "Fifth session").
REDEALS_SMALL_HANDS, REDEALS_LARGE_HANDS = 32, 8
MANY_OUT_OF_PLAY = 7


def default_redeals(cards: int) -> int:
    """ISMCTS's best number of redealt roots for hands of ``cards`` cards (see above)."""
    return REDEALS_SMALL_HANDS if cards <= MANY_OUT_OF_PLAY else REDEALS_LARGE_HANDS


#: The fewest deals the inferred roots are drawn from, in proportion to their weights
#: (at least as many as there are roots).
INFERRED_POOL = 16


def inferred_roots(expert: ExpertBot, view: View, roots: int,
                   rng: random.Random) -> list[list[int]]:
    """``roots`` deals of the hidden cards drawn as the expert's search draws its pool:
    each hidden hand to explain its bid, then by what its plays say, the deals kept in
    proportion to their weights (:func:`blackout.bots.tree.draw_pool`)."""
    expert.observe(view)
    models, _weights = expert._models(view)
    fits, plays, _size = expert._evidence(view, models)
    sampler = Sampler(view)
    if fits is None and plays is None:
        return [sampler.sample(rng) for _ in range(roots)]
    pool, logs = tree.draw_pool(sampler, rng, fits, plays, max(INFERRED_POOL, roots))
    if not logs:
        return [pool[i % len(pool)] for i in range(roots)]
    return tree._resampled(pool, logs, rng, roots)


def play_deal(os_game: pyspiel.Game, deal_rng_seed: int, cards: int, expert_seats: set[int],
              think: float, ismcts_settings: dict[str, Any], seed: int,
              iterations: int | None = None,
              workers: int | None = None, variant: str | None = None,
              kept: dict[tuple[frozenset[int], int], Any] | None = None,
              ) -> tuple[list[int], float, float, dict[str, Any]]:
    """Play one deal; return the scores, mean decision seconds (expert, ISMCTS), and
    the hand's record (dealer, bids, tricks).  With ``kept`` (``--match``) an expert
    seat is played by the bot that played it at the same table before (the same seats
    experts), which learns each hand it ends, as it learns the hands of a game."""
    state = deal_openspiel(os_game, random.Random(deal_rng_seed))
    deal = mirror_deal(state, cards)
    game = Game.new(oh_hell_rules(cards), [f"p{i}" for i in range(PLAYERS)], deals=[deal])
    budget: dict[str, Any] = {"think": think} if iterations is None else {"iterations": iterations}
    experts = {s: make_bot(variant or "expert", seed * 10 + s, {"workers": workers, **budget})
               for s in expert_seats
               if kept is None or (frozenset(expert_seats), s) not in kept}
    if kept is not None:
        kept.update({(frozenset(expert_seats), s): bot for s, bot in experts.items()})
        experts = {s: kept[frozenset(expert_seats), s] for s in expert_seats}
    ismcts = {s: ISMCTS(seed * 10 + s, think, **ismcts_settings)
              for s in range(PLAYERS) if s not in expert_seats}
    times: dict[str, list[float]] = {"expert": [], "ismcts": []}
    plays: list[int] = []  # the cards in the order played, for bench/regret.py
    while not state.is_terminal():
        seat = state.current_player()
        assert seat == game.to_move, (seat, game.to_move)
        theirs = sorted(state.legal_actions())
        ours = sorted(our_action_to_os(a) for a in game.legal_actions())
        assert theirs == ours, (theirs, ours)
        start = time.perf_counter()
        if seat in experts:
            bot = experts[seat]
            chosen = (bot.choose_seeing_all(game.view(seat), game)  # ``--variant cheat``
                      if hasattr(bot, "choose_seeing_all") else bot.choose(game.view(seat)))
            move = our_action_to_os(chosen)
            times["expert"].append(time.perf_counter() - start)
        else:
            move = ismcts[seat].step(os_game, state, game.view(seat))
            times["ismcts"].append(time.perf_counter() - start)
        state.apply_action(move)
        action = os_action_to_ours(move)
        game.apply(action)
        if isinstance(action, Play):
            plays.append(int(action.card))
    scores = [int(x) for x in state.returns()]
    assert game.is_over and game.scores == scores, (game.scores, scores)
    if kept is not None:
        for bot in experts.values():
            learn_the_hand(bot)
    hand = game.hands_played[0]
    record = {"dealer": hand.dealer, "hands": [mask_of(h) for h in deal.hands],
              "turn_up": deal.turn_up,
              "bids": [getattr(b, "tricks", None) for b in hand.bids],
              "tricks": list(hand.tricks), "experts": sorted(expert_seats), "plays": plays}
    return scores, _mean(times["expert"]), _mean(times["ismcts"]), record


def learn_the_hand(bot: Any) -> None:
    """Let an expert take in the hand it has just played, as it does when the next hand
    of a game starts (from the last view it was given): in a match of one-hand games
    (``--match``) it learns the other players' habits from deal to deal.  It runs between
    the games, so unlike in a game (where the next hand's first decision does it) its
    time is on no decision's clock."""
    watch = bot._watch
    watch._judge(watch._last)
    if watch.habits is not None:
        watch.habits.learn(watch._last)


def leak_check(cards: int, positions: int, samples: int, seed: int) -> dict[str, Any]:
    """How often a world drawn by OpenSpiel's oh_hell resampler, and one drawn from a
    redealt root, gives the opponents a card that is really still in the deck, against
    how often a uniform deal of the unseen cards would (at the first bid)."""
    os_game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": cards})
    rng = random.Random(seed)
    counts = {"openspiel": [0, 0], "redealt": [0, 0], "uniform": [0, 0]}
    for _ in range(positions):
        state = deal_openspiel(os_game, rng)
        deal = mirror_deal(state, cards)
        game = Game.new(oh_hell_rules(cards), [f"p{i}" for i in range(PLAYERS)], deals=[deal])
        seat = state.current_player()
        view = game.view(seat)
        in_deck = view.unseen() & ~sum(mask_of(h) for h in deal.hands)
        for _ in range(samples):
            worlds = {"openspiel": state.resample_from_infostate(seat, rng.random),
                      "redealt": redeal(os_game, state, view, rng)
                      .resample_from_infostate(seat, rng.random)}
            for name, world in worlds.items():
                dealt = mirror_deal(world, cards)
                opponents = sum(mask_of(dealt.hands[s]) for s in range(PLAYERS)
                                if s != seat)
                counts[name][0] += (opponents & in_deck).bit_count()
                counts[name][1] += opponents.bit_count()
        counts["uniform"][0] += in_deck.bit_count()
        counts["uniform"][1] += view.unseen().bit_count()
    return {name: round(hits / total, 4) for name, (hits, total) in counts.items()}


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def run(cards: int, deals: int, think: float, seed: int, settings: dict[str, Any],
        iterations: int | None = None, workers: int | None = None,
        variant: str | None = None, first: int = 0, match: bool = False) -> dict[str, Any]:
    os_game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": cards})
    lone_expert, lone_ismcts, both = [], [], []
    exact = {"expert": [0, 0], "ismcts": [0, 0]}
    times: dict[str, list[float]] = {"expert": [], "ismcts": []}
    kept: dict[tuple[frozenset[int], int], Any] | None = {} if match else None
    for index in range(first, first + deals):
        lone = index % PLAYERS
        margins = []
        records = []
        for expert_seats in ({lone}, set(range(PLAYERS)) - {lone}):
            scores, t_expert, t_ismcts, record = play_deal(
                os_game, seed * 100003 + index, cards, expert_seats, think, settings,
                seed + index, iterations, workers, variant, kept)
            records.append(record)
            e = [scores[s] for s in expert_seats]
            i = [scores[s] for s in range(PLAYERS) if s not in expert_seats]
            margin = statistics.fmean(e) - statistics.fmean(i)
            margins.append(margin)
            for side, seats in (("expert", expert_seats),
                                ("ismcts", set(range(PLAYERS)) - expert_seats)):
                for s in seats:
                    exact[side][0] += scores[s] >= 10  # +10 only for an exact bid
                    exact[side][1] += 1
            times["expert"].append(t_expert)
            times["ismcts"].append(t_ismcts)
        lone_expert.append(margins[0])
        lone_ismcts.append(margins[1])
        both.append((margins[0] + margins[1]) / 2)
        print(f"deal {index + 1}/{first + deals}: margin {margins[0]:+.1f} (1 expert), "
              f"{margins[1]:+.1f} (3 experts)", file=sys.stderr, flush=True)
        # One line a deal, so that runs on other deals (--first) can be pooled.
        print(json.dumps({"deal": index, "margin": both[-1], "one_expert": margins[0],
                          "three_experts": margins[1], "games": records}), flush=True)
    return {
        "cards": cards, "deals": deals, "think": think, "iterations": iterations, "seed": seed,
        "first": first, "workers": workers, "match": match,
        "ismcts": settings,
        "margin_one_expert": _interval(lone_expert),
        "margin_three_experts": _interval(lone_ismcts),
        "margin_both": _interval(both),
        "exact_rate": {k: m / n for k, (m, n) in exact.items()},
        "seconds_per_decision": {k: _mean(v) for k, v in times.items()},
    }


def _interval(values: list[float]) -> dict[str, Any]:
    interval = mean_interval(values)
    return {"mean": round(interval.mean, 3), "ci95": round(interval.half_width, 3),
            "n": interval.n}


TUNING = [
    {"uct_c": 2.0, "final_policy": "MAX_VISIT_COUNT", "rollouts": 1},
    {"uct_c": 5.0, "final_policy": "MAX_VISIT_COUNT", "rollouts": 1},
    {"uct_c": 10.0, "final_policy": "MAX_VISIT_COUNT", "rollouts": 1},
    {"uct_c": 5.0, "final_policy": "MAX_VALUE", "rollouts": 1},
    {"uct_c": 5.0, "final_policy": "NORMALIZED_VISIT_COUNT", "rollouts": 1},
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=7, choices=range(1, 13), metavar="N")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.2,
                        help="seconds per decision for every bot (default 0.2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, metavar="N",
                        help="the first deal's number (deals FIRST to FIRST+DEALS-1 of "
                             "the seed's series, to pool runs on other deals)")
    parser.add_argument("--variant", metavar="module:NAME",
                        help="play a module's ExpertBot (on PYTHONPATH) instead of the "
                             "shipped expert; 'cheat': the shipped expert shown every "
                             "hand (a ceiling for what inference can give)")
    parser.add_argument("--uct-c", type=float, default=5.0,
                        help="ISMCTS's UCB constant (default 5, its best measured)")
    parser.add_argument("--final-policy", default="MAX_VISIT_COUNT",
                        choices=["MAX_VISIT_COUNT", "MAX_VALUE", "NORMALIZED_VISIT_COUNT"])
    parser.add_argument("--rollouts", type=int, default=1,
                        help="random rollouts per ISMCTS leaf evaluation")
    parser.add_argument("--simulations", type=int, metavar="N",
                        help="ISMCTS simulations a decision instead of --think")
    parser.add_argument("--iterations", type=int, metavar="N",
                        help="expert sampled deals per candidate instead of --think "
                             "(one worker)")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="the expert's worker processes (default: its own, 2 on a "
                             "2-core machine under --think; ISMCTS always uses one core)")
    parser.add_argument("--tune", action="store_true",
                        help="run every ISMCTS setting of TUNING on the same deals")
    parser.add_argument("--ismcts-root", choices=["redealt", "as-is", "inferred"],
                        default="redealt",
                        help="search ISMCTS from roots with the hidden cards dealt afresh "
                             "(default), from the real state as shipped (its resampler "
                             "then leaks the deal), or from roots drawn as the expert draws "
                             "its deals (ISMCTS's search on the expert's inference)")
    parser.add_argument("--redeals", type=int, metavar="K",
                        help=f"redealt roots per ISMCTS decision (default: its best at "
                             f"0.5 s a decision, {REDEALS_SMALL_HANDS} on hands of up to "
                             f"{MANY_OUT_OF_PLAY} cards, {REDEALS_LARGE_HANDS} on larger)")
    parser.add_argument("--match", action="store_true",
                        help="keep each expert from deal to deal at the same table (the "
                             "same seats experts), learning the others' habits from the "
                             "hands it ends, as in a game of many hands")
    parser.add_argument("--leak-check", action="store_true",
                        help="measure how OpenSpiel's resampler deals the hidden cards, and exit")
    args = parser.parse_args()
    if args.leak_check:
        print(json.dumps(leak_check(args.cards, positions=50, samples=40, seed=args.seed)))
        return 0
    if args.redeals is None:
        args.redeals = default_redeals(args.cards)
    if args.redeals < 1:
        parser.error("--redeals must be at least 1")
    redeals = args.redeals if args.ismcts_root != "as-is" else 0
    if args.match and args.variant == "cheat":
        parser.error("--match needs an expert that learns the hands it ends: drop --variant cheat")
    if args.ismcts_root == "inferred" and args.simulations is not None:
        parser.error("--ismcts-root inferred searches on the clock: drop --simulations")
    if redeals and args.final_policy != "MAX_VISIT_COUNT":
        parser.error("redealt roots play the most visited action; --final-policy needs "
                     "--ismcts-root as-is")
    grid = TUNING if args.tune else [{"uct_c": args.uct_c, "final_policy": args.final_policy,
                                      "rollouts": args.rollouts}]
    if redeals:  # the roots' visit counts are added up: only the UCB constant is tuned
        grid = [g for g in grid if g["final_policy"] == "MAX_VISIT_COUNT"]
    for settings in grid:
        settings = {**settings, "simulations": args.simulations, "redeals": redeals,
                    "inferred": args.ismcts_root == "inferred"}
        result = run(args.cards, args.deals, args.think, args.seed, settings, args.iterations,
                     args.workers, args.variant, args.first, args.match)
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
