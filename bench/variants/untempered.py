"""The shipped expert weighing its pool's deals by the full chance of the others' plays,
as before the nineteenth session (power 1, not ``inference.PLAY_EVIDENCE_POWER``;
bench/RESULTS.md, "Nineteenth session")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from blackout.bots import expert
from blackout.bots.inference import PLAY_EVIDENCE_POWER
from blackout.bots.tree import PlayEvidence


class _Untempered:
    """``evidence`` on the scale of the full chance (the deals drawn card by card on it
    too)."""

    def __init__(self, evidence: PlayEvidence) -> None:
        self.evidence = evidence

    def deal_log_weight(self, hands: Sequence[int]) -> float:
        return self.evidence.deal_log_weight(hands) / PLAY_EVIDENCE_POWER

    def card_terms(self, unseen: int, allowed: Sequence[int]) -> dict[int, list[float]]:
        return {seat: [term / PLAY_EVIDENCE_POWER for term in row]
                for seat, row in self.evidence.card_terms(unseen, allowed).items()}


class ExpertBot(expert.ExpertBot):
    def _evidence(self, view: Any, models: tuple[int, ...]) -> Any:
        fits, plays, pool = super()._evidence(view, models)
        if plays is None:
            return fits, plays, pool
        return fits, _Untempered(plays), pool
