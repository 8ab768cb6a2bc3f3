"""The build's one piece of code: the compiled Littlestone search, optional, and off on request.

Everything else is declared in pyproject.toml.  The C extension
``mistakebound.theory._ldim_kernel`` (``src/mistakebound/theory/ldim_kernel.py`` says what it
does) is built when a C compiler is there; without one the build goes on and the package
searches in Python (``mistakebound --version`` says which engine runs).  Set
``MISTAKEBOUND_NO_EXTENSION=1`` to install without the extension even where a compiler
is: ``MISTAKEBOUND_NO_EXTENSION=1 pip install mistakebound`` (CI tests that install).

The extension is compiled against CPython's limited API of 3.11 (``Py_LIMITED_API``), so
the wheel is tagged ``cp311-abi3``: one binary per platform for every CPython from 3.11 on.
Its optimisation flag is chosen by the compiler the build runs (:class:`BuildExt`).
"""

import os
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: The variable that, set to anything but "" or "0", leaves the extension out of the build.
NO_EXTENSION = "MISTAKEBOUND_NO_EXTENSION"

#: The oldest CPython whose stable ABI the extension uses: Py_buffer and "y*" came into the
#: limited API in 3.11, and the project requires 3.11 (pyproject.toml's requires-python).
LIMITED_API = 0x030B0000

#: The wheel's tag for it (bdist_wheel's py_limited_api): cp311-abi3.
ABI3_TAG = "cp311"

#: Optimisation flags by setuptools' compiler_type: MSVC's spelling, and the one of gcc, clang
#: and the compilers that take their options (unix, mingw32, cygwin).
OPTIMISE = {"msvc": ["/O2"]}
OPTIMISE_DEFAULT = ["-O3"]


class BuildExt(build_ext):
    """build_ext that adds the optimisation flag of the compiler it found (-O3 is not MSVC's)."""

    def build_extensions(self):
        flags = OPTIMISE.get(self.compiler.compiler_type, OPTIMISE_DEFAULT)
        for ext in self.extensions:
            ext.extra_compile_args = [f for f in flags if f not in ext.extra_compile_args] + ext.extra_compile_args
        super().build_extensions()


WITH_EXTENSION = os.environ.get(NO_EXTENSION, "") in ("", "0")

#: A free-threaded CPython (3.13t, 3.14t) has no limited API: there the kernel is built for
#: the full API and the wheel is tagged for that interpreter alone (setuptools refuses abi3 there).
ABI3 = not sysconfig.get_config_var("Py_GIL_DISABLED")

KERNEL = Extension(
    "mistakebound.theory._ldim_kernel",
    sources=["src/mistakebound/theory/_ldim_kernel.c"],
    depends=["src/mistakebound/theory/_kernel_compat.h"],
    optional=True,  # a failed compile is a warning: the Python search answers instead
    define_macros=[("Py_LIMITED_API", f"0x{LIMITED_API:08X}")] if ABI3 else [],
    py_limited_api=ABI3,  # named <module>.abi3.so
)

setup(
    ext_modules=[KERNEL] if WITH_EXTENSION else [],
    cmdclass={"build_ext": BuildExt},
    # the wheel of the compiled search is cp311-abi3; without it the wheel is pure (py3-none-any)
    options={"bdist_wheel": {"py_limited_api": ABI3_TAG}} if WITH_EXTENSION and ABI3 else {},
)
