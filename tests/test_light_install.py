"""The light install: without the [server] extra the rules library, bots, arena and the
terminal commands work, and the server's commands say in one line what to install.

The server's packages are installed in the test environment, so a child Python hides
them: an import hook makes every import of one fail as it would where it is missing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import blackout
from blackout import Game, variant
from blackout.cli.main import SERVER_MODULES, SERVER_NEEDED

# Runs in the child: hide the server's packages, then run each command line in turn
# (stdin from the given text), and print what each returned, and which modules loaded.
CHILD = r"""
import contextlib, importlib.abc, io, json, sys
HIDDEN = set(json.loads(sys.argv[1]))

class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Hide())
import blackout, blackout.arena, blackout.bots, blackout.core.record
from blackout.cli.main import build_parser, main
build_parser()  # imports every command module
for name in blackout.bots.NAMES:
    blackout.bots.create(name, seed=1)
results = []
for argv, stdin in json.loads(sys.argv[2]):
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.StringIO(stdin)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    results.append([code, out.getvalue(), err.getvalue()])
loaded = sorted({m.split(".")[0] for m in sys.modules} & HIDDEN)
print(json.dumps({"results": results, "loaded": loaded}))
"""


def run_light(commands: list[tuple[list[str], str]]) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(sorted(SERVER_MODULES)), json.dumps(commands)],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_terminal_commands_work_without_the_server(tmp_path: Path) -> None:
    game = Game.new(variant("standard", schedule=[1]), ["ann", "bob", "cy"], seed=4)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    record = tmp_path / "game.json"
    record.write_text(json.dumps(game.record()))
    moves = "".join("0\n1\n" + "\n".join(f"{r}{s}" for s in "CDHS"
                                         for r in ["2", "3", "4", "5", "6", "7", "8", "9",
                                                   "10", "J", "Q", "K", "A"]) + "\n"
                    for _ in range(12))  # every prompt answered, tie-break hands too
    outcome = run_light([
        (["--help"], ""),
        (["variants"], ""),
        (["rules", "potomac"], ""),
        (["play", "standard", "--players", "3", "-o", "schedule=1,2", "--seed", "1"], moves),
        (["score", "standard", "--players", "ann,bob,cy", "-o", "schedule=1"], ""),
        (["replay", str(record)], ""),
        (["arena", "standard", "--seats", "random,basic,random", "--games", "2",
          "-o", "schedule=1"], ""),
    ])
    assert outcome["loaded"] == []  # none of the server's packages was imported
    codes = [code for code, _, _ in outcome["results"]]
    assert codes == [0] * 7, outcome["results"]
    help_text, variants, rules, play, _, replay, arena = (out for _, out, _ in
                                                           outcome["results"])
    assert "play" in help_text and "signup" in help_text
    assert "potomac" in variants and "declarer" in rules
    assert "Final scores" in play and "Final scores" in replay
    assert "random" in arena and "basic" in arena


def test_server_commands_name_the_extra_in_one_line() -> None:
    commands = [["signup", "ann", "ann@example.org", "secret"], ["move", "101", "ann", "pw", "7"],
                ["show", "101"], ["mail-gateway", "--port", "0"], ["check-timeouts"],
                ["serve", "--port", "0"]]
    outcome = run_light([(argv, "") for argv in commands])
    for (code, out, err), argv in zip(outcome["results"], commands, strict=True):
        assert code == 2, argv
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1 and SERVER_NEEDED in lines[0], (argv, err)


def test_the_library_imports_none_of_the_servers_packages() -> None:
    """In this process too (where they are installed): importing the library, the bots,
    the arena and the terminal commands loads none of them."""
    code = ("import sys, blackout, blackout.arena, blackout.bots\n"
            "from blackout.cli.main import build_parser\n"
            "build_parser()\n"
            "print(sorted({m.split('.')[0] for m in sys.modules}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=True)
    loaded = set(json.loads(result.stdout.replace("'", '"')))
    assert not loaded & SERVER_MODULES
    assert blackout.__version__
