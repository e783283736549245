"""Typed refusals: every front end maps the type (HTTP status, CLI message, mail text)
without parsing English.  The message is one line for the user; a refused request wrote
nothing (except a wrong password, which is counted)."""

from __future__ import annotations


class ServiceError(ValueError):
    """A request the server refuses; ``message`` is for the user."""

    code = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(ServiceError):
    """Malformed input: a bad userid, an unknown variant, a seat that does not exist."""


class Unauthorized(ServiceError):
    """No valid session, or a wrong userid/password."""

    code = "unauthorized"


class Forbidden(ServiceError):
    """Known, but not allowed: not your seat, a private table without its invite."""

    code = "forbidden"


class NotFound(ServiceError):
    """No such board or player."""

    code = "not_found"


class Stale(ServiceError):
    """The expected move number is not the next one, or it is not the caller's turn."""

    code = "stale"

    def __init__(self, message: str, next_move: int) -> None:
        super().__init__(message)
        self.next_move = next_move


class NotFinished(ServiceError):
    """Only a game played to the end has this (its post-game analysis)."""

    code = "not_finished"


class Illegal(ServiceError):
    """The rules refuse the action; ``message`` is the rules' own sentence."""

    code = "illegal"


class Locked(ServiceError):
    """Too many failed logins from this source or for this account; try later."""

    code = "locked"


__all__ = ["BadRequest", "Forbidden", "Illegal", "Locked", "NotFinished", "NotFound",
           "ServiceError", "Stale", "Unauthorized"]
