"""The checker reads hostile files within bounds: regular files only, capped text, capped allocation.

Each case of issue 21 is rebuilt here and must end quickly with exit 2 (the file is not read),
in ``mistakebound verify`` and in the checker run alone (``python -I -S verify.py``), with one
line saying why and no traceback.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import time
import zlib

import numpy as np
import pytest

from mistakebound.certificates import document, verify
from mistakebound.interfaces.cli import main
from tests import certificate_lies as cl

CHECKER = verify.__file__
SMALL = cl.honest_documents(cl.Textbook(np.array([[0, 0], [0, 1], [1, 1]], dtype=np.uint8)))["ldim"]


def alone(path, *args, env=None, timeout=60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-S", CHECKER, str(path), *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def command(capsys, *argv) -> tuple[int, str, str]:
    code = main(["verify", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(done: subprocess.CompletedProcess, words: str) -> bool:
    return done.returncode == 2 and done.stdout == "" and words in done.stderr and done.stderr.count("\n") == 1


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path, capsys):
    fifo = tmp_path / "cert.json"
    os.mkfifo(fifo)
    assert refused(alone(fifo, timeout=20), "is not a regular file")  # a wait would time the run out
    code, out, err = command(capsys, fifo)
    assert code == 2 and "is not a regular file" in err and out == ""


def test_a_link_to_a_device_is_refused_before_a_byte_is_read(tmp_path, capsys):
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    assert refused(alone(link), "is not a regular file")
    code, _, err = command(capsys, link)
    assert code == 2 and "is not a regular file" in err
    assert refused(alone(tmp_path), "is not a regular file")  # nor is a folder


def _bomb(path, megabytes: int) -> int:
    """A gzip file that expands to ``megabytes`` MiB of spaces after a JSON opening; its size."""
    z = zlib.compressobj(1, zlib.DEFLATED, 31)
    chunk = b" " * (1 << 20)
    with open(path, "wb") as f:
        f.write(z.compress(b'{"format": "mistakebound-certificate", "x": "'))
        for _ in range(megabytes):
            f.write(z.compress(chunk))
        f.write(z.flush())
    return path.stat().st_size


def test_a_gzip_bomb_stops_at_the_byte_budget_the_memory_limit_gives(tmp_path, capsys, monkeypatch):
    bomb = tmp_path / "bomb.json.gz"
    size = _bomb(bomb, 256)
    assert size < 2 << 20  # 256 MiB of text in a few hundred KiB
    done = alone(bomb, env={document.MEMORY_LIMIT_VARIABLE: "256M"})
    assert refused(done, "decompressed holds more than 16,777,216 bytes of text"), done.stderr
    done = alone(bomb, "--memory-limit", "64M")
    assert refused(done, "more than 4,194,304 bytes"), done.stderr
    monkeypatch.setenv(document.MEMORY_LIMIT_VARIABLE, "2G")  # less what this process holds, / 16 < 256 MiB
    code, _, err = command(capsys, bomb)
    assert code == 2 and "decompressed holds more than" in err and len(err.strip().splitlines()) == 1


def test_a_plain_file_over_the_budget_is_refused_by_its_size(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(20 << 20)
    done = alone(big, "--memory-limit", "16M")
    assert refused(done, "holds 20,971,520 bytes, more than the 1,048,576 the checker reads"), done.stderr


def test_a_class_declaring_more_instances_than_its_domain_names_is_refused_at_once(tmp_path):
    """A 315-byte certificate declaring 10^8 instances took 24 s and 1 GB: the domain must name them all."""
    doc = json.loads(json.dumps(SMALL))
    doc["class"]["n_instances"] = 10 ** 8
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(doc))
    done = alone(path, timeout=20)
    assert done.returncode == 1 and "expected a domain of 100000000 instances, got 2" in done.stderr


def test_a_class_too_large_for_the_memory_given_is_refused_before_it_is_built(tmp_path):
    """One row of 10^4 instances and 10^4 rows of zeros: 60 KB of text, but columns cut from 10^8
    characters; with 128 MiB the text fits the budget and the class does not."""
    n = m = 10 ** 4
    cls = {"n_hypotheses": n, "n_instances": m, "rows": ["f" * (m // 4)] + ["0"] * (n - 1), "domain": list(range(m))}
    cls["sha256"] = verify.class_hash(cls["rows"], cls["domain"])
    doc = {"format": verify.FORMAT, "version": 2, "class": cls, "spaces": [format((1 << n) - 1, "x")], "results": [
        {"result": "ldim", "facts": [[0, "ge", 0, None]], "claim": {"lower": [0, 0]}}]}
    path = tmp_path / "wide.json.gz"
    path.write_bytes(gzip.compress(json.dumps(doc).encode(), 1))
    done = alone(path, "--memory-limit", "128M")
    assert refused(done, "class: checking a class of 10,000 rows and 10,000 instances needs about"), done.stderr
    done = alone(path, "--memory-limit", "2G")  # with room for it, it is checked
    assert done.returncode == 0 and done.stdout.startswith("verified: 0 <= Ldim(H) <= ?"), done.stderr


def test_too_many_spaces_for_the_memory_given_are_refused_before_they_are_built():
    doc = json.loads(json.dumps(SMALL))
    doc["spaces"] += [[0, 0, 0]] * 200000  # a few bytes each in the file, a number each in memory
    with pytest.raises(verify.UnreadableCertificate, match="spaces: 200,00. spaces of 3 rows need about"):
        verify.check(doc, memory=8 << 20)
    assert verify.check(doc, memory=None)["ldim"] == (1, 1)


def test_reading_a_regular_file_honours_the_budget_it_is_given(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(SMALL))
    assert verify.check_file(path, memory=1 << 30)["ldim"] == (1, 1)
    with pytest.raises(verify.UnreadableCertificate, match="more than the 16 the checker reads"):
        verify.check_file(path, memory=256)


def test_the_program_takes_a_memory_limit_and_refuses_a_bad_one(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(SMALL))
    done = alone(path, "--memory-limit", "64M")
    assert done.returncode == 0 and done.stdout.startswith("verified: 1 <= Ldim(H) <= 1, where H is the class")
    done = alone(path, "--memory-limit", "lots")
    assert done.returncode == 2 and "expected a size in bytes" in done.stderr


def test_a_broken_gzip_is_a_rejection_not_a_crash(tmp_path):
    path = tmp_path / "c.json.gz"
    path.write_bytes(gzip.compress(json.dumps(SMALL).encode())[:-12])
    done = alone(path)
    assert done.returncode == 1 and "REJECTED: file: not a gzip-compressed certificate" in done.stderr
    path.write_bytes(b"not gzip at all")
    done = alone(path)
    assert done.returncode == 1 and "not a gzip-compressed certificate" in done.stderr


def test_no_thread_is_left_waiting_on_a_fifo(tmp_path):
    """Reading a FIFO opened by a writer that never writes must not block either (O_NONBLOCK, then refused)."""
    fifo = tmp_path / "slow.json"
    os.mkfifo(fifo)
    holder = threading.Thread(target=lambda: open(fifo, "wb").close(), daemon=True)
    holder.start()
    with pytest.raises(verify.UnreadableCertificate, match="not a regular file"):
        verify.load(fifo)
    end = time.monotonic() + 5
    while holder.is_alive() and time.monotonic() < end:  # a reader, so that the holder's open returns
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        holder.join(timeout=0.05)
        os.close(reader)
    assert not holder.is_alive()
