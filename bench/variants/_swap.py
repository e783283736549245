"""Swapping a module's attributes for the length of one decision: a variant changes a
function or constant of the shipped bot in the process it runs in, and puts the shipped
one back after, so the shipped bots of the same process are not touched."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["swapped"]


@contextmanager
def swapped(owner: Any, **values: Any) -> Iterator[None]:
    """Set ``owner``'s attributes to ``values`` (a module's or a class's) inside the block."""
    shipped = {name: getattr(owner, name) for name in values}
    for name, value in values.items():
        setattr(owner, name, value)
    try:
        yield
    finally:
        for name, value in shipped.items():
            setattr(owner, name, value)
