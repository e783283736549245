"""Computer players.  A bot sees only a :class:`~blackout.core.view.View`, never the game.

>>> import blackout
>>> from blackout import bots
>>> game = blackout.Game.new(blackout.variant("standard"), ["me", "bot"], seed=1)
>>> bot = bots.create("random", seed=3)
>>> bot.choose(game.view(game.to_move)) in game.legal_actions()
True
"""

from __future__ import annotations

import importlib
from typing import Any

from blackout.bots.base import Bot, Hinter, Observer

__all__ = ["NAMES", "Bot", "Hinter", "Observer", "create", "is_instant"]

# name -> "module:class"; imported on first use so the CLI starts fast.
_BOTS = {
    "random": "blackout.bots.random_bot:RandomBot",
    "basic": "blackout.bots.basic:BasicBot",
    "expert": "blackout.bots.expert:ExpertBot",
}

#: The bots :func:`create` knows.
NAMES: tuple[str, ...] = tuple(_BOTS)


def _class(name: str) -> Any:
    try:
        module, cls = _BOTS[name].split(":")
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(NAMES)}") from None
    return getattr(importlib.import_module(module), cls)


def is_instant(name: str) -> bool:
    """Whether the bot called ``name`` decides in microseconds (its class says
    ``instant = True``; see :class:`~blackout.bots.base.Bot`).

    >>> is_instant("basic"), is_instant("expert")
    (True, False)
    """
    return getattr(_class(name), "instant", False) is True


def create(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by name (see :data:`NAMES`); ``seed`` makes its choices repeatable.

    Raises ``ValueError`` for an unknown name or option.
    """
    factory = _class(name)
    try:
        bot: Bot = factory(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bad option for bot {name!r}: {exc}") from None
    return bot
