"""``bidonly`` with the bid line fitted by maximum likelihood (a rounded normal, censored
at 0) to the expert's own bids in the runs against ISMCTS: slope 1.10, shift -0.40,
spread 0.88."""

import bidlik


class FittedSampler(bidlik.CardlessBidSampler):
    line = (1.10, -0.40, 0.88)


class ExpertBot(bidlik.ExpertBot):
    sampler = FittedSampler
