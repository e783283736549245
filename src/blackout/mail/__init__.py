"""The play-by-email gateway: the command language over SMTP (see :mod:`.gateway`)."""

from blackout.mail.gateway import Gateway, GatewayConfig, serve_forever
from blackout.mail.notices import mail_notices

__all__ = ["Gateway", "GatewayConfig", "mail_notices", "serve_forever"]
