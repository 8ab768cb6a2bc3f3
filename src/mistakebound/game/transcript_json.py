"""The JSON form of a :class:`~mistakebound.game.transcript.Transcript`, lossless.

:func:`transcript_to_json` writes every field and every round (floats bit for bit,
``-0.0`` included, ints as ints, tuples as tuples) and :func:`transcript_from_json`
rebuilds an equal transcript.  The text depends only on the value: the same transcript
gives the same bytes, in any process.  The format is ``"mistakebound.transcript"``,
version 1; it is built from :mod:`mistakebound.foundations.json_format`, like the class
and check-report formats.

Instances (``Round.x``) may be ``int``, ``float``, ``str``, ``bool``, ``None`` and
tuples, nested, of those; anything else, and NaN or infinite floats (the engine never
records them), is refused with an
:class:`~mistakebound.foundations.errors.InvalidArgumentError` naming the field
(``rounds[3].x``) and the value.

Examples
--------
>>> from mistakebound.game.transcript import Round, Transcript
>>> T = Transcript(rounds=(Round(t=1, x=(0, "a"), p=0.1, prediction=0, y=1),), seed=7)
>>> text = transcript_to_json(T)
>>> transcript_from_json(text) == T
True
>>> transcript_from_json(text).rounds[0].x
(0, 'a')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from mistakebound.foundations import json_format as jf
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.transcript import Round, Transcript

__all__ = ["transcript_to_json", "transcript_from_json", "TRANSCRIPT_FORMAT"]

#: The ``"format"`` tag of a serialised transcript.
TRANSCRIPT_FORMAT = "mistakebound.transcript"

_ROUND_KEYS = ("t", "x", "p", "prediction", "y")

_opt_int_tuple = tuple(jf.optional(f) for f in jf.tuple_of(jf.expect_int))
_opt_num_tuple = tuple(jf.optional(f) for f in jf.tuple_of(jf.expect_number))

#: Per field of Transcript (except rounds): (encode, decode).
_FIELDS: dict[str, tuple[Callable, Callable]] = {
    "learner": (jf.expect_str, jf.expect_str),
    "adversary": (jf.expect_str, jf.expect_str),
    "seed": (jf.optional(jf.expect_int), jf.optional(jf.expect_int)),
    "class_name": (jf.optional(jf.expect_str), jf.optional(jf.expect_str)),
    "realizable": (jf.expect_bool, jf.expect_bool),
    "version_space": _opt_int_tuple,
    "best_hypothesis_mistakes": (jf.optional(jf.expect_number), jf.optional(jf.expect_number)),
    "R": (jf.optional(jf.expect_number), jf.optional(jf.expect_number)),
    "gamma": (jf.optional(jf.expect_number), jf.optional(jf.expect_number)),
    "comparator": _opt_num_tuple,
    "target": _opt_int_tuple,
}


def _encode_rules(name: str, rules: Any) -> Any:
    if rules is None:
        return None
    return rules.record()  # the order only when it is not the default: today's transcripts read as before


def _decode_rules(name: str, value: Any) -> Any:
    from mistakebound.game.rules import Rules

    if type(value) is not dict:
        raise InvalidArgumentError(f"{name}: expected a JSON object of the game's rules, got {jf.type_name(value)}")
    try:
        return Rules(**value)
    except TypeError as exc:
        raise InvalidArgumentError(f"{name}: expected the fields of Rules, got {sorted(value)} ({exc})") from None


#: Fields of Transcript written only when set (a transcript of the textbook's game is written as before).
_OPTIONAL: dict[str, tuple[Callable, Callable]] = {"rules": (_encode_rules, _decode_rules)}


def _check_schema() -> None:
    known = set(_FIELDS) | set(_OPTIONAL) | {"rounds"}
    actual = {a.name for a in attrs.fields(Transcript)}
    if known != actual:  # pragma: no cover - guards a change of Transcript
        raise InvalidArgumentError(
            f"transcript: fields {sorted(actual ^ known)} are not known to mistakebound.game.transcript_json; "
            "expected its schema to list every field of Transcript, so that nothing is lost"
        )


def _encode_round(i: int, r: Any) -> dict:
    where = f"rounds[{i}]"
    if type(r) is not Round:
        raise InvalidArgumentError(f"{where}: expected a Round, got {r!r} of type {jf.type_name(r)}")
    return {
        "t": jf.expect_int(f"{where}.t", r.t),
        "x": jf.encode_instance(r.x, f"{where}.x"),
        "p": jf.expect_number(f"{where}.p", r.p),
        "prediction": jf.expect_int(f"{where}.prediction", r.prediction),
        "y": jf.expect_int(f"{where}.y", r.y),
    }


def transcript_to_json(T: Transcript) -> str:
    """The JSON text of transcript ``T``, from which :func:`transcript_from_json` rebuilds it exactly.

    Parameters
    ----------
    T : Transcript

    Returns
    -------
    str
        Compact JSON; the same transcript always gives the same text.

    Raises
    ------
    InvalidArgumentError
        If ``T`` is not a Transcript, an instance is not serialisable (see the module
        docstring), or a field holds NaN, infinity or a value of the wrong type; the
        message names the field (e.g. ``rounds[3].p``).

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> transcript_to_json(Transcript(rounds=(Round(1, 2, 1.0, 1, 1),), seed=0))[:60]
    '{"format":"mistakebound.transcript","version":1,"learner":""'
    """
    if not isinstance(T, Transcript):
        raise InvalidArgumentError(f"T: expected a Transcript, got {T!r} of type {jf.type_name(T)}")
    _check_schema()
    out: dict[str, Any] = jf.header(TRANSCRIPT_FORMAT)
    for name, (encode, _) in _FIELDS.items():
        out[name] = encode(name, getattr(T, name))
    for name, (encode, _) in _OPTIONAL.items():
        if getattr(T, name) is not None:
            out[name] = encode(name, getattr(T, name))
    out["rounds"] = [_encode_round(i, r) for i, r in enumerate(T.rounds)]
    return jf.dumps(out)


def transcript_from_json(text: str | bytes) -> Transcript:
    """Rebuild the transcript written by :func:`transcript_to_json`.

    Raises
    ------
    InvalidArgumentError
        For malformed JSON, another format or version, a missing or unknown field, or a
        field of the wrong type; the message names the field.

    Examples
    --------
    >>> transcript_from_json('{"format": "mistakebound.transcript", "version": 1}')
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: transcript: missing field(s) learner, adversary, seed, class_name, realizable, version_space, best_hypothesis_mistakes, R, gamma, comparator, target, rounds; expected the fields format, version, learner, adversary, seed, class_name, realizable, version_space, best_hypothesis_mistakes, R, gamma, comparator, target, rounds
    """
    data = jf.parse(text, what="transcript", fmt=TRANSCRIPT_FORMAT)
    jf.check_keys("transcript", data, ["format", "version", *_FIELDS, *(k for k in _OPTIONAL if k in data), "rounds"])
    kwargs = {name: decode(name, data[name]) for name, (_, decode) in _FIELDS.items()}
    kwargs.update({name: decode(name, data[name]) for name, (_, decode) in _OPTIONAL.items() if name in data})
    if type(data["rounds"]) is not list:
        raise InvalidArgumentError(f"rounds: expected a JSON list, got {jf.type_name(data['rounds'])}")
    rounds = []
    for i, r in enumerate(data["rounds"]):
        where = f"rounds[{i}]"
        if type(r) is not dict:
            raise InvalidArgumentError(f"{where}: expected a JSON object, got {r!r}")
        jf.check_keys(where, r, _ROUND_KEYS)
        rounds.append(
            Round(
                t=jf.expect_int(f"{where}.t", r["t"]),
                x=jf.decode_instance(r["x"], f"{where}.x"),
                p=jf.expect_number(f"{where}.p", r["p"]),
                prediction=jf.expect_int(f"{where}.prediction", r["prediction"]),
                y=jf.expect_int(f"{where}.y", r["y"]),
            )
        )
    return Transcript(rounds=tuple(rounds), **kwargs)
