"""The sweep configuration: a TOML file of grids, read with :mod:`tomllib` and validated.

A configuration is a list of grids, each a ``[[grid]]`` table of a TOML file.  A
``"game"`` grid plays every learner against every adversary on every class, size,
seed and horizon; a ``"search"`` grid runs an exact search (``"ldim"`` or ``"vc"`` of each
class, or ``"worst_case"`` of each learner on each class) within a node budget::

    [[grid]]
    kind = "game"
    learners = ["Halving", "SOA"]
    adversaries = ["OppositeLabel", "BinarySearchThreshold"]
    classes = ["thresholds", "singletons"]   # "NAME" takes each size: thresholds:8
    sizes = [4, 8, 16]
    seeds = [0, 1]
    horizons = [50]
    realizable = true                        # default true
    rules = [{}, {feedback = "bandit"}, {noise = 1}]   # default [{}]: the textbook's game

    [[grid]]
    kind = "search"
    search = "worst_case"                    # or "ldim", "vc" (no learners then)
    learners = ["Halving"]
    classes = ["thresholds", "k_sparse:{n},2"] # "{n}" is replaced by each size
    sizes = [3, 4]
    max_nodes = 20000                        # default 200000

``rules`` lists the settings each game is played in (the ``setting`` column of the
results): a table of ``feedback`` (``"full"`` or ``"bandit"``) and ``noise`` (the best
hypothesis's mistakes the adversary may give), the labels being the class's
(:class:`~mistakebound.game.rules.Rules`); ``{}`` is the textbook's game.

A class entry is a zoo family name (the size is its one argument), a spec with
``{n}`` where the size goes, or a fixed spec such as ``"random:12,6,0.5,3"`` (its
cells have no size).  A learner or adversary is a registered name (case, ``-`` and
``_`` ignored, see :mod:`mistakebound.game.registry`) or an import path
``"package.module:Class"`` naming a learner or adversary class whose constructor takes
nothing, the class ``H``, or ``H`` and the horizon ``T``.  Every error names the key,
the value and what was expected; unknown names come with the closest known ones.

Trust: validating a configuration imports nothing it names and runs none of its code.
An import path is checked as text only (a dotted module path outside the standard
library and a class name); the module is imported when the sweep runs a cell that
plays it, so a sweep configuration, like a Python script, runs the code it names.  For
a configuration from someone else, ``allow_imports=False`` (``mistakebound sweep
CONFIG --no-import``) refuses every import path: only the registered names remain, the
zoo's and those of installed plugins (entry points of packages you installed, which a
configuration cannot add).  The TOML itself is data: a file nested too deeply for the
parser is refused as bad input.

Checked at validation, before anything runs: every registered player's parameters, by
name and, where the player declares how (its attrs validators), by value
(:func:`~mistakebound.game.registry.check_parameters`: ``Halving(foo=1)`` and
``ObliviousCoin(labels=bogus)`` are refused, exit 2); an import path's parameters are
checked where a cell imports it, since validating imports nothing.  Each class at each
size is checked without being built (its arguments, and its size against the memory
available: :func:`~mistakebound.game.hypothesis_class.sizes_only`), so that sizes up to
20,000 cost no memory.  The number of cells is counted from the lists alone, before any
of them is checked, and a configuration of more than ``max_cells`` cells
(:data:`MAX_CELLS` by default; ``--max-cells`` on the command line) is refused, naming
its count and how to raise the limit.

Examples
--------
>>> config = SweepConfig.from_toml('''
... [[grid]]
... kind = "game"
... learners = ["halving"]
... adversaries = ["opposite-label"]
... classes = ["thresholds"]
... sizes = [4, 8]
... seeds = [0, 1, 2]
... horizons = [20]
... ''')
>>> config.grids[0].learners, len(config.cells())
(('Halving',), 6)
>>> SweepConfig.from_dict({"grid": [{"learners": ["halvng"], "adversaries": ["OppositeLabel"],
...                                  "classes": ["thresholds"], "sizes": [4]}]})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: grid[0].learners[0]: unknown name 'halvng'; did you mean 'Halving'? ...
"""

from __future__ import annotations

import contextlib

import difflib
import os
import tomllib
from pathlib import Path
from typing import Any

from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.foundations.text import one_line
from mistakebound.foundations.validation import brief, check_choice, check_int

