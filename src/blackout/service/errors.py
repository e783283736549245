"""The one error type front ends show to users as a single line."""


class ServiceError(ValueError):
    """A request the server refuses; the message is for the user, nothing was written."""
