"""Shattered trees as text (mistakebound.theory.tree_export) and their layered layout (tree_layout)."""

from __future__ import annotations

import json
import re

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes, is_shattered, shattered_tree
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory.tree_export import tree_from_json, tree_to_dot, tree_to_json, tree_to_tikz
from mistakebound.theory.tree_layout import fit_layout, tree_layout

SPECS = ["thresholds:15", "monotone_disjunctions:4", "parities:3", "intervals:6", "k_sparse:6,2", "singletons:5,empty"]


# ---------------------------------------------------------------------------- JSON
@pytest.mark.parametrize("spec", SPECS)
def test_json_round_trips_to_a_tree_the_class_still_shatters(spec):
    H = classes.from_spec(spec)
    T = shattered_tree(H)
    back = tree_from_json(tree_to_json(T, H), H)
    assert is_shattered(H, back)
    assert back.graph["depth"] == T.graph["depth"] and back.graph["root"] == 1
    assert set(back.edges(data="label")) == set(T.edges(data="label"))
    for node in T:
        assert back.nodes[node] == T.nodes[node]  # instances (tuples too), witnesses and their names


def test_json_of_another_class_or_a_damaged_tree_is_refused():
    H = classes.thresholds(15)
    text = tree_to_json(shattered_tree(H), H)
    with pytest.raises(InvalidArgumentError, match=r"tree: intervals\(16\) does not shatter"):
        tree_from_json(text, classes.intervals(16))
    data = json.loads(text)
    data["nodes"][1]["label"] = 1  # both children of the root along label 1
    with pytest.raises(InvalidArgumentError, match="does not shatter"):
        tree_from_json(json.dumps(data), H)
    data = json.loads(text)
    data["nodes"][3]["parent"] = 99
    with pytest.raises(InvalidArgumentError, match=r"nodes\[3\]\.parent: expected the id of an earlier internal node, got 99"):
        tree_from_json(json.dumps(data))
    data = json.loads(text)
    data["nodes"][2]["label"] = 2
    with pytest.raises(InvalidArgumentError, match=r"nodes\[2\]\.label: expected the edge label 0 or 1, got 2"):
        tree_from_json(json.dumps(data))
    data = json.loads(text)
    data["format"] = "mistakebound.class"
    with pytest.raises(InvalidArgumentError, match="format"):
        tree_from_json(json.dumps(data))
    data = json.loads(text)
    data["depth"] = 7  # the tree read has depth 4
    with pytest.raises(InvalidArgumentError, match=r"depth: expected the depth of the tree read, 4, got 7"):
        tree_from_json(json.dumps(data))


def test_json_writes_the_trees_own_depth_and_refuses_a_witness_that_is_no_row():
    H = classes.thresholds(3)
    T = shattered_tree(H)
    T.graph["depth"] = 9  # a wrong attribute does not reach the file
    assert json.loads(tree_to_json(T, H))["depth"] == 2
    leaf = next(n for n in T if not T.out_degree(n))
    T.nodes[leaf]["witness"] = 1.7  # was written as row 1
    with pytest.raises(InvalidArgumentError, match="witness: expected an int, got 1.7"):
        tree_to_json(T, H)
    T.nodes[leaf]["witness"] = np.int64(1)  # a numpy row number is one
    assert json.loads(tree_to_json(T))["nodes"]


# ----------------------------------------------------------------------------- DOT
def parse_dot(text: str) -> nx.DiGraph:
    """A small reader of the DOT subset tree_to_dot writes: quoted ids, one statement a line."""
    lines = text.splitlines()
    assert re.fullmatch(r'digraph "[^"]*" \{', lines[0]) and lines[-1] == "}"
    string = r'"((?:[^"\\]|\\.)*)"'
    G = nx.DiGraph()
    for line in lines[1:-1]:
        line = line.strip()
        assert line.endswith(";"), line
        if line.startswith(("graph [", "node [")):
            continue
        edge = re.fullmatch(rf"{string} -> {string} \[label={string}\];", line)
        node = re.fullmatch(rf"{string} \[label={string}(, shape=ellipse)?\];", line)
        assert edge or node, line
        if edge:
            assert edge.group(1) in G and edge.group(2) in G  # nodes declared before their edges
            G.add_edge(edge.group(1), edge.group(2), label=int(edge.group(3)))
        else:
            G.add_node(node.group(1), label=node.group(2).replace('\\"', '"'), leaf=node.group(3) is not None)
    return G


