"""Shared by the column-generation tests (MCBoost, MDBoost): small data, the whole stump pool on
it, and an independent cvxpy (Clarabel) solve over the simplex."""

from __future__ import annotations

import cvxpy as cp
import numpy as np


def small_data(seed: int, n: int = 60, d: int = 3):
    """Noisy linear labels in {-1, +1} on features rounded to one decimal (few thresholds)."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 1)
    y = np.where(X[:, 0] - 0.7 * X[:, 1] + 0.6 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def stump_pool(X, y):
    """y_i h(x_i) for every stump ``sign * (x_f > t)`` (thresholds between distinct values),
    both signs, and the two constant classifiers (a stump whose leaves agree): the whole
    hypothesis space of depth-1 trees on X."""
    columns = [y.astype(float), -y.astype(float)]
    for f in range(X.shape[1]):
        values = np.unique(X[:, f])
        for t in (values[:-1] + values[1:]) / 2:
            h = np.where(X[:, f] > t, 1.0, -1.0)
            columns += [y * h, -y * h]
    return np.unique(np.column_stack(columns), axis=1)


def simplex_optimum(A, objective):
    """``objective(rho)`` (a cvxpy ``Minimize``/``Maximize`` of the margins ``rho = A w``)
    over ``w >= 0``, ``sum w = 1``, solved by Clarabel; returns ``(optimal value, w)``."""
    w = cp.Variable(A.shape[1], nonneg=True)
    problem = cp.Problem(objective(A @ w), [cp.sum(w) == 1])
    problem.solve(solver="CLARABEL")
    assert problem.status == "optimal"
    return float(problem.value), np.asarray(w.value)


def converged_margins(model, X, y):
    """Fit ``model`` (a column-generation booster) on ``(X, y)``, check that it converged with
    weights summing to 1, and return its normalized training margins."""
    model.fit(X, y)
    assert model.converged_
    assert abs(model.alphas_.sum() - 1.0) <= 1e-9
    return y * model.decision_function(X)
