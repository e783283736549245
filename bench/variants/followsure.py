"""The shipped expert whose play-outs' seats, following with their need already covered
by sure winners, leave a trick they could take only with a card that is not sure
(``playout.FOLLOW_SURE`` and the C twin's ``set_follow_sure``, on for its own decisions
only)."""

from __future__ import annotations

from typing import Any

from _swap import swapped

from blackout.bots import expert, playout


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        accelerator = playout._fast
        was = accelerator.set_follow_sure(True) if accelerator is not None else False
        try:
            with swapped(playout, FOLLOW_SURE=True):
                return super()._search(view, also)
        finally:
            if accelerator is not None:
                accelerator.set_follow_sure(was)
