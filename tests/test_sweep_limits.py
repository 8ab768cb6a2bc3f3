"""Issue 27, family 2: a sweep refuses, before any work, what it cannot finish.

Parameter typos of registered players, grids too large to expand, more workers than the
machine allows, and scheduler addresses that are no Dask scheduler (one that accepts and
stays silent, one that answers like an HTTP server, ``tls://``) each end in one line and
exit 2, fast; a ``module:Class`` that cannot be imported where the sweep runs is an
infrastructure error that a resume from the right folder runs again.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.interfaces.sweep import SweepConfig, read_records
from tests.processes import Server

# the names issue 27 added are imported in the tests that use them, so that each test fails alone on older code

GRID = """
[[grid]]
learners = [{learners}]
adversaries = [{adversaries}]
classes = ["thresholds"]
sizes = [{sizes}]
seeds = [{seeds}]
horizons = [5]
"""


def _config(tmp_path: Path, *, learners='"Halving"', adversaries='"OppositeLabel"', sizes="3, 4", seeds="0") -> Path:
    path = tmp_path / "grid.toml"
    path.write_text(GRID.format(learners=learners, adversaries=adversaries, sizes=sizes, seeds=seeds))
    return path


def _sweep(config: Path, *options: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mistakebound.interfaces.cli", "sweep", config.name, "--no-progress",
                           *options], cwd=config.parent, capture_output=True, text=True, timeout=timeout)


def _one_line(done: subprocess.CompletedProcess, *parts: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------------------------ parameter typos
@pytest.mark.parametrize("key, name, expected", [
    ("learners", "Halving(foo=1)", "grid[0].learners[0]: Halving takes no parameter 'foo'"),
    ("adversaries", "ObliviousCoin(labels=bogus)", "grid[0].adversaries[0]: ObliviousCoin(labels=bogus): 'labels' "
                                                    "must be in (None, 'target', 'coin')"),
    ("adversaries", "ObliviousCoin(lables=coin)", "did you mean 'labels'?"),
])
def test_a_parameter_typo_of_a_registered_player_is_exit_2_before_any_cell(tmp_path, key, name, expected):
    config = _config(tmp_path, **{key: f'"{name}"'})
    done = _sweep(config, "--executor", "inprocess")
    _one_line(done, expected)
    assert done.stdout == "" and not (tmp_path / "grid.csv").exists()


# ------------------------------------------------------------------ import paths: rerun on resume
def test_an_unimportable_module_class_is_an_infrastructure_error_that_a_resume_from_its_folder_runs(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    config = _config(elsewhere, learners='"Halving", "my_learners:Lazy"')
    done = _sweep(config, "--executor", "inprocess")
    assert done.returncode == 3, done.stdout + done.stderr  # the place it ran in failed, not the player
    records = read_records(elsewhere / "grid.csv")
    lazy = [r for r in records if r["learner"] == "my_learners:Lazy"]
    assert [r["verdict"] for r in lazy] == ["infra", "infra"] and "PlayerImportError" in lazy[0]["error_type"]
    (elsewhere / "my_learners.py").write_text("from mistakebound.learners import Halving\n\n\n"
                                              "class Lazy(Halving):\n    pass\n")
    again = _sweep(config, "--executor", "inprocess")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "(2 run now, 2 of them again after infrastructure errors, 2 already recorded)" in again.stdout
    assert {r["verdict"] for r in read_records(elsewhere / "grid.csv")} == {"ok"}


def test_a_parameter_typo_of_an_import_path_is_found_when_a_cell_imports_it(tmp_path):
    (tmp_path / "my_learners.py").write_text("from mistakebound.learners import Halving\n\n\n"
                                             "class Lazy(Halving):\n    pass\n")
    SweepConfig.from_dict({"grid": [{"learners": ["my_learners:Lazy(foo=1)"], "adversaries": ["OppositeLabel"],
                                     "classes": ["thresholds"], "sizes": [3]}]})  # validation imports nothing
    config = _config(tmp_path, learners='"my_learners:Lazy(foo=1)"')
    done = _sweep(config, "--executor", "inprocess")
    assert done.returncode == 1
    (record,) = [r for r in read_records(tmp_path / "grid.csv") if r["size"] == 3]
    assert record["verdict"] == "error" and "takes no parameter 'foo'" in record["error"], record


# ------------------------------------------------------------------ the grid's size
def test_a_grid_of_72_million_cells_is_refused_at_once_naming_the_count_the_limit_and_how_to_raise_it(tmp_path):
    seeds = ", ".join(map(str, range(200_000)))
    config = _config(tmp_path, learners='"Halving", "SOA", "Consistent"',
                     adversaries='"OppositeLabel", "BinarySearchThreshold", "ObliviousCoin"',
                     sizes=", ".join(map(str, range(3, 23))), seeds=seeds)
    config.write_text(config.read_text().replace('classes = ["thresholds"]', 'classes = ["thresholds", "singletons"]'))
    began = time.monotonic()
    done = _sweep(config)
    _one_line(done, "72,000,000 cells", "the limit of 200,000", "--max-cells 72000000")
    assert time.monotonic() - began < 20


def test_max_cells_raises_or_lowers_the_limit(tmp_path):
    config = _config(tmp_path, sizes="3, 4, 5")
    _one_line(_sweep(config, "--max-cells", "2", "--executor", "inprocess"), "3 cells", "limit of 2")
    assert _sweep(config, "--max-cells", "3", "--executor", "inprocess").returncode == 0
    with pytest.raises(InvalidArgumentError, match="4 cells, more than the limit of 3"):
        SweepConfig.from_dict({"grid": [{"learners": ["Halving"], "adversaries": ["OppositeLabel"],
                                         "classes": ["thresholds"], "sizes": [3, 4]}] * 2}, max_cells=3)


def test_validating_sizes_up_to_20000_builds_no_class():
    """``sizes = [20000]`` took 1.2 GB to validate (the class was built); 20,000 sizes took minutes."""
    import tracemalloc

    tracemalloc.start()
    try:
        SweepConfig.from_dict({"grid": [{"learners": ["Halving"], "adversaries": ["OppositeLabel"],
                                         "classes": ["thresholds", "k_sparse:{n},1"], "sizes": [20_000]}]})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20, peak
    began = time.monotonic()
    config = SweepConfig.from_dict({"grid": [{"kind": "search", "search": "ldim", "classes": ["thresholds"],
                                              "sizes": list(range(1, 20_001))}]})
    assert config.grids[0].count == 20_000 and time.monotonic() - began < 15
    with pytest.raises(InvalidArgumentError, match=r"grid\[0\]\.classes\[0\]: class 'thresholds' as .*too large"):
        SweepConfig.from_dict({"grid": [{"learners": ["Halving"], "adversaries": ["OppositeLabel"],
                                         "classes": ["thresholds"], "sizes": [3, 10**12]}]})


# ------------------------------------------------------------------ workers
def test_more_workers_than_the_machine_allows_are_refused_at_the_parser_or_before_any_process(tmp_path):
    from mistakebound.interfaces.sweep.executors import check_workers, worker_limit

    config = _config(tmp_path)
    _one_line(_sweep(config, "--workers", "100000"), "--workers", "expected an integer from 1 to 256")
    limit, why = worker_limit("dask")
    if limit < 256:
        line = _one_line(_sweep(config, "--workers", str(limit + 1), "--executor", "dask"),
                         f"at most {limit}", "--workers")
        assert why in line
    with pytest.raises(InvalidArgumentError, match="more than this machine allows"):
        check_workers(1000, "dask")


# ------------------------------------------------------------------ scheduler addresses
HTTP = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"


@pytest.mark.parametrize("reply, expected", [(None, "sent nothing in"), (HTTP, "answered 'HTTP/1.1'")],
                         ids=["silent", "http"])
def test_a_scheduler_that_is_no_dask_scheduler_is_exit_2_in_seconds(tmp_path, reply, expected):
    pytest.importorskip("distributed")
    server = Server(reply)
    try:
        began = time.monotonic()
        done = _sweep(_config(tmp_path), "--scheduler", server.address, timeout=60)
        _one_line(done, "--scheduler", server.address, expected, "no dask scheduler")
        assert time.monotonic() - began < 20
    finally:
        server.close()


@pytest.mark.parametrize("address, expected", [
    ("tls://127.0.0.1:8786", "needs the cluster's TLS certificates"),
    ("ucx://127.0.0.1:8786", "has the scheme 'ucx://'"),
    ("tcp://127.0.0.1", "has no port"),
    ("tcp://127.0.0.1:99999", "not a number from 1 to 65535"),
    ("tcp://bad host:8786", "no host name or address"),
])
def test_scheduler_addresses_are_checked_as_text_before_any_work(tmp_path, address, expected):
    from mistakebound.interfaces.sweep.scheduler import check_address

    _one_line(_sweep(_config(tmp_path), "--scheduler", address), expected)
    with pytest.raises(InvalidArgumentError, match="--scheduler"):
        check_address(address)


def test_a_refused_connection_is_exit_2_and_a_real_scheduler_passes_the_probe():
    from mistakebound.interfaces.sweep.scheduler import probe

    distributed = pytest.importorskip("distributed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    with pytest.raises(InvalidArgumentError, match="cannot be reached"):
        probe(f"tcp://127.0.0.1:{free}")
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        probe(cluster.scheduler_address)


@pytest.mark.parametrize("content", ["a,b\n0.5,1\n1,0\n", "a,b\n0,1\n1\n", "not,a\nclass,at all\n"])
def test_a_bad_class_file_is_refused_at_validation_not_in_every_cell(tmp_path, content, capsys):
    """A class file is one class: validation reads it whole (a zoo spec only has its size checked), so that a
    bad file is exit 2 with one line, before any cell runs (it was exit 1, an error in every cell)."""
    from mistakebound.interfaces.cli import main

    (tmp_path / "bad.csv").write_text(content)
    config = tmp_path / "c.toml"
    config.write_text(f"[[grid]]\nlearners = ['Halving']\nadversaries = ['OppositeLabel']\n"
                      f"classes = ['{tmp_path / 'bad.csv'}']\nsizes = [3]\nseeds = [0]\nhorizons = [8]\n")
    assert main(["sweep", str(config), "--no-progress", "--executor", "inprocess",
                 "--out", str(tmp_path / "out.csv")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "bad.csv" in err
    assert not (tmp_path / "out.csv").exists()


def test_plot_refuses_a_parameter_a_learner_does_not_take_before_any_game(tmp_path, capsys):
    """``plot --learners 'SOA,Halving(x=1)'`` drew SOA and noted Halving as not drawn (exit 0)."""
    from mistakebound.interfaces.cli import main

    out = tmp_path / "f.png"
    code = main(["plot", "intervals:4", "--learners", "SOA,Halving(x=1)", "--adversary", "opposite-label",
                 "--out", str(out), "--rounds", "10"])
    captured = capsys.readouterr()
    assert code == 2 and "takes no parameter 'x'" in captured.err and not out.exists()
    assert captured.out == ""
