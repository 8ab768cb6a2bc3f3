"""The layout shows the architecture: layers import only downwards, no circles, zoos use public names.

The import graph is read from the source with :mod:`ast` (every ``import`` statement,
at module level or inside a function, under ``TYPE_CHECKING`` or not), so a lazy import
that would close a circle is caught as surely as a top-level one.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import networkx as nx
import pytest

import mistakebound
import mistakebound.adversaries
import mistakebound.learners

#: The layers, bottom up: a module may import from its own layer and those before it.
LAYERS = ("foundations", "game", "theory", "verification", "interfaces")
ZOOS = ("mistakebound.learners", "mistakebound.adversaries")
#: Packages outside the layers that import nothing of the package at all: the certificate checker,
#: which a referee runs on its own (``python verify.py``), trusting no code of the searches.
INDEPENDENT = ("mistakebound.certificates",)


def _package_files() -> dict[str, Path]:
    """Module name -> source file, for the package, its layers and the two zoos."""
    files: dict[str, Path] = {}
    for package in (mistakebound, mistakebound.learners, mistakebound.adversaries):
        root = Path(package.__file__).parent
        for path in sorted(root.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join([package.__name__, *parts])
            if package is mistakebound and name.startswith(ZOOS):
                continue
            files[name] = path
    return files


FILES = _package_files()


def _tree(path: Path) -> ast.Module:
    """A source file's syntax tree (not kept: the package's trees are 800,000 objects a worker would carry
    through the rest of the suite; what is read off them is kept instead)."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def _imports(name: str, path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(module imported, names imported from it)`` for every import statement of a module, read once."""
    tree = _tree(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            out.append((base, tuple(a.name for a in node.names)))
    return tuple(out)


def _targets(module: str, names: list[str]) -> list[str]:
    """The modules of the package an import statement makes the importer depend on."""
    found = [module] if module in FILES else []
    found += [f"{module}.{n}" for n in names if f"{module}.{n}" in FILES]
    return found


@functools.lru_cache(maxsize=None)
def _graph() -> nx.DiGraph:
    G = nx.DiGraph()
    G.add_nodes_from(FILES)
    for name, path in FILES.items():
        for module, names in _imports(name, path):
            for target in _targets(module, names):
                if target != name:
                    G.add_edge(name, target)
    return G


def _layer(name: str) -> str | None:
    parts = name.split(".")
    if name.startswith(ZOOS):
        return "zoo"
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_the_files_found_are_the_package():
    assert "mistakebound.game.play" in FILES and "mistakebound.learners.halving" in FILES
    assert "mistakebound.adversaries.opposite_label" in FILES
    entry = ("mistakebound", "mistakebound.__main__")  # the package's front doors, above every layer
    outside = [n for n in FILES if _layer(n) is None and n not in entry and not n.startswith(INDEPENDENT)]
    assert outside == []


@pytest.mark.parametrize("name", sorted(n for n in FILES if n.startswith(INDEPENDENT)))
def test_independent_modules_import_nothing_of_the_package(name):
    imported = [module for module, _ in _imports(name, FILES[name])]
    own = name.split(".")[:2]  # its own package's modules (the checker's kinds) are its own code
    assert not [m for m in imported if m.split(".")[0] in ("mistakebound", "benchmarks")
                and m.split(".")[:2] != own], imported
    assert not [m for m in imported if m.split(".")[0] in ("numpy", "networkx", "attrs")], imported


def test_no_import_circles():
    cycles = list(nx.simple_cycles(_graph()))
    assert cycles == [], "import circles: " + "; ".join(" -> ".join(c + [c[0]]) for c in cycles[:10])


@pytest.mark.parametrize("name", sorted(n for n in FILES if _layer(n) in LAYERS))
def test_layers_import_only_downwards_and_never_the_zoos(name):
    G = _graph()
    own = LAYERS.index(_layer(name))
    for target in G.successors(name):
        layer = _layer(target)
        assert target != "mistakebound", f"{name} imports the top-level package (it imports everything)"
        assert layer != "zoo", f"{name} imports the zoo module {target}; reach players through the registry"
        if layer in LAYERS:
            assert LAYERS.index(layer) <= own, f"{name} ({_layer(name)}) imports {target} ({layer}), a layer above"


@pytest.mark.parametrize("name", sorted(n for n in FILES if _layer(n) == "zoo"))
def test_the_zoos_use_only_public_names_of_the_core(name):
    for module, names in _imports(name, FILES[name]):
        if not module.startswith("mistakebound") or module.startswith(ZOOS):
            continue
        assert module != "mistakebound" or not names or all(not n.startswith("_") for n in names)
        assert not any(part.startswith("_") for part in module.split(".")), f"{name} imports the private module {module}"
        private = [n for n in names if n.startswith("_")]
        assert not private, f"{name} imports private names {private} from {module}"
        assert _layer(module) != "interfaces" if module in FILES else True, f"{name} imports the interface {module}"


def test_the_graph_check_can_fail(tmp_path):
    """The cycle and layer checks see a circle closed by a lazy import inside a function."""
    a = tmp_path / "a.py"
    a.write_text("def f():\n    from mistakebound.interfaces import cli\n")
    found = [t for m, ns in _imports("mistakebound.game.fake", a) for t in _targets(m, ns)]
    assert "mistakebound.interfaces.cli" in found
    G = _graph().copy()
    G.add_edge("mistakebound.game.players", "mistakebound.interfaces.cli")  # the lazy import, were it real
    assert list(nx.simple_cycles(G)), "a circle through the interfaces must be found"


def _kinds_of_game() -> set[str]:
    """The names of every kind of setting and transcript: what a front end must ask, never test."""
    from mistakebound.game import hypothesis_class, oco, spaces, transcript  # noqa: F401 - their kinds register
    from mistakebound.game.setting import Setting

    kinds, todo = set(), [Setting]
    while todo:
        k = todo.pop()
        kinds.add(k.__name__)
        todo += k.__subclasses__()
    return kinds | {transcript.Transcript.__name__, oco.OCOTranscript.__name__}


def _kind_switches(path: Path, kinds: set[str]) -> list[str]:
    """``line: isinstance(...)`` for every isinstance call of a file that names one of ``kinds``."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and len(node.args) == 2:
            named = {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node.args[1])
                     if isinstance(n, (ast.Name, ast.Attribute))}
            if named & kinds:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("name", sorted(n for n in FILES if n.startswith("mistakebound.interfaces")))
def test_front_ends_ask_the_setting_and_the_transcript_never_their_kind(name):
    """The command line, the plots and the sweep hold no isinstance switch over kinds of game: they
    ask the Setting protocol (labelled, finite, hindsight, hindsight_curve) and the transcript
    (cumulative_curve, totals_record, labelled, randomized)."""
    assert _kind_switches(FILES[name], _kinds_of_game()) == []


def test_the_kind_switch_check_can_fail(tmp_path):
    kinds = _kinds_of_game()
    assert {"HypothesisClass", "ExpertAdvice", "LinearSpace", "OCOSetting", "Transcript", "OCOTranscript"} <= kinds
    f = tmp_path / "front.py"
    f.write_text("def f(T, H):\n    if isinstance(T, oco.OCOTranscript) or isinstance(H, (int, ExpertAdvice)):\n"
                 "        return isinstance(H, dict)\n")
    assert [line.split(":")[1] for line in _kind_switches(f, kinds)] == ["2", "2"]


@functools.lru_cache(maxsize=None)
def _engines() -> frozenset[str]:
    """The searches and engines of the theory layer: what only the library's doors may build."""
    return frozenset(node.name for name, path in FILES.items() if name.startswith("mistakebound.theory")
                     for node in ast.walk(_tree(path))
                     if isinstance(node, ast.ClassDef) and node.name.endswith(("Search", "Engine")))


def _engine_imports(name: str, path: Path, engines: set[str]) -> list[str]:
    """``module.name`` for every search, engine or private name a module imports from the theory layer."""
    return [f"{module}.{n}" for module, names in _imports(name, path) if module.startswith("mistakebound.theory")
            for n in names if n in engines or n.startswith("_")]


@pytest.mark.parametrize("name", sorted(n for n in FILES if n.startswith("mistakebound.interfaces")))
def test_front_ends_call_the_doors_never_a_search(name):
    """A command, a sweep cell or a report asks a door (littlestone_bounds, vc_bounds, worst_case_mistakes,
    ...) and never builds a search itself: the command line and the API cannot differ in answer or speed."""
    assert _engine_imports(name, FILES[name], _engines()) == []


def test_the_search_import_check_can_fail(tmp_path):
    engines = _engines()
    assert {"LdimSearch", "LdimEngine", "RLdimSearch", "_VCSearch"} <= engines
    f = tmp_path / "front.py"
    f.write_text("from mistakebound.theory.littlestone import LdimSearch, littlestone_bounds\n"
                 "def g():\n    from ..theory.vc import _VCSearch\n")
    found = _engine_imports("mistakebound.interfaces.front", f, engines)
    assert found == ["mistakebound.theory.littlestone.LdimSearch", "mistakebound.theory.vc._VCSearch"]


def test_every_package_of_the_source_is_installed():
    """pyproject.toml lists its packages one by one: a new folder missing there is absent from a real install."""
    import tomllib

    listed = set(tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {n for n, p in FILES.items() if p.name == "__init__.py"}
    assert found - listed == set(), found - listed


# ------------------------------------------------------------------ what the tests import
ROOT = Path(__file__).resolve().parents[1]


def _checkout_modules(folder: str) -> dict[str, Path]:
    """Module name -> file, for the modules of a folder of the checkout (``tests``, ``benchmarks``)."""
    return {f"{folder}.{p.stem}": p for p in sorted((ROOT / folder).glob("*.py")) if (ROOT / folder).is_dir()}


@pytest.mark.parametrize("folder", ["tests", "benchmarks"])
def test_tests_and_benchmarks_import_the_installed_package_only(folder):
    """The zoos come as ``mistakebound.learners`` / ``mistakebound.adversaries``, never as the top-level
    folders ``learners`` / ``adversaries`` (a second copy of every class: ``learners.halving.Halving is not
    mistakebound.learners.halving.Halving``); the oracles come from ``mistakebound.theory.textbook``; the
    benchmarks never import the tests, and the tests' helper modules (all but ``test_*.py``) never import the
    benchmarks: only a test *of* a benchmark program imports it, to run it in smoke mode."""
    bad = []
    for name, path in _checkout_modules(folder).items():
        for module, _ in _imports(name, path):
            top = module.split(".")[0]
            helper = folder == "tests" and not path.name.startswith("test_")
            if top in ("learners", "adversaries") or (folder == "benchmarks" and top == "tests") \
                    or (helper and top == "benchmarks"):
                bad.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not bad, bad
