"""schemathesis against the server's own /openapi.json: requests generated from the
schema, valid and invalid, with and without a session, never get a 5xx, every refusal is
``{"error", "message"}``, and a refused request changes nothing."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from .play import seat_table

EXAMPLES = 6  # per operation and mode: the suite stays fast; CI runs it on every push
POSITIVE, NEGATIVE = GenerationMode.POSITIVE, GenerationMode.NEGATIVE


def test_no_generated_request_gets_a_server_error(server, services, players):
    ann = players["ann"]
    board = seat_table(ann, players, "standard", {"schedule": [2]}, ["ann", "bob"])
    auth = {"Authorization": f"Bearer {ann.token}"}

    def everything() -> Any:
        """What a refused request must leave as it was: the tables, ann's, their events."""
        return (services.queries.lobby("ann"), services.queries.events(board, 0),
                ann.table(board))

    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 17
    failures: list[str] = []
    for operation in operations:
        # Logging out with ann's token would end her session for the rest of the test.
        logout = operation.method.upper() == "DELETE" and operation.path == "/api/session"
        # Without a session every change is refused at the door (test_api checks that);
        # the reads answer a spectator, which is worth fuzzing on its own.
        reads = operation.method.upper() == "GET"
        for mode, headers in ((POSITIVE, auth), (NEGATIVE, auth), (POSITIVE, {})):
            if (headers or reads) and not (logout and headers):
                fuzz(operation, mode, headers, server.url, everything, failures)
    assert not failures, failures[:5]


def fuzz(operation, mode, headers, base_url, everything, failures) -> None:
    mutating = operation.method.upper() != "GET"

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def one(case) -> None:
        before = everything() if mutating else None
        response = case.call(base_url=base_url, headers=headers, timeout=20)
        where = f"{case.method} {case.formatted_path} {mode.value}"
        if response.status_code >= 500:
            failures.append(f"{where}: {response.status_code} {response.text[:200]}")
        elif response.status_code >= 400:
            body = response.json()
            if set(body) - {"error", "message", "next_move"} or not body.get("message"):
                failures.append(f"{where}: refusal {body}")
            if mutating and everything() != before:
                failures.append(f"{where}: refused ({response.status_code}) but changed")

    try:
        one()
    except Unsatisfiable:  # nothing to get wrong (no parameters, no body): nothing to send
        assert mode is NEGATIVE
