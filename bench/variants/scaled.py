"""The shipped expert with each player's play habit only the learnt play model scaled
(one number), never weights of the player's own, as before the twentieth session
(bench/RESULTS.md, "Twentieth session")."""

from __future__ import annotations

import math
from typing import Any

from blackout.bots import expert, inference


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        shipped = inference.OWN_WEIGHTS_EVIDENCE
        inference.OWN_WEIGHTS_EVIDENCE = math.inf  # the own weights never chosen
        try:
            return super()._search(view, also)
        finally:
            inference.OWN_WEIGHTS_EVIDENCE = shipped
