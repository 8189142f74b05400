r"""Protocols of Guo & Chen, "Margin distribution controlled boosting" (MCBoost).

**Table 1** (Sec. 5): the 13 binary benchmarks of Rätsch et al. (:data:`DATASETS`: the
paper's name -> registry name), decision stumps for every method.  Each data set is split at
random into 60% training, 20% validation and 20% test (10/30/60 for ringnorm, twonorm and
waveform; :func:`~marginboost.data.mcboost_splits`); the paper repeats this 50 times (10 for
the three large sets).  Methods and model selection on the validation part (:data:`METHODS`):

* ``MC``: :class:`~marginboost.boosting.MCBoost`, column generation with
  :math:`\varepsilon = 10^{-5}` and at most ``n_max`` columns, :math:`E` from
  :data:`E_GRID`; among equal validation errors the *largest* :math:`E` (the paper's rule);
* ``AB`` and ``L2B``: :class:`~marginboost.boosting.AdaBoost` and
  :class:`~marginboost.boosting.L2Boost`, up to ``max_rounds`` = 1000 rounds; the *smallest*
  round count with the lowest validation error (the paper's rule);
* ``LP`` (soft-margin LPBoost, :math:`\nu` from :data:`NU_GRID`), ``AB-CG``
  (:math:`1/T` from :data:`INVERSE_T_GRID`) and ``MD`` (:class:`~marginboost.boosting.MDBoost`,
  :math:`D` from :data:`D_GRID`): column generation with :math:`\varepsilon = 10^{-5}`; the
  paper does not say how their parameters were chosen, we take the grid value with the lowest
  validation error (ties: the first).

The grids are ours (the paper states none).  Every cell also keeps what Figures 3 and 4 need:
the cumulative distribution of the chosen model's normalized training margins (``MC``, ``AB``,
``L2B``) and train/test errors after :data:`CURVE_ITERATIONS` iterations (``MC`` at its
chosen :math:`E`, ``AB`` over its full run).

**Table 2**: the one-tailed Wilcoxon signed-rank test of MCBoost against each baseline over
the per-data-set mean test errors (:func:`wilcoxon_z`).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ...data import load, mcboost_splits
from ...experiments.grids import dataset_fingerprint
from ...experiments.profiles import check_profile as _check_profile
from ...experiments.store import experiment_spec
from ...margins import cumulative_margin_distribution, margin_mean_variance

__all__ = [
    "PROTOCOL_VERSION",
    "DATASETS",
    "SUBSTITUTES",
    "METHODS",
    "E_GRID",
    "D_GRID",
    "NU_GRID",
    "INVERSE_T_GRID",
    "CURVE_ITERATIONS",
    "MARGIN_GRID",
    "WILCOXON_CRITICAL",
    "FIGURE_DATASETS",
    "table1_settings",
    "table1_cells",
    "table1_cell",
    "load_split",
    "table1_frame",
    "wilcoxon_z",
    "table2_frame",
    "margin_curves",
    "error_curves",
    "cell_function",
]

PROTOCOL_VERSION = "mcboost-v1"

#: The paper's data set names (Table 1 order) -> registry names.
DATASETS = {
    "banana": "ida_banana",
    "b-cancer": "ida_breast_cancer",
    "diabetes": "pima",
    "f-solar": "ida_flare_solar",
    "german": "ida_german",
    "heart": "ida_heart_realisation1",
    "image": "ida_image",
    "ringnorm": "ida_ringnorm_realisation1",
    "splice": "ida_splice",
    "thyroid": "ida_thyroid",
    "titanic": "ida_titanic",
    "twonorm": "ida_twonorm",
    "waveform": "ida_waveform",
}
#: How our files differ from the Rätsch benchmark the paper used.
SUBSTITUTES = {
    "diabetes": "Rätsch's diabetis is the Pima Indians data: PMLB pima (768 x 8)",
    "heart": "no pooled file: realisation 1's training and test files, which hold all 270 rows",
    "ringnorm": "no pooled file: realisation 1's training and test files, which hold all 7400 rows",
    "splice": "pooled 1000 + 2175 = 3175 DELVE examples",
}
#: Table 1's columns, in order.
METHODS = ("MC", "AB", "L2B", "LP", "AB-CG", "MD")
#: Desired margins E tried for MCBoost (the paper: "E in (0, 1)", grid not stated).
E_GRID = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
#: Variance weights D tried for MDBoost.
D_GRID = (1.0, 3.0, 10.0, 30.0, 100.0)
#: Soft-margin LPBoost's nu = n'/M tried (as in the DirectBoost protocol, without its most
#: expensive 0.01).  Where no combination has a positive average of its nu*M smallest margins,
#: the LP optimum is 0, attained by the degenerate pair (h, -h) whose scores are all zero; the
#: larger nu keep a non-degenerate model within reach of the validation step.
NU_GRID = (0.05, 0.1, 0.2, 0.5, 0.8)
#: AdaBoost-CG's 1/T tried (a subset of Shen & Li's grid).
INVERSE_T_GRID = (10, 20, 50, 100)
#: Iterations at which the Figure 4 error curves are recorded.
CURVE_ITERATIONS = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000)
#: Points at which the cumulative margin distributions of Figure 3 are recorded.
MARGIN_GRID = tuple(float(x) for x in np.round(np.linspace(-1.0, 1.0, 101), 10))
#: One-tailed 5% critical value of the standard normal (the paper's 1.645).
WILCOXON_CRITICAL = 1.6448536269514722
#: The six data sets of our Figures 3 and 4 (the paper names breast-cancer, german, ringnorm).
FIGURE_DATASETS = ("b-cancer", "german", "ringnorm", "heart", "diabetes", "titanic")
_SALT = 2012


def _check_dataset(name: str) -> str:
    if name not in DATASETS:
        raise ValueError(f"unknown MCBoost data set {name!r}; expected one of {list(DATASETS)}")
    return name


def load_split(paper_name: str, repetition: int):
    """``(X, y, split)`` of one repetition: labels in {-1, +1} and the seeded random split.

    Repetition ``k`` is the ``k``-th split drawn from the data set's own seeded stream, so it is
    the same whatever the number of repetitions a profile runs.
    """
    _check_dataset(paper_name)
    repetition = int(repetition)
    if repetition < 0:
        raise ValueError(f"repetition must be >= 0, got {repetition}")
    ds = load(DATASETS[paper_name])
    X, y = ds.X, ds.y_signed()
    split = mcboost_splits(
        X.shape[0],
        paper_name,
        n_repeats=repetition + 1,
        seed=[_SALT, list(DATASETS).index(paper_name)],
    )[repetition]
    return X, y, split


_FULL = {
    "repetitions": 50,
    "repetitions_large": 10,
    "max_rounds": 1000,
    "n_max": 1000,
    "epsilon": 1e-5,
    "E_grid": list(E_GRID),
    "D_grid": list(D_GRID),
    "nu_grid": list(NU_GRID),
    "inverse_T_grid": list(INVERSE_T_GRID),
}
_QUICK = {
    "repetitions": 1,
    "repetitions_large": 1,
    "max_rounds": 100,
    "n_max": 100,
    "epsilon": 1e-5,
    "E_grid": [0.1, 0.3, 0.6],
    "D_grid": [3.0, 30.0],
    "nu_grid": [0.1, 0.5],
    "inverse_T_grid": [20, 50],
}
#: The paper's numbers of repetitions (50; 10 for ringnorm, twonorm, waveform).
PAPER_REPETITIONS = {
    name: (10 if name in ("ringnorm", "twonorm", "waveform") else 50) for name in DATASETS
}


def table1_settings(profile: str) -> dict:
    """Data sets, repetitions, round caps and grids of Table 1.

    The ``full`` profile runs the paper's protocol: 50 repetitions on the ten smaller data sets
    and 10 on ringnorm, twonorm and waveform (:data:`PAPER_REPETITIONS`), 530 cells of six
    methods with their grids.  ``quick`` runs one repetition of four small sets with short runs
    and small grids.
    """
    _check_profile(profile)
    if profile == "full":
        return {"datasets": list(DATASETS), **_FULL}
    return {"datasets": ["b-cancer", "heart", "thyroid", "german"], **_QUICK}


def _repetitions(name: str, settings: dict) -> int:
    large = name in ("ringnorm", "twonorm", "waveform")
    return int(settings["repetitions_large" if large else "repetitions"])


def _params(method: str, s: dict) -> dict:
    if method in ("AB", "L2B"):
        return {"max_rounds": s["max_rounds"]}
    base = {"n_max": s["n_max"], "epsilon": s["epsilon"]}
    grid = {"MC": "E_grid", "LP": "nu_grid", "AB-CG": "inverse_T_grid", "MD": "D_grid"}[method]
    return {**base, grid: list(s[grid])}


def table1_cells(profile: str) -> list[dict]:
    """One cell per data set, repetition and method."""
    s = table1_settings(profile)
    cells = []
    for name in s["datasets"]:
        registry = DATASETS[name]
        large = name in ("ringnorm", "twonorm", "waveform")
        split_name = "split-10-30-60" if large else "split-60-20-20"
        for rep in range(_repetitions(name, s)):
            for method in METHODS:
                cells.append(
                    experiment_spec(
                        algorithm=method,
                        params=_params(method, s),
                        dataset=registry,
                        dataset_sha256=dataset_fingerprint(registry),
                        protocol=f"{PROTOCOL_VERSION}/{split_name}",
                        fold=rep,
                        seed=rep,
                        profile=profile,
                        table="table1",
                        paper="mcboost",
                        paper_dataset=name,
                    )
                )
    return cells


# ---- one cell -----------------------------------------------------------------------------
def _pct(model, X, y) -> float:
    return float(100.0 * np.mean(model.predict(X) != y))


def _staged_pct(model, X, y) -> list[float]:
    """Percent error after every round/iteration of ``model``."""
    return [
        float(100.0 * np.mean(np.where(s > 0, 1.0, -1.0) != y))
        for s in model.staged_decision_function(X)
    ]


def _at_iterations(errors: list[float]) -> list[float]:
    """``errors`` at :data:`CURVE_ITERATIONS` (past the end: the last value, as the model
    stops changing once column generation has converged)."""
    return [errors[min(t, len(errors)) - 1] for t in CURVE_ITERATIONS]


def _margin_record(model, X, y) -> dict:
    margins = model.margins(X, y)
    mean, variance = margin_mean_variance(margins)
    _, cdf = cumulative_margin_distribution(margins, MARGIN_GRID)
    return {"margin_mean": mean, "margin_variance": variance, "margin_cdf": cdf.tolist()}


def _stagewise(cls, params, data) -> dict:
    """AdaBoost / L2Boost: the smallest round count with the lowest validation error."""
    X, y, Xv, yv, Xt, yt = data
    model = cls(n_estimators=int(params["max_rounds"])).fit(X, y)
    val = _staged_pct(model, Xv, yv)
    curves = {
        "train_curve": _at_iterations(_staged_pct(model, X, y)),
        "test_curve": _at_iterations(_staged_pct(model, Xt, yt)),
    }
    rounds = int(np.argmin(val)) + 1  # argmin returns the first (smallest) minimizer
    fitted = int(model.n_estimators_)
    model._truncate(rounds)
    return {
        "test_error": _pct(model, Xt, yt),
        "validation_error": val[rounds - 1],
        "train_error": _pct(model, X, y),
        "chosen": rounds,
        "rounds_fitted": fitted,
        **_margin_record(model, X, y),
        **curves,
    }


def _column_generation(make, grid, data, *, largest_on_ties: bool) -> tuple:
    """Fit one model per grid value; keep the one with the lowest validation error."""
    X, y, Xv, yv, Xt, yt = data
    models = [make(value).fit(X, y) for value in grid]
    val = np.array([_pct(m, Xv, yv) for m in models])
    ties = np.flatnonzero(val == val.min())
    best = int(ties[-1] if largest_on_ties else ties[0])
    model = models[best]
    record = {
        "test_error": _pct(model, Xt, yt),
        "validation_error": float(val[best]),
        "train_error": _pct(model, X, y),
        "chosen": grid[best],
        "validation_errors": val.tolist(),
        "test_errors": [_pct(m, Xt, yt) for m in models],
        "n_iterations": int(model.n_iterations_),
        "n_active": int(np.count_nonzero(model.alphas_ > 1e-9)),
        "converged": [bool(m.converged_) for m in models],
        "iterations": [int(m.n_iterations_) for m in models],
    }
    return model, record


def table1_cell(spec: dict) -> dict:
    """Fit one method on one repetition with its model selection; percent errors."""
    from ...boosting import AdaBoost, AdaBoostCG, L2Boost, LPBoost, MCBoost, MDBoost

    if spec.get("paper") != "mcboost" or spec.get("table") != "table1":
        raise ValueError(f"table1_cell: not an MCBoost Table 1 cell: {spec!r}")
    method, params = spec["algorithm"], spec["params"]
    X, y, split = load_split(spec["paper_dataset"], spec["seed"])
    data = (
        X[split.train],
        y[split.train],
        X[split.validation],
        y[split.validation],
        X[split.test],
        y[split.test],
    )
    start = time.perf_counter()
    if method == "AB":
        record = _stagewise(AdaBoost, params, data)
    elif method == "L2B":
        record = _stagewise(L2Boost, params, data)
    elif method in ("MC", "LP", "AB-CG", "MD"):
        cg: dict[str, Any] = {"n_estimators": int(params["n_max"]), "tol": float(params["epsilon"])}
        makers = {
            "MC": ("E_grid", lambda v: MCBoost(E=v, **cg)),
            "LP": ("nu_grid", lambda v: LPBoost(nu=v, **cg)),
            "AB-CG": ("inverse_T_grid", lambda v: AdaBoostCG(T=1.0 / v, **cg)),
            "MD": ("D_grid", lambda v: MDBoost(D=v, **cg)),
        }
        key, make = makers[method]
        model, record = _column_generation(
            make, list(params[key]), data, largest_on_ties=(method == "MC")
        )
        record.update(_margin_record(model, data[0], data[1]))
        if method == "MC":
            record["train_curve"] = _at_iterations(_staged_pct(model, data[0], data[1]))
            record["test_curve"] = _at_iterations(_staged_pct(model, data[4], data[5]))
    else:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    record["seconds"] = time.perf_counter() - start
    record["n_train"] = int(split.train.size)
    return record


def cell_function(spec: dict):
    """The cell function that computed a stored record of this paper."""
    if spec.get("table") == "table1":
        return table1_cell
    if spec.get("figure") in ("figure1", "figure2"):
        from .figures import cell_function as figures_cell_function

        return figures_cell_function(spec)
    raise ValueError(f"no mcboost cell function for the spec {spec!r}")


# ---- summaries ----------------------------------------------------------------------------
def table1_frame(cells: list[dict], metrics: list[dict]):
    """Table 1 in long format: ``dataset, algorithm, metric, mean, std, n_runs`` (percent test
    error; sample std over the repetitions)."""
    import pandas as pd

    frame = pd.DataFrame(
        [(c["paper_dataset"], c["algorithm"], m["test_error"]) for c, m in zip(cells, metrics)],
        columns=["dataset", "algorithm", "value"],
    )
    out = (
        frame.groupby(["dataset", "algorithm"], sort=False)["value"]
        .agg(
            mean="mean",
            std=lambda v: float(np.std(v, ddof=1)) if len(v) > 1 else np.nan,
            n_runs="count",
        )
        .reset_index()
    )
    out.insert(2, "metric", "test_error")
    return out


def wilcoxon_z(ours: np.ndarray, baseline: np.ndarray) -> dict:
    r"""One-tailed Wilcoxon signed-rank statistic that ``ours`` has the lower errors.

    Differences ``baseline - ours`` equal to zero are dropped (Wilcoxon's convention), the
    absolute differences ranked with average ranks for ties, :math:`W^+` is the rank sum of the
    positive differences and

    .. math:: z = \frac{W^+ - n(n+1)/4}{\sqrt{n(n+1)(2n+1)/24}}

    with :math:`n` the number of non-zero differences (normal approximation, no continuity or
    tie correction: with these choices the Table 1 means reproduce the paper's Table 2 to
    within 0.03).  ``z > 1.645`` rejects "no difference" at the one-tailed 5% level.

    Returns ``{"z", "w_plus", "n", "p_value"}``.
    """
    from scipy.stats import norm, rankdata

    a = np.asarray(ours, dtype=np.float64)
    b = np.asarray(baseline, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(
            f"wilcoxon_z needs two 1-D arrays of the same length, got shapes "
            f"{a.shape} and {b.shape}"
        )
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError("wilcoxon_z: the errors must be finite numbers")
    d = b - a
    d = d[np.abs(d) > 1e-12]
    n = int(d.size)
    if n == 0:
        return {"z": float("nan"), "w_plus": 0.0, "n": 0, "p_value": float("nan")}
    ranks = rankdata(np.abs(d))
    w_plus = float(ranks[d > 0].sum())
    z = (w_plus - n * (n + 1) / 4.0) / np.sqrt(n * (n + 1) * (2 * n + 1) / 24.0)
    return {"z": float(z), "w_plus": w_plus, "n": n, "p_value": float(norm.sf(z))}


def table2_frame(means) -> object:
    """Table 2 in long format from a wide table of mean errors (rows: data sets, columns:
    :data:`METHODS`): ``dataset`` = the baseline, ``algorithm`` = ``"MC"``, ``metric`` =
    ``"z_statistic"``, ``mean`` = z, plus ``n`` and ``significant`` (z > 1.645)."""
    import pandas as pd

    rows = []
    for baseline in METHODS[1:]:
        if baseline not in means:
            continue
        pair = means[["MC", baseline]].dropna()
        stat = wilcoxon_z(pair["MC"].to_numpy(), pair[baseline].to_numpy())
        rows.append(
            {
                "baseline": baseline,
                "z": stat["z"],
                "n": stat["n"],
                "w_plus": stat["w_plus"],
                "significant": bool(stat["z"] > WILCOXON_CRITICAL),
            }
        )
    return pd.DataFrame(rows)


def margin_curves(cells: list[dict], metrics: list[dict], datasets, methods=("MC", "AB", "L2B")):
    """Mean cumulative training-margin distribution per data set and method (Figure 3):
    ``{(dataset, method): array over MARGIN_GRID}``."""
    out: dict = {}
    for cell, metric in zip(cells, metrics):
        key = (cell["paper_dataset"], cell["algorithm"])
        if key[0] in datasets and key[1] in methods:
            out.setdefault(key, []).append(metric["margin_cdf"])
    return {key: np.mean(np.asarray(value), axis=0) for key, value in out.items()}


def error_curves(cells: list[dict], metrics: list[dict], datasets, methods=("MC", "AB")):
    """Mean train/test error at :data:`CURVE_ITERATIONS` per data set and method (Figure 4):
    ``{(dataset, method): (train array, test array)}``."""
    out: dict = {}
    for cell, metric in zip(cells, metrics):
        key = (cell["paper_dataset"], cell["algorithm"])
        if key[0] in datasets and key[1] in methods:
            out.setdefault(key, []).append((metric["train_curve"], metric["test_curve"]))
    return {
        key: (np.mean([v[0] for v in value], axis=0), np.mean([v[1] for v in value], axis=0))
        for key, value in out.items()
    }
