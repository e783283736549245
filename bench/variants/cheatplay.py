"""The shipped expert shown every hand when it plays a card only: what knowing the
hidden cards is worth in the play."""

import cheatbid


class ExpertBot(cheatbid.ExpertBot):
    cheat_phases = ("play",)
