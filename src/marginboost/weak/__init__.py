"""Weak learners on binned features: binning, histogram trees, direct trees, LDA, pools.

Typical use by a boosting engine::

    mapper = BinMapper(max_bins=255).fit(X)
    codes = mapper.transform(X)                     # uint8, Fortran-ordered
    learner = DecisionTree(max_depth=1, criterion="error")
    tree = learner.fit_binary(codes, y, sample_weight)
    h = tree.predict(mapper.transform(X_test))      # +-1
"""

from __future__ import annotations

from .binning import BinMapper, RawFeatures
from .direct import DirectNode, DirectTreeBuilder, DirectTreeState, EdgeObjective, SplitObjective
from .lda import FittedLDA, LDALearner
from .pool import WeakPool
from .tree import DecisionTree, FittedTree

__all__ = [
    "BinMapper",
    "RawFeatures",
    "DecisionTree",
    "FittedTree",
    "DirectTreeBuilder",
    "DirectNode",
    "DirectTreeState",
    "SplitObjective",
    "EdgeObjective",
    "LDALearner",
    "FittedLDA",
    "WeakPool",
]
