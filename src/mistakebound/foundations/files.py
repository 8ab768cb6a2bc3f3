"""Writing result files atomically: a reader never sees a half-written file.

:func:`write_atomically` writes to a temporary file beside the target and moves it over
the target in one ``os.replace``.  Around that step:

* **Symbolic links are followed openly, never silently.**  When the target is a symbolic
  link, the file the link points to is written (atomically, beside itself) and the link
  is kept; :func:`output_target` says which file that is, and the command line prints it
  (``wrote out.jsonl (...; a symbolic link: its target '/data/run1.jsonl' was written,
  the link kept)``).  A link loop, a link into a missing folder, or a link to a folder is
  refused.  (Replacing the link by a file would break what the link is for, a ``latest``
  pointing into a folder of runs; writing through it in place would not be atomic.)
* **A link planted in a shared folder is not followed.**  Since the links are resolved here,
  not by the kernel, the kernel's protection of shared folders (``fs.protected_symlinks``)
  would not apply; its rule is applied here instead, whatever the system's setting: a link
  (the path named, or any link of its chain) that lies in a sticky folder writable by all
  (``/tmp``) is followed only when it belongs to the user writing or to the folder's owner.
  Any other is refused (:class:`~mistakebound.foundations.errors.InvalidArgumentError`, the
  command line's exit 2), before anything is written: another user's link in ``/tmp``
  cannot make a command write over a file the link points to.
* **Nothing else is followed.**  The temporary file is created exclusively (``O_EXCL``);
  its mode is set, its text or bytes written and its data flushed through descriptors
  opened with ``O_NOFOLLOW``; the ``os.replace`` that moves it replaces a name, never a
  link's target.  A link put in the temporary's place (a race) fails the write with
  ``ELOOP`` and leaves everything as it was.  (A writer function, such as a figure's, is
  given the temporary's name and opens it itself, after its mode was set without
  following a link; in a shared sticky folder no other user can replace the temporary.)
* **Safe modes**: a new file gets the permissions the umask gives (``0666 & ~umask``); a
  replaced file keeps its read, write and execute bits (a ``0600`` file stays ``0600`` and,
  when run as root, keeps its owner), but never its set-user-id, set-group-id or sticky bit:
  a result file is data, and copying ``u+s`` onto new contents would make them privileged.
* **A read-only file is not replaced**: a target without any write permission bit
  (``chmod a-w``) is refused, even for root, as ``cp`` would refuse it for a user.
* **No temporary file is left behind.**  Temporaries are named
  ``NAME.PID.RANDOM.mistakebound-tmp`` beside the target (visible, and recognisable by
  the suffix); one is removed if the write fails or is interrupted, and one left by a
  process that was killed (``kill -9``, a power cut) is removed by the next write to, or
  :func:`check_writable` probe of, the same target (a temporary belongs to a dead
  process when its process id no longer runs, or runs a process started after it).

:func:`check_writable` is the probe a command runs *before* its work: the folder exists
and a file can be created in it, the target is not a folder or a read-only file.  An
``OSError`` while writing (a full disk, a read-only file system) is raised as it is,
after the temporary file is removed and the old file left as it was.

Examples
--------
>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "t.txt"
>>> write_atomically(p, "done").read_text()
'done'
>>> check_writable(p)
>>> output_target(p) == p
True
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from mistakebound.foundations.errors import InvalidArgumentError

__all__ = ["write_atomically", "check_writable", "output_target", "KEPT_MODE_BITS", "TEMPORARY_SUFFIX"]

#: The suffix of every temporary file :func:`write_atomically` creates.
TEMPORARY_SUFFIX = ".mistakebound-tmp"
_TEMPORARY = re.compile(r"\.(\d+)\.[0-9a-f]{8}" + re.escape(TEMPORARY_SUFFIX))


def _type_name(value: object) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}"


def _shown(path: str | os.PathLike) -> str:
    """A path quoted for a message: control characters escaped (``repr``)."""
    return repr(str(path))


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


# ---------------------------------------------------------------- the target
def output_target(path: str | os.PathLike, *, parameter: str = "path") -> Path:
    """The file a write to ``path`` changes: ``path`` itself, or the end of its symbolic links.

    ``parameter`` is the name a refusal starts with (the caller's option, ``"--out"``).

    Raises
    ------
    InvalidArgumentError
        For a link loop or a chain of links too long to follow.

    Examples
    --------
    >>> import tempfile, pathlib, os
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> os.symlink("real.json", folder / "link.json")
    >>> output_target(folder / "link.json") == folder / "real.json"
    True
    """
    path = Path(path)
    seen = {os.path.abspath(path)}
    current = path
    while current.is_symlink():
        try:
            link = os.readlink(current)
        except OSError as exc:  # pragma: no cover - the link vanished meanwhile
            raise InvalidArgumentError(f"{parameter}: cannot read the symbolic link {_shown(current)} ({exc.strerror})") from None
        current = Path(os.path.join(os.path.dirname(current), link))
        key = os.path.abspath(current)
        if key in seen or len(seen) > 40:
            raise InvalidArgumentError(
                f"{parameter}: {_shown(path)} is a symbolic link that loops (through {_shown(current)}); "
                "expected a file name or a link to one")
        seen.add(key)
    return current


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _planted(link: Path) -> str | None:
    """Why the link ``link`` may not be followed (the rule of ``fs.protected_symlinks``), or None if it may.

    A link in a sticky folder writable by all is followed only when it belongs to the user
    following it (the effective user) or to the folder's owner."""
    if not hasattr(os, "geteuid"):  # pragma: no cover - not POSIX
        return None
    try:
        folder = os.stat(_folder(link))
        st = os.lstat(link)
    except OSError:
        return None  # gone meanwhile: the write finds out
    shared = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
    if not shared or st.st_uid in (os.geteuid(), folder.st_uid):
        return None
    return (f"{_shown(link)} is a symbolic link in the shared folder {_shown(_folder(link))} (sticky and writable by "
            f"all), owned by user {st.st_uid}, neither you nor the folder's owner; it is not followed (the rule of the "
            "kernel's fs.protected_symlinks): remove it, or give another file name")


def _check_links(path: Path, parameter: str) -> None:
    """Refuse a chain of links from ``path`` that goes through a link planted in a shared folder."""
    current, seen = path, 0
    while current.is_symlink() and seen <= 40:
        why = _planted(current)
        if why is not None:
            raise InvalidArgumentError(f"{parameter}: {why}")
        current = Path(os.path.join(os.path.dirname(current), os.readlink(current)))
        seen += 1


def _check_target(path: Path, parameter: str) -> tuple[Path, os.stat_result | None]:
    """The file to write (links followed) and its current status, or refused before any work."""
    target = output_target(path, parameter=parameter)
    if target != path:
        _check_links(path, parameter)
    via = "" if target == path else f" (the target of the symbolic link {_shown(path)})"
    folder = _folder(target)
    if not folder.is_dir():
        raise InvalidArgumentError(f"{parameter}: the directory {_shown(folder)} of {_shown(target)}{via} does not exist")
    try:
        st = os.lstat(target)  # the end of the chain: not a link (unless one was put there meanwhile)
    except FileNotFoundError:
        return target, None
    except OSError as exc:
        raise InvalidArgumentError(f"{parameter}: cannot write {_shown(target)}{via} ({exc.strerror})") from None
    if stat.S_ISLNK(st.st_mode):
        raise InvalidArgumentError(f"{parameter}: {_shown(target)}{via} became a symbolic link while it was read; "
                                   "expected a file name")
    if stat.S_ISDIR(st.st_mode):
        raise InvalidArgumentError(f"{parameter}: {_shown(target)}{via} is a directory; expected a file name")
    if not stat.S_ISREG(st.st_mode):
        raise InvalidArgumentError(f"{parameter}: {_shown(target)}{via} is not a regular file (a device, pipe or socket); "
                                   "expected a file name")
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise InvalidArgumentError(
            f"{parameter}: {_shown(target)}{via} is read-only (mode {stat.S_IMODE(st.st_mode):04o}); it is not replaced: "
            "make it writable, or give another file name")
    return target, st


# ------------------------------------------------------------ temporary files
def _process_start(pid: int) -> float | None:
    """When process ``pid`` started (seconds since the epoch), or None if it is not running or unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        ticks = int(fields[19])  # field 22 of proc(5): starttime, in clock ticks after boot
        with open("/proc/stat", "rb") as fh:
            boot = next(int(line.split()[1]) for line in fh if line.startswith(b"btime"))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except FileNotFoundError:
        return None
    except (OSError, ValueError, IndexError, StopIteration):
        return -1.0  # running (or unknown), start unknown


def _stale(path: Path, pid: int) -> bool:
    """Whether the temporary ``path`` of process ``pid`` belongs to a process that no longer runs."""
    if pid == os.getpid() or os.name != "posix":
        return False  # ours (another thread may be writing it); elsewhere os.kill(pid, 0) would end pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, OSError):
        pass  # runs as another user (or the pid is out of range: then it cannot run)
    started = _process_start(pid)
    if started is None:
        return True
    if started < 0:
        return False
    try:  # the pid was reused: the process running now started after the temporary was last written
        return os.stat(path).st_mtime < started - 1
    except OSError:
        return False


def _remove_stale_temporaries(target: Path) -> None:
    """Remove temporaries of ``target`` left by processes that died before finishing."""
    folder = _folder(target)
    prefix = target.name + "."
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(TEMPORARY_SUFFIX)]
    except OSError:
        return
    for name in names:
        m = _TEMPORARY.fullmatch(name[len(target.name):])
        if m is None:
            continue
        candidate = folder / name
        if _stale(candidate, int(m.group(1))):
            try:
                os.unlink(candidate)
            except OSError:
                pass


def _new_temporary(target: Path) -> str:
    """Create an empty temporary file beside ``target`` (exclusively) and return its path."""
    folder = _folder(target)
    for _ in range(100):
        name = f"{target.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMPORARY_SUFFIX}"
        tmp = os.path.join(folder, name)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        except FileExistsError:  # pragma: no cover - 32 random bits collided
            continue
        os.close(fd)
        return tmp
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(folder))  # pragma: no cover


#: The permission bits a replaced file passes to its new contents: read, write and execute, never
#: set-user-id, set-group-id or sticky.
KEPT_MODE_BITS = 0o777
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _permissions(tmp: str, old: os.stat_result | None) -> None:
    """Give the temporary file the old file's permission bits (and owner, as root; never its set-id or
    sticky bits), or what the umask gives a new one; through a descriptor opened without following links."""
    fd = os.open(tmp, os.O_RDONLY | _NOFOLLOW)  # a link put in its place: ELOOP, and the write fails
    try:
        if old is None:
            os.fchmod(fd, 0o666 & ~_umask())
            return
        mode = stat.S_IMODE(old.st_mode) & KEPT_MODE_BITS
        os.fchmod(fd, mode)
        if hasattr(os, "geteuid") and os.geteuid() == 0 and (old.st_uid, old.st_gid) != (0, 0):
            os.fchown(fd, old.st_uid, old.st_gid)
            os.fchmod(fd, mode)
    except OSError:  # pragma: no cover - a file system without modes
        pass
    finally:
        os.close(fd)


def _sync(tmp: str) -> None:
    """Flush the temporary file to the disk before it replaces the target (a full disk says so here)."""
    fd = os.open(tmp, os.O_RDONLY | _NOFOLLOW)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ------------------------------------------------------------------ the probe
def check_writable(path: str | os.PathLike, *, parameter: str = "path") -> None:
    """Refuse, before any work, an output file that could not be written.

    Checks that ``path`` (or the file its symbolic links end at) is not a folder, a
    device or a read-only file, that its folder exists, and that a file can be created
    in that folder (by creating and removing an empty temporary file); removes stale
    temporaries of the same target on the way.  A full disk is found only when the data
    is written.  Every writer of the package calls it before its work (``play --out``,
    ``check --json``, ``tree --out``, ``plot --out``, ``sweep --out``), with ``parameter``
    the option the message names.

    Raises
    ------
    InvalidArgumentError
        On one line naming the file and the reason.

    Examples
    --------
    >>> check_writable("/no-such-folder/x.jsonl")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: path: the directory '/no-such-folder' of '/no-such-folder/x.jsonl' does not exist
    >>> check_writable("/proc/x.jsonl", parameter="--out")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: --out: cannot create files in '/proc' (...); expected a writable directory
    """
    path = Path(path)
    target, _ = _check_target(path, parameter)
    _remove_stale_temporaries(target)
    try:
        tmp = _new_temporary(target)
    except OSError as exc:
        raise InvalidArgumentError(
            f"{parameter}: cannot create files in {_shown(_folder(target))} ({exc.strerror or exc}); "
            "expected a writable directory") from None
    try:
        os.unlink(tmp)
    except OSError:  # pragma: no cover
        pass


# ------------------------------------------------------------------ writing
def _write_with(path: str | os.PathLike, write: Callable[[str], None], parameter: str) -> Path:
    """Call ``write(temporary_path)``, then move the temporary file over ``path`` (or its link's target)."""
    path = Path(path)
    target, old = _check_target(path, parameter)
    _remove_stale_temporaries(target)
    tmp = _new_temporary(target)
    try:
        _permissions(tmp, old)
        write(tmp)
        _sync(tmp)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def write_atomically(path: str | os.PathLike, data: str | bytes | Callable[[str], None], *,
                     parameter: str = "path") -> Path:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` atomically and return the path.

    The data goes to a temporary file in the same directory, which then replaces
    ``path`` in one ``os.replace``; if anything fails midway the temporary file is
    removed and a previous ``path`` is left as it was.  ``data`` may also be a function
    ``write(temporary_path)``, which does the work.  A symbolic link is kept and the file
    it points to written, unless it was planted in a shared folder by another user; the old
    file's permission bits are kept, never its set-id or sticky bits (see the module docstring).
    ``parameter`` is the name a refusal starts with (the caller's option, ``"--out"``).

    Raises
    ------
    InvalidArgumentError
        For data that is not text, bytes or a function, a directory that does not exist,
        a ``path`` that is a directory or a read-only file, or a symbolic link that loops.
    OSError
        When the file system refuses the write (a full disk, a read-only file system).

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
        return _write_with(path, data, parameter)
    else:
        raise InvalidArgumentError(f"data: expected str, bytes or a function, got {_type_name(data)}")

    def write(tmp: str) -> None:
        with open(os.open(tmp, os.O_WRONLY | os.O_TRUNC | _NOFOLLOW), "wb") as fh:  # the temporary itself, no link
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())

    return _write_with(path, write, parameter)
