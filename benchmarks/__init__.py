"""Benchmarks of mistakebound against the plain textbook recursion (run ``python -m benchmarks``)."""
