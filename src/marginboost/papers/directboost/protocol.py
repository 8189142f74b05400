r"""Protocols of Zhai, Xia, Tan & Wang (2013), "Direct 0-1 loss minimization and margin
maximization with boosting" (DirectBoost).

**Table 1** (Sec. 3.1): ten UCI data sets (:data:`~.settings.DATASETS`: paper name -> registry name
and tree depth).  Each data set is cut at random into 5 equal parts; rotation ``k`` tests on part
``k``, validates on part ``k + 1`` and trains on the other three
(:func:`~marginboost.data.rotated_splits`); mean and std of the percent test error over the 5
rotations.  The same trees (depth from the table) for every method.  Model selection on the
validation part:

* AdaBoost and LogitBoost run until the training loss changes by less than ``1e-6`` in a round
  (capped at ``max_rounds``; the cap is recorded when it binds), then the round with the
  smallest validation error is kept (ties: fewest rounds);
* BrownBoost: the cutoff parameter, read as the target training error
  :math:`\epsilon = 1 - \mathrm{erf}(\sqrt c)`, from :data:`~.settings.BROWNBOOST_GRID`;
* LPBoost (soft margin, column generation until no violated dual constraint, with a safety cap
  of 3000 columns; :data:`~.settings.LPBOOST_CAP_EXCEPTIONS` lists the cells with a lower cap) and
  the three DirectBoost variants: :math:`n'/n` from :data:`~.settings.NPRIME_GRID` (LPBoost's
  :math:`\nu = n'/n`, i.e. :math:`D = 1/n'`).  Ties go to the first grid value.

Where the mirror lacks the paper's file (:data:`~.settings.SUBSTITUTES`): splice is a seeded draw of
1000 of the 3175 DELVE examples, adult a seeded draw of 6414 of the 48842 UCI rows (the paper used
LIBSVM's a5a, 6414 rows of the same census data binarized into 123 features), coded as a5a is
(:data:`~.settings.ENCODINGS`, :func:`~marginboost.data.binarize_adult`).
:func:`~.table1.file_coding_cells` runs the same rows with the file's 14 raw attributes, the
alternative the chapter shows beside the table.

**Table 3** (Sec. 3.2): Long & Servedio's problem (:func:`~marginboost.data.long_servedio`),
:math:`l \in \{5, 20\}`, 1000 training examples with labels flipped at rate
:math:`\eta \in \{0, 0.05, 0.2\}`, clean validation and test sets of 5000; stumps (the
coordinates are the weak classifiers).  **Table 4**: wdbc and ionosphere with 5% and 20% of the
training labels flipped (validation and test clean), the Table 1 protocol otherwise.

**Figure 3**: the bottom-:math:`n'` average margin along the iterations of LPBoost and
DirectBoost^eps_avg on Australian (training part of rotation 0, :math:`n'/n = 0.1`; the paper
states neither), depth-3 trees and stumps.  The full profile runs DirectBoost to its own stop
(the round cap is a safety net far above it) under both readings of the phase-1 stop rule
(:data:`~.figure3.FIGURE3_PHASE1_READINGS`), and every run records its rounds and whether a cap
ended it.

The paper's modules: :mod:`.settings` (its data sets and their coding, the grids and caps, the
rules of DirectBoost's phases and the spec of a cell), :mod:`.table1` (Table 1's grids and the
choices shown beside it), :mod:`.noise` (Tables 3 and 4), :mod:`.figure3` (Figure 3),
:mod:`.reruns` (the capped fits run again with a higher cap) and this one (one method's fit of a
table cell with its model selection, :func:`method_cell`, and :func:`cell_function`).
"""

from __future__ import annotations

import time

import numpy as np

from .figure3 import figure3_cell
from .settings import DIRECT_CHOICES, DIRECT_VARIANTS, METHODS, _cell_data, _rule_params
from .table1 import LPBOOST_TOL

__all__ = [
    "method_cell",
    "cell_function",
]


def _pct_error(model, X, y) -> float:
    return float(100.0 * np.mean(model.predict(X) != y))


def _staged_choice(model, X_val, y_val) -> tuple[int, float]:
    """Round (1-based) with the smallest validation error (ties: fewest rounds)."""
    best_t, best = 0, np.inf
    for t, scores in enumerate(model.staged_decision_function(X_val), start=1):
        err = float(np.mean(np.where(scores > 0, 1.0, -1.0) != y_val))
        if err < best:
            best_t, best = t, err
    return best_t, 100.0 * best


