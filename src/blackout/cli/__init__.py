"""The ``blackout`` command line: a thin layer over the library; no rules live here."""
