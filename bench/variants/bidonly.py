"""``bidlik`` without the learnt card model's weights: the bids alone weigh the deals."""

import bidlik


class ExpertBot(bidlik.ExpertBot):
    sampler = bidlik.CardlessBidSampler
