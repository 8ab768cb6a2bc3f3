"""Writing result files atomically: a reader never sees a half-written file.

Examples
--------
>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "t.txt"
>>> write_atomically(p, "done").read_text()
'done'
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from mistakebound.foundations.errors import InvalidArgumentError

__all__ = ["write_atomically"]


def _type_name(value: object) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}"


def _umask() -> int:
    try:  # Linux: read it without changing it
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _default_permissions(path: str) -> None:
    """Give a temporary file the permissions a newly created file would get (umask)."""
    mask = _umask()
    try:
        os.chmod(path, 0o666 & ~mask)
    except OSError:  # pragma: no cover - a file system without modes
        pass


def _write_with(path: str | os.PathLike, write: Callable[[str], None]) -> Path:
    """Call ``write(temporary_path)``, then move the temporary file over ``path``."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidArgumentError(f"out: the directory {str(folder)!r} of {str(path)!r} does not exist")
    if path.is_dir():
        raise InvalidArgumentError(f"out: {str(path)!r} is a directory; expected a file name")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=folder)
    os.close(fd)
    _default_permissions(tmp)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def write_atomically(path: str | os.PathLike, data: str | bytes | Callable[[str], None]) -> Path:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` atomically and return the path.

    The data goes to a temporary file in the same directory, which then replaces
    ``path`` in one ``os.replace``; if anything fails midway the temporary file is
    removed and a previous ``path`` is left as it was.  ``data`` may also be a function
    ``write(temporary_path)``, which does the work.

    Raises
    ------
    InvalidArgumentError
        For data that is not text, bytes or a function, a directory that does not exist,
        or a ``path`` that is a directory.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.json"
    >>> write_atomically(p, "{}").read_text()
    '{}'
    """
    if isinstance(data, str):
        payload = data.encode("utf-8")
    elif isinstance(data, (bytes, bytearray, memoryview)):
        payload = bytes(data)
    elif callable(data):
        return _write_with(path, data)
    else:
        raise InvalidArgumentError(f"data: expected str, bytes or a function, got {_type_name(data)}")

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())

    return _write_with(path, write)


