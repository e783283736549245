"""How well the expert's deals say where the hidden cards are.

At each position of ``bench/bots.py`` records (every card played with a choice, or with
``--bids`` every bid after the first), the player to move draws a pool of ``--pool``
deals of the cards it cannot see, as the expert's search would, and weighs them; the
pool's weighted share of the deals that give a hidden card to each place (a hidden seat,
or out of play) is its guess of where the card is.  Each version is scored on the cards'
true places, on the same positions:

* *log loss*: ``-ln p`` of the true place, ``p`` mixed with ``--floor`` of an even
  chance over the places the view allows, so that a place no deal gave does not count
  as infinitely wrong (lower is better);
* *Brier*: the squared error summed over the places;
* *right*: whether the likeliest place is the true one;

each a position's mean over its hidden cards, then the mean (with a 95% interval) over
positions (the split by holder and by trick is over cards).

Versions: ``uniform`` (deals drawn at random, voids kept: no inference), ``bids`` (each
hidden hand drawn to explain its bid by the learnt bid model, deals not weighed),
``weighed`` (those deals weighed by the chance of every card the others played, raised to
:data:`~blackout.bots.inference.PLAY_EVIDENCE_POWER`: the expert from the nineteenth to
the twenty-first session), ``plays:K`` (that chance raised to the power ``K``;
``plays:1`` is the expert before the nineteenth session), ``sharp:K`` (the play model's
scores times ``K``, the chance raised to the power 1), ``shipped`` (the shipped expert's
pool: each hand drawn card by card by what the seat's plays say of each card, then
weighed by the whole chance over that draw's, :func:`~blackout.bots.tree.draw_pool`),
``module:NAME`` (the deals of a variant of
``bench/variants/``, on ``PYTHONPATH``); any of them with ``@spread=S`` takes the bid
model's spread as ``S`` of the fitted one (the shipped
:data:`~blackout.bots.inference.BID_SPREAD_SCALE` is 0.6).  Lower log loss
than ``uniform`` is what the models know of the hidden cards; the paired lines say
whether one version knows more than another on the same positions::

    .venv/bin/python bench/inference.py runs.jsonl --positions 1000 \\
        --versions uniform,bids,shipped,plays:1,plays:2

The places are split by who the card's true holder is (``expert`` or ``ismcts`` seat, or
out of play), so one can see whose hands the models read.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from blackout.arena import mean_interval
from blackout.bots import inference
from blackout.bots.expert import LEARNT_POOL, ExpertBot
from blackout.bots.inference import PLAY_EVIDENCE_POWER, HandEvidence, Models
from blackout.bots.sampling import Fits, Sampler
from blackout.bots.tree import draw_pool
from blackout.core.cards import SUIT_MASKS, cards_in
from blackout.core.view import View
from regret import positions
from runs import games  # bench/ is on the path when run as a script

OUT = -1  # the place of a card left out of play

#: A version draws ``count`` deals (each seat's unplayed cards) for a view, with weights.
Version = Callable[[View, random.Random, int], list[tuple[list[int], float]]]


def version(name: str) -> Version:
    """The deals and weights the version named ``name`` draws."""
    name, _, spread = name.partition("@spread=")
    if spread:
        return _with_spread(version(name), float(spread))
    if name == "uniform":
        return lambda view, rng, count: [(Sampler(view).sample(rng), 1.0)
                                         for _ in range(count)]
    if name == "bids":
        return _learnt(0.0)
    if name == "shipped":
        return _pooled()
    if name == "weighed":
        return _learnt(1.0)
    if name.startswith("plays:"):  # the shipped bot's weights are the chance tempered
        return _learnt(float(name.removeprefix("plays:")) / PLAY_EVIDENCE_POWER)
    if name.startswith("sharp:"):
        return _sharpened(float(name.removeprefix("sharp:")))
    if name.startswith("module:"):
        module = importlib.import_module(name.removeprefix("module:"))
        return _pooled(module.ExpertBot)
    raise SystemExit(f"inference: no version {name!r} "
                     "(uniform, bids, shipped, weighed, plays:K, sharp:K, module:NAME)")


def _pooled(bot_class: type[ExpertBot] = ExpertBot) -> Version:
    """The bot's pool of deals and their weights, as its search draws them."""
    def draw(view: View, rng: random.Random, count: int) -> list[tuple[list[int], float]]:
        bot = bot_class(seed=0, iterations=1, workers=1)
        fits, plays, _ = bot._evidence(view, bot._models(view)[0])
        return _with_weights(*draw_pool(Sampler(view), rng, fits, plays, count))
    return draw