__all__ = ["Grid", "SweepConfig", "load_config", "resolve_player", "setting_text", "KINDS", "SEARCHES", "MAX_CELLS",
           "check_cell_count"]

#: The kinds of grid.
KINDS = ("game", "search")
#: The searches a ``"search"`` grid can run.
SEARCHES = ("ldim", "vc", "worst_case")

_GAME_KEYS = {"kind", "learners", "adversaries", "classes", "sizes", "seeds", "horizons", "realizable", "rules"}
#: The keys of a table of ``rules``, in the order a cell's ``setting`` names them.
_RULE_KEYS = ("feedback", "noise")
_SEARCH_KEYS = {"kind", "search", "learners", "classes", "sizes", "horizons", "max_nodes"}
_TOP_KEYS = {"grid"}
#: The most cells a configuration may have by default (``max_cells``, ``--max-cells``): 200,000 cells take
#: about 6 s to expand and 60 MB to hold before any of them runs (a million, 30 s and 300 MB).
MAX_CELLS = 200_000


def _fail(key: str, value: Any, expected: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{key}: expected {expected}, got {brief(value)}")


def _unknown_key(where: str, key: str, known: set[str]) -> InvalidArgumentError:
    close = difflib.get_close_matches(key, sorted(known), n=2)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    return InvalidArgumentError(f"{where}{key}: unknown key; {hint}known keys: {', '.join(sorted(known))}")


# ------------------------------------------------------------------------ players
def resolve_player(name: Any, kind: str, key: str, *, allow_imports: bool = True) -> str:
    """The canonical name of a learner or adversary named in a config; imports nothing.

    A registered name is looked up in the one registry
    (:func:`mistakebound.game.registry.resolve`) and in any spelling becomes its
    canonical one (parameters kept, ``ObliviousCoin(labels=coin)``).  An import path
    ``"module:Class"`` is checked as text only
    (``registry.resolve(..., imports="check")``: no module is imported, no code
    runs) and stays as it is; the sweep imports it when it runs a cell, and
    records a failure to import it, or a module attribute that is not a learner or
    adversary class, as that cell's error.

    Parameters
    ----------
    name : str
    kind : {"learner", "adversary"}
    key : str
        The config key, for messages (``"grid[0].learners[1]"``).
    allow_imports : bool
        False refuses every import path (a configuration from someone else): only the
        registered names, the zoo's and installed plugins', remain.

    Raises
    ------
    InvalidArgumentError
        For an unknown name (with close matches), bad parameters, or an import path
        that is not one (``..:x``), names the standard library, or is not allowed.

    Examples
    --------
    >>> resolve_player("soa", "learner", "learners[0]")
    'SOA'
    >>> resolve_player("mistakebound.learners.halving:Halving", "learner", "learners[0]")
    'mistakebound.learners.halving:Halving'
    >>> resolve_player("my_players:Lazy", "learner", "learners[0]", allow_imports=False)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: learners[0]: 'my_players:Lazy' is an import path, and imports are not allowed (--no-import); expected a registered learner name such as 'Halving'
    """
    from mistakebound.game import registry

    if not isinstance(name, str) or not name.strip():
        example = "Halving" if kind == "learner" else "OppositeLabel"
        raise _fail(key, name, f"a {kind} name such as {example!r} or an import path 'module:Class'")
    text = name.strip()
    try:  # names and parameters checked here, so that a typo fails the config, not every cell
        entry, _ = registry.resolve(kind, text, imports="check" if allow_imports else "refuse")
    except InvalidArgumentError as exc:
        message = one_line(exc)
        for prefix in (f"{kind}: ", "spec "):
            message = message.removeprefix(prefix)
        raise InvalidArgumentError(f"{key}: {message}") from None
    return entry.name + (text[text.index("("):] if "(" in text else "")


# ------------------------------------------------------------------------ the grid's size
def check_cell_count(count: int, max_cells: int, where: str = "config") -> int:
    """``count`` if it is at most ``max_cells``, else the refusal naming both and how to raise the limit.

    Examples
    --------
    >>> check_cell_count(72_000_000, MAX_CELLS)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: config: 72,000,000 cells, more than the limit of 200,000; ...
    """
    if count > max_cells:
        raise InvalidArgumentError(
            f"{where}: {count:,} cells, more than the limit of {max_cells:,}; split the sweep into smaller "
            f"configurations, or raise the limit with --max-cells {count} (max_cells={count} in Python)"
        )
    return count


def _cell_count(entries: tuple, sizes: tuple, *lists: tuple) -> int:
    """The cells of a grid before duplicates are merged: the product of its lists' lengths (classes by their sizes)."""
    from mistakebound.interfaces.sweep.cells import spec_count

    count = sum(spec_count(e, sizes) if isinstance(e, str) else 1 for e in entries)
    for values in lists:
        count *= len(values)
    return count


# ------------------------------------------------------------------------ classes
def _check_class(key: str, entry: Any, sizes: tuple[int, ...]) -> str:
    from mistakebound.game import registry
    from mistakebound.game.hypothesis_class import SizeChecked, sizes_only
    from mistakebound.interfaces.sweep.cells import class_specs

    if not isinstance(entry, str) or not entry.strip():
        raise _fail(key, entry, "a zoo class name such as 'thresholds', a spec with '{n}' such as "
                                "'k_sparse:{n},2', a fixed spec such as 'random:12,6,0.5,3' or 'experts:4', "
                                "or a .npy, .csv or .json class file")
    entry = entry.strip()
    specs = class_specs(entry, sizes)
    if not specs:
        raise _fail(key, entry, "a fixed spec, or a non-empty 'sizes' for a sized class")
    for spec, _ in specs:
        # a zoo spec: arguments and size checked, nothing built (sizes up to 20,000 cost milliseconds);
        # a class file is one class, read whole (under the loader's own memory check): its content is
        # what validation must see, so that a bad file is refused here (exit 2), not in every cell
        checking = contextlib.nullcontext() if registry.is_class_file(spec) else sizes_only()
        with checking:
            try:
                registry.load_setting(spec)
            except SizeChecked:
                pass
            except (MistakeboundError, TypeError, ValueError, OverflowError) as exc:
                message = one_line(exc)
                raise InvalidArgumentError(f"{key}: class {entry!r} as {message}") from None
    return entry


# -------------------------------------------------------------------------- grids
def setting_text(where: str, table: Any) -> str | None:
    """A table of ``rules`` as a cell's ``setting``: ``"feedback=bandit,noise=1"``, None for the textbook's game.

    Examples
    --------
    >>> setting_text("rules[0]", {"noise": 1, "feedback": "bandit"}), setting_text("rules[1]", {"feedback": "full"})
    ('feedback=bandit,noise=1', None)
    >>> setting_text("rules[0]", {"noise": -1})
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: rules[0].noise: expected an integer >= 0, got -1
    """
    from mistakebound.game.rules import FEEDBACKS, Rules

    if not isinstance(table, dict):
        raise _fail(where, table, "a table such as {feedback = \"bandit\", noise = 1}")
    for key in table:
        if key not in _RULE_KEYS:
            raise _unknown_key(where + ".", key, set(_RULE_KEYS))
    textbook = Rules()
    feedback = check_choice(where + ".feedback", table.get("feedback", textbook.feedback), FEEDBACKS)
    noise = check_int(where + ".noise", table.get("noise", textbook.noise), 0)
    parts = [f"feedback={feedback}"] if feedback != textbook.feedback else []
    parts += [f"noise={noise}"] if noise != textbook.noise else []
    return ",".join(parts) or None


def _list(where: str, table: dict, key: str, item: str, *, default: Any = None) -> tuple:
    if key not in table:
        if default is None:
            raise InvalidArgumentError(f"{where}{key}: missing; expected a list of {item}")
        return default
    value = table[key]
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list) or not value:
        raise _fail(where + key, value, f"a non-empty list of {item}")
    return tuple(value)


