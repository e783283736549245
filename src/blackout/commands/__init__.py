"""The server's command language, shared by the command line and the mail gateway.

Usage texts load at once; :func:`execute` and the renderers (which need the database
layer) load on first use, so that ``blackout --help`` stays fast.

>>> from blackout.commands import help_text
>>> help_text("show")
'blackout show BOARD\\nThe board as an outsider sees it: no hidden cards.'
"""

from __future__ import annotations

import importlib
from typing import Any

from blackout.commands.usage import BOARD_AT, HELP, USAGE, redact

_LAZY = {
    "CommandError": "blackout.commands.language",
    "Reply": "blackout.commands.language",
    "execute": "blackout.commands.language",
    "help_text": "blackout.commands.language",
    "board_text": "blackout.commands.render",
    "history_text": "blackout.commands.render",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'blackout.commands' has no attribute {name!r}")


__all__ = ["BOARD_AT", "HELP", "USAGE", "CommandError", "Reply", "board_text", "execute",
           "help_text", "history_text", "redact"]
