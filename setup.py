"""Builds the optional C accelerator of the search bots; everything else is in pyproject.toml.

Without a C compiler the extension is skipped and the bots run their pure-Python code.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("blackout.bots._fast", ["src/blackout/bots/_fast.c"],
                             extra_compile_args=["-O2"], optional=True)])
