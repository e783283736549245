"""Every refused request answers ``{"error": code, "message": text}`` (docs/api.md).

The service's typed errors map to HTTP statuses here and nowhere else; a request body
that fails validation is ``bad_request`` with the first problem in words; anything
unexpected is logged and answered with a fixed sentence (no stack trace reaches a client).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException

from blackout.service import errors

log = logging.getLogger("blackout.web")

# Most specific first: a subclass must be found before its base.
STATUS: list[tuple[type[errors.ServiceError], int, str]] = [
    (errors.Unauthorized, 401, "unauthorized"),
    (errors.Forbidden, 403, "forbidden"),
    (errors.NotFound, 404, "not_found"),
    (errors.Stale, 409, "stale"),
    (errors.NotFinished, 409, "not_finished"),
    (errors.Illegal, 422, "illegal"),
    (errors.Locked, 429, "locked"),
    (errors.BadRequest, 400, "bad_request"),
    (errors.ServiceError, 400, "bad_request"),
]

HTTP_CODES = {401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "stale",
              429: "locked"}


def refusal(status: int, error: str, message: str, **extra: object) -> JSONResponse:
    return JSONResponse({"error": error, "message": message, **extra}, status_code=status)


def service_refusal(exc: errors.ServiceError) -> tuple[int, dict[str, object]]:
    """The status and body for one of the service's errors (also sent over the WebSocket)."""
    status, code = next((s, c) for kind, s, c in STATUS if isinstance(exc, kind))
    body: dict[str, object] = {"error": code, "message": exc.message}
    if isinstance(exc, errors.Stale):
        body["next_move"] = exc.next_move
    return status, body


def install(app: FastAPI) -> None:
    @app.exception_handler(errors.ServiceError)
    async def _service(_: Request, exc: errors.ServiceError) -> JSONResponse:
        status, body = service_refusal(exc)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        return JSONResponse(body, status_code=status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return refusal(422, "bad_request", validation_message(exc))

    @app.exception_handler(HTTPException)
    async def _http(_: Request, exc: HTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "bad request"
        return refusal(exc.status_code, HTTP_CODES.get(exc.status_code, "bad_request"),
                       message.lower())

    @app.exception_handler(OperationalError)
    async def _database(_: Request, exc: OperationalError) -> JSONResponse:
        log.warning("database unavailable: %s", str(exc.orig).splitlines()[0:1])
        return refusal(503, "unavailable", "the database is busy or unreachable; try again")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return refusal(500, "internal", "internal error (logged on the server)")


def validation_message(exc: RequestValidationError) -> str:
    """The first problem, e.g. ``body.expect: Input should be a valid integer``."""
    problems = exc.errors()
    if not problems:
        return "invalid request"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    what = str(first.get("msg", "invalid"))
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    return f"{where}: {what}" if where else what
