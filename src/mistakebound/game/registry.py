"""Players, classes and spaces by name: the one registry every front end uses.

Four kinds of things are named by users, on the command line, in sweep configurations
and in the check command: learners, adversaries, hypothesis classes of the zoo and
spaces.  This module is the only place that turns a name into one of them:

* :func:`entries` lists them: the learners and adversaries exported by
  :mod:`mistakebound.learners` and :mod:`mistakebound.adversaries` (their ``__all__``;
  the summary is the first line of each docstring), the third-party players registered
  under the entry-point group ``mistakebound.players``, the classes of
  :data:`mistakebound.game.classes.ZOO` and the spaces of
  :data:`mistakebound.game.spaces.SPACES` (with ``oco``, the setting of online convex
  optimisation);
* :func:`find` looks one up by name, ignoring case, ``-``, ``_`` and spaces; a player
  may also be an import path ``module:Class`` naming a learner or adversary class (the
  current directory is importable; :func:`check_import_path` checks such a name without
  importing anything), and may carry parameters, ``ObliviousCoin(labels=coin)``;
* :func:`build` makes a fresh player for a setting and a horizon (the player's
  ``for_setting`` classmethod when it has one, else its constructor, given the class as
  an argument named ``H`` and the horizon as one named ``T``), refusing with
  :class:`~mistakebound.foundations.errors.NotApplicableError` where it cannot play;
* :func:`load_setting` reads a setting: a zoo spec (``thresholds:64``), a space spec
  (``halfspaces:d=16,R=1,gamma=0.25``, ``k_disjunctions:1000,3``, ``experts:4``,
  ``oco:d=1,radius=1``) or a class file (``.npy``, ``.csv``, ``.json``);
* :func:`spec_of` is the reverse: the text that names a player, so that every line the
  framework prints for replaying a game can be typed back.

The core of the framework never imports the zoos: it reaches them through this module,
by name.

Examples
--------
>>> from mistakebound.game.play import play
>>> H = load_setting("Thresholds:15")
>>> learner = build("learner", "halving", H)
>>> adversary = build("adversary", "binary-search-threshold", H)
>>> play(learner, adversary, H, rounds=20, seed=0).mistakes
4
>>> find("learner", "halvng")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: learner: unknown name 'halvng'; did you mean 'Halving'? known learners: ...
>>> build("learner", "WeightedMajority", load_setting("experts:4"), rounds=200)
WeightedMajority(d=4, T=200)
>>> spec_of(build("adversary", "ObliviousCoin(labels=coin)", H))
'ObliviousCoin(labels=coin)'
"""

from __future__ import annotations

import functools
import importlib
import inspect
import keyword
import os
import re
import sys
from pathlib import Path
from typing import Any

import attrs
from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError, NotApplicableError, PlayerImportError
from mistakebound.foundations.text import one_line
from mistakebound.foundations.validation import brief, check_choice
from mistakebound.game.class_files import SUFFIXES, load_class
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner, _attrs_init, rebuild
from mistakebound.game.specs import closest_hint, normal_name, parse_spec, spec_flags

__all__ = [
    "KINDS",
    "ENTRY_POINT_GROUP",
    "CLASS_FILE_SUFFIXES",
    "is_class_file",
    "Entry",
    "entries",
    "names",
    "find",
    "resolve",
    "build",
    "load_setting",
    "spec_of",
    "missing_horizon",
    "describe_setting",
    "player_kind",
    "usage",
    "IMPORTS",
    "check_import_path",
    "check_parameters",
]

#: What the registry names.
KINDS = ("learner", "adversary", "class", "space")
#: The entry-point group under which other packages register their learners and adversaries.
ENTRY_POINT_GROUP = "mistakebound.players"
#: The suffixes of the class files :func:`load_setting` reads (those of :mod:`mistakebound.game.class_files`).
CLASS_FILE_SUFFIXES = SUFFIXES

_ZOO_PACKAGES = {"learner": "mistakebound.learners", "adversary": "mistakebound.adversaries"}


