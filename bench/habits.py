"""How well the expert's picture of each player's habits predicts that player's cards.

Plays ``--games`` whole games of ``--preset`` with the same bot in all four seats
(``--players``: ``basic``, or ``expert:KEY=VALUE,...`` such as ``expert:iterations=100``)
and follows seat 0 as the expert does (:class:`~blackout.bots.inference.Habits` fed
seat 0's last view of each hand).  Every card another seat chooses among two or more is
then predicted by the play model each version's habits give that seat at the time, from
the hands before (the card's features as the player saw them), and scored by its log
loss (nats a choice; lower is better) and by whether it was the version's likeliest
card (a card tied with others for the likeliest counts).  Versions:

* ``learnt``: the learnt play model as shipped, no habits;
* ``scaled``: the learnt model with its scores scaled to fit the player (the shipped
  habits before the twentieth session);
* ``own``: the player's own weights always (:data:`~blackout.bots.inference.PLAY_WEIGHT_PRECISION`);
* ``shipped``: the one of the two that predicted the player's earlier cards better, by
  :data:`~blackout.bots.inference.OWN_WEIGHTS_EVIDENCE` nats (the shipped expert).

Paired lines compare versions on the same choices::

    .venv/bin/python bench/habits.py --players basic --games 12
    .venv/bin/python bench/habits.py --players expert:iterations=100 --games 4
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Iterator
from typing import Any

from blackout import Game, bots, variant
from blackout.arena import mean_interval
from blackout.bots import inference
from blackout.bots.inference import Habits, Models, PlayModel, log_softmax, view_play_features
from blackout.core.actions import Play
from blackout.core.view import View

#: version -> the evidence the own weights need (``None``: no habits at all).
VERSIONS: dict[str, float | None] = {
    "learnt": None, "scaled": math.inf, "own": -math.inf,
    "shipped": inference.OWN_WEIGHTS_EVIDENCE,
}

#: One card choice: (the seat, the hand number, each legal card's features, the one played).
Choice = tuple[int, int, list[list[float]], int]


def player(spec: str, seed: int) -> Any:
    name, _, options = spec.partition(":")
    kwargs: dict[str, Any] = {}
    for pair in filter(None, options.split(",")):
        key, _, value = pair.partition("=")
        kwargs[key] = int(value) if value.isdigit() else value
    return bots.create(name, seed=seed, **kwargs)


def game_record(preset: str, spec: str, seed: int) -> tuple[list[View], list[Choice]]:
    """Seat 0's last view of each hand, and every card choice of the other seats."""
    players = [player(spec, 100 * seed + s) for s in range(4)]
    game = Game.new(variant(preset), ["a", "b", "c", "d"], seed=seed)
    last_views: list[View] = []
    choices: list[Choice] = []
    while not game.is_over:
        seat = game.to_move
        assert seat is not None  # the game is not over
        view = game.view(seat)
        action = players[seat].choose(view)
        if (seat != 0 and isinstance(action, Play) and view.bids[seat] is not None
                and view.trump_decided):
            cards, rows = view_play_features(view)
            if len(cards) > 1:
                choices.append((seat, view.hand_number, rows, cards.index(int(action.card))))
        seen = game.view(0)
        if last_views and seen.hand_number == last_views[-1].hand_number:
            last_views[-1] = seen
        else:
            last_views.append(seen)
        game.apply(action)
    return last_views, choices


def predictions(models: Models, evidence: float | None, last_views: list[View],
                choices: list[Choice]) -> Iterator[tuple[float, bool]]:
    """The log loss of each choice as the version predicts it, and whether the card
    played was the version's likeliest (or tied for it)."""
    shipped = inference.OWN_WEIGHTS_EVIDENCE
    habits = Habits(models)
    by_hand = {view.hand_number: view for view in last_views}
    learnt_until = 0  # the hands learnt so far: those before the choice's
    try:
        if evidence is not None:
            inference.OWN_WEIGHTS_EVIDENCE = evidence
        for seat, hand_number, rows, chosen in choices:
            while evidence is not None and learnt_until < hand_number - 1:
                learnt_until += 1
                if learnt_until in by_hand:
                    habits.learn(by_hand[learnt_until])
            model: PlayModel | None = (None if evidence is None
                                       else habits.habit(seat).play)
            scores = (model or models.play).scores(rows)
            yield -log_softmax(scores, chosen), scores[chosen] == max(scores)
    finally:
        inference.OWN_WEIGHTS_EVIDENCE = shipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="pbmserv")
    parser.add_argument("--players", default="basic")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--first", type=int, default=1000, help="the first game's seed")
    args = parser.parse_args(argv)
    models = Models.shipped()
    if models is None:
        print("habits: the package's inference.json is missing", file=sys.stderr)
        return 1
    losses: dict[str, list[float]] = {name: [] for name in VERSIONS}
    named: dict[str, list[bool]] = {name: [] for name in VERSIONS}
    for seed in range(args.first, args.first + args.games):
        last_views, choices = game_record(args.preset, args.players, seed)
        for name, evidence in VERSIONS.items():
            for loss, likeliest in predictions(models, evidence, last_views, choices):
                losses[name].append(loss)
                named[name].append(likeliest)
    count = len(losses["learnt"])
    print(f"{args.players} on {args.preset}, games {args.first}-{args.first + args.games - 1}:"
          f" {count} card choices among two or more")
    for name, values in losses.items():
        print(f"  {name:8} {statistics.fmean(values):.4f} nats a choice; the card played was"
              f" the likeliest in {statistics.fmean(named[name]):.1%}")
    for a, b in (("shipped", "scaled"), ("own", "scaled"), ("scaled", "learnt")):
        paired = mean_interval([x - y for x, y in zip(losses[a], losses[b], strict=True)])
        print(f"  {a} - {b}: {paired.mean:+.4f} ± {paired.half_width:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