def _fit_stagewise(cls, params, depth, data):
    X, y, Xv, yv, Xt, yt = data
    start = time.perf_counter()
    model = cls(n_estimators=int(params["max_rounds"]), max_depth=depth, tol=1e-6).fit(X, y)
    fitted = model.n_estimators_
    rounds, val_error = _staged_choice(model, Xv, yv)
    model._truncate(rounds)
    return {
        "test_error": _pct_error(model, Xt, yt),
        "validation_error": val_error,
        "chosen": rounds,
        "rounds_fitted": int(fitted),
        "cap_reached": bool(fitted >= int(params["max_rounds"])),
        "train_error": _pct_error(model, X, y),
        "seconds": time.perf_counter() - start,
    }


def _select(models, grid, data) -> dict:
    """The grid value whose model has the smallest validation error (ties: first)."""
    X, y, Xv, yv, Xt, yt = data
    val = [_pct_error(m, Xv, yv) for m in models]
    best = int(np.argmin(val))
    model = models[best]
    return {
        "test_error": _pct_error(model, Xt, yt),
        "validation_error": val[best],
        "chosen": grid[best],
        "validation_errors": val,
        "train_error": _pct_error(model, X, y),
        "rounds_fitted": int(model.n_estimators_),
    }


def method_cell(spec: dict) -> dict:
    """Fit one method of a table cell with its model selection; percent errors.

    Returns ``{method: record}`` (three records for a ``"DirectBoost"`` cell).
    """
    from ...boosting import AdaBoost, BrownBoost, LogitBoost, LPBoost
    from ...boosting.directboost import directboost_variants

    if spec.get("paper") != "directboost":
        raise ValueError(f"method_cell: not a DirectBoost cell: {spec!r}")
    method, params, depth = spec["algorithm"], spec["params"], int(spec["params"]["depth"])
    data = _cell_data(spec)
    X, y = data[0], data[1]
    start = time.perf_counter()
    if method == "AdaBoost":
        return {method: _fit_stagewise(AdaBoost, params, depth, data)}
    if method == "LogitBoost":
        return {method: _fit_stagewise(LogitBoost, params, depth, data)}
    if method == "LPBoost":
        grid = list(params["nprime_grid"])
        models = [
            LPBoost(
                nu=g,
                max_depth=depth,
                n_estimators=int(params["max_rounds"]),
                smoothing=float(params.get("smoothing", 0.0)),
                tol=float(params.get("tol", LPBOOST_TOL)),
            ).fit(X, y)
            for g in grid
        ]
        record = _select(models, grid, data)
        record["converged"] = [bool(m.converged_) for m in models]
    elif method == "BrownBoost":
        grid = list(params["target_grid"])
        models = [
            BrownBoost(target_error=g, max_depth=depth, n_estimators=int(params["max_rounds"])).fit(
                X, y
            )
            for g in grid
        ]
        record = _select(models, grid, data)
    elif method == "DirectBoost":
        grid = list(params["nprime_grid"])
        choices = params.get("choices", DIRECT_CHOICES["v1"])
        # a rerun of capped fits names its variant (CAPPED_RERUN); a table cell fits all three
        variants = tuple(params.get("variants", DIRECT_VARIANTS))
        fitted = directboost_variants(
            X,
            y,
            variants,
            grid,
            max_depth=depth,
            n_estimators=int(params["max_rounds"]),
            **_rule_params(choices),
            **({"n_iter_no_change": choices["patience"]} if "patience" in choices else {}),
        )
        out = {}
        for name in variants:
            models = [fitted[(name, g)] for g in grid]
            record = _select(models, grid, data)
            record["phase1_rounds"] = int(models[0].n_phase1_)
            record["phase1_train_error"] = (
                float(100.0 * models[0].history_["train_error"][models[0].n_phase1_ - 1])
                if models[0].n_phase1_
                else 100.0
            )
            record["stop_reasons"] = [m.stop_reason_ for m in models]
            out[name] = record
        out[variants[0]]["seconds"] = time.perf_counter() - start
        return out
    else:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    record["seconds"] = time.perf_counter() - start
    return {method: record}


def cell_function(spec: dict):
    """The cell function that computed a stored record of this paper."""
    if spec.get("figure") == "figure3":
        return figure3_cell
    if spec.get("table") in ("table1", "table3", "table4"):
        return method_cell
    raise ValueError(f"no directboost cell function for the spec {spec!r}")