@frozen
class Entry:
    """One named thing: its kind, its name, what it is, and a line of help.

    Attributes
    ----------
    kind : {"learner", "adversary", "class", "space"}
    name : str
        The name users type (any case, ``-`` and ``_`` ignored).
    target : object
        The player's type, the class family's function, or the space's type.
    summary : str
        One line for ``--help``.
    origin : str
        ``"built-in"``, ``"plugin"`` (an entry point) or ``"import"`` (``module:Class``).
    """

    kind: str
    name: str
    target: Any = field(eq=False, repr=False)
    summary: str = ""
    origin: str = "built-in"

    def usage(self) -> str:
        """``name:ARGS`` for a class or space (optional ones in brackets), the name for a player."""
        if self.kind in ("learner", "adversary"):
            return self.name
        try:
            params = [p for p in inspect.signature(self.target).parameters.values() if p.name != "self"]
        except (TypeError, ValueError):  # pragma: no cover - every family has a signature
            return self.name
        required = [p.name for p in params if p.default is inspect.Parameter.empty]
        optional = [f"[,{p.name}]" for p in params if p.default is not inspect.Parameter.empty]
        return f"{self.name}:{','.join(required)}{''.join(optional)}"


def player_kind(obj: Any) -> str | None:
    """``"learner"``, ``"adversary"`` or None: what kind of player a type (or object) is.

    A learner has ``learn_one`` and a prediction method of its own (``predict_one`` or
    ``predict_proba_one``), or, in online convex optimisation, ``predict_point`` and
    ``learn_loss``; an adversary has ``next_instance`` and ``label``, ``commit``, or
    ``next_loss``.  Base classes that do not predict are neither.

    Examples
    --------
    >>> from mistakebound.learners import Halving, VersionSpaceLearner
    >>> from mistakebound.adversaries import OppositeLabel
    >>> player_kind(Halving), player_kind(OppositeLabel), player_kind(VersionSpaceLearner)
    ('learner', 'adversary', None)
    """
    has = lambda name: callable(getattr(obj, name, None))  # noqa: E731
    own_prediction = has("predict_proba_one") or (has("predict_one") and getattr(obj, "predict_one", None)
                                                 is not Learner.predict_one and
                                                 getattr(type(obj), "predict_one", None) is not Learner.predict_one)
    if (has("learn_one") and own_prediction) or (has("predict_point") and has("learn_loss")):
        return "learner"
    if (has("next_instance") and has("label")) or has("commit") or has("next_loss"):
        return "adversary"
    return None


def _plain(text: str) -> str:
    """reStructuredText roles and literals as plain text: ``:class:`~a.B``` -> ``B``, ````x```` -> ``x``."""
    text = re.sub(r":[a-z]+:`~?([^`]*)`", lambda m: m.group(1).rsplit(".", 1)[-1] if "~" in m.group(0) else m.group(1), text)
    return text.replace("``", "")


