"""A small progress bar with a rate and an estimate of the time left, written to stderr.

:class:`Progress` draws one line, redrawn in place (``\\r``), at most every
``min_interval`` seconds::

    worst case  [########..............]  35%  7,000/20,000  1,650/s  ETA 0:08

With an unknown total it shows the count, the rate and the time elapsed.  It is quiet
(writes nothing) when its stream is not a terminal, so pipes, files, CI logs and
captured test output stay clean, and when the environment variable
``MISTAKEBOUND_PROGRESS`` is ``0`` (``1`` forces it on).  Use it as a context manager
and call :meth:`Progress.update` from a loop or from a search's callback, or wrap an
iterable with :func:`progress`.  The line is erased when the bar closes.

Examples
--------
>>> import io
>>> with Progress(total=3, desc="games", stream=io.StringIO()) as bar:  # not a tty: quiet
...     for _ in range(3):
...         bar.update()
>>> bar.n, bar.enabled
(3, False)
>>> sum(progress(range(4), desc="rows", stream=io.StringIO()))
6
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO, TypeVar

from mistakebound.foundations.validation import check_int

__all__ = ["Progress", "progress", "ENV_VARIABLE", "format_duration"]

#: Environment variable: ``0`` silences every bar, ``1`` shows bars even on a non-terminal.
ENV_VARIABLE = "MISTAKEBOUND_PROGRESS"

T = TypeVar("T")


def format_duration(seconds: float) -> str:
    """``H:MM:SS`` or ``M:SS`` for a number of seconds; ``?`` when unknown.

    Examples
    --------
    >>> format_duration(5), format_duration(75.4), format_duration(3725), format_duration(math.inf)
    ('0:05', '1:15', '1:02:05', '?')
    """
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return "?"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _enabled_for(stream: Any) -> bool:
    flag = os.environ.get(ENV_VARIABLE, "").strip()
    if flag == "0":
        return False
    if flag == "1":
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (ValueError, OSError):  # a closed stream
        return False


class Progress:
    """A progress bar for a loop or a search, with rate and ETA, quiet off a terminal.

    Parameters
    ----------
    total : int, optional
        The number of steps expected (None when unknown: count, rate and elapsed time).
    desc : str
        A short label written before the bar.
    stream : file-like, optional
        Where to draw; default ``sys.stderr`` (looked up when the bar is created).
    enabled : bool, optional
        Force the bar on or off; default: on exactly when ``stream.isatty()`` and
        ``MISTAKEBOUND_PROGRESS`` is not ``0``.
    min_interval : float
        Smallest time in seconds between two redraws (the last one is always drawn).
    clock : callable, optional
        A function returning the time in seconds; default ``time.monotonic`` (tests
        pass a fake clock).
    unit : str
        Name of one step, written after the rate (``"games/s"``).

    Attributes
    ----------
    n : int
        Steps done so far.
    enabled : bool
        Whether the bar draws anything.
    """

    def __init__(
        self,
        total: int | None = None,
        *,
        desc: str = "",
        stream: TextIO | None = None,
        enabled: bool | None = None,
        min_interval: float = 0.1,
        clock: Callable[[], float] | None = None,
        unit: str = "",
    ):
        self.total = check_int("total", total, 0, optional=True)
        self.desc = desc
        self.stream = sys.stderr if stream is None else stream
        self.enabled = _enabled_for(self.stream) if enabled is None else bool(enabled)
        self.min_interval = float(min_interval)
        self.unit = unit
        self._clock = clock or time.monotonic
        self.n = 0
        self._start = self._clock()
        self._last_draw: float | None = None
        self._width_drawn = 0
        self._closed = False
        self._lock = threading.Lock()
        self._stop: threading.Event | None = None
        self._read: Callable[[], int] | None = None

    # ------------------------------------------------------------------ protocol
    def __enter__(self) -> Progress:
        self._draw(force=True)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def update(self, n: int = 1) -> None:
        """Count ``n`` more steps done (a search may call this with a batch of nodes)."""
        self.n += n
        self._draw()

    def set_total(self, total: int | None) -> None:
        """Change the expected number of steps (when it becomes known)."""
        self.total = total
        self._draw(force=True)

    def start_ticker(self, interval: float = 0.5) -> None:
        """Redraw every ``interval`` seconds from a daemon thread until :meth:`close`.

        For work that cannot report steps (a call into a library function): the line
        then shows the elapsed time ticking.  Does nothing when the bar is quiet.
        """
        if not self.enabled or self._closed or self._stop is not None:
            return
        self._stop = threading.Event()
        stop = self._stop

        def tick() -> None:
            while not stop.wait(interval):
                if self._read is not None:
                    self.n = self._read()
                self._draw(force=True)

        threading.Thread(target=tick, name="mistakebound-progress", daemon=True).start()

    def follow(self, read: Callable[[], int], interval: float = 0.1) -> None:
        """Take the count from ``read()`` at each redraw (a ticker thread, :meth:`start_ticker`) and at the end.

        For work whose progress the library keeps itself (the rounds of a game, counted by
        :class:`~mistakebound.game.observers.RoundCount`): the bar reads it, and the library
        never calls back into the bar.  Does nothing when the bar is quiet.
        """
        if not self.enabled or self._closed:
            return
        self._read = read
        self.start_ticker(interval)

    def close(self) -> None:
        """Draw the final state once and erase the line (idempotent)."""
        if self._closed:
            return
        if self._stop is not None:
            self._stop.set()
        if self._read is not None:
            self.n = self._read()
        self._draw(force=True)
        with self._lock:
            if self.enabled and self._width_drawn:
                self._write("\r" + " " * self._width_drawn + "\r")
            self._closed = True

    # ------------------------------------------------------------------ numbers
    @property
    def elapsed(self) -> float:
        """Seconds since the bar was created."""
        return max(self._clock() - self._start, 0.0)

    @property
    def rate(self) -> float | None:
        """Steps per second so far (None before any step or any time has passed)."""
        elapsed = self.elapsed
        if self.n <= 0 or elapsed <= 0:
            return None
        return self.n / elapsed

    @property
    def eta(self) -> float | None:
        """Estimated seconds left at the current rate (None when unknown)."""
        rate = self.rate
        if self.total is None or rate is None:
            return None
        return max(self.total - self.n, 0) / rate

    def format(self, width: int = 80) -> str:
        """The bar's line as it would be drawn on a terminal ``width`` columns wide."""
        rate = self.rate
        unit = f" {self.unit}/s" if self.unit else "/s"
        rate_text = "-" + unit if rate is None else (f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}") + unit
        head = f"{self.desc}  " if self.desc else ""
        if self.total is None:
            return f"{head}{self.n:,}  {rate_text}  elapsed {format_duration(self.elapsed)}"[:width]
        fraction = 1.0 if self.total == 0 else min(self.n / self.total, 1.0)
        eta = self.eta
        tail = (
            f"  {fraction:4.0%}  {self.n:,}/{self.total:,}  {rate_text}  "
            f"ETA {format_duration(eta) if eta is not None else '?'}"
        )
        room = width - len(head) - len(tail) - 3
        if room >= 5:
            filled = int(round(fraction * room))
            bar = "[" + "#" * filled + "." * (room - filled) + "]"
            return f"{head}{bar}{tail}"
        return (head + tail.lstrip())[:width]

    # ------------------------------------------------------------------ drawing
    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: stop drawing
            self.enabled = False

    def _draw(self, force: bool = False) -> None:
        if not self.enabled or self._closed:
            return
        now = self._clock()
        if not force and self._last_draw is not None and now - self._last_draw < self.min_interval:
            return
        with self._lock:
            if self._closed:
                return
            self._last_draw = now
            width = max(shutil.get_terminal_size((80, 24)).columns - 1, 20)
            line = self.format(width)
            pad = max(self._width_drawn - len(line), 0)
            self._write("\r" + line + " " * pad)
            self._width_drawn = len(line)


def progress(iterable: Iterable[T], *, total: int | None = None, **options: Any) -> Iterator[T]:
    """Iterate over ``iterable`` with a :class:`Progress` bar (options as for the class).

    ``total`` defaults to ``len(iterable)`` when it has one.

    Yields
    ------
    object
        Each item of ``iterable``, in order.

    Examples
    --------
    >>> import io
    >>> list(progress("abc", desc="letters", stream=io.StringIO()))
    ['a', 'b', 'c']
    """
    if total is None:
        try:
            total = len(iterable)  # type: ignore[arg-type]
        except TypeError:
            total = None
    with Progress(total, **options) as bar:
        for item in iterable:
            yield item
            bar.update()
