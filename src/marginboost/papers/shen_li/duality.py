r"""The numerical checks of Shen & Li's (2010) primal/dual pairs (Sec. 3) as stored cells.

Every pair of the paper (and MCBoost's, Guo & Chen Sec. 4) is solved twice, primal and dual
independently, on the stumps of a seeded sample of rows of two of the paper's data sets
(:func:`duality_instance`); one cell is one pair, one data set and one value of the pair's
parameter, and one more cell per data set follows the LPBoost form (15) to :math:`T \to 0`
(Sec. 3.5).  The cells go through the paper's result store like every grid cell, so a book
build with the records committed only loads them; the solver's values are then the same on
every machine (the last digits of a residual of :math:`10^{-10}` are solver round-off and
differ between machines when recomputed).

A cell's metrics hold the whole :class:`~marginboost.duality.VerifyResult` (optimal values,
gap, residuals and the optimal points), which :func:`verify_result` rebuilds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ... import duality
from ...data import load
from ...experiments.grids import dataset_fingerprint
from ...experiments.profiles import check_profile
from ...experiments.store import experiment_spec
from ...weak import BinMapper, WeakPool

__all__ = [
    "DUALITY_DATASETS",
    "DUALITY_PAIRS",
    "TEMPERATURES",
    "duality_settings",
    "duality_instance",
    "duality_cells",
    "duality_cell",
    "zero_temperature_cells",
    "zero_temperature_cell",
    "zero_temperature_result",
    "verify_result",
]

#: Protocol of the cells (the rows, the stumps and the solvers).
DUALITY_PROTOCOL = "shen_li-v1/duality-rows"
#: The paper's names of the two data sets and their registry names.
DUALITY_DATASETS = {"breast-cancer": "breast-cancer_scale", "australian": "australian_scale"}
#: The seed of the rows drawn from each data set.
DUALITY_SEED = 2010
#: The temperatures of the zero-temperature limit of (15).
TEMPERATURES = (1.0, 0.1, 0.01, 0.001)


def _adaboost_l1(H, y, v, s):
    return duality.verify_adaboost_l1(H, y, v, s)


def _unnormalized(H, y, v, s):
    return duality.verify_adaboost_unnormalized(H, y, v, s)


def _lpboost_form(H, y, v, s):
    return duality.verify_adaboost_lpboost_form(H, y, v, s)


def _gibbs(H, y, v, s):
    return duality.verify_gibbs_free_energy(H, y, v, s)


def _logitboost(H, y, v, s):
    return duality.verify_logitboost(H, y, v, s)


def _hard_margin(H, y, v, s):
    return duality.verify_hard_margin_lpboost(H, y, s)


def _soft_margin(H, y, v, s):
    return duality.verify_soft_margin_lpboost(H, y, v, s)


def _squared_hinge(H, y, v, s):
    return duality.verify_squared_hinge_lpboost(H, y, v, s)


def _generalized_hinge(H, y, v, s):
    return duality.verify_generalized_hinge_lpboost(H, y, 0.2, v, s)


def _mcboost(H, y, v, s):
    return duality.verify_mcboost(H, y, v, s)


#: Every pair: its name, the symbol of its parameter, the two values checked (``None``: the pair
#: has no parameter) and the function that solves both problems with a given cvxpy solver.
DUALITY_PAIRS: tuple[tuple[str, str, tuple, Callable[..., Any]], ...] = (
    ("AdaBoost-l1 (5)/(10)", "T", (0.5, 0.1), _adaboost_l1),
    ("exp. loss / (14)", "T", (0.5, 0.1), _unnormalized),
    ("(5) / LPBoost form (15)", "T", (0.5, 0.1), _lpboost_form),
    ("Gibbs (17)/(18)", "T", (0.5, 0.1), _gibbs),
    ("LogitBoost (32)/(31)", "T", (0.5, 0.1), _logitboost),
    ("hard-margin LPBoost (19)/(20)", "-", (None,), _hard_margin),
    ("soft-margin LPBoost (21)/(22)", "D", (0.05, 0.2), _soft_margin),
    ("squared hinge / (27)", "D", (0.2, 1.0), _squared_hinge),
    ("generalized hinge / (28)", "p", (1.5, 3.0), _generalized_hinge),
    ("MCBoost", "E", (0.3, 1.0), _mcboost),
)


def duality_settings(profile: str) -> dict:
    """The rows drawn from each data set: 200 in the full profile, 60 in the quick one."""
    check_profile(profile)
    return {"n_rows": 200 if profile == "full" else 60, "seed": DUALITY_SEED}


def duality_instance(name: str, n_rows: int, seed: int = DUALITY_SEED):
    """``(H, y)``: the outputs of every distinct decision stump (on 255-bin codes) on
    ``n_rows`` seeded rows of the data set ``name``, and their labels in {-1, +1}."""
    data = load(name)
    y_all = data.y_signed()
    rows = np.sort(np.random.default_rng(seed).choice(y_all.size, size=n_rows, replace=False))
    X, y = data.X[rows], y_all[rows]
    codes = BinMapper().fit(X).transform(X)
    return WeakPool.all_stumps(codes).matrix(codes).astype(np.float64), y


def _spec(profile: str, algorithm: str, label: str, params: dict) -> dict:
    settings = duality_settings(profile)
    name = DUALITY_DATASETS[label]
    return experiment_spec(
        algorithm=algorithm,
        params={**params, "n_rows": settings["n_rows"]},
        dataset=name,
        dataset_sha256=dataset_fingerprint(name),
        protocol=DUALITY_PROTOCOL,
        fold=0,
        seed=settings["seed"],
        profile=profile,
        figure="duality-checks",
        paper_dataset=label,
    )


def duality_cells(profile: str) -> list[dict]:
    """One cell per pair, data set and parameter value, in the order of :data:`DUALITY_PAIRS`
    (then the data sets, then the values)."""
    return [
        _spec(profile, pair, label, {"parameter": symbol, "value": value})
        for pair, symbol, values, _ in DUALITY_PAIRS
        for label in DUALITY_DATASETS
        for value in values
    ]


def _plain(point: dict) -> dict:
    return {k: np.asarray(v).tolist() for k, v in point.items()}


def duality_cell(spec: dict) -> dict:
    """Solve one pair's primal and dual on the spec's instance with Clarabel (SCS when Clarabel
    reports an inaccurate solve); the metrics hold the whole result (:func:`verify_result`)."""
    verify = {pair: fn for pair, _, _, fn in DUALITY_PAIRS}[spec["algorithm"]]
    H, y = duality_instance(spec["dataset"], spec["params"]["n_rows"], spec["seed"])
    value = spec["params"]["value"]
    try:
        result = verify(H, y, value, "CLARABEL")
    except duality.DualitySolverError:
        result = verify(H, y, value, "SCS")
    return {
        "name": result.name,
        "primal": float(result.primal),
        "dual": float(result.dual),
        "gap": float(result.gap),
        "kkt_residual": float(result.kkt_residual),
        "constraint_violation": float(result.constraint_violation),
        "primal_point": _plain(result.primal_point),
        "dual_point": _plain(result.dual_point),
        "solver": result.solver,
        "extras": {
            k: (np.asarray(v).tolist() if isinstance(v, np.ndarray) else v)
            for k, v in result.extras.items()
        },
        "extras_arrays": sorted(k for k, v in result.extras.items() if isinstance(v, np.ndarray)),
    }


def verify_result(metrics: dict) -> duality.VerifyResult:
    """The :class:`~marginboost.duality.VerifyResult` of a stored :func:`duality_cell`."""
    arrays = set(metrics["extras_arrays"])
    return duality.VerifyResult(
        metrics["name"],
        metrics["primal"],
        metrics["dual"],
        metrics["gap"],
        metrics["kkt_residual"],
        metrics["constraint_violation"],
        {k: np.asarray(v) for k, v in metrics["primal_point"].items()},
        {k: np.asarray(v) for k, v in metrics["dual_point"].items()},
        metrics["solver"],
        {k: (np.asarray(v) if k in arrays else v) for k, v in metrics["extras"].items()},
    )


def zero_temperature_cells(profile: str) -> list[dict]:
    """One cell per data set: the LPBoost form (15) at :data:`TEMPERATURES` and at ``T = 0``."""
    return [
        _spec(profile, "zero-temperature limit (15)", label, {"temperatures": list(TEMPERATURES)})
        for label in DUALITY_DATASETS
    ]


def zero_temperature_cell(spec: dict) -> dict:
    """:func:`marginboost.duality.zero_temperature_limit` on the spec's instance."""
    H, y = duality_instance(spec["dataset"], spec["params"]["n_rows"], spec["seed"])
    limit = duality.zero_temperature_limit(H, y, spec["params"]["temperatures"])
    return {
        k: (np.asarray(v).tolist() if isinstance(v, np.ndarray) else float(v))
        for k, v in limit.items()
    }


def zero_temperature_result(metrics: dict) -> dict:
    """The dict of :func:`marginboost.duality.zero_temperature_limit` (arrays per temperature,
    ``hard_margin`` a float) rebuilt from a stored :func:`zero_temperature_cell`."""
    return {k: (np.asarray(v) if isinstance(v, list) else v) for k, v in metrics.items()}
