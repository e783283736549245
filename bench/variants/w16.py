"""The shipped expert choosing each deal among 16 uniform ones by the learnt card model
(``tree.WEIGHED_CHOICES``, 4 as shipped), so its deals follow the model closer."""

from typing import Any

from blackout.bots import expert, tree


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        shipped = tree.WEIGHED_CHOICES
        tree.WEIGHED_CHOICES = 16
        try:
            return super()._search(view, also)
        finally:
            tree.WEIGHED_CHOICES = shipped
