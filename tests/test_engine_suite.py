"""One test suite, both engines: the rules-core tests run again against the other engine.

The ordinary run tests the default engine (``blackout.Game``: the compiled one when it
was built).  The test below runs the rules-core test files again in a child pytest with
``BLACKOUT_ENGINE`` naming the other engine — the pure-Python reference, or the compiled
one when the ordinary run was given the reference — so every core test passes against
both.  Only the core files run twice: the rest of the suite (bots, service, fronts)
runs once, against the default engine.
"""

from __future__ import annotations

import copy
import importlib
import os
import pickle
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import blackout
import blackout.core.fast
from blackout.core.fast import COMPILED, ENGINE, ENGINES, FastGame, ReferenceGame, choose

ROOT = Path(__file__).resolve().parent.parent

#: The tests of the rules core, the README's example and the documented records.
CORE_TESTS = ("test_actions.py", "test_cards.py", "test_codec.py", "test_docs.py",
              "test_events.py", "test_nullo.py",
              "test_partnership.py", "test_pbmserv.py", "test_potomac.py",
              "test_properties.py", "test_readme.py", "test_record.py", "test_rules.py",
              "test_scoresheet.py", "test_smoke.py", "test_standard.py",
              "test_trick_winner.py")


#: The engine the child run tests: the one the ordinary run does not.
OTHER = "reference" if ENGINE == "compiled" else "compiled"
OTHER_CLASS = {"reference": "blackout.core.game.Game",
               "compiled": "blackout.core.fast.CompiledGame"}[OTHER]


@pytest.mark.skipif(OTHER == "compiled" and not COMPILED
                    and not os.environ.get("BLACKOUT_REQUIRE_FAST"),
                    reason="the compiled engine was not built (no C compiler at install)")
def test_the_core_tests_pass_against_the_other_engine() -> None:
    env = {**os.environ, "BLACKOUT_ENGINE": OTHER}
    run = subprocess.run(
        # Not quiet: the report header names the engine the child ran against.
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider",
         *(str(ROOT / "tests" / name) for name in CORE_TESTS)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert f"blackout engine: {OTHER_CLASS}" in run.stdout
    assert " passed" in run.stdout


def test_the_ordinary_run_tests_the_default_engine() -> None:
    assert blackout.Game is blackout.core.fast.Game
    asked = os.environ.get("BLACKOUT_ENGINE", "auto")
    expected = "compiled" if COMPILED and asked in ("auto", "", "compiled") else "reference"
    assert expected == ENGINE


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_game_keeps_its_engine(engine: str) -> None:
    cls = ENGINES[engine]
    game = cls.new(blackout.variant("potomac"), ["ann", "bob", "cy"], seed=3)
    for move in range(10):
        game.apply(game.legal_actions()[move % len(game.legal_actions())])
    for twin in (game.copy(), cls.replay(game.record()), pickle.loads(pickle.dumps(game)),
                 copy.deepcopy(game)):
        assert type(twin) is cls
        assert twin.record() == game.record()
        assert twin.view(1) == game.view(1)


def test_games_are_started_with_the_default_engine() -> None:
    from blackout.core.game import Game as Reference
    from blackout.core.record import replay_record
    from blackout.service.store import build_game

    game = Reference.new(blackout.variant("standard"), ["ann", "bob"], seed=1)
    game.apply(game.legal_actions()[0])
    assert type(replay_record(game.record())) is blackout.Game
    assert type(Reference.replay(game.record())) is Reference
    row = SimpleNamespace(variant="standard", options="{}", players='["ann", "bob"]', seed=1)
    assert type(build_game(row)) is blackout.Game  # type: ignore[arg-type]
    # The rest construct games with the same name: blackout.core.fast.Game.
    for module in ("arena", "cli.play", "service.tables", "analysis", "openspiel",
                   "pettingzoo"):
        try:
            imported = importlib.import_module(f"blackout.{module}")
        except ImportError:  # an adapter's extra is not installed
            continue
        assert imported.Game is blackout.Game, module


def test_blackout_engine_names_the_engine() -> None:
    assert choose("reference") is ReferenceGame
    assert choose(None) is choose("") is choose("auto") is choose(" Auto ") is FastGame
    if COMPILED:
        assert choose("compiled") is FastGame is not ReferenceGame
    else:
        with pytest.raises(RuntimeError, match="compiled engine was not built"):
            choose("compiled")
    with pytest.raises(RuntimeError, match="must be reference, compiled or auto, not 'fast'"):
        choose("fast")
    # Read when blackout is first imported: a bad name stops the import with that message.
    run = subprocess.run([sys.executable, "-c", "import blackout"], capture_output=True,
                         text=True, env={**os.environ, "BLACKOUT_ENGINE": "fast"}, timeout=120)
    assert run.returncode != 0
    assert "BLACKOUT_ENGINE must be reference, compiled or auto, not 'fast'" in run.stderr
