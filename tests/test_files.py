"""Atomic writes (mistakebound.foundations.files): links followed openly, modes kept, no temporary left."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys

import pytest

from mistakebound.foundations import files
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.files import TEMPORARY_SUFFIX, check_writable, output_target, write_atomically

POSIX = pytest.mark.skipif(os.name != "posix", reason="modes and symbolic links as POSIX has them")


def listing(folder):
    return sorted(p.name for p in folder.iterdir())


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


@POSIX
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o755])
def test_the_old_files_mode_is_kept(tmp_path, mode):
    path = tmp_path / "out.json"
    path.write_text("old")
    path.chmod(mode)
    write_atomically(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == mode
    write_atomically(path, lambda tmp: open(tmp, "w").write("by a function"))
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert listing(tmp_path) == ["out.json"]


@POSIX
def test_a_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomically(tmp_path / "new.json", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640


@POSIX
def test_a_symbolic_link_is_kept_and_its_target_written(tmp_path):
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "run1.json"
    target.write_text("old")
    target.chmod(0o600)
    link = tmp_path / "latest.json"
    link.symlink_to("data/run1.json")
    assert output_target(link) == tmp_path / "data" / "run1.json"
    assert write_atomically(link, "new") == link
    assert link.is_symlink() and os.readlink(link) == "data/run1.json"
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert listing(tmp_path / "data") == ["run1.json"]
    chain = tmp_path / "chain.json"
    chain.symlink_to(link)
    write_atomically(chain, "through two links")
    assert target.read_text() == "through two links" and chain.is_symlink() and link.is_symlink()
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to("data/made.json")
    write_atomically(dangling, "made")
    assert (tmp_path / "data" / "made.json").read_text() == "made" and dangling.is_symlink()


@POSIX
@pytest.mark.parametrize("make, says", [
    (lambda d: (d / "a.json").symlink_to("b.json") or (d / "b.json").symlink_to("a.json"), "symbolic link that loops"),
    (lambda d: (d / "a.json").symlink_to("nowhere/x.json"), "of the symbolic link"),
    (lambda d: (d / "sub").mkdir() or (d / "a.json").symlink_to("sub"), "is a directory"),
    (lambda d: (d / "a.json").mkdir(), "is a directory"),
    (lambda d: [(d / "a.json").write_text("keep"), (d / "a.json").chmod(0o444)], r"is read-only \(mode 0444\)"),
])
def test_outputs_that_cannot_be_written_are_refused_before_and_at_the_write(tmp_path, make, says):
    make(tmp_path)
    before = {p.name: (p.read_text() if p.is_file() else None) for p in tmp_path.iterdir()}
    for call, name in ((lambda: check_writable(tmp_path / "a.json"), "path"),
                       (lambda: check_writable(tmp_path / "a.json", parameter="--out"), "--out"),
                       (lambda: write_atomically(tmp_path / "a.json", "x"), "path"),
                       (lambda: write_atomically(tmp_path / "a.json", "x", parameter="--json"), "--json")):
        with pytest.raises(InvalidArgumentError, match=says) as info:
            call()
        assert "\n" not in str(info.value) and str(info.value).startswith(f"{name}: ")  # the caller's option
    assert {p.name: (p.read_text() if p.is_file() else None) for p in tmp_path.iterdir()} == before


def test_a_failed_write_removes_its_temporary_and_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "out.jsonl"
    path.write_text("old")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as info:
        write_atomically(path, "new")
    assert info.value.errno == errno.ENOSPC
    assert path.read_text() == "old" and listing(tmp_path) == ["out.jsonl"]

    def interrupted(tmp):
        open(tmp, "w").write("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomically(path, interrupted)
    assert path.read_text() == "old" and listing(tmp_path) == ["out.jsonl"]


def test_temporaries_have_a_recognisable_name_beside_the_target(tmp_path):
    seen = []
    write_atomically(tmp_path / "out.csv", lambda tmp: seen.append(os.path.basename(tmp)) or open(tmp, "w").close())
    (name,) = seen
    assert name.startswith(f"out.csv.{os.getpid()}.") and name.endswith(TEMPORARY_SUFFIX)
    assert not name.startswith(".")  # visible: a left-over is seen, and its name says what it is


def test_temporaries_of_dead_processes_are_removed_by_the_next_write_or_probe(tmp_path):
    """A ``kill -9`` in the middle of a write leaves a temporary: the next run to the same target removes it."""
    pid = dead_pid()
    stale = tmp_path / f"out.jsonl.{pid}.0123abcd{TEMPORARY_SUFFIX}"
    mine = tmp_path / f"out.jsonl.{os.getpid()}.0123abcd{TEMPORARY_SUFFIX}"  # a write of this very process
    live = tmp_path / f"out.jsonl.1.0123abcd{TEMPORARY_SUFFIX}"  # pid 1 runs, and started before the file
    other = tmp_path / f"other.jsonl.{pid}.0123abcd{TEMPORARY_SUFFIX}"  # another target's
    odd = tmp_path / f"out.jsonl.{pid}.backup"  # not a temporary of ours
    for p in (stale, mine, live, other, odd):
        p.write_text("partial")
    check_writable(tmp_path / "out.jsonl")
    assert not stale.exists() and mine.exists() and live.exists() and other.exists() and odd.exists()
    stale.write_text("partial")
    write_atomically(tmp_path / "out.jsonl", "done")
    assert not stale.exists() and mine.exists() and other.exists()
    assert (tmp_path / "out.jsonl").read_text() == "done"


def test_a_reused_process_id_does_not_keep_a_temporary(tmp_path, monkeypatch):
    """The pid runs again, but as a process started after the temporary was written: stale."""
    path = tmp_path / f"out.jsonl.{os.getppid()}.0123abcd{TEMPORARY_SUFFIX}"
    path.write_text("partial")
    os.utime(path, (1_000_000, 1_000_000))  # written in 1970, long before the parent started
    if files._process_start(os.getppid()) in (None, -1.0):
        pytest.skip("process start times are not readable here")
    check_writable(tmp_path / "out.jsonl")
    assert not path.exists()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_a_folder_that_takes_no_files_is_refused_by_the_probe():
    with pytest.raises(InvalidArgumentError, match=r"^--out: cannot create files in '/proc' \("):
        check_writable("/proc/x.jsonl", parameter="--out")
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        check_writable("/no/such/folder/x.jsonl")


# ---------------------------------------------------------------- issue 27: safe modes, links in shared folders
ROOT = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                          reason="a link owned by another user is made by root (lchown)")
NOBODY = 65534


@POSIX
@pytest.mark.parametrize("mode, kept", [(0o4755, 0o755), (0o2755, 0o755), (0o1644, 0o644), (0o6775, 0o775),
                                        (0o7600, 0o600)])
def test_replacing_a_file_drops_its_set_id_and_sticky_bits(tmp_path, mode, kept):
    """Issue 27: replacing an output kept a setuid bit (the old file's whole mode was copied)."""
    path = tmp_path / "out.json"
    path.write_text("old")
    os.chmod(path, mode)
    assert stat.S_IMODE(path.stat().st_mode) == mode  # root may set them all
    write_atomically(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == kept
    os.chmod(path, mode)
    write_atomically(path, lambda tmp: open(tmp, "w").write("by a function"))
    assert stat.S_IMODE(path.stat().st_mode) == kept


@POSIX
def test_a_new_file_never_gets_more_than_the_umask_allows(tmp_path):
    old = os.umask(0o077)
    try:
        write_atomically(tmp_path / "new.json", "x")
        write_atomically(tmp_path / "fn.json", lambda tmp: open(tmp, "w").write("y"))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "fn.json").stat().st_mode) == 0o600


