"""Alembic environment: migrations run on the connection the application hands over
(see ``Database.migrate``)."""

from alembic import context

from blackout.storage.models import Base


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()


# Alembic fills in ``context.config`` only while it runs this file; importing it otherwise
# (a doctest collector, say) does nothing.
if hasattr(context, "config"):
    run_migrations()
