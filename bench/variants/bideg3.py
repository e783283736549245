"""The expert solving the last 3 tricks of every play-out exactly at its bids only (its
cards searched as shipped): with them the bid search foresees its bids of two and more
made nearly as often as it then makes them (`bench/foresight.py records --endgame 3`;
bench/RESULTS.md, "Thirty-second session")."""

from __future__ import annotations

from typing import Any

from blackout.bots import expert

BID_ENDGAME = 3


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        if view.phase != "bid":
            return super()._search(view, also)
        shipped, self.endgame = self.endgame, BID_ENDGAME
        try:
            return super()._search(view, also)
        finally:
            self.endgame = shipped
