"""The HTTP routes of docs/api.md: JSON in, JSON out, every answer built by the service.

Most routes are plain ``def`` functions: FastAPI runs them in its thread pool, where the
service's synchronous database work belongs.  A player's own actions at the table (a
move, a queued move, resigning, a chat line) are the hot path of a live table, and the
hand-off to a worker thread was the largest part of their delay under load: they run on
the event loop (on PostgreSQL every round trip awaited; on SQLite when the database can
take them at once, else in a worker thread: :mod:`blackout.web.loop`).

Who is asking comes from the session token (``Authorization: Bearer`` or the
``blackout_session`` cookie); reading a table needs no login, and an unknown or expired
token reads it as a spectator would.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field, StringConstraints

from blackout.service import Services, errors
from blackout.web.loop import on_loop_or_in_thread

COOKIE = "blackout_session"
SESSION_SECONDS = 30 * 24 * 3600  # the token's idle lifetime (the service enforces it)
MAX_INT = 2**31 - 1  # the database's integer columns
T = TypeVar("T")

# No NUL character anywhere (PostgreSQL cannot store one), and bounded lengths.
Word = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=r"^[^\x00]*$")]
Text = Annotated[str, StringConstraints(min_length=1, max_length=2000, pattern=r"^[^\x00]*$")]
Board = Annotated[int, Path(ge=1, le=MAX_INT, description="the board number")]
UserId = Annotated[str, Path(min_length=1, max_length=200, pattern=r"^[^\x00/]*$")]

router = APIRouter(prefix="/api")
_bearer = HTTPBearer(auto_error=False, description="the token from POST /api/session")
_cookie = APIKeyCookie(name=COOKIE, auto_error=False, description="set by POST /api/session")


class Signup(BaseModel):
    userid: Word
    email: Word
    password: Word


class Login(BaseModel):
    userid: Word
    password: Word


class NewTable(BaseModel):
    variant: Word
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Word] = Field(min_length=1, max_length=16,
                              description='userid, "open", "bot:basic", "bot:expert" or '
                              '"bot:random", one per seat')
    private: bool = False
    clock: float | None = Field(default=None, gt=0, le=90 * 24 * 3600,
                                description="seconds per move, or null for no clock")


class Join(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=64)
    invite: Word | None = None


class Move(BaseModel):
    action: Word
    expect: int | None = Field(default=None, ge=0, le=MAX_INT,
                               description="the move number this move must be (next_move)")


class Queued(BaseModel):
    action: Word


class Chat(BaseModel):
    text: Text


# The dependencies that do no I/O are ``async``: FastAPI runs a plain ``def`` dependency
# in its thread pool, a hop that costs more than they do.
async def services_of(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


Svc = Annotated[Services, Depends(services_of)]


async def token_of(bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
                   cookie: Annotated[str | None, Depends(_cookie)]) -> str | None:
    if bearer is not None and bearer.credentials:
        return bearer.credentials
    return cookie or None


Token = Annotated[str | None, Depends(token_of)]


class Caller:
    """Who is asking, worked out in the route's own worker thread (a session lookup
    reads the database): one thread hop a request, not one per dependency."""

    def __init__(self, services: Services, token: str | None) -> None:
        self.services = services
        self.token = token

    def viewer(self) -> str | None:
        """The logged-in userid, or None (a spectator) without a valid token."""
        if self.token is None:
            return None
        try:
            return self.services.sessions.userid_for(self.token)
        except errors.Unauthorized:
            return None

    def player(self) -> str:
        """The logged-in userid; 401 without a valid token."""
        if self.token is None:
            raise errors.Unauthorized("log in first (POST /api/session)")
        return self.services.sessions.userid_for(self.token)

    async def on_loop(self, work: Callable[[], T]) -> T:
        """``work()`` (a player's action) on the event loop where the database lets it,
        else in a worker thread (:mod:`blackout.web.loop`)."""
        return await on_loop_or_in_thread(self.services, work)


async def caller_of(services: Svc, token: Token) -> Caller:
    return Caller(services, token)


Who = Annotated[Caller, Depends(caller_of)]


# -- accounts and sessions ---------------------------------------------------------------


@router.post("/accounts", status_code=201, tags=["accounts"])
def sign_up(body: Signup, services: Svc) -> dict[str, str]:
    services.accounts.signup(body.userid, body.email, body.password)
    return {"userid": body.userid}


@router.post("/session", tags=["accounts"])
def log_in(body: Login, request: Request, services: Svc) -> JSONResponse:
    source = request.client.host if request.client else None
    token = services.sessions.login(body.userid, body.password, source)
    response = JSONResponse({"token": token, "userid": body.userid})
    response.set_cookie(COOKIE, token, max_age=SESSION_SECONDS, path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")
    return response


@router.delete("/session", status_code=204, tags=["accounts"])
def log_out(services: Svc, token: Token) -> Response:
    """Revoke the token (if it is still valid) and clear the cookie."""
    if token is not None:
        # An expired or revoked token is already the outcome asked for.
        with contextlib.suppress(errors.Unauthorized):
            services.sessions.logout(token)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.get("/me", tags=["accounts"])
def me(who: Who) -> dict[str, str]:
    return {"userid": who.player()}


# -- tables ------------------------------------------------------------------------------


@router.get("/variants", tags=["tables"])
def variants(services: Svc) -> list[dict[str, Any]]:
    return services.queries.variants()


@router.get("/tables", tags=["tables"])
def lobby(who: Who) -> dict[str, Any]:
    return who.services.queries.lobby(who.viewer())


@router.post("/tables", status_code=201, tags=["tables"])
def create_table(body: NewTable, who: Who) -> dict[str, Any]:
    return who.services.tables.create(who.player(), body.variant, body.options,
                                      list(body.seats), body.private, body.clock)


@router.get("/tables/{board}", tags=["tables"])
def table(board: Board, who: Who) -> dict[str, Any]:
    return who.services.queries.table(board, who.viewer())


@router.post("/tables/{board}/join", tags=["tables"])
def join(board: Board, who: Who, body: Join | None = None) -> dict[str, Any]:
    body = body or Join()
    return who.services.tables.join(board, who.player(), body.seat, body.invite)


@router.post("/tables/{board}/leave", tags=["tables"])
def leave(board: Board, who: Who) -> dict[str, Any]:
    return who.services.tables.leave(board, who.player())


@router.post("/tables/{board}/moves", tags=["play"])
async def move(board: Board, body: Move, who: Who) -> dict[str, Any]:
    return await who.on_loop(
        lambda: who.services.tables.move(board, who.player(), body.action, body.expect))


@router.post("/tables/{board}/queue", tags=["play"])
async def queue(board: Board, body: Queued, who: Who) -> dict[str, Any]:
    return await who.on_loop(
        lambda: who.services.tables.queue(board, who.player(), body.action))


@router.post("/tables/{board}/resign", tags=["play"])
async def resign(board: Board, who: Who) -> dict[str, Any]:
    return await who.on_loop(lambda: who.services.tables.resign(board, who.player()))


@router.post("/tables/{board}/chat", status_code=204, tags=["play"])
async def chat(board: Board, body: Chat, who: Who) -> Response:
    await who.on_loop(lambda: who.services.tables.chat(board, who.player(), body.text))
    return Response(status_code=204)


@router.get("/tables/{board}/hint", tags=["play"])
def hint(board: Board, who: Who) -> dict[str, Any]:
    return who.services.queries.hint(board, who.player())


@router.get("/tables/{board}/record", tags=["tables"])
def record(board: Board, who: Who) -> dict[str, Any]:
    return who.services.queries.record(board, who.viewer())


@router.get("/tables/{board}/analysis", tags=["tables"],
            responses={202: {"description": "being worked out: ask again in a few seconds"}})
def analysis(board: Board, services: Svc) -> JSONResponse:
    found = services.analyses.get(board)
    if found["status"] == "pending":
        return JSONResponse(found, status_code=202, headers={"Retry-After": "2"})
    return JSONResponse(found)


# -- players -----------------------------------------------------------------------------


@router.get("/players/{userid}", tags=["players"])
def player_page(userid: UserId, services: Svc) -> dict[str, Any]:
    return services.queries.player(userid)


@router.get("/ratings", tags=["players"])
def ratings(services: Svc) -> list[dict[str, Any]]:
    return services.queries.ratings()
