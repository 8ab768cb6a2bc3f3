"""What the commands write: standard output, and the output files of ``--out``, ``--json`` and ``--certificate``.

* :class:`Output`: standard output as the commands write it, control characters escaped;
  a write the system refuses is :class:`~mistakebound.interfaces.cli.failures.OutputFailed`.
* :func:`check_out`: an output path refused before any work (its suffix, its folder).
* :func:`write_output`: an output file written atomically after the results were printed,
  and the ``wrote`` line (a symbolic link kept and its target named).
* :func:`jsonl_writer`, :func:`save_drawing`: what :func:`write_output` writes for JSON
  Lines and for figures.

Examples
--------
>>> import io
>>> out = Output(io.StringIO())
>>> _ = out.write("a\\x1b[31m red\\n")
>>> out._stream.getvalue()
'a\\\\x1b[31m red\\n'
>>> check_out("game.txt", (".jsonl",), "JSON Lines")
Traceback (most recent call last):
...
mistakebound.interfaces.cli.failures.BadInput: --out: expected a JSON Lines file name ending in .jsonl, got 'game.txt'
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from mistakebound.foundations.text import printable
from mistakebound.interfaces.cli.failures import BadInput, OutputFailed

__all__ = ["Output", "check_out", "jsonl_writer", "require_plots", "save_drawing", "write_output"]


class Output:
    """Standard output as the commands write it: control characters escaped (see ``printable``).

    A write the system refuses (``> /dev/full``, a full disk) is :class:`OutputFailed` (exit
    2, one line naming standard output); a reader that left (``| head``) stays
    ``BrokenPipeError`` (exit 0)."""

    def __init__(self, stream):
        self._stream = stream

    @staticmethod
    def failed(exc: OSError) -> OutputFailed:
        """The :class:`OutputFailed` of a write to standard output that raised ``exc``."""
        return OutputFailed(f"standard output: cannot write ({exc.strerror or exc}); the results printed "
                            "there are lost: expected a terminal, a pipe or a file with room for them")

    def write(self, text: str) -> int:
        try:
            return self._stream.write(printable(text, lines=True))
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self.failed(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self.failed(exc) from None

    def __getattr__(self, name: str) -> Any:  # isatty, encoding, ...
        return getattr(self._stream, name)


def check_out(path: str | None, suffixes: tuple[str, ...], what: str, option: str = "--out") -> None:
    """Refuse, before any work, an output path that is misnamed or could not be written.

    The suffix, then :func:`~mistakebound.foundations.files.check_writable`: the folder
    exists and takes a new file, the target is not a folder or a read-only file (a
    symbolic link is followed, and the file written is named when it is written).

    Raises
    ------
    BadInput
        Naming ``option``, the path and what was expected.
    """
    if path is None:
        return
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.foundations.files import check_writable

    p = Path(path)
    if p.suffix.lower() not in suffixes:
        raise BadInput(f"{option}: expected a {what} file name ending in {' or '.join(suffixes)}, got {path!r}")
    try:
        check_writable(p, parameter=option)
    except InvalidArgumentError as exc:
        raise BadInput(str(exc)) from None


def write_output(option: str, path: str, out, line: str, *, data: Any = None, save: Any = None) -> None:
    """Write an output file atomically and print ``line``; a failure is :class:`OutputFailed` (exit 2).

    ``data`` is text, bytes or a function ``write(temporary_path)`` (as for
    :func:`~mistakebound.foundations.files.write_atomically`), or ``save()`` does the
    writing (a figure, through :func:`~mistakebound.interfaces.plots.save_figure`).  The
    results were printed before: a failure loses the file, never what was computed.  A
    symbolic link is kept and its target written, and ``line`` then says so.  ``line`` is
    printed on one line, its control characters escaped (the file name's too).
    """
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.foundations.files import output_target, write_atomically

    try:
        target = output_target(path, parameter=option)
        if save is not None:
            save()
        else:
            write_atomically(path, data, parameter=option)
    except (OSError, InvalidArgumentError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        for prefix in (f"{option}: ", "path: "):  # the option is named once, in front
            if isinstance(exc, InvalidArgumentError) and reason.startswith(prefix):
                reason = reason[len(prefix):]
                break
        raise OutputFailed(f"{option}: cannot write {path!r}: {reason}; the results above are complete, "
                           "but the file was not written (a file already there is unchanged)") from None
    if target != Path(path):
        note = f"a symbolic link: its target {str(target)!r} was written, the link kept"
        line = line[:-1] + f"; {note})" if line.endswith(")") else f"{line} ({note})"
    print(printable(line), file=out)  # one line, whatever the file name holds


def jsonl_writer(records: list[dict]):
    """A function writing ``records`` as JSON Lines to a temporary file (for :func:`write_output`)."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            for record in records:
                fh.write(json.dumps(record) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    return write


def require_plots() -> None:
    """Refuse, before any work, a figure without matplotlib (one line saying how to install it)."""
    from mistakebound.interfaces.plots import _matplotlib

    _matplotlib()


def save_drawing(fig: Any, path: str, out, what: str, **style: Any) -> None:
    """Save a figure to ``--out``, saying ``what`` it shows; when the write fails, say it was drawn, not written.
    ``style``: :func:`~mistakebound.interfaces.plots.save_figure`'s ``dpi`` and ``titles``."""
    from mistakebound.interfaces.plots import save_figure

    try:
        write_output("--out", path, out, f"wrote {path}: {what}", save=lambda: save_figure(fig, path, **style))
    except OutputFailed:
        print(f"drawn, not written: {what}", file=out)
        raise
