"""The one memory budget: MemAvailable, cgroup v1/v2 limits, ``ulimit -v`` and MISTAKEBOUND_MEMORY_LIMIT."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from mistakebound.foundations import memory
from mistakebound.foundations.errors import InsufficientMemoryError

GiB = 2**30
MiB = 2**20


@pytest.fixture
def readers(monkeypatch):
    """Every source fixed: ``set(system=..., cgroup=..., ...)`` changes one."""
    values = {"system": 8 * GiB, "cgroup": None, "address space": None, "environment": None}
    monkeypatch.setattr(memory, "_system_available", lambda: values["system"])
    monkeypatch.setattr(memory, "_cgroup_available", lambda: values["cgroup"])
    monkeypatch.setattr(memory, "_address_space_available", lambda: values["address space"])
    monkeypatch.setattr(memory, "_environment_available", lambda: values["environment"])

    class Set:
        def __call__(self, **kw):
            for k, v in kw.items():
                values[k.replace("_", " ")] = v

    return Set()


def test_the_budget_is_the_smallest_source(readers):
    assert memory.available_memory() == 8 * GiB
    readers(cgroup=3 * GiB)
    assert memory.available_memory() == 3 * GiB
    readers(address_space=700 * MiB)
    assert memory.available_memory() == 700 * MiB
    readers(environment=200 * MiB)
    assert memory.available_memory() == 200 * MiB
    assert memory.memory_share(4) == 50 * MiB
    readers(system=None, cgroup=None, address_space=None, environment=None)
    assert memory.available_memory() is None and memory.memory_share(3) is None


@pytest.mark.parametrize("source, why", [
    ("cgroup", "the control group's limit"), ("address_space", "under ulimit -v"),
    ("environment", "the MISTAKEBOUND_MEMORY_LIMIT budget"),
])
def test_a_refusal_names_the_limit_that_binds(readers, source, why):
    readers(**{source: 10 * MiB})
    with pytest.raises(InsufficientMemoryError) as info:
        memory.require_memory(20 * MiB, parameter="H", what="a search", advice="search less")
    assert info.value.available == 10 * MiB and info.value.needed == 20 * MiB
    assert str(info.value) == (f"H: a search needs about 20.0 MiB, but only 10.0 MiB of memory is available "
                               f"({why}); search less")


def test_the_searches_take_their_memo_from_the_budget(readers):
    from mistakebound.game import classes
    from mistakebound.theory.littlestone import LdimSearch
    from mistakebound.theory.search_protocol import MEMO_FRACTION

    readers(cgroup=400 * MiB)
    assert LdimSearch(classes.thresholds(7)).max_memo_bytes == int(400 * MiB * MEMO_FRACTION)
    readers(environment=40 * MiB)
    assert LdimSearch(classes.thresholds(7)).max_memo_bytes == int(40 * MiB * MEMO_FRACTION)


def write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def fake_cgroups(monkeypatch, tmp_path, proc: str) -> None:
    write(tmp_path / "proc_cgroup", proc)
    monkeypatch.setattr(memory, "PROC_CGROUP", str(tmp_path / "proc_cgroup"))
    monkeypatch.setattr(memory, "CGROUP_ROOT", str(tmp_path / "cg"))


def test_cgroup_v2_limit_minus_usage_with_the_file_cache_free(monkeypatch, tmp_path):
    fake_cgroups(monkeypatch, tmp_path, "0::/user.slice/job\n")
    job = tmp_path / "cg" / "user.slice" / "job"
    write(job / "memory.max", f"{2 * GiB}\n")
    write(job / "memory.current", f"{GiB}\n")
    write(job / "memory.stat", f"anon 100\ninactive_file {256 * MiB}\nactive_file 5\n")
    write(tmp_path / "cg" / "user.slice" / "memory.max", "max\n")  # no limit above
    assert memory._cgroup_available() == GiB + 256 * MiB
    write(tmp_path / "cg" / "user.slice" / "memory.max", f"{GiB}\n")  # a tighter parent
    write(tmp_path / "cg" / "user.slice" / "memory.current", f"{900 * MiB}\n")
    assert memory._cgroup_available() == 124 * MiB
    write(job / "memory.max", "max\n")
    write(tmp_path / "cg" / "user.slice" / "memory.max", "max\n")
    assert memory._cgroup_available() is None


def test_cgroup_v1_limit_and_its_no_limit_value(monkeypatch, tmp_path):
    fake_cgroups(monkeypatch, tmp_path, "9:pids:/x\n4:memory:/process_api/abc\n1:cpu,cpuacct:/\n")
    group = tmp_path / "cg" / "memory" / "process_api" / "abc"
    write(group / "memory.limit_in_bytes", "9223372036854771712\n")  # v1's "no limit"
    write(group / "memory.usage_in_bytes", f"{GiB}\n")
    assert memory._cgroup_available() is None
    write(group / "memory.limit_in_bytes", f"{3 * GiB}\n")
    write(group / "memory.stat", f"cache 1\ntotal_inactive_file {GiB // 2}\n")
    assert memory._cgroup_available() == 2 * GiB + GiB // 2
    write(group / "memory.usage_in_bytes", f"{4 * GiB}\n")  # over the limit: nothing left
    assert memory._cgroup_available() == 0


def test_a_hybrid_system_has_both_and_the_tightest_binds(monkeypatch, tmp_path):
    # systemd's hybrid layout: v1 controllers beside a v2 tree mounted under "unified"
    fake_cgroups(monkeypatch, tmp_path, "4:memory:/job\n0::/job\n")
    write(tmp_path / "cg" / "unified" / "job" / "memory.max", f"{GiB}\n")
    write(tmp_path / "cg" / "unified" / "job" / "memory.current", f"{100 * MiB}\n")
    assert memory._cgroup_available() == GiB - 100 * MiB
    write(tmp_path / "cg" / "memory" / "job" / "memory.limit_in_bytes", f"{512 * MiB}\n")
    write(tmp_path / "cg" / "memory" / "job" / "memory.usage_in_bytes", f"{100 * MiB}\n")
    assert memory._cgroup_available() == 412 * MiB


def test_no_cgroup_files_means_no_cgroup_limit(monkeypatch, tmp_path):
    fake_cgroups(monkeypatch, tmp_path, "0::/\n")
    assert memory._cgroup_available() is None
    monkeypatch.setattr(memory, "PROC_CGROUP", str(tmp_path / "missing"))
    assert memory._cgroup_available() is None


@pytest.mark.parametrize("text, value", [
    ("1048576", 2**20), ("512M", 512 * MiB), ("2g", 2 * GiB), ("3 GiB", 3 * GiB), ("64k", 64 * 1024),
    ("1T", 2**40), ("1.5G", 3 * GiB // 2), ("0.5k", 512), (" 2 MB ", 2 * MiB), ("100b", 100), ("7.9", 7),
    (".5M", MiB // 2), (str(2**63 - 1), 2**63 - 1), (None, None), ("", None), ("  ", None),
])
def test_sizes_in_the_environment_variable(text, value):
    assert memory.parse_size(text) == value


@pytest.mark.parametrize("text", [
    "0", "-5", "lots", "1e9", "abc", "0.0G", "0.4", "1.5.G", "1 2", "1GG", "G", "1Gi", "-1G", "+1G", "0x10",
    "1_000", "nan", "inf", "\u0663", "1" * 5000, str(2**63), "9999999999T", "1\x00", "1\ud800", "1.",
])
def test_a_size_outside_the_grammar_is_refused_naming_what_is_expected(text):
    with pytest.raises(ValueError, match=r"^expected a size in bytes: a positive whole or decimal number with an "
                                         r"optional unit .*, got .*$") as info:
        memory.parse_size(text)
    assert len(str(info.value)) < 400  # a 5,000-digit value is shown shortened


@pytest.mark.parametrize("text", ["1.5G", "1e9", "abc", "0", "-1"])
def test_a_bad_memory_limit_is_refused_not_ignored(monkeypatch, text):
    """Issue 27: 1.5G, 1e9, abc and 0 were ignored and the run uncapped; 1.5G is now read, the others refused."""
    from mistakebound.foundations.errors import InvalidArgumentError

    monkeypatch.setenv(memory.MEMORY_LIMIT_VARIABLE, text)
    if text == "1.5G":
        assert 0 < memory._environment_available() <= 3 * GiB // 2
        return
    with pytest.raises(InvalidArgumentError, match=rf"^MISTAKEBOUND_MEMORY_LIMIT: expected a size in bytes: .*, "
                                                   rf"got '{text}'$"):
        memory.available_memory()


def test_the_environment_budget_counts_what_this_process_holds(monkeypatch):
    monkeypatch.setenv(memory.MEMORY_LIMIT_VARIABLE, str(8 * GiB))
    resident = memory._statm(1)
    got = memory._environment_available()
    assert resident is not None and 8 * GiB - resident - 64 * MiB <= got <= 8 * GiB - resident + 64 * MiB
    monkeypatch.setenv(memory.MEMORY_LIMIT_VARIABLE, "1K")
    assert memory._environment_available() == 0 and memory.available_memory() == 0
    monkeypatch.setenv(memory.MEMORY_LIMIT_VARIABLE, "")  # set but empty: unset (documented)
    assert memory._environment_available() is None
    monkeypatch.delenv(memory.MEMORY_LIMIT_VARIABLE)
    assert memory._environment_available() is None


def _cli(*argv, env=None, limit_kib=None, timeout=120):
    """``python -m mistakebound ARGV`` in a child, with ``env`` added and under ``ulimit -v limit_kib``."""
    full = {k: v for k, v in os.environ.items() if k != memory.MEMORY_LIMIT_VARIABLE}
    full.update(env or {})
    prefix = f"ulimit -v {limit_kib}; " if limit_kib else ""
    cmd = prefix + 'exec "$0" -m mistakebound "$@"'
    return subprocess.run(["/bin/sh", "-c", cmd, sys.executable, *argv], capture_output=True, text=True, env=full,
                          timeout=timeout)


@pytest.mark.parametrize("command", [["play", "halving", "opposite-label", "thresholds:7", "-q"],
                                     ["ldim", "thresholds:7"]])
@pytest.mark.parametrize("text", ["1e9", "abc", "0", "-2G"])
def test_the_command_refuses_a_bad_memory_limit_in_one_line(command, text):
    """Every command, even one that never reads the budget (play), refuses the variable before its work."""
    out = _cli(*command, env={memory.MEMORY_LIMIT_VARIABLE: text})
    assert out.returncode == 2 and out.stdout == "", out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "error: MISTAKEBOUND_MEMORY_LIMIT: expected a size in bytes" in out.stderr
    assert f"got {text!r}" in out.stderr


def test_the_checker_alone_reads_the_same_grammar():
    from mistakebound.certificates import verify

    def alone(*args, env=None):
        full = {k: v for k, v in os.environ.items() if k != memory.MEMORY_LIMIT_VARIABLE}
        return subprocess.run([sys.executable, "-I", "-S", verify.__file__, "/no/such.json", *args],
                              capture_output=True, text=True, env={**full, **(env or {})}, timeout=60)

    for args, env in [(["--memory-limit", "1e9"], None), (["--memory-limit", "0"], None),
                      ([], {memory.MEMORY_LIMIT_VARIABLE: "abc"})]:
        out = alone(*args, env=env)
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
        assert "expected a size in bytes" in out.stderr and out.stderr.count("\n") <= 2
    out = alone("--memory-limit", "1.5G")  # read: the file is then missing
    assert out.returncode == 2 and "cannot read" in out.stderr


PROBE = textwrap.dedent("""
    import json, resource
    from mistakebound.foundations import memory
    print(json.dumps({"limits": memory.memory_limits(), "available": memory.available_memory(),
                      "soft": resource.getrlimit(resource.RLIMIT_AS)[0], "vsz": memory._statm(0)}))
""")


def probe(limit_kib: int | None, env: dict | None = None) -> dict:
    import json

    prefix = f"ulimit -v {limit_kib}; " if limit_kib else ""
    cmd = f'{prefix}exec "{sys.executable}" -c "$PROBE"'
    full_env = {**os.environ, "PROBE": PROBE, **(env or {})}
    full_env.pop(memory.MEMORY_LIMIT_VARIABLE, None) if env is None else None
    out = subprocess.run(["/bin/sh", "-c", cmd], capture_output=True, text=True, env=full_env, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ulimit -v and /proc are Linux's")
def test_a_real_ulimit_v_is_the_budget():
    free = probe(None)
    assert free["limits"]["address space"] is None
    got = probe(900_000)
    limit = 900_000 * 1024
    assert got["soft"] == limit
    assert got["limits"]["address space"] == limit - got["vsz"]
    assert got["available"] <= limit - got["vsz"] < limit
    both = probe(900_000, {memory.MEMORY_LIMIT_VARIABLE: "150M"})
    # the environment's limit is 150M minus the resident size, read again for each figure: pages may differ
    assert abs(both["available"] - both["limits"]["environment"]) <= MiB
    assert both["available"] < 150 * MiB and both["available"] < limit - both["vsz"]