def _summary(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    return _plain(doc.strip().splitlines()[0]) if doc.strip() else ""


@functools.lru_cache(maxsize=None)
def _zoo_entries(kind: str) -> tuple[Entry, ...]:
    module = importlib.import_module(_ZOO_PACKAGES[kind])
    out = []
    for name in module.__all__:
        obj = getattr(module, name)
        if isinstance(obj, type) and player_kind(obj) == kind:
            out.append(Entry(kind, name, obj, _summary(obj)))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _plugin_entries() -> tuple[Entry, ...]:
    import importlib.metadata  # 50 ms: only a command that names a player pays for it

    out = []
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken plugin breaks only its own entry
            out.append(Entry("broken", ep.name, exc, f"cannot be loaded: {type(exc).__name__}: {exc}", "plugin"))
            continue
        kind = player_kind(obj)
        out.append(Entry(kind or "broken", ep.name, obj,
                         _summary(obj) if kind else "neither a learner nor an adversary", "plugin"))
    return tuple(out)


def _class_entries() -> tuple[Entry, ...]:
    from mistakebound.game.classes import ZOO

    return tuple(Entry("class", name, f, _summary(f)) for name, f in ZOO.items())


@functools.lru_cache(maxsize=None)
def _space_entries() -> tuple[Entry, ...]:
    from mistakebound.game.oco import OCOSetting
    from mistakebound.game.spaces import SPACES

    table = {**SPACES, "oco": OCOSetting}
    return tuple(Entry("space", name, t, _summary(t)) for name, t in table.items())


def entries(kind: str) -> tuple[Entry, ...]:
    """Everything of one kind the registry knows: built-in first, then plugins.

    Examples
    --------
    >>> [e.name for e in entries("space")]
    ['halfspaces', 'k_disjunctions', 'experts', 'oco']
    >>> "Halving" in names("learner") and "OppositeLabel" in names("adversary")
    True
    """
    check_choice("kind", kind, KINDS)
    if kind == "class":
        return _class_entries()
    if kind == "space":
        return _space_entries()
    return _zoo_entries(kind) + tuple(e for e in _plugin_entries() if e.kind == kind)


def names(kind: str) -> list[str]:
    """The names of :func:`entries`."""
    return [e.name for e in entries(kind)]


#: Top-level modules no import path may name: the standard library holds no player, and
#: some of its modules act when imported (``this`` prints, ``antigravity`` opens a browser).
_REFUSED_MODULES = frozenset(sys.stdlib_module_names) | {"__main__", "__mp_main__"}

#: What :func:`find` and :func:`resolve` do with an import path ``module:Class``:
#: ``"import"`` it (running the module, as a script would), ``"check"`` its text only
#: (nothing imported, nothing run: validating a configuration), or ``"refuse"`` it (a
#: configuration from someone else: only the registered names, the zoo's and installed
#: plugins', remain).
IMPORTS = ("import", "check", "refuse")


def _dotted(text: str) -> bool:
    return bool(text) and all(part.isidentifier() and not keyword.iskeyword(part) for part in text.split("."))


def check_import_path(path: Any, kind: str) -> str:
    """Check the text of an import path ``package.module:Class`` without importing anything; return it.

    The module is a dotted path of Python identifiers (no relative import such as
    ``..:x``) outside the standard library, and the class an identifier (or a dotted
    path inside the module).  What the path names is checked only when it is imported
    (:func:`find`): it must be a learner or adversary class.

    Raises
    ------
    InvalidArgumentError
        With a one-line message naming the path and what was expected.

    Examples
    --------
    >>> check_import_path("my_players:Lazy", "learner")
    'my_players:Lazy'
    >>> check_import_path("os:abort", "learner")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: learner: 'os:abort' names the standard library module 'os', which holds no learner; expected 'package.module:Class' of your own module or of an installed package
    """
    if not isinstance(path, str):
        raise InvalidArgumentError(f"{kind}: expected an import path 'package.module:Class', got {type(path).__name__}")
    text = path.strip()
    module, colon, attribute = text.partition(":")
    if not colon or not _dotted(module.strip()) or not _dotted(attribute.strip()):
        raise InvalidArgumentError(
            f"{kind}: {brief(path, 80)} is not an import path; expected 'package.module:Class' "
            "(dotted Python names, no relative import)"
        )
    top = module.strip().split(".")[0]
    if top in _REFUSED_MODULES:
        raise InvalidArgumentError(
            f"{kind}: {brief(path, 80)} names the standard library module {top!r}, which holds no {kind}; "
            "expected 'package.module:Class' of your own module or of an installed package"
        )
    return f"{module.strip()}:{attribute.strip()}"


def _import_path(path: str, kind: str, imports: str = "import") -> Entry:
    """Import ``module:Class`` (after :func:`check_import_path`) and check that it names a ``kind`` class.

    Nothing found is ever called here: a function, an instance or any other object is
    refused, whatever it would do.  With ``imports="check"`` nothing is imported: the
    entry's ``target`` is None; with ``imports="refuse"`` the path is refused.
    """
    if imports == "refuse":
        example = "Halving" if kind == "learner" else "OppositeLabel"
        raise InvalidArgumentError(
            f"{kind}: {brief(path.strip(), 80)} is an import path, and imports are not allowed (--no-import); "
            f"expected a registered {kind} name such as {example!r}"
        )
    path = check_import_path(path, kind)
    if imports == "check":
        return Entry(kind, path, None, "", "import")
    module, _, attribute = path.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` would: the user's own modules are importable
    importlib.invalidate_caches()  # a module written since the last import is found too
    try:
        obj = importlib.import_module(module)
        for part in attribute.split("."):
            obj = getattr(obj, part)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the module's own code failed: one line, no exit
        raise PlayerImportError(
            f"{kind}: cannot import {path!r} ({type(exc).__name__}: {_first_line(exc)}); expected an import path "
            "'package.module:Class' of a module on the Python path or in the current directory"
        ) from None
    # what was imported is not a player: a fault of the name, which a resume would meet again (not an import error)
    if not isinstance(obj, type):
        raise InvalidArgumentError(
            f"{kind}: {path!r} is {_a(type(obj).__name__)} object, not {_a(kind)} class; expected 'module:Class' "
            f"naming a class with the {kind} methods"
        )
    found = player_kind(obj)
    if found != kind:
        raise InvalidArgumentError(
            f"{kind}: {path!r} is {_a(found) if found else 'neither a learner nor an adversary'}, not {_a(kind)}"
        )
    return Entry(kind, path, obj, _summary(obj), "import")


def find(kind: str, name: Any, *, imports: str = "import") -> Entry:
    """The entry of ``kind`` named ``name`` (any case, ``-``, ``_`` ignored; players also ``module:Class``).

    Parameters after the name (``Name(k=v)``) are ignored here; :func:`build` uses them.
    ``imports`` says what an import path does (:data:`IMPORTS`): ``"import"`` (the
    default) imports its module, ``"check"`` checks its text only and gives an entry
    whose ``target`` is None, ``"refuse"`` refuses it.

    Raises
    ------
    InvalidArgumentError
        For an unknown name (with the closest known names), an import path that cannot
        be imported, that names the wrong kind of thing, or that ``imports`` refuses.

    Examples
    --------
    >>> find("learner", "my_players:Lazy(eta=1)", imports="check")  # nothing imported
    Entry(kind='learner', name='my_players:Lazy', summary='', origin='import')
    >>> find("learner", "this:s", imports="check")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: learner: 'this:s' names the standard library module 'this', which holds no learner; expected 'package.module:Class' of your own module or of an installed package
    """
    check_choice("kind", kind, KINDS)
    check_choice("imports", imports, IMPORTS)
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgumentError(f"{kind}: expected a name such as {names(kind)[0]!r}, got {name!r}")
    base = name.strip()
    if ("(" in base) != base.endswith(")") or base.count("(") != base.count(")"):
        raise InvalidArgumentError(
            f"{kind}: {name!r} has unbalanced parentheses; expected NAME or NAME(key=value, ...)"
        )
    if "(" in base:
        base = base[: base.index("(")].strip()
    if kind in ("learner", "adversary") and ":" in base:
        return _import_path(base, kind, imports)
    if kind in ("class", "space"):
        base = base.partition(":")[0].strip()
    known = entries(kind)
    for e in known:
        if normal_name(e.name) == normal_name(base):
            if e.origin == "plugin" and e.kind == "broken":  # pragma: no cover - listed, never found
                raise InvalidArgumentError(f"{kind}: {e.name}: {e.summary}")
            return e
    if kind in ("learner", "adversary"):  # a player of the other kind, or a broken plugin, by that name?
        other = "adversary" if kind == "learner" else "learner"
        for e in (*entries(other), *_plugin_entries()):
            if normal_name(e.name) == normal_name(base):
                what = _a(e.kind) if e.kind != "broken" else e.summary
                raise InvalidArgumentError(f"{kind}: {e.name!r} is {what}, not {_a(kind)}")
    listed = [e.name for e in known]
    plural = {"class": "classes", "adversary": "adversaries"}.get(kind, kind + "s")
    raise InvalidArgumentError(
        f"{kind}: unknown name {base!r}; {closest_hint(base, listed)}known {plural}: {', '.join(listed)}"
    )


def resolve(kind: str, spec: Any, *, imports: str = "import") -> tuple[Entry, dict]:
    """The entry a player's text names and the parameters it gives: ``Name(key=value, ...)``.

    The one parser of a player's name; ``imports`` is :func:`find`'s (``"check"``
    validates a ``module:Class`` name without importing anything).

    Raises
    ------
    InvalidArgumentError
        For an unknown name, unbalanced parentheses, parameters not given by name, or a
        parameter given twice.

    Examples
    --------
    >>> entry, params = resolve("adversary", "oblivious-coin(labels=coin)")
    >>> entry.name, params
    ('ObliviousCoin', {'labels': 'coin'})
    >>> resolve("adversary", "OppositeLabel(3)")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: adversary: parameters of OppositeLabel are given by name, OppositeLabel(key=value, ...); got 'OppositeLabel(3)'
    """
    entry = find(kind, spec, imports=imports)
    if "(" not in spec:
        return entry, {}
    _, args, params = parse_spec(spec.strip(), parameter=kind)
    if args:
        raise InvalidArgumentError(
            f"{kind}: parameters of {entry.name} are given by name, {entry.name}(key=value, ...); got {brief(spec)}"
        )
    try:
        params = spec_flags(entry.target, (), params)[1]  # booleans written as everywhere
    except InvalidArgumentError as exc:
        raise InvalidArgumentError(f"{kind}: {entry.name}: {exc}") from None
    return entry, check_parameters(entry, params)


#: The arguments of a ``for_setting`` that :func:`build` fills itself: no parameter of a name gives them.
_BUILD_ARGUMENTS = ("setting", "rounds", "rules")


def _parameter_fields(target: Any) -> tuple[dict[str, Any], bool]:
    """The parameters a name may give ``target`` (name -> its attrs field, or None) and whether it takes any (``**``)."""
    taken: dict[str, Any] = {}
    maker = getattr(target, "for_setting", None)
    if callable(maker):
        try:
            for p in inspect.signature(maker).parameters.values():
                if p.kind is p.VAR_KEYWORD:
                    return taken, True
                if p.name not in _BUILD_ARGUMENTS and p.kind is not p.VAR_POSITIONAL:
                    taken[p.name] = None
        except (TypeError, ValueError):
            return taken, True
    if attrs.has(target) and _attrs_init(target):
        for a in attrs.fields(target):
            if a.init:
                taken.setdefault(a.alias, a)
        return taken, False
    try:
        params = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return taken, True
    for p in params:
        if p.kind is p.VAR_KEYWORD:
            return taken, True
        if p.kind is not p.VAR_POSITIONAL:
            taken.setdefault(p.name, None)
    return taken, False


def check_parameters(entry: Entry, params: dict) -> dict:
    """``params`` if ``entry``'s player takes each of them and its declared validators accept the values; imports nothing.

    A player takes the arguments of its ``for_setting`` (but ``setting``, ``rounds``
    and ``rules``, which :func:`build` gives) and of its constructor; one that takes
    ``**kwargs`` takes any name.  A value is checked where the player declares how: the
    converter and validator of its attrs field (``ObliviousCoin``'s ``labels``, one of
    ``None``, ``"target"``, ``"coin"``); a validator that needs the rest of the object is
    left to :func:`build`.  An entry whose target is not imported (an import path checked
    as text, ``imports="check"``) is not checked: its parameters are checked when it is
    imported and built.  :func:`resolve` calls this, so that a typo in a parameter is
    refused where the name is read (a sweep's configuration), not when a game is built.

    Raises
    ------
    InvalidArgumentError
        For a parameter the player does not take (with the closest ones it does) or a
        value its field refuses.

    Examples
    --------
    >>> check_parameters(find("adversary", "ObliviousCoin"), {"labels": "coin"})
    {'labels': 'coin'}
    >>> check_parameters(find("learner", "Halving"), {"foo": 1})
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: learner: Halving takes no parameter 'foo'; it takes none (its class H is given by the game)
    >>> check_parameters(find("adversary", "ObliviousCoin"), {"labels": "bogus"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: adversary: ObliviousCoin(labels=bogus): 'labels' must be in (None, 'target', 'coin') ...
    """
    target = entry.target
    if target is None or not params:
        return params
    taken, anything = _parameter_fields(target)
    given = {k: v for k, v in taken.items() if k not in ("H", "T")}
    for name, value in params.items():
        if name not in taken and not anything:
            if given:
                expected = f"{closest_hint(name, given)}it takes {', '.join(sorted(given))}"
            else:
                expected = "it takes none (its class H is given by the game)"
            raise InvalidArgumentError(f"{entry.kind}: {entry.name} takes no parameter {name!r}; {expected}")
        field_ = taken.get(name)
        if field_ is None:
            continue
        try:
            converter = field_.converter
            if converter is not None and callable(converter):
                value = converter(value)
            if field_.validator is not None:
                field_.validator(None, field_, value)
        except (TypeError, ValueError) as exc:  # InvalidArgumentError included
            raise InvalidArgumentError(
                f"{entry.kind}: {entry.name}({name}={value}): {_first_line(exc)}"
            ) from None
        except Exception:  # noqa: BLE001 - a validator that reads the object: build() checks it
            continue
    return params


def _takes(target: Any) -> list[inspect.Parameter]:
    try:
        return [p for p in inspect.signature(target).parameters.values()
                if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    except (TypeError, ValueError):
        return []


def _default_build(entry: Entry, setting: Any, rounds: int | None, params: dict) -> Any:
    """Build with the constructor: the class as ``H``, the horizon as ``T``, ``params`` as given."""
    target, label = entry.target, entry.name
    kwargs: dict = {}
    for p in _takes(target):
        if p.name in params:
            continue
        if p.name == "H":
            if not isinstance(setting, HypothesisClass):
                raise NotApplicableError(
                    f"{label} plays on finite classes (its constructor takes the class H); "
                    f"{describe_setting(setting)} is not one"
                )
            kwargs["H"] = setting
        elif p.name == "T":
            if rounds is None:
                raise missing_horizon(label, rounds)
            kwargs["T"] = rounds
        elif p.default is p.empty:
            raise NotApplicableError(
                f"{label} cannot be built for {describe_setting(setting)}: its constructor needs {p.name!r} "
                f"(pass it as {label}({p.name}=...), or give {label} a for_setting classmethod)"
            )
    try:
        return target(**kwargs, **params)
    except MistakeboundError:
        raise
    except (TypeError, ValueError) as exc:  # e.g. an attrs validator refusing a parameter given by name
        raise InvalidArgumentError(f"{label}: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
    return one_line(text)


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def missing_horizon(name: str, rounds: Any = None) -> InvalidArgumentError:
    """The refusal for a player tuned for a horizon ``T`` built without ``rounds`` (raised by :func:`build`
    and by players' ``for_setting``).

    Examples
    --------
    >>> str(missing_horizon("WeightedMajority"))
    'rounds: WeightedMajority is tuned for a horizon T; give the number of rounds (an integer >= 1), got None'
    """
    return InvalidArgumentError(
        f"rounds: {name} is tuned for a horizon T; give the number of rounds (an integer >= 1), got {rounds!r}"
    )


def describe_setting(setting: Any) -> str:
    """A setting's own short text (``thresholds(7)``, ``experts(d=4)``), else its repr: for messages.

    Examples
    --------
    >>> describe_setting(load_setting("experts:4")), describe_setting(42)
    ('experts(d=4)', '42')
    """
    describe = getattr(setting, "describe", None)
    if callable(describe) and not isinstance(setting, type):
        return str(describe())
    return repr(setting)


def build(kind: str, player: Any, setting: Any, *, rounds: int | None = None, rules: Any = None) -> Any:
    """A fresh player of ``kind`` for a game on ``setting`` with horizon ``rounds`` (and ``rules``).

    Parameters
    ----------
    kind : {"learner", "adversary"}
    player : str, Entry or type
        A name (``"halving"``, ``"ObliviousCoin(labels=coin)"``, ``"mymodule:MyLearner"``),
        an :class:`Entry`, or a player type.
    setting : HypothesisClass or Space or OCOSetting
    rounds : int, optional
        The horizon, for players tuned for it.
    rules : Rules, optional
        The game's rules, passed to a ``for_setting`` that takes ``rules`` (a player built
        for them, such as :class:`~mistakebound.learners.GameSOA`); parameters given in the
        name come first.

    Returns
    -------
    object
        The player.  The player's ``for_setting(setting, rounds=...)`` classmethod builds
        it when it has one (with the parameters given in the name that it takes, such as
        ``MinimaxAdversary(learner=halving)``); otherwise its constructor gets the class
        as ``H`` and the horizon as ``T``.  The other parameters given in the name are
        then set (attrs players are evolved, others constructed with them).

    Raises
    ------
    NotApplicableError
        Where the player cannot play (a learner of finite classes on a space, an
        adversary whose ``applies_to`` refuses the setting).
    InvalidArgumentError
        For an unknown name, bad parameters, or a horizon that is needed and missing.
    """
    if kind not in ("learner", "adversary"):
        raise InvalidArgumentError(f"kind: expected 'learner' or 'adversary', got {kind!r}")
    params: dict = {}
    if isinstance(player, Entry):
        entry = player
    elif isinstance(player, type):
        entry = Entry(kind, player.__name__, player, _summary(player), "import")
    else:
        entry, params = resolve(kind, player)
    target = entry.target
    maker = getattr(target, "for_setting", None)
    if callable(maker):
        taken = {p.name for p in _takes(maker)}
        own = {k: params.pop(k) for k in list(params) if k in taken and k not in ("setting", "rounds", "rules")}
        if rules is not None and "rules" in taken:  # a player built for the game's rules takes them
            own["rules"] = rules
        try:
            built = maker(setting, rounds=rounds, **own)
        except MistakeboundError:
            raise
        except (TypeError, ValueError) as exc:
            raise InvalidArgumentError(
                f"{kind}: {entry.name}.for_setting cannot build it for {describe_setting(setting)}: {_first_line(exc)}"
            ) from None
        if params:
            try:
                built = rebuild(built, **params)
            except MistakeboundError:
                raise
            except (TypeError, ValueError) as exc:
                raise InvalidArgumentError(f"{kind}: {entry.name}: {_first_line(exc)}") from None
    else:
        built = _default_build(entry, setting, rounds, params)
    if kind == "adversary":
        applies = getattr(built, "applies_to", None)
        if callable(applies) and not applies(setting):
            summary = f" ({entry.summary})" if entry.summary else ""
            raise NotApplicableError(f"{entry.name} does not apply to {describe_setting(setting)}{summary}")
    return built


def is_class_file(spec: str) -> bool:
    """Whether the text ``spec`` names a class file (by its suffix, or a path that exists) rather than a zoo spec.

    Examples
    --------
    >>> is_class_file("classes/mine.csv"), is_class_file("thresholds:7")
    (True, False)
    """
    if spec.lower().endswith(CLASS_FILE_SUFFIXES):
        return True
    try:
        return os.sep in spec and Path(spec).exists()
    except (OSError, ValueError):
        return False


def load_setting(spec: Any, *, labels: int | None = None) -> Any:
    """The class or space a text names: a zoo spec, a space spec, or a class file.

    Parameters
    ----------
    spec : str
        ``thresholds:64``, ``singletons:5,empty`` (see :func:`mistakebound.game.classes.from_spec`);
        ``halfspaces:d=16,R=1,gamma=0.25``, ``k_disjunctions:1000,3``, ``experts:4``,
        ``oco:d=1,radius=1`` (the ``describe()`` form, ``halfspaces(d=16, R=1, gamma=0.25)``,
        works too); or a path ending in ``.npy``, ``.csv`` or ``.json``
        (:func:`mistakebound.game.class_files.load_class`).
    labels : int, optional
        The number of labels of the class: a ``.npy`` or ``.csv`` file of ``k`` labels is read
        with it; a class that has another number (a zoo class, a ``.json`` file, a space) is
        refused.  Default: the class's own (2 for a ``.npy`` or ``.csv`` file).

    Raises
    ------
    InvalidArgumentError
        With a one-line message: an unknown name (with the closest names), bad
        arguments, or a file that cannot be read as a class.

    Examples
    --------
    >>> load_setting("k_disjunctions:1000,3").describe()
    'k_disjunctions(n=1000, k=3)'
    >>> load_setting("halfspaces(d=16, R=1, gamma=0.25)").describe()
    'halfspaces(d=16, R=1, gamma=0.25)'
    >>> load_setting("experts:4") == load_setting("Experts(d=4)")
    True
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidArgumentError(f"CLASS: expected a zoo spec, a space spec or a class file, got {spec!r}")
    text = spec.strip()
    if is_class_file(text):
        try:
            return load_class(text, labels=labels)
        except MistakeboundError as exc:
            raise InvalidArgumentError(f"CLASS: {' '.join(str(exc).split())}") from None
    setting = _named_setting(spec, text)
    own = len(setting.labels) if setting.labelled else None
    if labels is not None and labels != own:
        raise InvalidArgumentError(f"labels: {setting.describe()} has {own or 'no'} labels, and {labels} were asked "
                                   "for; expected its own number (or no --labels)")
    return setting


def _named_setting(spec: str, text: str) -> Any:
    """The zoo class or space the spec ``text`` names (:func:`load_setting` on anything but a file)."""
    name, args, kwargs = parse_spec(text, parameter="CLASS")
    for e in _space_entries():
        if normal_name(e.name) == normal_name(name):
            try:
                flagged, named = spec_flags(e.target, args, kwargs)  # booleans written as everywhere
                return e.target(*flagged, **named)
            except TypeError as exc:
                raise InvalidArgumentError(
                    f"CLASS: {spec!r}: {e.name} takes {e.usage()!r} ({exc})"
                ) from None
            except MistakeboundError as exc:
                raise InvalidArgumentError(f"CLASS: {spec!r}: {exc}") from None
    from mistakebound.game.classes import ZOO, from_spec

    if any(normal_name(k) == normal_name(name) for k in ZOO):
        try:
            return from_spec(text)
        except MistakeboundError as exc:
            message = one_line(exc)
            own = f"spec {text!r}: "
            raise InvalidArgumentError(f"CLASS: {spec!r}: {message.removeprefix(own)}") from None
    known = [*ZOO, *(e.name for e in _space_entries())]
    raise InvalidArgumentError(
        f"CLASS: unknown class or space {name!r}; {closest_hint(name, known)}known: {', '.join(known)}; "
        f"or a file ending in {', '.join(CLASS_FILE_SUFFIXES)}"
    )


def spec_of(player: Any) -> str:
    """The text that names ``player`` for :func:`build`: its registered name, or ``module:Class``.

    Parameters that differ from their defaults are appended as ``(key=value, ...)`` when
    they are plain numbers, booleans or words, so that the text builds the same player.

    Examples
    --------
    >>> from mistakebound.learners import Halving
    >>> from mistakebound.game import classes
    >>> spec_of(Halving(classes.thresholds(3))), spec_of(Halving)
    ('Halving', 'Halving')
    """
    cls = player if isinstance(player, type) else type(player)
    kind = player_kind(cls)
    name = None
    if kind in ("learner", "adversary"):
        for e in entries(kind):
            if e.target is cls:
                name = e.name
                break
    if name is None:
        name = f"{cls.__module__}:{cls.__qualname__}"
    if isinstance(player, type) or not attrs.has(cls):
        return name
    parts = []
    for a in attrs.fields(cls):
        if not a.init or a.name in ("H", "T") or a.default is attrs.NOTHING:
            continue
        default = a.default.factory() if isinstance(a.default, attrs.Factory) and not a.default.takes_self else a.default
        value = getattr(player, a.name)
        if isinstance(value, bool) or isinstance(value, (int, float, str)):
            try:
                same = bool(value == default)
            except Exception:  # noqa: BLE001
                same = False
            if not same:
                shown = str(value).lower() if isinstance(value, bool) else str(value)
                parts.append(f"{a.name.lstrip('_')}={shown}")
    return f"{name}({','.join(parts)})" if parts else name


def usage(kind: str) -> list[str]:
    """One help line per entry of ``kind``: the usage and the summary."""
    rows = [(e.usage(), e.summary) for e in entries(kind)]
    width = max((len(u) for u, _ in rows), default=0) + 2
    return [f"  {u.ljust(width)}{s}".rstrip() for u, s in rows]
