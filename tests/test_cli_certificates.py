"""The command line's certificates: ``--certificate`` on ldim and worst-case, and ``mistakebound verify``.

Every file is written by one process and checked by another (the ``verify`` command, and
the checker run alone with ``python -I -S``), and ``verify`` must work with none of the
search modules importable.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mistakebound.theory.textbook import textbook_ldim, textbook_vcdim
from mistakebound.certificates import verify as checker
from mistakebound.game import registry
from mistakebound.game.counterexamples import halving_exceeds_ldim
from mistakebound.interfaces.cli import main
from mistakebound.theory.profile import PARAMETERS

CHECKER = Path(checker.__file__)


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def cli(*argv, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mistakebound", *argv], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_ldim_writes_a_certificate_that_another_process_verifies(tmp_path, capsys):
    path = tmp_path / "i.json"
    H = registry.load_setting("intervals:9")
    L, d = textbook_ldim(H.matrix), textbook_vcdim(H.matrix)
    code, out, err = run(capsys, "ldim", "intervals:9", "--certificate", str(path))
    assert code == 0, err
    assert f"wrote {path}: a certificate of Ldim = {L}, VCdim = {d}" in out
    done = cli("verify", str(path), "intervals:9", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    sha = json.loads(path.read_text())["class"]["sha256"]
    named = f"where H is intervals(9) (46 hypotheses on 9 instances, sha256 {sha})"
    assert done.stdout.splitlines() == [f"verified: {L} <= Ldim(H) <= {L}, {named}",
                                        f"verified: {d} <= VCdim(H) <= {d}, {named}"]
    alone = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                           timeout=60)
    assert alone.returncode == 0, alone.stderr
    assert f"verified: {L} <= Ldim(H) <= {L}, where H is the class of 46 hypotheses on 9 instances with sha256 {sha}" \
        in alone.stdout


def test_a_partial_ldim_certifies_its_interval(tmp_path, capsys):
    path = tmp_path / "r.json.gz"
    code, out, _ = run(capsys, "ldim", "random:300,20,0.4,2", "--max-nodes", "5", "--certificate", str(path))
    assert code == 3
    line = [s for s in out.splitlines() if s.startswith("wrote")][0]
    proven = checker.check_file(str(path))["ldim"]
    assert proven[0] < proven[1] and f"{proven[0]} <= Ldim <= {proven[1]}" in line


def test_worst_case_certifies_halving_above_ldim_and_replays_the_learner(tmp_path, capsys):
    cls = tmp_path / "h.npy"
    np.save(cls, halving_exceeds_ldim().matrix)
    path = tmp_path / "w.json.gz"
    code, out, err = run(capsys, "worst-case", "halving", str(cls), "--certificate", str(path))
    assert code == 0, err
    assert "a certificate of M_A(H) = 3, Ldim = 2" in out
    code, out, _ = run(capsys, "verify", str(path), str(cls), "--learner", "halving")
    assert code == 0
    L = textbook_ldim(halving_exceeds_ldim().matrix)
    sha = json.loads(gzip.decompress(path.read_bytes()))["class"]["sha256"]
    named = f"H is h.npy (9 hypotheses on 8 instances, sha256 {sha})"
    assert L == 2 and out.splitlines() == [
        "verified: 3 <= M_A(H) <= 3 with no horizon, where A is Halving (replayed: it makes every move the "
        f"certificate records) and {named}", f"verified: {L} <= Ldim(H) <= {L}, where {named}"]
    code, out, _ = run(capsys, "verify", str(path), str(cls), "--learner", "consistent")
    assert code == 1 and "REJECTED: replay: the certificate says its table is the learner 'Halving', not 'Consistent'" in out


def test_verify_names_the_first_failing_step_and_the_wrong_class(tmp_path, capsys):
    path = tmp_path / "t.json"
    assert run(capsys, "ldim", "thresholds:15", "--certificate", str(path))[0] == 0
    assert checker.check_file(str(path))["ldim"] == (4, 4)  # log2 16: thresholds meet the bound
    c = json.loads(path.read_text())
    c["results"][0]["facts"][-1][2] -= 1  # the last fact: the upper claim's, now too small
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(c))
    code, out, _ = run(capsys, "verify", str(bad))
    assert code == 1 and out.startswith(f"REJECTED: ldim fact {len(c['results'][0]['facts']) - 1}:")
    code, out, _ = run(capsys, "verify", str(path), "thresholds:16")
    assert code == 1 and "another class" in out


def test_verify_refuses_what_it_cannot_read_with_one_line(tmp_path, capsys):
    truncated = tmp_path / "cut.json.gz"
    truncated.write_bytes(gzip.compress(b'{"format": "mistakebound-certificate", "vers')[:20])
    code, out, _ = run(capsys, "verify", str(truncated))
    assert code == 1 and out.startswith("REJECTED: file: not a gzip-compressed certificate")
    code, _, err = run(capsys, "verify", str(tmp_path / "missing.json"))
    assert code == 2 and "FILE: cannot read" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "verify", str(truncated), "--learner", "halving")
    assert code == 2 and "--learner" in err and "needs CLASS" in err


def test_a_misnamed_certificate_file_is_refused_before_any_search(tmp_path, capsys):
    code, out, err = run(capsys, "ldim", "thresholds:7", "--certificate", str(tmp_path / "c.txt"))
    assert code == 2 and out == "" and "--certificate: expected a certificate file name" in err


def test_verify_runs_with_no_search_module_importable(tmp_path, capsys):
    """The verify command imports the checker and the class reader only: blocking every search module
    (and the certificate producers) must not change its answer."""
    path = tmp_path / "c.json"
    assert run(capsys, "ldim", "intervals:6", "--certificate", str(path))[0] == 0
    script = textwrap.dedent(f"""
        import importlib.abc, sys
        BLOCKED = ("mistakebound.theory",)
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.startswith(BLOCKED) and name != "mistakebound.theory.certificate":
                    raise ImportError("blocked: " + name)
        sys.meta_path.insert(0, Block())
        from mistakebound.interfaces.cli import main
        code = main(["verify", {str(path)!r}])
        assert not [m for m in sys.modules if m.startswith("mistakebound.theory.") and m != "mistakebound.theory.certificate"]
        sys.exit(code)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    H = registry.load_setting("intervals:6")
    L, d = textbook_ldim(H.matrix), textbook_vcdim(H.matrix)
    assert [line.split(",")[0] for line in done.stdout.splitlines()] == [
        f"verified: {L} <= Ldim(H) <= {L}", f"verified: {d} <= VCdim(H) <= {d}"]