def _learnt(scale: float) -> Version:
    """The shipped bot's deals drawn to explain the bids (as before the twenty-second
    session), weighed by the log chance of the plays times ``scale`` x
    :data:`~blackout.bots.inference.PLAY_EVIDENCE_POWER`."""
    def draw(view: View, rng: random.Random, count: int) -> list[tuple[list[int], float]]:
        bot = ExpertBot(seed=0, iterations=1, workers=1)
        fits, plays, _ = bot._evidence(view, bot._models(view)[0])
        return _weighed(view, rng, count, fits,
                        None if plays is None else plays.deal_log_weight, scale)
    return draw


def _weighed(view: View, rng: random.Random, count: int, fits: Fits | None,
             plays: Callable[[list[int]], float] | None, scale: float
             ) -> list[tuple[list[int], float]]:
    pool, _ = draw_pool(Sampler(view), rng, fits, None, count)
    if plays is None or scale == 0:
        return _with_weights(pool, [])
    return _with_weights(pool, [scale * plays(deal) for deal in pool])


def _with_weights(pool: list[list[int]], logs: list[float]) -> list[tuple[list[int], float]]:
    """Each deal with the exponential of its log weight (relative to the heaviest), or
    with weight 1 where there are no ``logs``."""
    if not logs:
        return [(deal, 1.0) for deal in pool]
    top = max(logs)
    return [(deal, math.exp(log - top)) for deal, log in zip(pool, logs, strict=True)]


def _sharpened(sharpness: float) -> Version:
    """The shipped deals, the play model's scores times ``sharpness``."""
    def draw(view: View, rng: random.Random, count: int) -> list[tuple[list[int], float]]:
        shipped = Models.shipped()
        assert shipped is not None  # the package's models are installed
        models = Models(shipped.bid, shipped.play.sharpened(sharpness))
        hidden = [s for s in range(view.players_count) if view.hands[s] is None]
        learnt = HandEvidence(view, hidden, models)
        fits = learnt.bid_chance if learnt.bids else None
        return _weighed(view, rng, count, fits, learnt.play_log_likelihood, 1.0)
    return draw


def _with_spread(draw: Version, spread: float) -> Version:
    """``draw`` with the bid model's spread taken as ``spread`` of the fitted one."""
    def drawn(view: View, rng: random.Random, count: int) -> list[tuple[list[int], float]]:
        shipped = inference.BID_SPREAD_SCALE
        inference.BID_SPREAD_SCALE = spread
        try:
            return draw(view, rng, count)
        finally:
            inference.BID_SPREAD_SCALE = shipped
    return drawn


def places(view: View) -> dict[int, list[int]]:
    """Each card the view cannot see, with the places it may be (voids kept)."""
    voids = view.voids()
    hidden = [s for s in range(view.players_count) if view.hands[s] is None]
    found: dict[int, list[int]] = {}
    for card in map(int, cards_in(view.unseen())):
        found[card] = [s for s in hidden
                       if not any(SUIT_MASKS[suit] >> card & 1 for suit in voids[s])]
        found[card].append(OUT)
    return found


def shares(view: View, deals: list[tuple[list[int], float]]
           ) -> dict[int, tuple[list[int], dict[int, float]]]:
    """Each hidden card's places (:func:`places`) and the weighted share of ``deals``
    that put it in each."""
    total = sum(weight for _, weight in deals)
    found = {}
    for card, allowed in places(view).items():
        share: dict[int, float] = defaultdict(float)
        for hands, weight in deals:
            share[holder(card, allowed, hands)] += weight / total
        found[card] = (allowed, share)
    return found