@pytest.mark.parametrize("spec", SPECS)
def test_dot_holds_every_node_edge_and_label(spec):
    H = classes.from_spec(spec)
    T = shattered_tree(H)
    G = parse_dot(tree_to_dot(T))
    assert nx.is_isomorphic(G, T) and G.number_of_nodes() == T.number_of_nodes()
    for u, v, label in T.edges(data="label"):
        assert G.edges[str(u), str(v)]["label"] == label
    for n in T:
        a = T.nodes[n]
        x = a.get("instance")
        shown = "(" + ",".join(map(str, x)) + ")" if isinstance(x, tuple) else str(x)
        assert G.nodes[str(n)]["label"] == (a["witness_name"] if T.out_degree(n) == 0 else f"x = {shown}")
        assert G.nodes[str(n)]["leaf"] == (T.out_degree(n) == 0)


def test_dot_is_read_by_pydot_when_it_is_installed():
    pydot = pytest.importorskip("pydot")
    T = shattered_tree(classes.monotone_disjunctions(3))
    (graph,) = pydot.graph_from_dot_data(tree_to_dot(T))
    assert len(graph.get_edges()) == T.number_of_edges()


# ---------------------------------------------------------------------------- TikZ
@pytest.mark.parametrize("spec", SPECS)
def test_tikz_is_one_balanced_forest_with_a_bracket_per_node(spec):
    H = classes.from_spec(spec)
    T = shattered_tree(H)
    text = tree_to_tikz(T)
    lines = text.splitlines()
    assert lines[0] == r"\begin{forest}" and lines[-1] == r"\end{forest}"
    body = "\n".join(lines[2:-1])
    depth, deepest = 0, 0
    nodes = 0
    i = 0
    while i < len(body):  # brackets outside braces open and close nodes; braces balance inside
        c = body[i]
        if c == "{":
            level = 1
            i += 1
            while level:
                if body[i] == "\\":
                    i += 2
                    continue
                level += {"{": 1, "}": -1}.get(body[i], 0)
                i += 1
            continue
        if c == "[":
            depth += 1
            nodes += 1
            deepest = max(deepest, depth)
        elif c == "]":
            depth -= 1
            assert depth >= 0
        i += 1
    assert depth == 0 and nodes == T.number_of_nodes() and deepest == T.graph["depth"] + 1
    assert body.count("edge label=") == T.number_of_edges()


def test_tikz_escapes_what_latex_would_read_as_commands():
    T = nx.DiGraph([(1, 2, {"label": 0}), (1, 3, {"label": 1})])
    T.nodes[1]["instance"] = "50%_{a}"
    T.nodes[2]["witness_name"] = "x<1 & #2"
    text = tree_to_tikz(T)
    assert r"x = 50\%\_\{a\}" in text and r"x\textless{}1 \& \#2" in text


# -------------------------------------------------------------------------- layout
@st.composite
def trees(draw):
    """Random rooted trees (each node 0, 1 or 2 children, not necessarily complete), depth <= 7."""
    T = nx.DiGraph()
    T.add_node(0)
    frontier = [(0, 0)]
    depth_max = draw(st.integers(0, 7))
    while frontier:
        node, depth = frontier.pop()
        k = draw(st.sampled_from([0, 2, 2, 1])) if depth < depth_max else 0
        for label in range(k):
            child = T.number_of_nodes()
            T.add_edge(node, child, label=label)
            T.nodes[node]["instance"] = draw(st.integers(0, 10 ** draw(st.integers(0, 6))))
            frontier.append((child, depth + 1))
    return T


