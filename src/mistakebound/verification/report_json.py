"""The JSON form of a check report (``mistakebound check --json``), lossless.

:meth:`CheckReport.to_json <mistakebound.verification.selfcheck.CheckReport.to_json>` and
:meth:`CheckReport.from_json <mistakebound.verification.selfcheck.CheckReport.from_json>`
are the way in; this module holds the format, ``"mistakebound.check_report"`` version 1,
built from :mod:`mistakebound.foundations.json_format` like the class and transcript
formats.  Every row keeps every field: texts as they are (any unicode), numbers as ints or
floats bit for bit (``-0.0`` too), None as ``null``, and infinities and NaN as the tagged
objects ``{"float": "inf"}``, ``{"float": "-inf"}`` and ``{"float": "nan"}``.  The verdict
``ok`` and the one-line ``summary`` are written too, for readers of the file, and checked
against the rows when it is read back.

The module does not import :mod:`~mistakebound.verification.selfcheck` (which calls it):
the report's types are those of the value written, and the reader is given them, so the
two modules form no import circle.

Examples
--------
>>> from mistakebound.verification.selfcheck import CheckReport, CheckRow
>>> report = CheckReport(rows=(CheckRow("SOA", "Walker", "thresholds(7)", mistakes=3, bound=float("inf")),))
>>> text = report_to_json(report)
>>> report_from_json(text, report_type=CheckReport, row_type=CheckRow) == report
True
>>> report_to_json(CheckReport(rows=()))
'{"format":"mistakebound.check_report","version":1,"ok":true,"summary":"0 games, all bounds hold","rows":[]}'
"""

from __future__ import annotations

from typing import Any

import attrs

from mistakebound.foundations import json_format as jf
from mistakebound.foundations.errors import InvalidArgumentError

__all__ = ["report_to_json", "report_from_json", "REPORT_FORMAT", "NUMBER_FIELDS"]

#: The ``"format"`` tag of a serialised check report.
REPORT_FORMAT = "mistakebound.check_report"

#: The fields of a row that hold numbers (None, int or float, infinities and NaN
#: included); every other field of a row holds text.
NUMBER_FIELDS = ("mistakes", "bound", "forced")


def _is_report(value: Any) -> bool:
    kind = type(value)
    return (attrs.has(kind) and [a.name for a in attrs.fields(kind)] == ["rows"]
            and callable(getattr(value, "summary", None)) and hasattr(value, "ok"))


def report_to_json(report: Any) -> str:
    """The JSON text of a check report, from which :func:`report_from_json` rebuilds it exactly.

    Parameters
    ----------
    report : CheckReport

    Raises
    ------
    InvalidArgumentError
        If ``report`` is not a check report, or a row holds a value of a type the format
        does not know (the message names the field, e.g. ``rows[0].mistakes``).

    Examples
    --------
    >>> report_to_json([1, 2])
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: report: expected a CheckReport, got [1, 2] of type list
    """
    if not _is_report(report):
        raise InvalidArgumentError(f"report: expected a CheckReport, got {report!r} of type {jf.type_name(report)}")
    rows = []
    for i, row in enumerate(report.rows):
        where = f"rows[{i}]"
        if not attrs.has(type(row)):
            raise InvalidArgumentError(f"{where}: expected a CheckRow, got {row!r} of type {jf.type_name(row)}")
        out: dict[str, Any] = {}
        for a in attrs.fields(type(row)):
            value = getattr(row, a.name)
            if a.name in NUMBER_FIELDS:
                out[a.name] = jf.encode_tagged_number(f"{where}.{a.name}", value)
            else:
                out[a.name] = jf.expect_str(f"{where}.{a.name}", value)
        rows.append(out)
    return jf.dumps({**jf.header(REPORT_FORMAT), "ok": report.ok, "summary": report.summary(), "rows": rows})


def report_from_json(text: str | bytes, *, report_type: type, row_type: type) -> Any:
    """Rebuild the check report written by :func:`report_to_json`.

    Parameters
    ----------
    text : str or bytes
    report_type, row_type : type
        The report and row classes to build
        (:class:`~mistakebound.verification.selfcheck.CheckReport` and
        :class:`~mistakebound.verification.selfcheck.CheckRow`); the fields of a row are
        those of ``row_type``.

    Raises
    ------
    InvalidArgumentError
        For malformed JSON, another format or version, a missing or unknown field, a
        field of the wrong type, a value the row refuses (a verdict outside
        ``ok``/``BROKEN``/``ERROR``), or an ``ok`` or ``summary`` that does not match the
        rows; the message names the field (``rows[2].verdict``).

    Examples
    --------
    >>> from mistakebound.verification.selfcheck import CheckReport, CheckRow
    >>> report_from_json('{"format": "mistakebound.class", "version": 1}', report_type=CheckReport, row_type=CheckRow)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: format: expected 'mistakebound.check_report', got 'mistakebound.class'
    """
    data = jf.parse(text, what="check report", fmt=REPORT_FORMAT)
    jf.check_keys("check report", data, ["format", "version", "ok", "summary", "rows"])
    if type(data["rows"]) is not list:
        raise InvalidArgumentError(f"rows: expected a JSON list, got {jf.type_name(data['rows'])}")
    names = [a.name for a in attrs.fields(row_type)]
    rows = []
    for i, r in enumerate(data["rows"]):
        where = f"rows[{i}]"
        if type(r) is not dict:
            raise InvalidArgumentError(f"{where}: expected a JSON object, got {r!r}")
        jf.check_keys(where, r, names)
        kwargs = {
            name: jf.decode_tagged_number(f"{where}.{name}", r[name]) if name in NUMBER_FIELDS
            else jf.expect_str(f"{where}.{name}", r[name])
            for name in names
        }
        try:
            rows.append(row_type(**kwargs))
        except InvalidArgumentError as exc:  # a validator of the row: "verdict: expected ..."
            raise InvalidArgumentError(f"{where}.{exc}") from None
    report = report_type(rows=tuple(rows))
    if jf.expect_bool("ok", data["ok"]) != report.ok:
        raise InvalidArgumentError(
            f"ok: the file says {data['ok']!r} but its rows give {report.ok!r}; expected them to agree"
        )
    if jf.expect_str("summary", data["summary"]) != report.summary():
        raise InvalidArgumentError(
            f"summary: the file says {data['summary']!r} but its rows give {report.summary()!r}; expected them to agree"
        )
    return report
