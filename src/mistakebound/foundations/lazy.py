"""Names a package exports but imports only when first used (PEP 562 module ``__getattr__``).

The command line loads the package for every command; ``mistakebound verify`` must not load
the searches it checks, and ``--help`` need not pay for them.  A package lists what it
exports lazily and installs the two functions this module builds.

Examples
--------
>>> getattr_, dir_ = lazy_attributes({}, {"json": ("dumps",)})
>>> getattr_("dumps")([1])
'[1]'
>>> "dumps" in dir_()
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(namespace: dict, table: dict[str, tuple[str, ...]]) -> tuple[Callable[[str], Any], Callable[[], list]]:
    """``__getattr__`` and ``__dir__`` for a module whose ``namespace`` exports ``table``'s names lazily.

    ``table`` maps a module to the names taken from it; a name that is a submodule of it
    (not an attribute) is imported as such.  The first lookup stores the value in the
    namespace, so later ones do not come back here.
    """
    where = {name: module for module, names in table.items() for name in names}
    owner = namespace.get("__name__", "module")

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {owner!r} has no attribute {name!r}")
        package = importlib.import_module(module)
        value = getattr(package, name) if hasattr(package, name) else importlib.import_module(f"{module}.{name}")
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__