def _ints(where: str, table: dict, key: str, minimum: int, *, default: tuple | None = None) -> tuple[int, ...]:
    values = _list(where, table, key, f"integers >= {minimum}", default=default)
    return tuple(check_int(f"{where}{key}[{i}]", v, minimum) for i, v in enumerate(values))


@frozen
class Grid:
    """One ``[[grid]]`` table: the lists whose product is the grid's cells.

    Attributes
    ----------
    kind : {"game", "search"}
    learners, adversaries : tuple of str
        Registered names (canonical spelling) or import paths; no adversaries for searches.
    classes : tuple of str
        Class entries (see :func:`class_specs`).
    sizes, seeds : tuple of int
    horizons : tuple of int or None
        Rounds of each game; for ``worst_case`` searches, None means no horizon.
    realizable : bool
    settings : tuple of str or None
        The rules of each game (:func:`setting_text`; None: the textbook's).
    search : str or None
        ``"ldim"``, ``"vc"`` or ``"worst_case"`` for search grids.
    max_nodes : int
        Node budget of each search.
    """

    kind: str
    learners: tuple = ()
    adversaries: tuple = ()
    classes: tuple = ()
    sizes: tuple = ()
    seeds: tuple = (0,)
    horizons: tuple = (None,)
    realizable: bool = True
    settings: tuple = (None,)
    search: str | None = None
    max_nodes: int = 200_000

    @property
    def count(self) -> int:
        """The grid's cells before duplicates are merged (the product of its lists' lengths)."""
        return _cell_count(self.classes, self.sizes, self.learners or (None,), self.adversaries or (None,),
                           self.seeds, self.horizons, self.settings)

    @classmethod
    def from_table(cls, table: Any, index: int = 0, *, allow_imports: bool = True,
                   max_cells: int = MAX_CELLS) -> Grid:
        """Validate one ``[[grid]]`` table (a dict) and build the grid (imports nothing; see :func:`resolve_player`).

        Its cells are counted from its lists before any entry is checked: more than
        ``max_cells`` are refused (:func:`check_cell_count`).

        Raises
        ------
        InvalidArgumentError
            Naming the key (``grid[0].sizes[2]``), the value and what was expected.
        """
        where = f"grid[{index}]."
        if not isinstance(table, dict):
            raise _fail(f"grid[{index}]", table, "a table ([[grid]])")
        kind = table.get("kind", "game")
        if kind not in KINDS:
            raise _fail(where + "kind", kind, f"one of {', '.join(map(repr, KINDS))}")
        known = _GAME_KEYS if kind == "game" else _SEARCH_KEYS
        for key in table:
            if key not in known:
                raise _unknown_key(where, key, known)
        sizes = _ints(where, table, "sizes", 1, default=())
        entries = _list(where, table, "classes", "class entries such as 'thresholds' or 'k_sparse:{n},2'")
        if kind == "game":
            learners = _list(where, table, "learners", "learner names")
            adversaries = _list(where, table, "adversaries", "adversary names")
            rules = table.get("rules", [{}])
            if not isinstance(rules, list) or not rules:
                raise _fail(where + "rules", rules, "a non-empty array of tables such as [{}, {noise = 1}]")
            seeds = _ints(where, table, "seeds", 0, default=(0,))
            horizons = _ints(where, table, "horizons", 1, default=(100,))
            check_cell_count(_cell_count(entries, sizes, learners, adversaries, seeds, horizons, rules), max_cells,
                             f"grid[{index}]")
        else:
            names = table.get("learners", ())
            check_cell_count(_cell_count(entries, sizes, names if isinstance(names, list) and names else (None,),
                                         table["horizons"] if isinstance(table.get("horizons"), list)
                                         and table["horizons"] else (None,)), max_cells, f"grid[{index}]")
        classes_ = tuple(_check_class(f"{where}classes[{i}]", e, sizes) for i, e in enumerate(entries))
        if kind == "game":
            realizable = table.get("realizable", True)
            if not isinstance(realizable, bool):
                raise _fail(where + "realizable", realizable, "true or false")
            settings = tuple(dict.fromkeys(setting_text(f"{where}rules[{i}]", t) for i, t in enumerate(rules)))
            return cls(
                kind="game",
                learners=tuple(resolve_player(n, "learner", f"{where}learners[{i}]", allow_imports=allow_imports)
                               for i, n in enumerate(learners)),
                adversaries=tuple(resolve_player(n, "adversary", f"{where}adversaries[{i}]",
                                                 allow_imports=allow_imports)
                                  for i, n in enumerate(adversaries)),
                classes=classes_, sizes=sizes, seeds=seeds, horizons=horizons,
                realizable=realizable, settings=settings,
            )
        search = check_choice(where + "search", table.get("search"), SEARCHES)
        max_nodes = check_int(where + "max_nodes", table.get("max_nodes", 200_000), 1)
        if search in ("ldim", "vc"):
            for key in ("learners", "horizons"):
                if key in table:
                    raise InvalidArgumentError(f"{where}{key}: an {search!r} search takes no {key}; remove the key")
            learners: tuple = ()
            horizons: tuple = (None,)
        else:
            names = _list(where, table, "learners", "learner names")
            learners = tuple(resolve_player(n, "learner", f"{where}learners[{i}]", allow_imports=allow_imports)
                             for i, n in enumerate(names))
            horizons = _ints(where, table, "horizons", 0, default=(None,)) if "horizons" in table else (None,)
        return cls(kind="search", learners=learners, classes=classes_, sizes=sizes, seeds=(0,),
                   horizons=horizons, search=search, max_nodes=max_nodes)