def _shared(tmp_path):
    """A sticky, world-writable folder (as /tmp), owned by this user, and a file outside it to protect."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    return shared, victim


@POSIX
@ROOT
@pytest.mark.parametrize("dangling", [False, True])
def test_a_link_planted_by_another_user_in_a_sticky_folder_is_not_followed(tmp_path, dangling):
    """Issue 27: the program resolved links itself, sidestepping fs.protected_symlinks; it now applies its rule."""
    shared, victim = _shared(tmp_path)
    link = shared / "out.json"
    link.symlink_to(tmp_path / ("new.txt" if dangling else "victim.txt"))
    os.lchown(link, NOBODY, NOBODY)  # planted by another user
    with pytest.raises(InvalidArgumentError, match=r"^--out: .*out\.json' is a symbolic link in the shared folder "
                                                   r".*shared' \(sticky and writable by all\), owned by user 65534"):
        write_atomically(link, "attack", parameter="--out")
    with pytest.raises(InvalidArgumentError, match="symbolic link in the shared folder"):
        check_writable(link, parameter="--out")
    assert victim.read_text() == "precious" and not (tmp_path / "new.txt").exists()
    assert link.is_symlink()


@POSIX
@ROOT
def test_a_link_of_ones_own_or_of_the_folders_owner_in_a_sticky_folder_is_followed(tmp_path):
    shared, victim = _shared(tmp_path)
    mine = shared / "mine.json"
    mine.symlink_to(victim)  # ours (root's), as the kernel allows
    write_atomically(mine, "mine")
    assert victim.read_text() == "mine"
    os.chown(shared, NOBODY, NOBODY)
    theirs = shared / "owner.json"
    theirs.symlink_to(victim)
    os.lchown(theirs, NOBODY, NOBODY)  # the folder's owner's link: followed (as the kernel does)
    write_atomically(theirs, "the owner's")
    assert victim.read_text() == "the owner's"


@POSIX
@ROOT
def test_a_planted_link_in_a_chain_of_links_is_refused(tmp_path):
    shared, victim = _shared(tmp_path)
    planted = shared / "planted.json"
    planted.symlink_to(victim)
    os.lchown(planted, NOBODY, NOBODY)
    mine = tmp_path / "mine.json"
    mine.symlink_to(planted)  # the user names their own link, which goes through a planted one
    with pytest.raises(InvalidArgumentError, match="planted.json' is a symbolic link in the shared folder"):
        write_atomically(mine, "attack")
    assert victim.read_text() == "precious"


@POSIX
def test_a_temporary_replaced_by_a_link_is_not_followed(tmp_path, monkeypatch):
    """The temporary is opened with O_NOFOLLOW: a link put in its place (a race) makes the write fail, not land."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    real = files._new_temporary

    def swapped(target):
        tmp = real(target)
        os.unlink(tmp)
        os.symlink(victim, tmp)
        return tmp

    monkeypatch.setattr(files, "_new_temporary", swapped)
    with pytest.raises(OSError) as info:
        write_atomically(tmp_path / "out.json", "attack")
    assert info.value.errno == errno.ELOOP
    assert victim.read_text() == "precious"
    assert listing(tmp_path) == ["victim.txt"]
