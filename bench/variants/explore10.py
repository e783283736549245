"""The shipped expert with UCB's exploration constant at 1.0 instead of
:data:`blackout.bots.tree.EXPLORATION` (bench/regret.py, RESULTS.md "Eighteenth
session")."""

from __future__ import annotations

from blackout.bots import expert


class ExpertBot(expert.ExpertBot):
    exploration = 1.0
