r"""Weighted Fisher linear discriminant as a weak learner (Shen & Li 2010, Sec. 4.1).

Shen & Li use "weighted linear discriminant analysis" as the weak learner of their Tables VI
and VII and state that "to avoid singularity :math:`10^{-4} I` is added to the within-class
scatter matrix".  The rest is not specified; this module makes the following choices.

With non-negative sample weights normalized to :math:`p_i = w_i / \sum_j w_j`:

* class masses :math:`P_\pm = \sum_{y_i = \pm 1} p_i`, weighted class means
  :math:`m_\pm = \sum_{y_i = \pm 1} p_i x_i / P_\pm`;
* weighted within-class scatter :math:`S_w = \sum_i p_i (x_i - m_{y_i})(x_i - m_{y_i})^\top`
  (the pooled covariance of scikit-learn's LDA when the weights are uniform), plus
  ``ridge * I``;
* direction :math:`v = (S_w + \text{ridge}\, I)^{-1} (m_+ - m_-)`;
* the hypothesis is :math:`h(x) = s \cdot \operatorname{sign}(v^\top x - t)` (``+s`` when
  :math:`v^\top x > t`).  The threshold :math:`t` (a midpoint between consecutive distinct
  projections of the training samples) and the polarity :math:`s \in \{+1,-1\}` are those
  maximizing the weighted edge :math:`\sum_i w_i y_i h(x_i)`, i.e. minimizing the weighted
  training error.  This is never worse than the midpoint of the projected class means, which
  is one of the candidates up to where it falls between projections.  Ties go to
  ``s = +1``, then to the smallest threshold.

Normalizing the weights makes the ridge act the same whatever their scale (boosting
distributions sum to one, as in the paper).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["LDALearner", "FittedLDA"]


@dataclass(frozen=True, eq=False)
class FittedLDA:
    r"""A fitted weighted-LDA hypothesis ``h(x) = polarity * sign(x @ direction_ - threshold_)``.

    Returned by :meth:`LDALearner.fit_binary`; immutable.

    Parameters
    ----------
    direction\_, threshold\_, polarity\_, n_features_in\_
        Stored as the attributes below.

    Attributes
    ----------
    direction_ : ndarray of shape (n_features,)
        The discriminant direction :math:`v = (S_w + \mathrm{ridge}\, I)^{-1}(m_+ - m_-)`.
    threshold_ : float
        The threshold :math:`t` on the projection :math:`v^\top x`.
    polarity_ : float
        :math:`+1` or :math:`-1`: the label predicted when :math:`v^\top x > t`.
    n_features_in_ : int
        Number of features the hypothesis was fitted on.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import LDALearner
    >>> X = np.array([[0.0, 0.0], [1.0, 0.2], [3.0, 0.1], [4.0, 0.3]])
    >>> h = LDALearner().fit_binary(X, np.array([-1, -1, 1, 1]))
    >>> h.n_features_in_, h.polarity_
    (2, 1.0)
    >>> h.predict(np.array([[0.5, 0.0], [3.5, 0.0]]))
    array([-1.,  1.])
    """

    direction_: NDArray[np.float64]
    threshold_: float
    polarity_: float
    n_features_in_: int

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Signed distance ``polarity * (x @ direction - threshold)`` (positive -> class +1)."""
        X = _check_X(X, "X")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features but the LDA was fitted on {self.n_features_in_}"
            )
        return self.polarity_ * (X @ self.direction_ - self.threshold_)

    def predict(self, X: ArrayLike) -> NDArray[np.float64]:
        """+1 / -1 prediction of every row of ``X``."""
        return np.where(self.decision_function(X) > 0, 1.0, -1.0)


