"""The address of a Dask scheduler a sweep connects to: checked as text, then probed, each within a timeout.

``mistakebound sweep CONFIG --scheduler ADDRESS`` runs its cells on a running Dask
cluster.  Dask itself waits for ever on a server that accepts the connection and says
nothing (its handshake reads without a timeout), reads an HTTP server's answer as a
message of 3 EiB ("out of memory"), and needs certificates for ``tls://``.  So, before
Dask is given the address:

* :func:`check_address` reads it as text: ``tcp://HOST:PORT`` or ``HOST:PORT`` (a name,
  an IPv4 address or a bracketed IPv6 one, a port from 1 to 65535).  Any other scheme is
  refused, ``tls://`` with the reason (a sweep has no option for the cluster's
  certificates: reach it through ``tcp://``, an SSH tunnel for a remote one).
* :func:`probe` connects to it within :data:`CONNECT_TIMEOUT` seconds and waits at most
  :data:`HANDSHAKE_TIMEOUT` seconds for what a Dask scheduler sends first on every
  connection: its handshake, an 8-byte length and a small message.  A refused or
  unreachable address, a server that stays silent, and one that sends something else
  (an HTTP server's answer, say) are each refused in one line.

Every refusal is an :class:`~mistakebound.foundations.errors.InvalidArgumentError` naming
``--scheduler`` (exit 2 on the command line); nothing is imported but the standard library.

Examples
--------
>>> check_address("tcp://10.0.0.5:8786"), check_address("localhost:8786"), check_address("tcp://[::1]:8786")
('tcp://10.0.0.5:8786', 'tcp://localhost:8786', 'tcp://[::1]:8786')
>>> check_address("tls://10.0.0.5:8786")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: --scheduler: 'tls://10.0.0.5:8786' needs the cluster's TLS certificates, ...
"""

from __future__ import annotations

import re
import socket
import struct
import time

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import brief

__all__ = ["check_address", "probe", "CONNECT_TIMEOUT", "HANDSHAKE_TIMEOUT", "MAX_HANDSHAKE_BYTES"]

#: Seconds to open the connection.
CONNECT_TIMEOUT = 5.0
#: Seconds to wait for the scheduler's handshake once connected (a Dask scheduler sends it at once).
HANDSHAKE_TIMEOUT = 5.0
#: The largest handshake believed: a Dask scheduler's is a few hundred bytes.
MAX_HANDSHAKE_BYTES = 2**20

_EXPECTED = "expected the address of a running dask scheduler, tcp://HOST:PORT such as 'tcp://127.0.0.1:8786'"
_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]{0,252}[A-Za-z0-9])?)$")


def _refuse(address: str, why: str, expected: str = _EXPECTED) -> InvalidArgumentError:
    return InvalidArgumentError(f"--scheduler: {brief(address, 120)} {why}; {expected}")


def check_address(address: object) -> str:
    """The address as ``tcp://HOST:PORT``, or the refusal saying what is wrong with it (as text only).

    Raises
    ------
    InvalidArgumentError
        For a scheme other than ``tcp://`` (``tls://`` with why), no port, a port out of
        range, or a host that is no name or address.
    """
    if not isinstance(address, str) or not address.strip():
        raise InvalidArgumentError(f"--scheduler: expected an address such as 'tcp://127.0.0.1:8786', "
                                   f"got {brief(address)}")
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme == "tls":
        raise _refuse(text, "needs the cluster's TLS certificates, which a sweep has no option for",
                      "connect through tcp:// (an SSH tunnel to a remote cluster: ssh -L 8786:localhost:8786 HOST)")
    if scheme != "tcp":
        raise _refuse(text, f"has the scheme {scheme + '://'!r}, which a sweep does not use")
    host, colon, port = rest.rpartition(":")
    if not colon or not host:
        raise _refuse(text, "has no port")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise _refuse(text, f"has the port {port!r}, not a number from 1 to 65535")
    if not _HOST.match(host) or "/" in host:
        raise _refuse(text, f"has the host {host!r}, which is no host name or address")
    return f"tcp://{host}:{int(port)}"


def probe(address: str, *, connect_timeout: float = CONNECT_TIMEOUT,
          handshake_timeout: float = HANDSHAKE_TIMEOUT) -> None:
    """Connect to a :func:`check_address`-ed address and read the start of a Dask scheduler's handshake, each within
    its timeout; the connection is then closed.

    Raises
    ------
    InvalidArgumentError
        For an address that cannot be resolved or reached, a connection refused or
        not opened in time, a server that sends nothing in time, or one whose first
        bytes are not a Dask message's length (an HTTP server, say).
    """
    address = check_address(address)
    host, _, port = address.removeprefix("tcp://").rpartition(":")
    host = host.strip("[]")
    try:
        connection = socket.create_connection((host, int(port)), timeout=connect_timeout)
    except socket.timeout:
        raise _refuse(address, f"did not accept a connection within {connect_timeout:g} s") from None
    except OSError as exc:
        raise _refuse(address, f"cannot be reached ({exc.strerror or exc})") from None
    with connection:
        head = b""
        deadline = time.monotonic() + handshake_timeout
        try:
            while len(head) < 8:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise socket.timeout
                connection.settimeout(left)
                chunk = connection.recv(8 - len(head))
                if not chunk:
                    raise _refuse(address, "accepted the connection and closed it without a word: it is no dask "
                                           "scheduler")
                head += chunk
        except socket.timeout:
            raise _refuse(address, f"accepted the connection but sent nothing in {handshake_timeout:g} s, where a "
                                   "dask scheduler sends its handshake at once: it is no dask scheduler (an HTTP "
                                   "server, say, waits for a request)") from None
        except OSError as exc:
            raise _refuse(address, f"broke the connection ({exc.strerror or exc})") from None
    (length,) = struct.unpack("<Q", head)
    if not 0 < length <= MAX_HANDSHAKE_BYTES:
        shown = head.decode("ascii", "replace").encode("unicode_escape").decode("ascii")
        raise _refuse(address, f"answered {shown!r}..., not a dask scheduler's handshake: it is no dask scheduler")
