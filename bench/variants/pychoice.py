"""The shipped expert choosing its weighted deals in Python
(``Sampler.sample_weighted_python``) instead of in C: the same deals and the same play,
more slowly; what moving the choice into C saved."""

from typing import Any

from blackout.bots import expert
from blackout.bots.sampling import Sampler


class ExpertBot(expert.ExpertBot):
    def _search(self, view: Any, also: Any = None) -> Any:
        shipped = Sampler.sample_weighted
        Sampler.sample_weighted = Sampler.sample_weighted_python  # type: ignore[method-assign]
        try:
            return super()._search(view, also)
        finally:
            Sampler.sample_weighted = shipped  # type: ignore[method-assign]
