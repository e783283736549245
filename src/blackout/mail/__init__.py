"""The play-by-email gateway: the command language over SMTP (see :mod:`.gateway`)."""

from blackout.mail.gateway import Gateway, GatewayConfig, serve_forever

__all__ = ["Gateway", "GatewayConfig", "serve_forever"]
