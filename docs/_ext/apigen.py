"""Write the API reference's sources from the package's ``__all__`` lists, at build time.

Every public module (no part of its dotted name starts with ``_``) of ``mistakebound``,
``mistakebound.learners`` and ``mistakebound.adversaries`` gets a page: its docstring, then
a table of every name in its ``__all__``.  Every function and class gets one page of its
own, written where it is *defined* (its ``__module__``, when that module is public and
exports it; otherwise the first public module that exports it), so a name re-exported by a
package (``mistakebound.littlestone_dimension``, ``mistakebound.learners.Halving``) links
to that one page and no object is described twice.  Constants are described on the page of
each module that exports them; exported modules link to their module page.

The pages are grouped by the package's layers (:data:`LAYERS`), bottom up as the
architecture has them, with the two zoos beside the game.  :func:`public_names` is what
``tests/test_docs.py`` checks the built inventory against.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
from pathlib import Path

__all__ = ["LAYERS", "ALIASES", "aliases", "public_modules", "public_names", "canonical_pages", "write_api"]

#: The layers, in the order of the reference: (title, module prefixes, what it holds).
LAYERS = (
    ("The top level", ("mistakebound",), "The names most users need, gathered in one namespace."),
    ("Game", ("mistakebound.game",),
     "Hypothesis classes and spaces, the settings and their rules, the referee, transcripts, the registry."),
    ("Theory", ("mistakebound.theory",),
     "The exact searches: Littlestone and VC dimensions, shattered trees, worst cases, game values, "
     "and the certificate writers."),
    ("Verification", ("mistakebound.verification",),
     "Bounds, claims and verdicts, judged games, the check command's suites, and the users' check kit."),
    ("Certificates", ("mistakebound.certificates",),
     "The independent checker: standard library only, it imports nothing else of the package."),
    ("Learners", ("mistakebound.learners",), "The learner zoo: every learner and the bound it claims."),
    ("Adversaries", ("mistakebound.adversaries",), "The adversary zoo: every adversary and what it forces."),
    ("Interfaces", ("mistakebound.interfaces",), "The command line, sweeps, figures and progress."),
    ("Foundations", ("mistakebound.foundations",),
     "Errors, validation of arguments, bitsets, files, exact sums and the memory budget."),
)

ROOTS = ("mistakebound", "mistakebound.learners", "mistakebound.adversaries")


def public_modules() -> dict[str, types.ModuleType]:
    """Every public module of the package, by dotted name, in a stable order."""
    modules: dict[str, types.ModuleType] = {}
    for root in ROOTS:
        package = importlib.import_module(root)
        modules[root] = package
        for info in pkgutil.walk_packages(package.__path__, root + "."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            modules[info.name] = importlib.import_module(info.name)
    return dict(sorted(modules.items()))


def public_names() -> list[tuple[str, str, object]]:
    """Every ``(module, name, object)`` of the public modules' ``__all__``."""
    return [(m, n, getattr(mod, n)) for m, mod in public_modules().items() for n in mod.__all__]


def _kind(obj: object) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if getattr(obj, "__module__", None) == "builtins":  # an alias (``Record = dict``): its #: comment says
        return "data"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "data"


def canonical_pages() -> dict[int, str]:
    """The one documented dotted name of every exported function and class, by ``id``."""
    names = public_names()
    exporters: dict[int, list[str]] = {}
    for module, name, obj in names:
        if _kind(obj) in ("class", "function"):
            exporters.setdefault(id(obj), []).append(f"{module}.{name}")
    pages: dict[int, str] = {}
    modules = public_modules()
    for module, name, obj in names:
        if id(obj) in pages or _kind(obj) not in ("class", "function"):
            continue
        home = getattr(obj, "__module__", None)
        own = getattr(obj, "__name__", name)
        if home in modules and own in modules[home].__all__ and getattr(modules[home], own) is obj:
            pages[id(obj)] = f"{home}.{own}"
        else:  # defined in a private module: the deepest public module that exports it
            pages[id(obj)] = max(exporters[id(obj)], key=lambda dotted: (dotted.count("."), dotted))
    return pages


def _layer(module: str) -> int:
    """The index in :data:`LAYERS` of the longest prefix that ``module`` is or starts with."""
    if module == "mistakebound":
        return 0
    matches = [(len(prefix), i) for i, (_, prefixes, _) in enumerate(LAYERS) if i for prefix in prefixes
               if module == prefix or module.startswith(prefix + ".")]
    return max(matches)[1]


