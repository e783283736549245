"""Builds the optional C extensions; everything else is in pyproject.toml.

``blackout.bots._fast`` accelerates the search bots, ``blackout.core._engine`` is the
compiled rules engine (``blackout.core.fast``).  Without a C compiler they are skipped
and the pure-Python code runs instead.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("blackout.bots._fast", ["src/blackout/bots/_fast.c"],
              extra_compile_args=["-O2"], optional=True),
    Extension("blackout.core._engine", ["src/blackout/core/_engine.c"],
              extra_compile_args=["-O2"], optional=True),
])
