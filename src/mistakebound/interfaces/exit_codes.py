"""The command line's exit codes: one definition, read by every subcommand and by the start-up guard.

A module of its own, importing nothing, so that :mod:`mistakebound.interfaces.startup`
can install its signal guard before ``argparse`` (and the rest of the package) loads;
:mod:`mistakebound.interfaces.arguments` re-exports the codes beside the argument types.

====  =====================================================================================
code  meaning
====  =====================================================================================
0     success
1     a bound is broken, a game errored, or a sweep cell failed (also an internal error: a bug)
2     bad input: arguments, a class spec, a class file, an output file that cannot be written
3     interrupted (Ctrl-C, SIGTERM) or a search stopped by its budget; partial results printed
====  =====================================================================================

Examples
--------
>>> EXIT_OK, EXIT_BROKEN, EXIT_BAD_INPUT, EXIT_INTERRUPTED
(0, 1, 2, 3)
"""

__all__ = ["EXIT_OK", "EXIT_BROKEN", "EXIT_BAD_INPUT", "EXIT_INTERRUPTED"]

#: Exit code: success.
EXIT_OK = 0
#: Exit code: a bound is broken, a game errored, or a sweep cell failed (also an internal error: a bug).
EXIT_BROKEN = 1
#: Exit code: bad input (arguments, class spec, matrix file, an output file that cannot be written).
EXIT_BAD_INPUT = 2
#: Exit code: interrupted (Ctrl-C, SIGTERM), or a search stopped by its budget; partial results printed.
EXIT_INTERRUPTED = 3
