"""The shipped expert taking a player's own play weights for its habit once they have
predicted its cards better than the learnt model scaled by ``BLACKOUT_OWN_EVIDENCE``
nats (default 0.5; 2.0 shipped, ``inference.OWN_WEIGHTS_EVIDENCE``): the habit found,
and followed in the search, hands earlier (twenty-fourth session)."""

from __future__ import annotations

import os
from typing import Any

from _swap import swapped

from blackout.bots import expert, inference

__all__ = ["ExpertBot"]


class ExpertBot(expert.ExpertBot):
    #: The evidence, in nats, swapped in for ``inference.OWN_WEIGHTS_EVIDENCE`` for the
    #: length of each decision.
    own_evidence = float(os.environ.get("BLACKOUT_OWN_EVIDENCE", "0.5"))

    def _search(self, view: Any, also: Any = None) -> Any:
        with swapped(inference, OWN_WEIGHTS_EVIDENCE=self.own_evidence):
            return super()._search(view, also)
