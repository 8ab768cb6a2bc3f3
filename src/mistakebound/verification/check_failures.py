"""What a failed check reports: the exceptions, the counterexample shown, and its shrinking.

A check of :mod:`mistakebound.verification.checks` that fails raises a
:class:`CheckFailure` (an ``AssertionError``, so pytest reports a failed test): a
:class:`GameFailure` when the learner broke a rule in a game, a :class:`BoundViolation`
when it made more mistakes than its claim allows.  The message holds what a reader needs
to reproduce it: the class (shrunk by deleting rows and columns while the failure stays,
:func:`_delete_rows_and_columns`), the adversary, the seed, the transcript and a snippet
that replays the game.

Examples
--------
>>> issubclass(BoundViolation, GameFailure) and issubclass(GameFailure, AssertionError)
True
"""

from __future__ import annotations


import copy
from collections.abc import Callable
from typing import Any

import numpy as np
from attrs import define

import mistakebound.game.play as _game
from mistakebound.foundations.errors import MistakeboundError
from mistakebound.foundations.text import number_text
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import describe
from mistakebound.game.transcript import Transcript
from mistakebound.verification.claims import Bound
from mistakebound.verification.strategies import MarginStream, StreamReplay

__all__ = ["CheckFailure", "GameFailure", "BoundViolation"]

#: Rows of the transcript and of the class matrix shown in a failure message.
_SHOW_ROWS = 40


class CheckFailure(MistakeboundError, AssertionError):
    """A learner failed one of the checks of this module.

    It is an ``AssertionError``, so pytest reports it as a test failure.
    """


class GameFailure(CheckFailure):
    """A check's game went wrong for the learner; the game can be replayed.

    Raised as such when the learner broke a rule or raised during a game (the
    :class:`~mistakebound.foundations.errors.GameError` is chained as ``__cause__``); its subclass
    :class:`BoundViolation` when the learner made more mistakes than its bound.

    Attributes
    ----------
    H : HypothesisClass or Space
        The (shrunk) class or space of the game.
    adversary
        The adversary, as it was before the game (:meth:`replay` plays a copy).
    seed : int
        The seed of the game.
    rounds : int
        The horizon of the game.
    transcript : Transcript or None
        The game's transcript (the rounds before the fault, for a crash).
    stream : MarginStream or None
        The stream, when the case was drawn by :func:`~mistakebound.verification.strategies.separable_streams`.
    """

    def __init__(
        self,
        message: str,
        *,
        H: Any,
        adversary: Any,
        seed: int,
        rounds: int,
        transcript: Transcript | None,
        make_learner: Callable[[Any], Any],
        stream: MarginStream | None = None,
    ):
        super().__init__(message)
        self.H = H
        self.adversary = adversary
        self.seed = seed
        self.rounds = rounds
        self.transcript = transcript
        self.stream = stream
        self._make_learner = make_learner

    def replay(self) -> Transcript:
        """Play the game again, with a fresh learner and a copy of the adversary.

        Returns the transcript (for a learner that crashed, the same error is raised).
        """
        learner = self._make_learner(self.H)
        return _game.play(learner, copy.deepcopy(self.adversary), self.H, rounds=self.rounds, seed=self.seed,
                          rules=getattr(self.transcript, "rules", None))


class BoundViolation(GameFailure):
    """The learner broke the claimed bound in a realizable game.

    Attributes
    ----------
    bound : float
        The claimed bound on the class of the game.
    mistakes : float
        What the learner made, in the claim's measure (the exact expected number for a
        randomized learner).
    claim : Bound
        The claim, with its measure and its source.

    See :class:`GameFailure` for the rest, and :meth:`GameFailure.replay`.
    """

    def __init__(self, message: str, *, bound: float, mistakes: float, claim: Bound | None = None, **kwargs: Any):
        super().__init__(message, **kwargs)
        self.bound = bound
        self.mistakes = mistakes
        self.claim = claim


def _is_learner(obj: Any) -> bool:
    """An object that plays (not a type and not a mere factory)."""
    return not isinstance(obj, type) and callable(getattr(obj, "learn_one", None))


def _name_of(obj: Any) -> str:
    """The short name used in ids and tables: the type's name, or the factory's."""
    if isinstance(obj, type):
        return obj.__name__
    if _is_learner(obj):
        return type(obj).__name__
    name = getattr(obj, "__name__", None) or type(obj).__name__
    return "make_learner" if name == "<lambda>" else name


