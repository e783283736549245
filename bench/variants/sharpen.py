"""The shipped expert trusting the learnt models more (or less): the play model's
weights times ``BLACKOUT_PLAY_SHARPNESS`` (default 1: as shipped), so a card the model
finds unlikely weighs a deal down more, and the bid model's spread taken at
``BLACKOUT_BID_SPREAD_SCALE`` of the fitted one (default: the shipped
:data:`~blackout.bots.inference.BID_SPREAD_SCALE`).  Swaps the models for every expert
in the process: for ``bench/bots.py`` (every expert of a run is the variant), not for
``bench/ab.py``."""

import os
from dataclasses import replace
from functools import cache

from blackout.bots import expert, inference
from blackout.bots.inference import Models, PlayModel

PLAY_SHARPNESS = float(os.environ.get("BLACKOUT_PLAY_SHARPNESS", "1"))
inference.BID_SPREAD_SCALE = float(os.environ.get("BLACKOUT_BID_SPREAD_SCALE",
                                                  inference.BID_SPREAD_SCALE))
_shipped = Models.shipped


@cache
def _sharpened() -> Models | None:
    models = _shipped()
    if models is None:
        return None
    weights = tuple(PLAY_SHARPNESS * w for w in models.play.weights)
    return replace(models, play=PlayModel(weights))


Models.shipped = staticmethod(_sharpened)  # type: ignore[method-assign, assignment]


class ExpertBot(expert.ExpertBot):
    pass