class LDALearner:
    """Weighted Fisher LDA weak learner with a scaled-identity ridge (see the module docstring).

    Parameters
    ----------
    ridge : float, default 1e-4
        Multiple of the identity added to the within-class scatter (Shen & Li 2010, Sec. 4.1).

    Notes
    -----
    Shen & Li (2010a) boost "weighted linear discriminant analysis" in their Tables VI and
    VII and add :math:`10^{-4} I` to the within-class scatter; the weighted class means, the
    scatter and the choice of the threshold that minimises the weighted training error are
    this package's reading (:mod:`marginboost.weak.lda`).  The learner keeps no fitted state:
    :meth:`fit_binary` returns a :class:`FittedLDA`.  The boosting estimators give it the raw
    features instead of bin codes (``uses_raw_features``).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import LDALearner
    >>> X = np.array([[0.0, 0.0], [1.0, 0.2], [3.0, 0.1], [4.0, 0.3]])
    >>> LDALearner().fit_binary(X, np.array([-1, -1, 1, 1])).predict(X)
    array([-1., -1.,  1.,  1.])
    """

    #: Boosting estimators hand this learner the raw features, not bin codes.
    uses_raw_features = True

    def __init__(self, ridge: float = 1e-4) -> None:
        self.ridge = ridge

    def __repr__(self) -> str:
        return f"LDALearner(ridge={self.ridge})"

    def fit_binary(
        self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
    ) -> FittedLDA:
        """Fit to raw features ``X`` (n, d), labels ``y`` in {-1,+1}, weights >= 0."""
        ridge = self.ridge
        if not isinstance(ridge, numbers.Real) or not np.isfinite(ridge) or ridge < 0:
            raise ValueError(f"ridge must be a finite number >= 0; got {ridge!r}")
        X = _check_X(X, "X")
        n, d = X.shape
        y = np.asarray(y, dtype=np.float64)
        if y.shape != (n,):
            raise ValueError(f"y must have shape ({n},) to match X; got {y.shape}")
        if (np.abs(y) != 1.0).any():
            raise ValueError(f"y must contain only -1 and +1; found {y[np.abs(y) != 1.0][0]!r}")
        if sample_weight is None:
            weight = np.ones(n)
        else:
            weight = np.asarray(sample_weight, dtype=np.float64)
            if weight.shape != (n,):
                raise ValueError(f"sample_weight must have shape ({n},); got {weight.shape}")
            if not np.isfinite(weight).all():
                raise ValueError("sample_weight contains NaN or inf")
            if (weight < 0).any():
                raise ValueError("sample_weight must be non-negative for LDA")
        if weight.sum() <= 0:
            raise ValueError("sample_weight is all zero")
        p = weight / weight.sum()
        positive = y > 0
        mass_pos, mass_neg = p[positive].sum(), p[~positive].sum()
        if mass_pos <= 0 or mass_neg <= 0:
            raise ValueError("both classes need positive total weight to fit an LDA direction")
        mean_pos = p[positive] @ X[positive] / mass_pos
        mean_neg = p[~positive] @ X[~positive] / mass_neg
        centered = X - np.where(positive[:, None], mean_pos, mean_neg)
        scatter = (centered * p[:, None]).T @ centered + ridge * np.eye(d)
        try:
            direction = np.linalg.solve(scatter, mean_pos - mean_neg)
        except np.linalg.LinAlgError as exc:
            raise ValueError("within-class scatter is singular; use ridge > 0") from exc
        threshold, polarity = best_threshold(X @ direction, y, weight)
        direction.setflags(write=False)
        return FittedLDA(direction, threshold, polarity, d)


def best_threshold(
    projection: NDArray[np.float64], y: NDArray[np.float64], weight: NDArray[np.float64]
) -> tuple[float, float]:
    r"""Threshold ``t`` and polarity ``s`` maximizing :math:`\sum_i w_i y_i s\,\mathrm{sign}(z_i - t)`.

    Candidates are the midpoints between consecutive distinct projections and one value below
    all of them (the constant hypothesis ``s``).  Ties: ``s = +1``, then the smallest ``t``.
    """
    order = np.argsort(projection, kind="stable")
    z, g = projection[order], (weight * y)[order]
    distinct_end = np.flatnonzero(np.diff(z) > 0)  # last index of each run of equal z
    below = np.concatenate([[0.0], np.cumsum(g)[distinct_end]])  # sum of g at or below t
    total = g.sum()
    edges_pos = total - 2.0 * below  # s = +1: +1 above t, -1 at or below
    candidates = np.concatenate([edges_pos, -edges_pos])
    best = int(np.argmax(candidates))
    n_cuts = edges_pos.size
    cut, polarity = (best, 1.0) if best < n_cuts else (best - n_cuts, -1.0)
    if cut == 0:
        threshold = float(z[0] - max(1.0, abs(z[0])))
    else:
        lower, upper = z[distinct_end[cut - 1]], z[distinct_end[cut - 1] + 1]
        threshold = float((lower + upper) / 2.0)
        if threshold >= upper:
            threshold = float(lower)
    return threshold, polarity


def _check_X(X: ArrayLike, name: str) -> NDArray[np.float64]:
    array = np.asarray(X, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array; got shape {array.shape}")
    if not np.isfinite(array).all():
        column = int(np.flatnonzero(~np.isfinite(array).all(axis=0))[0])
        raise ValueError(f"{name} column {column} contains NaN or inf")
    return array
