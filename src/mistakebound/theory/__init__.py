"""The theory: exact searches over one budget type and one result shape.

* :mod:`~mistakebound.theory.littlestone`: the Littlestone dimension and shattered trees,
  the front doors; the exact search in :mod:`~mistakebound.theory.ldim_search` (its
  canonical memo in :mod:`~mistakebound.theory.ldim_canonical`, its plans, runs and bounds
  in :mod:`~mistakebound.theory.ldim_runs`), the trees read off it in
  :mod:`~mistakebound.theory.ldim_trees`, the compiled search in
  :mod:`~mistakebound.theory.ldim_kernel`, the search with worker processes in
  :mod:`~mistakebound.theory.parallel` (the processes in
  :mod:`~mistakebound.theory.parallel_workers`);
* :mod:`~mistakebound.theory.vc`: the VC dimension;
* the combinatorial parameters of the Combinatorial Parameters database, each exact with a
  witness: :mod:`~mistakebound.theory.threshold_dimension`,
  :mod:`~mistakebound.theory.star_number`, :mod:`~mistakebound.theory.teaching` (teaching
  dimension, minimum teaching set size, recursive teaching dimension) and
  :mod:`~mistakebound.theory.one_inclusion` (the one-inclusion graph's maximum degree), over
  the table :mod:`~mistakebound.theory.table_reduction` reduces for them; their doors are
  exported here (``from mistakebound.theory import star_bounds``), but for the two bare numbers
  named like their modules, ``threshold_dimension`` and ``star_number``: exported here, the
  function would hide the module (``import mistakebound.theory.star_number as m`` would give
  the function), so they are imported from their modules;
* :mod:`~mistakebound.theory.randomized_ldim`: the randomized Littlestone dimension;
* :mod:`~mistakebound.theory.worst_case`: a learner's exact worst case ``M_A(H)``;
* :mod:`~mistakebound.theory.game_values`: the game's value under other rules (labels,
  feedback, noise, randomized learners), its steps' matrix games solved exactly by
  :mod:`~mistakebound.theory.matrix_games`; :mod:`~mistakebound.theory.oblivious_values`:
  the game in a fixed number of rounds, against an oblivious or an adaptive adversary (its
  certificates: :mod:`~mistakebound.theory.horizon_certificate`);
* the games where someone else orders the instances (issue 24): what they share in
  :mod:`~mistakebound.theory.order_games`; :mod:`~mistakebound.theory.self_directed` (the learner
  picks), :mod:`~mistakebound.theory.instance_orders` (the best and the worst order fixed in
  advance), :mod:`~mistakebound.theory.transductive` (the adversary announces the sequence);
  ``game_value`` answers each through ``Rules(order=...)``;
* the trees they return: :mod:`~mistakebound.theory.tree_graphs` (the graph types, drawn in
  notebooks), :mod:`~mistakebound.theory.tree_layout` (the layered layout, cut to a width)
  and :mod:`~mistakebound.theory.tree_export` (JSON read back and checked, DOT, TikZ).

All of them take one budget and return one result shape, defined in
:mod:`~mistakebound.theory.search_protocol`.  It imports the game and the foundations, never
verification or the interfaces.
"""

# installs the engine behind ``LdimSearch.bounds(workers=...)``: the search does not
# import the module that drives it
from mistakebound.foundations.lazy import lazy_attributes as _lazy_attributes
from mistakebound.theory import parallel as _parallel  # noqa: F401
# installs the search behind ``game_value(matrix, Rules(order=...))`` (issue 24): game_values does not import
# the order searches, which build on it
from mistakebound.theory import instance_orders as _instance_orders  # noqa: F401

#: The parameters' front doors, imported when first used (``mistakebound.theory.star_bounds``).
_PARAMETERS = {
    "mistakebound.theory.threshold_dimension": ("ThresholdBounds", "ThresholdSequence", "threshold_bounds",
                                                "threshold_sequence"),
    "mistakebound.theory.star_number": ("StarBounds", "largest_star", "star_bounds"),
    "mistakebound.theory.teaching": ("MinTeachingBounds", "RecursiveTeachingBounds", "TeachingBounds", "TeachingLayer",
                                     "TeachingPlan", "TeachingSet", "TeachingSets", "minimum_teaching_set_bounds",
                                     "minimum_teaching_set_size", "recursive_teaching_bounds",
                                     "recursive_teaching_dimension", "smallest_teaching_set", "teaching_dimension",
                                     "teaching_dimension_bounds"),
    "mistakebound.theory.one_inclusion": ("OneInclusionDegree", "Star", "one_inclusion_degree",
                                          "one_inclusion_degree_bounds", "one_inclusion_edges"),
}

__all__: list[str] = sorted(name for names in _PARAMETERS.values() for name in names)
__getattr__, __dir__ = _lazy_attributes(globals(), _PARAMETERS)
