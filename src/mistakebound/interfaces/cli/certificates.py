"""What ``ldim --certificate`` and ``worst-case --certificate`` say as they write a certificate.

Examples
--------
>>> claimed({"claim": {"lower": [">=", 2], "upper": ["<=", 3]}}, "Ldim")
'2 <= Ldim <= 3'
>>> claimed({"lower": [0, 1], "upper": {"value": 2}}, "VCdim")
'VCdim = 2'
"""

from __future__ import annotations

from mistakebound.interfaces.cli.output import write_output

__all__ = ["claimed", "write_certificate"]


def claimed(section: dict, name: str) -> str:
    """``"2 <= Ldim <= 3"`` / ``"Ldim = 3"``: what a certificate section proves."""
    if "claim" in section:  # each side [fact, value], or (a game of a few rounds) the value alone
        claim = section["claim"]
        lo, hi = (claim[side][1] if isinstance(claim.get(side), list) else claim.get(side, "?")
                  for side in ("lower", "upper"))
    else:  # a VC section: the shattered set, and the value its upper proof refutes above
        lo = len(section["lower"]) if "lower" in section else "?"
        hi = section["upper"]["value"] if "upper" in section else "?"
    return f"{name} = {lo}" if lo == hi else f"{lo} <= {name} <= {hi}"


def write_certificate(path: str, writer, out, done: list[str]) -> None:
    """Write the certificate of ``writer`` to ``path`` and say what it proves (``done``) and how to check it."""
    size = len(writer.document()["spaces"])  # none when only the game's value is certified: its facts hold states
    spaces = f" ({size:,} version spaces)" if size else ""
    write_output("--certificate", path, out,
                 f"wrote {path}: a certificate of {', '.join(done)}{spaces}; "
                 f"check it with: mistakebound verify {path}", save=lambda: writer.write(path, parameter="--certificate"))