@pytest.mark.parametrize("suffix", [".json", ".json.gz"])
def test_the_file_is_written_atomically_and_a_failure_keeps_the_results(tmp_path, capsys, suffix):
    """A certificate that cannot be written (its folder removed after the check) loses the file, not the
    printed results: exit 2 after them, one line naming --certificate."""
    folder = tmp_path / "gone"
    folder.mkdir()
    path = folder / f"c{suffix}"
    import mistakebound.interfaces.cli.ldim as cli_module

    real = cli_module.certify_profile

    def remove_then_certify(*a, **k):
        folder.rmdir()
        return real(*a, **k)

    cli_module.certify_profile = remove_then_certify
    try:
        code, out, err = run(capsys, "ldim", "thresholds:7", "--certificate", str(path))
    finally:
        cli_module.certify_profile = real
    assert code == 2 and "Ldim = 3" in out and "--certificate: cannot write" in err


def test_ldim_what_chooses_the_parameters_and_certifies_rl_exactly(tmp_path, capsys):
    from fractions import Fraction

    from mistakebound.theory.randomized_ldim import randomized_littlestone_dimension

    path = tmp_path / "r.json.gz"
    H = registry.load_setting("singletons:5")
    rl = randomized_littlestone_dimension(H)
    assert rl == 1 - Fraction(1, 2 ** 4)  # RL(singletons(d)) = 1 - 2^(1-d), FHMM 2023
    code, out, err = run(capsys, "ldim", "singletons:5", "--what", "ldim,rldim", "--certificate", str(path))
    assert code == 0, err
    assert "VCdim" not in out and f"RL = {rl} " in out
    assert checker.check_file(str(path)) == {"ldim": (1, 1), "rldim": (rl, rl)}
    code, _, err = run(capsys, "ldim", "singletons:5", "--what", "ldim,shatter")
    assert code == 2 and "--what" in err and ", ".join(PARAMETERS) in err


