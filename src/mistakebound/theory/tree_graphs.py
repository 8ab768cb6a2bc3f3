"""The graphs the searches return, drawing themselves in notebooks: shattered trees and adversary lines.

:class:`ShatteredTree` (what :func:`~mistakebound.theory.littlestone.shattered_tree`
returns) and :class:`AdversaryLine` (``WorstCase.strategy``) are networkx DiGraphs with
nothing added but ``_repr_svg_``: Jupyter shows them as pictures, drawn as plain SVG
without matplotlib.  A tree uses the layered layout of the figures
(:func:`~mistakebound.theory.tree_layout.fit_layout`), cut to fit 900 pixels, its
deeper subtrees counted; a line goes down one round at a time, its mistakes in red.

Examples
--------
>>> from mistakebound import classes, shattered_tree
>>> T = shattered_tree(classes.thresholds(1023))
>>> type(T).__name__, T.graph["depth"]
('ShatteredTree', 10)
>>> svg = T._repr_svg_()
>>> svg.startswith("<svg") and "levels 0-5 of 10 drawn" in svg
True
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

import networkx as nx

from mistakebound.game.transcript import instance_text
from mistakebound.theory.tree_layout import fit_layout
from mistakebound.theory.tree_walk import children, node_texts

__all__ = ["ShatteredTree", "AdversaryLine"]

_FONT = 11  # pixels
_CHAR = 0.62 * _FONT
_LINE = 1.3 * _FONT
_WIDTH = 900  # pixels: a notebook's output column


def _svg(width: float, height: float, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif" font-size="{_FONT}">'
            + "".join(body) + "</svg>")


def _label(x: float, y: float, text: str, fill: str, *, upwards: bool = False) -> str:
    w, h = len(text) * _CHAR + 6, _LINE + 2
    if upwards:
        return (f'<g transform="translate({x:.1f},{y - h / 2:.1f}) rotate(90)">'
                f'<rect x="0" y="{-h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3" fill="{fill}" stroke="#595959"/>'
                f'<text x="3" y="{_FONT * 0.35:.1f}">{escape(text)}</text></g>')
    return (f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3" fill="{fill}" '
            f'stroke="#595959"/><text x="{x:.1f}" y="{y + _FONT * 0.35:.1f}" text-anchor="middle">{escape(text)}</text>')


class ShatteredTree(nx.DiGraph):
    """A shattered tree (a networkx DiGraph) that Jupyter draws: instances at nodes, witnesses at leaves."""

    def _repr_svg_(self) -> str:
        """The tree as SVG, at most 900 pixels wide: the levels that fit, deeper subtrees counted."""
        if self.number_of_nodes() == 0:
            return _svg(200, 30, ['<text x="5" y="20">empty tree</text>'])
        texts, leaves = node_texts(self)
        L = fit_layout(self, width=_WIDTH - 20, width_of=lambda n: len(texts[n]) * _CHAR + 6, line=_LINE + 2, gap=4)
        pitch = max(L.pitch, (_WIDTH - 20) / L.slots)
        W = L.slots * pitch + 20
        level_h = 3 * _LINE
        drawn = [n for n in L.x if n in leaves]
        below = max((len(leaves[n]) * _CHAR + 8 for n in drawn), default=0) if L.leaf_labels else 8
        below = max(below, 34 if L.elided else 0)
        top = 2 * _LINE
        H = top + L.levels * level_h + below + 2.5 * _LINE

        def X(n):
            return 10 + (L.x[n] + 0.5) * pitch

        def Y(n):
            return top + L.level[n] * level_h

        depth = self.graph.get("depth", L.depth)
        body = [f'<text x="{W / 2:.1f}" y="{_LINE:.1f}" text-anchor="middle" font-size="{_FONT + 1}">'
                f"Shattered tree, depth {depth}: {L.leaves} leaves</text>"]
        for n in L.x:
            if n in L.elided or n in leaves:
                continue
            for c in children(self, n):
                body.append(f'<line x1="{X(n):.1f}" y1="{Y(n):.1f}" x2="{X(c):.1f}" y2="{Y(c):.1f}" stroke="#737373"/>')
        for n in L.x:
            x, y = X(n), Y(n)
            if n in L.elided:
                half = min(0.4 * pitch, 12)
                body.append(f'<polygon points="{x:.1f},{y:.1f} {x - half:.1f},{y + 26:.1f} {x + half:.1f},{y + 26:.1f}" '
                            'fill="#d9d9d9" stroke="#666"/>')
            elif n in leaves:
                body.append(_label(x, y, leaves[n], "#e3f2dc", upwards=True) if L.leaf_labels else
                            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#4f8a3c"/>')
            else:
                body.append(_label(x, y, texts[n], "#dbe8f6"))
        note = "left edge: label 0, right edge: label 1"
        if L.elided:
            sizes = set(L.elided.values())
            each = (f"each triangle a subtree of depth {next(iter(sizes))[0]} with {next(iter(sizes))[1]} leaves"
                    if len(sizes) == 1 else "triangles: subtrees below the cut")
            note += f"; levels 0-{L.levels} of {L.depth} drawn, {each}"
        body.append(f'<text x="10" y="{H - _LINE:.1f}" fill="#333">{escape(note)}</text>')
        return _svg(W, H, body)


class AdversaryLine(nx.DiGraph):
    """An adversary's line (a networkx DiGraph, nodes ``0 .. k``) that Jupyter draws, one round a row."""

    def _repr_svg_(self) -> str:
        """The line as SVG: each round's instance, prediction and label; the edges of mistakes red."""
        k = self.number_of_nodes() - 1
        rows = []
        for t in range(max(k, 0)):
            a = self.nodes[t]
            p = float(a.get("prediction", 0))
            predicted = f"{p:g}" if p in (0.0, 1.0) else f"1 w.p. {p:.2f}"
            gain = float(a.get("gain", 0))
            word = "mistake" if gain >= 1 else ("no mistake" if gain == 0 else f"expected {gain:.2f}")
            rows.append((f"round {t + 1}: x = {instance_text(a.get('instance'))}, learner predicts {predicted}",
                         f"y = {a.get('label')}: {word}", gain > 0))
        value = self.graph.get("value", sum(float(self.nodes[t].get("gain", 0)) for t in range(max(k, 0))))
        title = f"Adversary's line: {value:g} mistake{'' if value == 1 else 's'} in {k} rounds"
        W = max([len(r[0]) for r in rows] + [len(title)]) * _CHAR + 180
        H = (2 + 2 * k) * _LINE * 1.2 + _LINE
        body = [f'<text x="10" y="{_LINE:.1f}" font-size="{_FONT + 1}">{escape(title)}</text>']
        for t, (node, edge, mistake) in enumerate(rows):
            y = (2 + 2 * t) * _LINE * 1.2
            color = "#c0392b" if mistake else "#808080"
            body.append(f'<line x1="18" y1="{y:.1f}" x2="18" y2="{y + 2.4 * _LINE:.1f}" stroke="{color}" '
                        f'stroke-width="{2.5 if mistake else 1.2}"/>')
            body.append(f'<circle cx="18" cy="{y:.1f}" r="4" fill="#dbe8f6" stroke="#595959"/>'
                        f'<text x="30" y="{y + 4:.1f}">{escape(node)}</text>'
                        f'<text x="30" y="{y + 1.2 * _LINE + 4:.1f}" fill="{color}">{escape(edge)}</text>')
        y = (2 + 2 * k) * _LINE * 1.2
        body.append(f'<circle cx="18" cy="{y:.1f}" r="4" fill="#e3f2dc" stroke="#595959"/>'
                    f'<text x="30" y="{y + 4:.1f}">end</text>')
        return _svg(W, H, body)
