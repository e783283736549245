"""Blackout: rules engine, computer players and tools for the Oh Hell! family of card games.

>>> import blackout
>>> game = blackout.Game.new(blackout.variant("pbmserv"), ["ann", "bob", "cy", "di"], seed=7)
>>> game.hand_number, game.cards, len(game.legal_actions())
(1, 1, 2)
"""

from blackout.core.actions import (
    BOARD,
    NIL,
    Action,
    Bid,
    Board,
    ChooseTrump,
    IllegalAction,
    Nil,
    Play,
    parse_action,
)
from blackout.core.cards import Card, Suit
from blackout.core.fast import Game
from blackout.core.game import Deal, Move
from blackout.core.record import RecordError
from blackout.core.rules import VARIANTS, Rules, RulesError, variant
from blackout.core.scoresheet import ScoreSheet, ScoreSheetError
from blackout.core.view import HandResult, Phase, Trick, View

__all__ = [
    "BOARD",
    "NIL",
    "VARIANTS",
    "Action",
    "Bid",
    "Board",
    "Card",
    "ChooseTrump",
    "Deal",
    "Game",
    "HandResult",
    "IllegalAction",
    "Move",
    "Nil",
    "Phase",
    "Play",
    "RecordError",
    "Rules",
    "RulesError",
    "ScoreSheet",
    "ScoreSheetError",
    "Suit",
    "Trick",
    "View",
    "parse_action",
    "variant",
]

__version__ = "0.1.0"
