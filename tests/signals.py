"""A signal raised into the test itself after a delay: the tests' one way to press Ctrl-C mid-search.

The searches check for signals while they run (the compiled one every few milliseconds, with the
GIL taken back), so an exception raised by SIGALRM's handler ``seconds`` after the block starts
lands inside the search, as Ctrl-C's ``KeyboardInterrupt`` does.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

__all__ = ["raised_after"]


@contextlib.contextmanager
def raised_after(exception: type[BaseException], seconds: float) -> Iterator[None]:
    """SIGALRM's handler raises ``exception`` ``seconds`` from now, if the block still runs; the old handler after.

    Yields
    ------
    None
    """
    def handler(signum, frame):  # noqa: ARG001 - a signal handler's signature
        raise exception

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