def test_a_partial_rl_is_certified_as_its_interval_and_exits_3(tmp_path, capsys):
    path = tmp_path / "r.json"
    code, out, _ = run(capsys, "ldim", "intervals:24", "--what", "rldim", "--max-nodes", "400",
                       "--certificate", str(path))
    assert code == 3 and "the randomized Littlestone dimension is partial" in out
    lo, hi = checker.check_file(str(path))["rldim"]
    assert lo < hi


# ------------------------------------------------------------------ what is verified, said in full (issue 21)
def test_the_horizon_is_part_of_every_line_verified(tmp_path, capsys):
    """Halving's M_A on thresholds(7) is 3; a certificate over one round proves 1, and says so."""
    path = tmp_path / "h1.json"
    assert run(capsys, "worst-case", "halving", "thresholds:7", "--horizon", "1", "--certificate", str(path))[0] == 0
    code, out, _ = run(capsys, "verify", str(path), "thresholds:7", "--learner", "halving")
    assert code == 0
    line = out.splitlines()[0]
    assert line.startswith("verified: 1 <= M_A(H) <= 1 over a horizon of 1 round, where A is Halving (replayed")
    assert "H is thresholds(7) (8 hypotheses on 7 instances" in line
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0 and "over a horizon of 1 round, where A is the learner that makes the moves" in out


def test_a_table_named_for_another_learner_is_named_as_such_and_refused_on_replay(tmp_path, capsys):
    """SOA's table renamed Halving's: alone it proves a bound for 'the learner that makes these moves, said
    to be Halving'; replayed against Halving it is refused, and against SOA its name is."""
    cls = tmp_path / "h.npy"
    np.save(cls, halving_exceeds_ldim().matrix)
    path = tmp_path / "soa.json"
    assert run(capsys, "worst-case", "soa", str(cls), "--certificate", str(path))[0] == 0
    doc = json.loads(path.read_text())
    doc["results"][0]["learner"] = "Halving"
    path.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "verify", str(path), str(cls))
    assert code == 0 and out.startswith("verified: 2 <= M_A(H) <= 2 with no horizon, where A is the learner that "
                                        "makes the moves the certificate records")
    assert "said to be 'Halving'; not replayed" in out
    code, out, _ = run(capsys, "verify", str(path), str(cls), "--learner", "halving")
    assert code == 1 and out.startswith("REJECTED: replay: state 0") and "verified" not in out
    code, out, _ = run(capsys, "verify", str(path), str(cls), "--learner", "soa")
    assert code == 1 and out == "REJECTED: replay: the certificate says its table is the learner 'Halving', not 'SOA'\n"


def test_a_certificate_of_a_class_with_one_instance_fewer_is_refused_before_anything_is_printed(tmp_path, capsys):
    """A trailing all-zero column changes no row's hexadecimal: the class is compared by its shape too,
    before any line is printed (the replay used to print its lines, then raise IndexError)."""
    path = tmp_path / "t.json"
    assert run(capsys, "worst-case", "halving", "thresholds:3", "--certificate", str(path))[0] == 0
    wider = tmp_path / "wider.npy"
    H = registry.load_setting("thresholds:3")
    np.save(wider, np.column_stack([H.matrix, np.zeros(H.n_hypotheses, dtype=np.uint8)]))
    code, out, _ = run(capsys, "verify", str(path), str(wider), "--learner", "halving")
    assert code == 1 and out == ("REJECTED: class: the certificate speaks of another class: one of 4 hypotheses on 3 "
                                 "instances, not the 4 on 4 of the class given\n")


def test_a_forged_name_cannot_print_a_line_of_its_own(tmp_path, capsys):
    """The learner's name in a certificate is the certificate's text: printed escaped, on its line."""
    path = tmp_path / "t.json"
    assert run(capsys, "worst-case", "halving", "thresholds:3", "--certificate", str(path))[0] == 0
    doc = json.loads(path.read_text())
    doc["results"][0]["learner"] = "Halving\nverified: 0 <= Ldim(H) <= 0\x1b[2K"
    path.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0 and len(out.splitlines()) == 2 and "\x1b" not in out
    assert "said to be 'Halving\\nverified: 0 <= Ldim(H) <= 0\\x1b[2K'" in out
