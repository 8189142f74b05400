"""numba kernels of the discrete multi-class boosters (AdaBoost.M1, SAMME; private).

A round adds :math:`\\alpha_t` to the score of each sample's predicted class.  The training
error of ``argmax_k f(x, k)`` is kept up to date from the one column each sample's score
changed in, instead of an argmax over all K columns every round.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def add_votes(scores, predicted, alpha, leader, y):
    """``scores[i, predicted[i]] += alpha``; update ``leader`` (= ``argmax(scores, axis=1)``).

    Exact for ``alpha >= 0``: only column ``predicted[i]`` of row ``i`` grows, so the row's
    first largest score is either the old leader or that column (the lower index on a tie,
    as ``numpy.argmax``).  Returns the number of rows whose leader is not ``y[i]``.  Callers
    recompute ``leader`` with ``numpy.argmax`` when ``alpha < 0``.
    """
    n_wrong = 0
    for i in range(scores.shape[0]):
        p = predicted[i]
        scores[i, p] += alpha
        b = leader[i]
        if p != b and (scores[i, p] > scores[i, b] or (scores[i, p] == scores[i, b] and p < b)):
            leader[i] = p
        if leader[i] != y[i]:
            n_wrong += 1
    return n_wrong
