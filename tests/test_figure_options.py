"""Figures for a paper from every command that draws: ``--dpi``, vector formats, ``--no-titles`` (issue 25).

A figure is read back: a PNG's size and resolution, a sweep's files by their format, and a figure
without its title and caption cut to the drawing (smaller than the same figure with them).
"""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")  # the plot extra; the test extra installs it

from PIL import Image  # noqa: E402  - matplotlib's own dependency

from mistakebound.interfaces.cli import main  # noqa: E402


def _png(path) -> tuple[tuple[int, int], float]:
    with Image.open(path) as im:
        return im.size, round(im.info["dpi"][0])


def test_tree_at_a_paper_s_resolution_and_without_its_title(tmp_path, capsys):
    plain, sharp, bare = tmp_path / "plain.png", tmp_path / "sharp.png", tmp_path / "bare.png"
    assert main(["tree", "thresholds:7", "--out", str(plain)]) == 0
    assert main(["tree", "thresholds:7", "--out", str(sharp), "--dpi", "300"]) == 0
    assert main(["tree", "thresholds:7", "--out", str(bare), "--dpi", "300", "--no-titles"]) == 0
    (w0, h0), dpi0 = _png(plain)
    (w1, h1), dpi1 = _png(sharp)
    (w2, h2), dpi2 = _png(bare)
    assert (dpi0, dpi1, dpi2) == (130, 300, 300)
    assert abs(w1 / w0 - 300 / 130) < 0.02 and abs(h1 / h0 - 300 / 130) < 0.02  # the same figure, sharper
    assert h2 < h1 * 0.9  # the title above and the caption below are gone


def test_plot_passes_its_figure_options_to_the_one_writer_of_figures(tmp_path, capsys, monkeypatch):
    from mistakebound.interfaces import plots

    seen, real = [], plots.save_figure

    def save(fig, path, **style):
        seen.append(style)
        return real(fig, path, **style)

    monkeypatch.setattr(plots, "save_figure", save)
    argv = ["plot", "thresholds:15", "--learners", "halving,soa", "--adversary", "BinarySearchThreshold"]
    assert main([*argv, "--out", str(tmp_path / "t.png")]) == 0
    assert main([*argv, "--out", str(tmp_path / "b.pdf"), "--no-titles", "--dpi", "600"]) == 0
    assert seen == [{"dpi": plots.DPI, "titles": True}, {"dpi": 600, "titles": False}]
    assert (tmp_path / "b.pdf").read_bytes()[:4] == b"%PDF"


def test_a_figure_without_titles_keeps_its_drawing_and_legend():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mistakebound.interfaces.plots import bare

    fig, ax = plt.subplots()
    ax.plot([0, 1], label="curve")
    ax.legend()
    ax.set_title("the title")
    fig.supxlabel("a caption")
    bare(fig)
    assert ax.get_title() == "" and fig._supxlabel is None and ax.get_legend() is not None and len(ax.lines) == 1
    plt.close(fig)


def test_a_sweep_writes_its_figures_in_the_format_asked(tmp_path, capsys):
    config = tmp_path / "s.toml"
    config.write_text('[[grid]]\nlearners = ["Halving"]\nadversaries = ["OppositeLabel"]\nclasses = ["thresholds"]\n'
                      'sizes = [4, 8]\nseeds = [1]\nhorizons = [10]\n')
    plots = tmp_path / "plots"
    code = main(["sweep", str(config), "--out", str(tmp_path / "r.csv"), "--executor", "inprocess",
                 "--plot", str(plots), "--plot-format", "svg", "--no-titles"])
    assert code == 0
    files = sorted(p.suffix for p in plots.iterdir())
    assert files and set(files) == {".svg"}


@pytest.mark.parametrize("dpi", ["5", "3000", "high"])
def test_a_resolution_out_of_range_is_refused_by_name(tmp_path, capsys, dpi):
    code = main(["tree", "thresholds:3", "--out", str(tmp_path / "t.png"), "--dpi", dpi])
    assert code == 2 and "--dpi" in capsys.readouterr().err
    assert not (tmp_path / "t.png").exists()