def holder(card: int, allowed: list[int], hands: Sequence[int | None]) -> int:
    """The place of ``card`` among ``allowed`` in a deal of ``hands``."""
    return next((s for s in allowed if s != OUT and (hands[s] or 0) >> card & 1), OUT)


def score(view: View, truth: tuple[int | None, ...], deals: list[tuple[list[int], float]],
          floor: float) -> list[tuple[int, float, float, bool]]:
    """(true holder, log loss, Brier, likeliest right) of each hidden card."""
    found = []
    for card, (allowed, share) in shares(view, deals).items():
        true = holder(card, allowed, truth)
        chance = (1 - floor) * share[true] + floor / len(allowed)
        brier = sum((share[p] - (p == true)) ** 2 for p in allowed)
        likeliest = max(allowed, key=lambda p: share[p])
        found.append((true, -math.log(chance), brier, likeliest == true))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", help="bench/bots.py output (JSON lines)")
    parser.add_argument("--versions", default="uniform,bids,shipped")
    parser.add_argument("--bids", action="store_true",
                        help="the bids after the first, not the cards")
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--pool", type=int, default=LEARNT_POOL,
                        help=f"deals a position (default {LEARNT_POOL}, the expert's pool)")
    parser.add_argument("--floor", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = args.versions.split(",")
    versions = {name: version(name) for name in names}
    try:
        found = measure(args, names, versions)
    except OSError as error:
        parser.error(f"cannot read {error.filename}: {error.strerror}")
    print(json.dumps(found))
    return 0


def measure(args: argparse.Namespace, names: list[str], versions: dict[str, Version]
            ) -> dict[str, Any]:
    """Every version's scores on the records' positions (see the module docstring)."""
    # (deal, one expert?) -> the expert seats of that game
    experts = {(line["deal"], len(record["experts"]) == 1): set(record["experts"])
               for line, record in games(args.records)}
    # version -> per position: mean log loss, Brier, right; and per holder kind
    per_position: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    by_holder: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    seen = 0
    for key, view, truth in positions(args.records, args.bids):
        if seen >= args.positions:
            break
        seen += 1
        deal, index = divmod(key, 100_000)  # as regret.positions makes the key
        record_experts = experts[deal, index >= 1000]
        for name, draw in versions.items():
            rng = random.Random(f"{args.seed}:{key}")
            cards = score(view, truth, draw(view, rng, args.pool), args.floor)
            loss, brier, right = (sum(c[i] for c in cards) / len(cards) for i in (1, 2, 3))
            per_position[name].append((loss, brier, right))
            trick = f"trick {sum(view.tricks_won) + 1}"
            for true, loss, _, _ in cards:
                kind = ("out" if true == OUT else
                        "expert" if true in record_experts else "ismcts")
                by_holder[name][kind].append(loss)
                if true != OUT:
                    by_holder[name][trick].append(loss)
    return report(names, per_position, by_holder, seen)


def report(names: list[str], per_position: dict[str, list[tuple[float, float, float]]],
           by_holder: dict[str, dict[str, list[float]]], seen: int) -> dict[str, Any]:
    found: dict[str, Any] = {"positions": seen}
    for name in names:
        rows = per_position[name]
        found[name] = {
            metric: _rounded(mean_interval([row[i] for row in rows]))
            for i, metric in enumerate(("log loss", "Brier", "right"))}
        found[name]["log loss by holder (and of the cards held, by trick)"] = {
            kind: round(sum(losses) / len(losses), 4)
            for kind, losses in sorted(by_holder[name].items())}
    for name in names[1:]:
        found[f"{name} - {names[0]}"] = {
            metric: _rounded(mean_interval([a[i] - b[i] for a, b in
                                            zip(per_position[name], per_position[names[0]],
                                                strict=True)]))
            for i, metric in enumerate(("log loss", "Brier", "right"))}
    return found


def _rounded(interval: Any) -> str:
    return f"{interval.mean:+.4f} ± {interval.half_width:.4f}"


if __name__ == "__main__":
    sys.exit(main())
