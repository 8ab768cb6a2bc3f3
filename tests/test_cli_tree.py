"""The ``tree`` command's formats: figures that fit a page at any depth, and the DOT, TikZ and JSON exports."""

from __future__ import annotations

import pytest

from mistakebound import classes, is_shattered
from mistakebound.interfaces.cli import main
from mistakebound.theory.tree_export import tree_from_json


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("fmt, name, start", [
    ("json", "tree.json", '{"format":"mistakebound.shattered_tree"'),
    ("dot", "tree.dot", 'digraph "shattered_tree" {'),
    ("tikz", "tree.tex", "\\begin{forest}"),
])
@pytest.mark.parametrize("explicit", [True, False])
def test_each_export_format_is_written_whole(capsys, tmp_path, fmt, name, start, explicit):
    path = tmp_path / name
    argv = ["tree", "monotone_disjunctions:4", "--out", str(path)] + (["--format", fmt] if explicit else [])
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert out.strip() == f"wrote {path}: a shattered tree of monotone_disjunctions(4), depth 4 = Ldim, 16 leaves ({fmt})"
    text = path.read_text()
    assert text.startswith(start) and text.endswith("\n")
    if fmt == "json":
        H = classes.monotone_disjunctions(4)
        assert is_shattered(H, tree_from_json(text, H))


def test_a_deep_tree_is_exported_whole_and_drawn_cut(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.image as mimage

    H = classes.thresholds(4095)  # Ldim 12; refused before ("too many to draw")
    code, out, err = run(capsys, "tree", "thresholds:4095", "--out", str(tmp_path / "t.json"))
    assert code == 0, err
    T = tree_from_json((tmp_path / "t.json").read_text(), H)
    assert T.number_of_nodes() == 2 ** 13 - 1 and is_shattered(H, T)
    png = tmp_path / "t.png"
    code, out, err = run(capsys, "tree", "thresholds:4095", "--out", str(png))
    assert code == 0, err
    assert "depth 12 = Ldim, 4096 leaves, levels 0-5 drawn (the rest counted; --levels draws more)" in out
    height, width = mimage.imread(png).shape[:2]
    assert width <= 900 and height <= 600  # 6.5 inches at 130 dpi; before: refused, 15600 px wide at depth 8
    code, out, err = run(capsys, "tree", "thresholds:4095", "--width", "13", "--out", str(png))
    assert code == 0 and "levels 0-6 drawn" in out
    assert mimage.imread(png).shape[1] > 1.9 * width


@pytest.mark.parametrize("argv, needle", [
    (["--format", "dot", "--out", "t.png"], "--out: expected a dot file name ending in .dot or .gv, got 't.png'"),
    (["--out", "t.txt"], "--out: expected a figure or export file name ending in .png or .svg or .pdf or .dot"),
    (["--format", "xml", "--out", "t.xml"], "--format: invalid choice: 'xml'"),
    (["--width", "0.5", "--out", "t.png"], "--width: expected a width in inches from 1 to 100, got '0.5'"),
    (["--levels", "-1", "--out", "t.png"], "--levels: expected an integer from 0 to 2,147,483,647, got '-1'"),
    (["--worst-case", "halving", "--out", "t.json"], "--format: json exports a shattered tree; a worst-case line"),
])
def test_bad_formats_and_sizes_exit_2_writing_nothing(capsys, tmp_path, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "tree", "thresholds:7", *argv)
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_exports_need_no_matplotlib_and_figures_name_the_extra(capsys, tmp_path, monkeypatch):
    import sys

    for name in ["matplotlib", *(m for m in sys.modules if m.startswith("matplotlib."))]:
        monkeypatch.setitem(sys.modules, name, None)  # None in sys.modules: importing it raises ImportError
    code, out, err = run(capsys, "tree", "thresholds:7", "--out", str(tmp_path / "t.dot"))
    assert code == 0, err
    code, out, err = run(capsys, "tree", "thresholds:7", "--out", str(tmp_path / "t.png"))
    assert code == 2 and "mistakebound[plot]" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.dot"]


# ------------------------------------------------------------------ ldim --tree / --certificate: the API's engine
ENGINES = [False] + ([True] if __import__("mistakebound.theory.ldim_kernel").theory.ldim_kernel.AVAILABLE else [])


@pytest.mark.parametrize("compiled", ENGINES)
@pytest.mark.parametrize("spec", ["random:60,8,0.4,2", "intervals:9", "thresholds:31"])
def test_ldim_tree_and_certificate_are_the_api_s(capsys, tmp_path, monkeypatch, compiled, spec):
    """``ldim --tree --certificate`` prints the tree ``shattered_tree`` gives and writes the section
    ``ldim_certificate`` writes (one engine for both); the checker proves the textbook's value; with the
    extension off, the Python search gives both alike."""
    import json

    from mistakebound.certificates import verify as checker
    from mistakebound.game import registry
    from mistakebound.theory import ldim_kernel
    from mistakebound.theory.certificate import CertificateWriter
    from mistakebound.theory.ldim_certificate import ldim_certificate
    from mistakebound.theory.littlestone import shattered_tree
    from mistakebound.theory.textbook import textbook_ldim
    from mistakebound.theory.tree_export import tree_to_text

    if not compiled:
        monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)
    H = registry.load_setting(spec)
    d = textbook_ldim(H.matrix)
    T = shattered_tree(H)
    assert T.graph["depth"] == d and is_shattered(H, T)
    writer = CertificateWriter(H)
    section = ldim_certificate(H, writer)
    path = tmp_path / "c.json"
    for argv in (["--tree"], ["--tree", "--certificate", str(path)]):
        code, out, err = run(capsys, "ldim", spec, "--what", "ldim", *argv)
        assert code == 0, err
        assert f"shattered tree of depth {d} " in out and out.endswith(tree_to_text(T, H) + "\n")
    assert checker.check_file(str(path)) == {"ldim": (d, d)}
    (written,) = json.loads(path.read_text())["results"]
    assert written["facts"] == json.loads(json.dumps(section["facts"]))
    assert written["claim"] == section["claim"]
