"""Adversary-specific behaviour: applicability, parameters, and what each presents."""

from __future__ import annotations

import pytest

from mistakebound import play, shattered_tree
from mistakebound.game import classes
from mistakebound.adversaries import (
    BasisVectorForcer,
    BinarySearchThreshold,
    ObliviousCoin,
    OppositeLabel,
    ShatteredTreeWalker,
)
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.learners import SOA, Halving


def test_basis_vector_forcer_applies_only_to_domains_with_basis_vectors():
    assert BasisVectorForcer().applies_to(classes.monotone_disjunctions(3))
    assert BasisVectorForcer().applies_to(classes.parities(2))
    assert not BasisVectorForcer().applies_to(classes.thresholds(5))
    H = classes.thresholds(5)
    with pytest.raises(NotApplicableError, match="BasisVectorForcer"):
        play(Halving(H), BasisVectorForcer(), H, rounds=3, seed=0)


def test_basis_vector_forcer_presents_unit_vectors_in_order():
    H = classes.monotone_disjunctions(3)
    T = play(Halving(H), BasisVectorForcer(), H, rounds=10, seed=0)
    assert T.xs == ((1, 0, 0), (0, 1, 0), (0, 0, 1))


def test_opposite_label_only_presents_disagreements_and_stops():
    H = classes.thresholds(7)
    T = play(SOA(H), OppositeLabel(), H, rounds=100, seed=0)
    assert all(r.mistake for r in T.rounds)
    for t, r in enumerate(T.rounds):  # each instance is the first the version space still splits
        V = [h for h in range(H.n_hypotheses) if all(H.label(h, q.x) == q.y for q in T.rounds[:t])]
        split = [x for x in H.domain if len({H.label(h, x) for h in V}) == 2]
        assert r.x == split[0]
    assert len(T.version_space) == 1  # it stops only once nothing splits the version space


def test_tree_walker_accepts_a_given_tree_and_refuses_a_foreign_one():
    H = classes.thresholds(7)
    tree = shattered_tree(H)
    assert play(Halving(H), ShatteredTreeWalker(tree), H, rounds=10, seed=0).mistakes == 3
    G = classes.singletons(7)
    assert not ShatteredTreeWalker(tree).applies_to(G)
    with pytest.raises(NotApplicableError):
        play(Halving(G), ShatteredTreeWalker(tree), G, rounds=10, seed=0)


def test_binary_search_on_other_classes_picks_the_most_even_split():
    H = classes.singletons(6)
    T = play(Halving(H), BinarySearchThreshold(), H, rounds=1, seed=0)
    assert T.xs == (1,)  # every instance splits 1 vs 5; the first in domain order is taken


def test_oblivious_coin_validates_its_parameter():
    with pytest.raises((ValueError, InvalidArgumentError)):
        ObliviousCoin(labels="dice")


def test_oblivious_coin_target_labels_follow_one_hypothesis():
    H = classes.intervals(6)
    T = play(Halving(H), ObliviousCoin(labels="target"), H, rounds=40, seed=2)
    assert T.best_hypothesis_mistakes == 0
