"""Check that an sdist carries what its tests need: every file git tracks, but for the CI's own.

Usage: ``python .ci/sdist_files.py DIST.tar.gz`` from the checkout.  The tests import their
helper modules (``tests/conftest.py``, ``tests/players.py``, ``tests/strategies.py``...), read
README.md and pyproject.toml, and smoke-test the benchmarks; the oracles are in the package.
Rather than trace what each test touches, the sdist must hold the whole tracked source: a
file git tracks and the sdist lacks is named, and the check fails.  Exit 0 when nothing is
missing, 1 otherwise, 2 when this is not a git checkout.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile

#: Tracked files an sdist leaves out on purpose: the CI's own scripts and git's settings.
LEFT_OUT = (".ci/", ".gitignore")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        tracked = subprocess.run(["git", "ls-files"], check=True, capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"not a git checkout, nothing to compare the sdist with: {e}", file=sys.stderr)
        return 2
    with tarfile.open(argv[0]) as tar:
        shipped = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    missing = sorted(f for f in tracked if f not in shipped and not f.startswith(LEFT_OUT))
    if missing:
        print(f"the sdist {argv[0]} lacks {len(missing)} tracked file(s):", *missing, sep="\n  ", file=sys.stderr)
        return 1
    print(f"the sdist holds every tracked file ({len(tracked)} tracked, {len(shipped)} in the sdist)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