@frozen
class SweepConfig:
    """A validated sweep: its grids, in the order of the file.

    Build it with :meth:`from_toml`, :meth:`from_dict` or :func:`load_config`.
    """

    grids: tuple = field(converter=tuple)
    source: str = ""

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "", allow_imports: bool = True,
                  max_cells: int = MAX_CELLS) -> SweepConfig:
        """Validate a parsed configuration (``{"grid": [{...}, ...]}``); imports nothing.

        ``allow_imports=False`` refuses every ``module:Class`` player (see :func:`resolve_player`);
        more than ``max_cells`` cells in all are refused (:func:`check_cell_count`).

        Raises
        ------
        InvalidArgumentError
            For a missing or empty ``grid`` list, an unknown key or a bad value.
        """
        if not isinstance(data, dict):
            raise _fail("config", data, "a table with a 'grid' array of tables")
        for key in data:
            if key not in _TOP_KEYS:
                raise _unknown_key("", key, _TOP_KEYS)
        grids = data.get("grid")
        if isinstance(grids, dict):
            grids = [grids]
        if not isinstance(grids, list) or not grids:
            raise _fail("grid", grids, "at least one [[grid]] table")
        max_cells = check_int("max_cells", max_cells, 1)
        built, total = [], 0
        for i, t in enumerate(grids):
            built.append(Grid.from_table(t, i, allow_imports=allow_imports, max_cells=max_cells))
            total = check_cell_count(total + built[-1].count, max_cells)
        return cls(grids=built, source=source)

    @classmethod
    def from_toml(cls, text: str, *, source: str = "", allow_imports: bool = True,
                  max_cells: int = MAX_CELLS) -> SweepConfig:
        """Parse and validate TOML text; imports nothing (see :func:`resolve_player`).

        Raises
        ------
        InvalidArgumentError
            For TOML that does not parse (with tomllib's line and column), TOML nested
            too deeply to parse, or a bad value.

        Examples
        --------
        >>> SweepConfig.from_toml("x = " + "[" * 50_000)
        Traceback (most recent call last):
        ...
        mistakebound.foundations.errors.InvalidArgumentError: config: not valid TOML: arrays or tables nested too deeply to read
        """
        where = f"config{' ' + source if source else ''}"
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidArgumentError(f"{where}: not valid TOML: {' '.join(str(exc).split())}") from None
        except RecursionError:
            raise InvalidArgumentError(f"{where}: not valid TOML: arrays or tables nested too deeply to read") from None
        try:
            return cls.from_dict(data, source=source, allow_imports=allow_imports, max_cells=max_cells)
        except RecursionError:  # pragma: no cover - tomllib refuses such nesting first
            raise InvalidArgumentError(f"{where}: values nested too deeply") from None

    def cells(self) -> list:
        """Every cell of every grid, in order (see :func:`mistakebound.interfaces.sweep.cells.expand`)."""
        from mistakebound.interfaces.sweep.cells import expand

        return expand(self)


def load_config(path: str | os.PathLike, *, allow_imports: bool = True, max_cells: int = MAX_CELLS) -> SweepConfig:
    """Read and validate a sweep configuration file; imports nothing it names.

    ``allow_imports=False`` (``mistakebound sweep CONFIG --no-import``) refuses every
    ``module:Class`` player, for a configuration from someone else (see :func:`resolve_player`);
    more than ``max_cells`` cells (``--max-cells``) are refused (:func:`check_cell_count`).

    Raises
    ------
    InvalidArgumentError
        For a missing or unreadable file, TOML that does not parse, or a bad value.
    """
    p = Path(path)
    if not p.is_file():
        raise InvalidArgumentError(f"CONFIG: file {str(path)!r} does not exist; expected a sweep .toml file")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidArgumentError(f"CONFIG: cannot read {str(path)!r}: {exc}") from None
    return SweepConfig.from_toml(text, source=str(path), allow_imports=allow_imports, max_cells=max_cells)
