"""The shipped expert with each player's play habit only the learnt play model scaled
(one number), never weights of the player's own, as before the twentieth session
(bench/RESULTS.md, "Twentieth session"): ``earlyhabits`` with no evidence enough."""

from __future__ import annotations

import math

import earlyhabits

__all__ = ["ExpertBot"]


class ExpertBot(earlyhabits.ExpertBot):
    own_evidence = math.inf  # the own weights never chosen