def _six(value: Any) -> str:
    return number_text(value, digits=6)


def _claim_text(claim: Bound) -> str:
    """``"ldim(H) = 1"``, ``"the bound 2"``, or the learner's own claim with its theorem."""
    if claim.source.startswith("the bound ") or "(H) = " in claim.source:
        return claim.source
    return f"its claimed bound {_six(claim.value)} ({claim.source})" if claim.source else f"the bound {_six(claim.value)}"


@define
class _Failure:
    kind: str  # "bound" or "error"
    H: Any
    stream: MarginStream | None
    adversary: Any
    adversary_expr: str
    adversary_imports: tuple
    seed: int
    rounds: int
    transcript: Transcript | None
    measured: float | None = None
    claim: Bound | None = None
    error: BaseException | None = None


def _import_line(obj: Any) -> str | None:
    """``from module import name`` for a module-level class or function, else None."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", "")
    if not module or "<" in qualname or module == "__main__":
        return None
    return f"from {module} import {qualname.split('.')[0]}"


def _learner_expr(make_learner: Any) -> tuple[str, tuple]:
    if isinstance(make_learner, type):
        line = _import_line(make_learner)
        return f"{make_learner.__name__}(H)", (line,) if line else ()
    if _is_learner(make_learner):
        return f"make_learner(H)  # rebuilds your {type(make_learner).__name__}", ()
    name = getattr(make_learner, "__name__", "<lambda>")
    line = _import_line(make_learner)
    if name == "<lambda>" or line is None:
        return "make_learner(H)  # make_learner: the callable you passed", ()
    return f"{name}(H)", (line,)


def _adversary_expr(adversary: Any) -> tuple[str, tuple]:
    if isinstance(adversary, StreamReplay):
        return "S.adversary()", ()
    line = _import_line(type(adversary))
    expr = describe(adversary)
    return expr if "(" in expr else expr + "()", (line,) if line else ()


def _format_class(H: HypothesisClass) -> list[str]:
    lines = [f"  domain: {H.domain!r}" if len(H.domain) <= 30 else f"  domain: {H.domain[:30]!r}... ({H.n_instances} instances)"]
    for i, row in enumerate(H.matrix[:_SHOW_ROWS]):
        bits = " ".join(str(int(b)) for b in row[:60]) + (" ..." if H.n_instances > 60 else "")
        lines.append(f"  {H.hypothesis_name(i):>4}: {bits}")
    if H.n_hypotheses > _SHOW_ROWS:
        lines.append(f"  ... ({H.n_hypotheses - _SHOW_ROWS} more rows)")
    return lines


def _format_transcript(T: Transcript | None) -> list[str]:
    if T is None or not len(T):
        return ["  (no rounds)"]
    lines = ["  " + line for line in T.format_table(limit=_SHOW_ROWS).splitlines()]
    if len(T) > _SHOW_ROWS:
        lines.append(f"  ... ({len(T) - _SHOW_ROWS} more rounds)")
    return lines


def _snippet(f: _Failure, make_learner: Any) -> list[str]:
    learner_expr, learner_imports = _learner_expr(make_learner)
    table = f.stream is None and isinstance(f.H, HypothesisClass)
    imports = [f"from mistakebound import {'HypothesisClass, ' * table}play", *learner_imports, *f.adversary_imports]
    body = []
    if "  #" in learner_expr:
        body.append("#" + learner_expr.split("  #", 1)[1])
    if f.stream is not None:
        imports.append("from mistakebound.verification.strategies import MarginStream")
        s = f.stream
        body += [f"S = MarginStream(pairs={s.pairs!r}, comparator={s.comparator!r}, gamma={s.gamma!r}, R={s.R!r})",
                 "H = S.space"]
    elif isinstance(f.H, HypothesisClass):
        domain = "" if f.H.domain == tuple(range(f.H.n_instances)) else f", domain={list(f.H.domain)!r}"
        labels = "" if f.H.n_labels == 2 else f", labels={f.H.n_labels}"
        body.append(f"H = HypothesisClass.from_matrix({f.H.matrix.tolist()!r}{domain}{labels})")
    else:
        line = _import_line(type(f.H))
        if line:
            imports.append(line)
        body.append(f"H = {f.H!r}")
    rules = getattr(f.transcript, "rules", None)
    if rules is not None:
        imports.append("from mistakebound import Rules")
    given = "" if rules is None else f", rules={rules!r}"
    call = f"T = play({learner_expr.split('  #')[0]}, {f.adversary_expr}, H, rounds={f.rounds}, seed={f.seed}{given})"
    body.append(call)
    seen: list[str] = []
    for line in imports:
        if line not in seen:
            seen.append(line)
    return ["  " + line for line in seen + body]


def _failure_message(f: _Failure, make_learner: Any, shrunk_from: int) -> str:
    who = _name_of(make_learner)
    where = f.stream.space.describe() if f.stream is not None else f.H.describe()
    if f.kind == "bound":
        what = "mistake" if f.claim.measure == "mistakes" else f.claim.measure.replace("mistakes", "mistake")
        plural = "" if f.measured == 1 or f.claim.measure == "regret" else "s"
        head = (
            f"{who} made {_six(f.measured)} {what}{plural}, more than {_claim_text(f.claim)}, "
            f"against {describe(f.adversary)} on {where} (seed {f.seed})"
        )
    else:
        head = f"{who} failed during a game against {describe(f.adversary)} on {where} (seed {f.seed}): {f.error}"
    lines = [head, f"counterexample shrunk by hypothesis ({shrunk_from} cases tried):"]
    if f.stream is not None:
        lines.append(f"stream ({len(f.stream)} rounds, comparator {f.stream.comparator!r}, gamma {f.stream.gamma:g}, R {f.stream.R:g})")
    elif isinstance(f.H, HypothesisClass):
        lines.append(f"class matrix ({f.H.n_hypotheses} hypotheses x {f.H.n_instances} instances; rows are hypotheses):")
        lines += _format_class(f.H)
    else:
        lines.append(f"space: {f.H!r}")
    lines.append(f"adversary: {describe(f.adversary)}")
    lines.append(f"seed: {f.seed}   rounds: {f.rounds}")
    lines.append("transcript:" if f.kind == "bound" else "transcript (rounds before the fault):")
    lines += _format_transcript(f.transcript)
    if f.kind == "bound":
        lines.append(f"bound: {_claim_text(f.claim)}; {f.claim.measure}: {_six(f.measured)}")
    lines.append("replay with exc.replay(), or:")
    lines += _snippet(f, make_learner)
    return "\n".join(lines)


def _without(H: HypothesisClass, *, row: int | None = None, column: int | None = None) -> HypothesisClass:
    M = H.matrix
    if row is not None:
        return HypothesisClass.from_matrix(np.delete(M, row, axis=0), H.domain, labels=H.n_labels)
    domain = H.domain[:column] + H.domain[column + 1:]
    if H.domain == tuple(range(H.n_instances)):
        domain = None  # keep the default domain 0, 1, ... of a generated class
    return HypothesisClass.from_matrix(np.delete(M, column, axis=1), domain, labels=H.n_labels)


def _all_distinct(M: np.ndarray) -> bool:
    """Whether no two rows of ``M`` are equal."""
    return len({row.tobytes() for row in np.ascontiguousarray(M)}) == len(M)


def _delete_rows_and_columns(case: tuple, fails: Callable[[tuple], bool],
                             apart: tuple[bool, bool] = (False, False)) -> tuple:
    """Delete rows, then columns, one at a time while the case still fails, to a fixed point.

    hypothesis shrinks the draws; this finishes the job on the class itself, so the
    counterexample is 1-minimal: removing any single row or column makes it pass, or
    gives a class the learner cannot be built on.  It never builds a class without a
    hypothesis or without an instance, nor, with ``apart`` (what the strategy keeps apart on
    every draw, :func:`~mistakebound.verification.strategies.kept_apart`), repeats rows or
    columns, and a smaller class on which ``fails`` raises
    (the learner's factory refusing it, say) is not taken: the case returned always
    failed.
    """
    H, case_seed = case
    if not isinstance(H, HypothesisClass):
        return case
    progress = True
    while progress:
        progress = False
        candidates = [dict(row=i) for i in range(H.n_hypotheses)] if H.n_hypotheses > 1 else []
        candidates += [dict(column=j) for j in range(H.n_instances)] if H.n_instances > 1 else []
        for where in candidates:
            try:
                smaller = _without(H, **where)
                kept = (not apart[0] or _all_distinct(smaller.matrix),  # checked only where promised
                        not apart[1] or _all_distinct(smaller.matrix.T))
                failed = all(kept) and fails((smaller, case_seed))
            except Exception:  # noqa: BLE001 - not a smaller counterexample: stop at the last valid class
                failed = False
            if failed:
                H, progress = smaller, True
                break
    return H, case_seed
