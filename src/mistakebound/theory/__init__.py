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
from mistakebound.theory import parallel as _parallel  # noqa: F401
# installs the search behind ``game_value(matrix, Rules(order=...))`` (issue 24): game_values does not import
# the order searches, which build on it
from mistakebound.theory import instance_orders as _instance_orders  # noqa: F401

__all__: list[str] = []
