"""``bidplay`` with the play model's chances raised to the power 0.5 (a softer weight)."""

import bidplay


class ExpertBot(bidplay.ExpertBot):
    sharpness = 0.5
