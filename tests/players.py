"""Players shared by the tests."""

from __future__ import annotations

from attrs import define, field

from mistakebound import HypothesisClass

__all__ = ["VoteFraction"]


@define
class VoteFraction:
    """A randomized learner: p = the fraction of the version space labelling x with 1.

    Its state is the version space (``state_key``), so the exact searches can use it;
    on an empty version space (unrealizable games only) it predicts 1/2.
    """

    H: HypothesisClass
    V: int = field(init=False)

    def __attrs_post_init__(self):
        self.V = self.H.full_mask

    def predict_proba_one(self, x):
        size = self.V.bit_count()
        return (self.V & self.H.column_masks[self.H.index_of(x)]).bit_count() / size if size else 0.5

    def learn_one(self, x, y):
        ones = self.V & self.H.column_masks[self.H.index_of(x)]
        self.V = ones if y else self.V ^ ones

    def state_key(self):
        return self.V