@settings(max_examples=150, deadline=None)
@given(trees(), st.floats(2.0, 20.0), st.sampled_from([None, 0, 1, 3, 9]))
def test_no_two_labels_of_a_fitted_layout_overlap(T, width, levels):
    char, line, gap = 0.06, 0.15, 0.03
    width_of = lambda n: len(str(T.nodes[n].get("instance"))) * char  # noqa: E731
    L = fit_layout(T, width=width, width_of=width_of, line=line, gap=gap, levels=levels)
    if levels is None:
        assert L.levels == 0 or L.slots * L.pitch <= width + 1e-9  # what is drawn fits the width asked
    else:
        assert L.levels == min(levels, L.depth)

    counted = len(set(L.elided.values())) > 1

    def extent(n):  # the widths fit_layout documents for its marks
        if n in L.elided:
            return line if counted else line / 2
        if T.out_degree(n) == 0:
            return line if L.leaf_labels else line / 3
        return width_of(n)

    boxes = {n: (L.x[n] * L.pitch - extent(n) / 2, L.x[n] * L.pitch + extent(n) / 2) for n in L.x}
    bottom = sorted((n for n in L.x if n in L.elided or T.out_degree(n) == 0), key=L.x.__getitem__)
    assert [L.x[n] for n in bottom] == list(range(L.slots))  # the bottom row, one slot each
    for row in [bottom] + [L.row(k) for k in range(L.levels + 1)]:  # labels written upwards pass lower levels
        for a, b in zip(row, row[1:]):
            assert boxes[a][1] + gap <= boxes[b][0] + 1e-9, (a, b)  # left to right, gap apart
    for n in L.x:  # parents centred over their children, children one level down
        kids = [c for c in T.successors(n) if c in L.x]
        if kids:
            assert L.x[n] == pytest.approx((min(L.x[c] for c in kids) + max(L.x[c] for c in kids)) / 2)
            assert all(L.level[c] == L.level[n] + 1 for c in kids)
    leaves = sum(n for _, n in L.elided.values()) + sum(1 for n in L.x if T.out_degree(n) == 0)
    assert leaves == L.leaves == sum(1 for n in T if T.out_degree(n) == 0)


def test_the_layout_refuses_what_is_not_a_tree():
    with pytest.raises(InvalidArgumentError, match="one root, found 2 roots"):
        tree_layout(nx.DiGraph([(1, 2), (3, 2)]))
    with pytest.raises(InvalidArgumentError, match="levels: expected an int >= 0"):
        tree_layout(nx.DiGraph([(1, 2)]), levels=1.5)
    with pytest.raises(InvalidArgumentError, match="expected a networkx DiGraph"):
        tree_layout([(1, 2)])


# ------------------------------------------------------------------------ notebooks
def test_trees_and_lines_draw_themselves_as_svg_in_notebooks():
    import xml.etree.ElementTree as ET

    from mistakebound import worst_case_mistakes
    from mistakebound.learners import Halving

    H = classes.thresholds(1023)
    T = shattered_tree(H)
    svg = ET.fromstring(T._repr_svg_())
    assert svg.tag.endswith("svg") and float(svg.get("width")) <= 900  # depth 10, cut to a notebook's width
    text = " ".join(t.text or "" for t in svg.iter() if t.tag.endswith("text"))
    assert "levels 0-5 of 10 drawn" in text and "with 32 leaves" in text and "512" in text
    small = shattered_tree(classes.thresholds(15))
    text = " ".join(t.text or "" for t in ET.fromstring(small._repr_svg_()).iter() if t.tag.endswith("text"))
    assert all(small.nodes[n]["witness_name"] in text for n in small if small.out_degree(n) == 0)
    assert type(tree_from_json(tree_to_json(small))).__name__ == "ShatteredTree"
    H = classes.monotone_disjunctions(3)
    W = worst_case_mistakes(Halving(H), H)
    line = ET.fromstring(W.strategy._repr_svg_())
    text = [t.text for t in line.iter() if t.tag.endswith("text")]
    assert text[0] == f"Adversary's line: {W.value} mistakes in {len(W.line)} rounds"
    assert sum(1 for t in text if t.endswith(": mistake")) == W.value


def test_tikz_compiles_with_pdflatex_where_it_is_installed(tmp_path):
    import shutil
    import subprocess

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed: the bracket structure above is what is checked")
    T = shattered_tree(classes.monotone_disjunctions(3))
    odd = nx.DiGraph([(1, 2, {"label": 0}), (1, 3, {"label": 1})])
    odd.nodes[1]["instance"] = "50%_{a}~^\\ <x>"
    odd.nodes[2]["witness_name"] = "x<1 & #2 $"
    (tmp_path / "tree.tex").write_text(tree_to_tikz(T))
    (tmp_path / "odd.tex").write_text(tree_to_tikz(odd))
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{forest}"
                                      "\\begin{document}\\input{tree.tex}\\input{odd.tex}\\end{document}\n")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 1000
