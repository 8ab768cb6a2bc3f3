"""The build's one piece of code: the compiled Littlestone search, optional, and off on request.

Everything else is declared in pyproject.toml.  The C extension
``mistakebound.theory._ldim_kernel`` (``src/mistakebound/theory/ldim_kernel.py`` says what it
does) is built when a C compiler is there; without one the build goes on and the package
searches in Python (``mistakebound --version`` says which engine runs).  Set
``MISTAKEBOUND_NO_EXTENSION=1`` to install without the extension even where a compiler
is: ``MISTAKEBOUND_NO_EXTENSION=1 pip install mistakebound`` (CI tests that install).
"""

import os

from setuptools import Extension, setup

#: The variable that, set to anything but "" or "0", leaves the extension out of the build.
NO_EXTENSION = "MISTAKEBOUND_NO_EXTENSION"

KERNEL = Extension(
    "mistakebound.theory._ldim_kernel",
    sources=["src/mistakebound/theory/_ldim_kernel.c"],
    depends=["src/mistakebound/theory/_kernel_compat.h"],
    optional=True,  # a failed compile is a warning: the Python search answers instead
    extra_compile_args=["-O3"],
)

setup(ext_modules=[] if os.environ.get(NO_EXTENSION, "") not in ("", "0") else [KERNEL])
