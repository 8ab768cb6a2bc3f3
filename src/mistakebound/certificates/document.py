"""Reading a certificate: regular files only, within a byte budget, through one strict JSON grammar.

The checker reads what it is given, and what it is given may be crafted to hang it or to
exhaust its memory.  So :func:`load` reads a *regular file* only (a FIFO, a device such as
``/dev/zero`` reached through a link, a directory or a socket is refused before a byte is
read), refuses a file, compressed or not, whose text exceeds :func:`document_limit` (it
decompresses at most that many bytes plus one, never the whole stream), and parses the
text with a grammar stricter than Python's :mod:`json`: a key given twice in one object is
refused (Python keeps the last), and so are ``NaN`` and ``Infinity``, which are not JSON.

The byte budget comes from the memory the checker may use: ``memory // DOCUMENT_SHARE``
bytes of text (parsing JSON multiplies its size: a two-character string becomes an object
of about 50 bytes), or :data:`DEFAULT_DOCUMENT_LIMIT` when the memory is not known.
``mistakebound verify`` passes the package's memory budget; the checker run as a program
reads ``--memory-limit`` or :data:`MEMORY_LIMIT_VARIABLE`, which it parses with
:func:`parse_size`, the one grammar of sizes of the whole package
(:mod:`mistakebound.foundations.memory` reads the same variable with it).

Two errors: :class:`CertificateError`, a certificate that does not check (exit 1), and
:class:`UnreadableCertificate`, an ``OSError``, for what the checker will not read or
cannot hold (exit 2, like a file that does not exist).

Examples
--------
>>> parse_size("512M"), parse_size("2g"), parse_size("4096"), parse_size("1.5 GiB")
(536870912, 2147483648, 4096, 1610612736)
>>> parse_json('{"a": 1, "a": 2}')
Traceback (most recent call last):
...
mistakebound.certificates.document.CertificateError: file: not a JSON certificate (the key 'a' appears twice in one object)
>>> document_limit(16 * 2**20), document_limit(None) == DEFAULT_DOCUMENT_LIMIT
(1048576, True)
"""

from __future__ import annotations

import gzip
import json
import os
import re
import stat
import zlib

__all__ = [
    "DEFAULT_DOCUMENT_LIMIT",
    "DOCUMENT_SHARE",
    "FORMAT",
    "MAX_SIZE",
    "MEMORY_LIMIT_VARIABLE",
    "VERSION",
    "CertificateError",
    "UnreadableCertificate",
    "document_limit",
    "environment_memory",
    "load",
    "parse_json",
    "parse_size",
]

FORMAT = "mistakebound-certificate"
VERSION = 2

#: The environment variable holding the bytes a process may use in all (read by the package's
#: memory budget, :mod:`mistakebound.foundations.memory`, and by the checker run as a program).
MEMORY_LIMIT_VARIABLE = "MISTAKEBOUND_MEMORY_LIMIT"
#: A document's text may take this fraction (1/16) of the memory the checker may use.
DOCUMENT_SHARE = 16
#: The most bytes of text read when the memory the checker may use is not known (1 GiB).
DEFAULT_DOCUMENT_LIMIT = 1 << 30

#: The largest size :func:`parse_size` reads (8 EiB less a byte, the largest file offset), and the most
#: characters of a size's text (a size longer than this is no size).
MAX_SIZE = 2**63 - 1
_MAX_SIZE_CHARS = 64
# ASCII digits only (str.isdigit would take '٣'); the unit after optional blanks
_SIZE = re.compile(r"[ \t]*(?=\.?[0-9])([0-9]*)(?:\.([0-9]+))?[ \t]*(?:([kmgt])(?:i?b)?|b)?[ \t]*", re.IGNORECASE)
_SIZE_EXPECTED = ("expected a size in bytes: a positive whole or decimal number with an optional unit K, M, G or "
                  "T (powers of 1024; KB, KiB, ... read the same), such as 512M, 1.5G or 1048576")


class CertificateError(ValueError):
    """A certificate that does not check; the message names the first failing step."""


class UnreadableCertificate(OSError):
    """A file the checker will not read (not a regular file) or a certificate larger than its budget."""


