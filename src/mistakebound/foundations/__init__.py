"""Foundations: what every layer above builds on.

* :mod:`~mistakebound.foundations.errors`: the framework's exception types;
* :mod:`~mistakebound.foundations.bitset`: version spaces as Python ints;
* :mod:`~mistakebound.foundations.memory`: how much memory a search may use;
* :mod:`~mistakebound.foundations.files`: atomic writes;
* :mod:`~mistakebound.foundations.machine`: the machine a measurement ran on;
* :mod:`~mistakebound.foundations.json_format`: what every JSON format is built from.

Nothing here imports from the layers above (the game, the theory, verification, the
interfaces).
"""

__all__: list[str] = []