def _first_line(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    if inspect.isclass(obj) and "__doc__" not in vars(obj):
        doc = ""
    line = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return line


def _comment(module: str, name: str) -> str:
    """The ``#:`` comment above ``name`` in ``module``'s source, on one line."""
    from sphinx.pycode import ModuleAnalyzer

    lines = ModuleAnalyzer.for_module(module).find_attr_docs().get(("", name), [])
    return " ".join(line.strip() for line in lines if line.strip())


def _write(path: Path, text: str) -> None:
    """Write only when changed, so an incremental build rereads only what changed."""
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _title(text: str, char: str = "=") -> str:
    return f"{text}\n{char * len(text)}\n"


def write_api(out: Path) -> int:
    """Write ``out/index.rst``, a page per module and a page per function and class."""
    modules = public_modules()
    pages = canonical_pages()
    written: set[Path] = set()

    def emit(path: Path, text: str) -> None:
        written.add(path)
        _write(path, text)

    by_layer: dict[int, list[str]] = {}
    for module in modules:
        by_layer.setdefault(_layer(module), []).append(module)
    for module, mod in modules.items():
        rows, data = [], []
        for name in mod.__all__:
            obj = getattr(mod, name)
            kind = _kind(obj)
            if kind == "module":
                target = f":mod:`{name} <{obj.__name__}>`"
            elif kind == "data":
                target = f":data:`{name} <{module}.{name}>`"
                data.append(name)
            else:
                page = pages[id(obj)]
                role = "class" if kind == "class" else "func"
                target = f":{role}:`{name} <{page}>`"
                if page.rsplit(".", 1)[0] == module:
                    parent, own = page.rsplit(".", 1)
                    directive = "autoclass" if kind == "class" else "autofunction"
                    extra = "   :members:\n" if kind == "class" else ""
                    emit(out / "generated" / f"{page}.rst",
                         _title(f"{own}") + f"\n*{kind} in* :mod:`{parent}`\n\n"
                         f".. currentmodule:: {parent}\n\n.. {directive}:: {own}\n{extra}")
            summary = _first_line(obj) if kind != "data" else f"constant: ``{type(obj).__name__}``"
            summary = summary.replace("|", "\\|")
            rows.append((target, summary or " "))
        text = _title(module) + f"\n.. automodule:: {module}\n   :no-members:\n\n"
        if rows:
            text += ".. list-table::\n   :widths: 30 70\n   :class: api-names\n\n"
            for target, summary in rows:
                text += f"   * - {target}\n     - {summary}\n"
            text += "\n"
        children = sorted({pages[id(getattr(mod, n))] for n in mod.__all__
                           if _kind(getattr(mod, n)) in ("class", "function")
                           and pages[id(getattr(mod, n))].rsplit(".", 1)[0] == module})
        if children:
            text += ".. toctree::\n   :hidden:\n\n" + "".join(f"   generated/{c}\n" for c in children) + "\n"
        if data:
            text += _title("Constants", "-") + "\n"
            for name in data:
                obj = getattr(mod, name)
                if inspect.isclass(obj):  # an alias of a builtin type: autodoc cannot sign it
                    comment = _comment(module, name)
                    text += f".. py:data:: {name}\n   :module: {module}\n   :value: {obj.__name__}\n\n   {comment}\n\n"
                else:
                    text += f".. autodata:: {module}.{name}\n   :no-index-entry:\n\n"
        emit(out / f"{module}.rst", text)
    index = _title("API reference") + (
        "\nEvery public name of the package, generated from its docstrings.  The modules are grouped by "
        "the package's layers, each importing only the layers above it in this list's order "
        "(foundations first in the code, last here); the two zoos sit beside the game.  A name that a "
        "package re-exports (``mistakebound.littlestone_dimension``) links to the one page of the "
        "module that defines it.\n\n")
    for i, (title, _, about) in enumerate(LAYERS):
        index += _title(title, "-") + f"\n{about}\n\n.. toctree::\n   :maxdepth: 1\n\n"
        index += "".join(f"   {m}\n" for m in by_layer.get(i, []))
        index += "\n"
    emit(out / "index.rst", index)
    for stale in set(out.rglob("*.rst")) - written:
        stale.unlink()
    return len(written)


#: Every other dotted name of a documented function or class (``mistakebound.play``), and the
#: short names that are unique (``LdimSearch``): the one documented name each stands for.
ALIASES: dict[str, str] = {}


def aliases() -> dict[str, str]:
    """The names a docstring may use for a documented object, mapped to its documented name."""
    pages = canonical_pages()
    found: dict[str, str] = {}
    shorts: dict[str, set[str]] = {}
    for module, name, obj in public_names():
        if id(obj) in pages:
            found[f"{module}.{name}"] = pages[id(obj)]
            shorts.setdefault(name, set()).add(pages[id(obj)])
    for short, targets in shorts.items():
        if len(targets) == 1:
            found.setdefault(short, next(iter(targets)))
    return {alias: page for alias, page in found.items() if alias != page}


def _on_builder_inited(app) -> None:
    write_api(Path(app.srcdir) / "api")
    ALIASES.update(aliases())


def _on_missing_reference(app, env, node, contnode):
    """Resolve a reference to a re-exported or short name to the page that documents it."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    context = node.get("py:module")
    for name in ([f"{context}.{target}"] if context else []) + [target]:
        page = ALIASES.get(name)
        if page is None and "." in name:  # a method or attribute of a re-exported class
            owner, _, member = name.rpartition(".")
            page = ALIASES.get(owner) and f"{ALIASES[owner]}.{member}"
        if page:
            domain = env.get_domain("py")
            return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], page, node, contnode)
    return None


def setup(app):
    app.connect("builder-inited", _on_builder_inited)
    app.connect("missing-reference", _on_missing_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