def parse_size(text: str | None) -> int | None:
    """The bytes a size written as text stands for: the one grammar of sizes of the whole package.

    The grammar: a positive number, whole (``512``) or decimal (``1.5``, ``.5``: ASCII
    digits, a point, no sign, no exponent, no ``_``), then an optional unit, ``K``, ``M``,
    ``G`` or ``T`` in any case, each a power of 1024 and read the same with ``B`` or
    ``iB`` after it (``512M``, ``512MB``, ``512 MiB``), or ``B`` alone for bytes; blanks
    around the number and the unit are allowed.  A decimal size is rounded down to whole
    bytes, and must then be at least 1 byte and at most :data:`MAX_SIZE`.  ``None``, an
    empty text or blanks alone mean "not set" and give None (``VAR= command`` unsets a
    limit, as for Python's own variables).  Everything else is refused: ``0``, negative
    sizes, ``1e9``, ``abc``, ``0x10``, a size that rounds down to 0 bytes (``0.4``).

    Raises
    ------
    ValueError
        Saying what is expected and showing the text (shortened when long); the caller
        prefixes the name of the variable or option it read (the package raises it as an
        :class:`~mistakebound.foundations.errors.InvalidArgumentError`, the checker run
        alone as an argparse error).

    Examples
    --------
    >>> parse_size("512M"), parse_size("2 GiB"), parse_size("1.5G"), parse_size("1048576"), parse_size("")
    (536870912, 2147483648, 1610612736, 1048576, None)
    >>> parse_size("1e9")
    Traceback (most recent call last):
    ...
    ValueError: expected a size in bytes: a positive whole or decimal number with an optional unit K, M, G or T (powers of 1024; KB, KiB, ... read the same), such as 512M, 1.5G or 1048576, got '1e9'
    >>> parse_size("0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: expected a size in bytes: ..., got '0'
    """
    if text is None:
        return None
    text = str(text)
    if not text.strip(" \t"):
        return None
    m = _SIZE.fullmatch(text) if len(text) <= _MAX_SIZE_CHARS else None
    value = 0
    if m is not None:
        whole, fraction, unit = m.group(1), m.group(2) or "", (m.group(3) or "").lower()
        shift = 10 * "_kmgt".index(unit or "_")
        value = (int(whole + fraction) << shift) // 10 ** len(fraction)
    if not 1 <= value <= MAX_SIZE:
        shown = repr(text) if len(text) <= _MAX_SIZE_CHARS else f"{text[:_MAX_SIZE_CHARS]!r}... ({len(text):,} characters)"
        raise ValueError(f"{_SIZE_EXPECTED}, got {shown}")
    return value


def environment_memory() -> int | None:
    """The bytes :data:`MEMORY_LIMIT_VARIABLE` allows (None when it is unset or empty).

    Raises
    ------
    ValueError
        For a value outside the grammar of :func:`parse_size`, the message starting with
        the variable's name.
    """
    try:
        return parse_size(os.environ.get(MEMORY_LIMIT_VARIABLE))
    except ValueError as exc:
        raise ValueError(f"{MEMORY_LIMIT_VARIABLE}: {exc}") from None


def document_limit(memory: int | None) -> int:
    """The most bytes of certificate text read when the checker may use ``memory`` bytes (None: not known)."""
    return DEFAULT_DOCUMENT_LIMIT if memory is None else max(memory // DOCUMENT_SHARE, 0)


def _pairs(pairs: list) -> dict:
    """A JSON object from its pairs, refusing a key given twice."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise CertificateError(f"file: not a JSON certificate (the key {key!r} appears twice in one object)")
        out[key] = value
    return out


def _no_constant(name: str):
    raise CertificateError(f"file: not a JSON certificate ({name} is not a JSON number)")


def parse_json(text: str | bytes) -> object:
    """The JSON value of ``text`` under the strict grammar (no repeated keys, no ``NaN``/``Infinity``)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
    except CertificateError:
        raise
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise CertificateError(f"file: not a JSON certificate ({exc})") from None


def _read_capped(stream, limit: int, what: str) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise UnreadableCertificate(f"{what} holds more than {limit:,} bytes of text, more than the checker "
                                    f"reads (1/{DOCUMENT_SHARE} of the memory it may use; set --memory-limit "
                                    f"or {MEMORY_LIMIT_VARIABLE} to allow more)")
    return data


def load(path: str | os.PathLike, *, memory: int | None = None) -> object:
    """The JSON document in the regular file ``path`` (through gzip when its name ends in ``.gz``).

    Reads at most :func:`document_limit` of ``memory`` bytes of text.  Raises
    :class:`UnreadableCertificate` for a file that is not regular or too large, ``OSError``
    when it cannot be opened, :class:`CertificateError` when it is not JSON (or not gzip).
    """
    limit = document_limit(memory)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO with no writer must not wait for one
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise UnreadableCertificate(f"{os.fspath(path)!r} is not a regular file; expected a certificate file "
                                    "(.json or .json.gz)")
    with open(fd, "rb", closefd=True) as raw:
        if info.st_size > limit:
            raise UnreadableCertificate(f"{os.fspath(path)!r} holds {info.st_size:,} bytes, more than the "
                                        f"{limit:,} the checker reads (1/{DOCUMENT_SHARE} of the memory it may use)")
        try:
            if os.fspath(path).endswith(".gz"):
                with gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
                    data = _read_capped(unzipped, limit, f"{os.fspath(path)!r} decompressed")
            else:
                data = _read_capped(raw, limit, repr(os.fspath(path)))
        except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
            raise CertificateError(f"file: not a gzip-compressed certificate ({exc})") from None
    return parse_json(data)
