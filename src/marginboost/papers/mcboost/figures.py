r"""Protocols of Guo & Chen, "Margin Distribution Controlled Boosting" (MCBoost), Figs. 1-2.

**Figure 1** (claim C6): MCBoost (their eq. (12), column generation, Algorithm 1) on a 2-D toy
problem of 800 points, 60% for training and 40% for test, with :math:`\varepsilon = 10^{-5}`
and :math:`N_{\max} = 1000`, for a range of desired margins :math:`E \in (0, 1)`; the panels are
the data, the cumulative training-margin distributions, training and test error, the number of
iterations (= base classifiers), and the mean and the variance of the normalized training
margins, all against :math:`E`.  The paper does not describe its toy generator; we use
:func:`marginboost.data.mcboost_toy` (uniform points in :math:`[-1, 1]^2`, a disc of half the
area as the positive class, 10% of the labels flipped), an assumption.  One cell per
:math:`E` and repetition; repetition ``r`` draws its own toy data set (seed
``[2011, 0, r]``) and its own 60/40 split (seed ``[2011, 1, r]``).  Repetition 0 is the one
the figure is drawn from; the further repetitions (full profile) are our addition, to show how
much the optimal :math:`E` moves with the sample.

**Figure 2** (claim C7): discrete AdaBoost with decision stumps on breast-cancer (the Raetsch
version, ``ida_breast_cancer``), one random 60/40 train/test split (seed ``[2011, 2, r]``),
``n_rounds`` rounds; at a set of round counts the cell records the cumulative distribution,
mean and (population) variance of the normalized training margins
:math:`y_i F_T(x_i) / \sum_{t \le T} |\alpha_t|` and the training and test errors.  One
AdaBoost run gives every checkpoint (AdaBoost is deterministic: its first ``T`` rounds are a
``T``-round run).  Split 0 is the paper's single split; further splits are our addition.

Errors are fractions of examples with margin :math:`y_i F(x_i) \le 0` (a zero score counts as
an error, as in MCBoost's ``history_``), reported in percent.
"""

from __future__ import annotations

import numpy as np

from ...data import load, mcboost_toy, random_splits
from ...experiments.grids import dataset_fingerprint
from ...experiments.profiles import check_profile as _check_profile
from ...experiments.store import experiment_spec
from ...margins import cumulative_margin_distribution, margin_mean_variance, normalized_margins

__all__ = [
    "PROTOCOL_VERSION",
    "FIGURE2_DATASET",
    "CDF_GRID_POINTS",
    "FULL_E_GRID",
    "FIGURE2_CHECKPOINTS",
    "cdf_grid",
    "figure1_settings",
    "figure1_cells",
    "figure1_data",
    "figure1_cell",
    "figure1_frame",
    "figure1_claims",
    "figure2_settings",
    "figure2_cells",
    "figure2_split",
    "figure2_cell",
    "figure2_claims",
    "cell_function",
]

PROTOCOL_VERSION = "mcboost-figures-v1"
#: Registry name of the data set of Figure 2 (paper name: breast-cancer).
FIGURE2_DATASET = "ida_breast_cancer"
#: Points of the fixed grid on [-1, 1] on which cumulative margin distributions are recorded.
CDF_GRID_POINTS = 101
#: Active base classifiers: weight above this (as ``boosting.column_generation.ACTIVE_WEIGHT``).
ACTIVE_WEIGHT = 1e-9

_SALT = 2011  # first entry of every seed: the random streams of this paper's figures
_TOY_STREAM, _TOY_SPLIT_STREAM, _FIGURE2_SPLIT_STREAM = 0, 1, 2
_FRACTIONS = (0.6, 0.0, 0.4)  # train / validation / test: the paper's 60% / 40%
#: The full profile's grid of E: 0.05, 0.10, ..., 0.90.
FULL_E_GRID = tuple(round(0.05 * k, 2) for k in range(1, 19))
#: Round counts at which Figure 2's distributions are recorded (those <= n_rounds are used).
FIGURE2_CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


def cdf_grid(n_points: int = CDF_GRID_POINTS) -> np.ndarray:
    """The fixed margin grid of the recorded cumulative distributions: ``n_points`` on [-1, 1]."""
    return np.linspace(-1.0, 1.0, int(n_points))


def _margin_summary(margins: np.ndarray, n_grid: int) -> dict:
    mean, variance = margin_mean_variance(margins)
    _, cdf = cumulative_margin_distribution(margins, cdf_grid(n_grid))
    return {
        "mean_margin": mean,
        "margin_variance": variance,
        "min_margin": float(margins.min()),
        "cdf": cdf.tolist(),
    }


# ---- Figure 1: MCBoost on the toy problem for a range of E ----------------------------------
def figure1_settings(profile: str) -> dict:
    """Grid of E, repetitions (toy data set + split each), N_max, epsilon, toy size and noise.

    Full: E = 0.05, 0.10, ..., 0.90 and 10 repetitions; quick: four values of E and one
    repetition (a few seconds in all).  Both use the paper's N_max = 1000 and epsilon = 1e-5.
    """
    _check_profile(profile)
    common = {
        "n_max": 1000,
        "epsilon": 1e-5,
        "n_samples": 800,
        "label_noise": 0.1,
        "cdf_grid_points": CDF_GRID_POINTS,
    }
    if profile == "full":
        return {"E_grid": list(FULL_E_GRID), "n_repeats": 10, **common}
    return {"E_grid": [0.1, 0.3, 0.5, 0.9], "n_repeats": 1, **common}


def figure1_cells(profile: str) -> list[dict]:
    """One MCBoost cell per repetition and E (repetition-major, E ascending)."""
    s = figure1_settings(profile)
    cells = []
    for rep in range(s["n_repeats"]):
        for E in s["E_grid"]:
            cells.append(
                experiment_spec(
                    algorithm="MCBoost",
                    params={"E": float(E), "n_estimators": s["n_max"], "epsilon": s["epsilon"]},
                    dataset="mcboost_toy",
                    dataset_sha256="generated",
                    protocol=f"{PROTOCOL_VERSION}/toy-split-60-40",
                    fold=rep,
                    seed=rep,
                    profile=profile,
                    figure="figure1",
                    n_samples=s["n_samples"],
                    label_noise=s["label_noise"],
                    cdf_grid_points=s["cdf_grid_points"],
                )
            )
    return cells


def figure1_data(spec: dict):
    """The toy data set and the 60/40 split of a Figure 1 cell: ``(dataset, split)``."""
    rep = int(spec["seed"])
    n = int(spec["n_samples"])
    ds = mcboost_toy(n, seed=[_SALT, _TOY_STREAM, rep], label_noise=float(spec["label_noise"]))
    split = random_splits(n, _FRACTIONS, 1, seed=[_SALT, _TOY_SPLIT_STREAM, rep])[0]
    return ds, split


def figure1_cell(spec: dict) -> dict:
    """MCBoost with one E on the training part of one toy data set.

    Returns ``train_error`` and ``test_error`` (percent), ``n_iterations`` (column-generation
    iterations = base classifiers generated), ``n_active`` (base classifiers with weight
    > 1e-9), ``converged`` and ``stop_reason``, ``mean_margin``, ``margin_variance`` and
    ``min_margin`` of the normalized training margins, ``cdf`` (their cumulative distribution
    on :func:`cdf_grid`), ``weight_sum`` (the l1 norm of the weights, 1 up to rounding) and
    ``n_train`` / ``n_test``.
    """
    from ...boosting import MCBoost

    if spec.get("figure") != "figure1":
        raise ValueError(f"figure1_cell: spec is not a Figure 1 cell: {spec!r}")
    if spec.get("algorithm") != "MCBoost":
        raise ValueError(
            f"figure1_cell: unknown algorithm {spec.get('algorithm')!r}; expected 'MCBoost'"
        )
    ds, split = figure1_data(spec)
    X, y = ds.X, ds.y_signed()
    tr, te = split.train, split.test
    params = spec["params"]
    model = MCBoost(
        E=float(params["E"]), n_estimators=int(params["n_estimators"]), tol=float(params["epsilon"])
    ).fit(X[tr], y[tr])
    alphas = np.asarray(model.alphas_, dtype=float)
    margins = normalized_margins(y[tr], model.decision_function(X[tr]), alphas)
    test_margins = y[te] * model.decision_function(X[te])
    return {
        "train_error": 100.0 * float(np.mean(margins <= 0)),
        "test_error": 100.0 * float(np.mean(test_margins <= 0)),
        "n_iterations": int(model.n_iterations_),
        "n_active": int(np.count_nonzero(alphas > ACTIVE_WEIGHT)),
        "converged": bool(model.converged_),
        "stop_reason": str(model.stop_reason_),
        "weight_sum": float(np.abs(alphas).sum()),
        "n_train": int(tr.size),
        "n_test": int(te.size),
        **_margin_summary(margins, int(spec["cdf_grid_points"])),
    }


# ---- Figure 2: AdaBoost's margin distribution on breast-cancer vs rounds ---------------------
def figure2_settings(profile: str) -> dict:
    """Rounds, checkpoints, path points and splits.

    Full: 1000 rounds (the paper's maximum number of iterations elsewhere in Sec. 5; Fig. 2's
    is not stated), 10 splits; quick: 100 rounds, 2 splits.
    """
    _check_profile(profile)
    if profile == "full":
        n_rounds, n_repeats, n_path = 1000, 10, 60
    else:
        n_rounds, n_repeats, n_path = 100, 2, 25
    return {
        "n_rounds": n_rounds,
        "n_repeats": n_repeats,
        "n_path": n_path,
        "checkpoints": [t for t in FIGURE2_CHECKPOINTS if t <= n_rounds],
        "cdf_grid_points": CDF_GRID_POINTS,
    }


def figure2_cells(profile: str) -> list[dict]:
    """One AdaBoost cell per 60/40 split (split 0 is the paper's single split)."""
    s = figure2_settings(profile)
    sha = dataset_fingerprint(FIGURE2_DATASET)
    return [
        experiment_spec(
            algorithm="AdaBoost",
            params={"n_estimators": s["n_rounds"]},
            dataset=FIGURE2_DATASET,
            dataset_sha256=sha,
            protocol=f"{PROTOCOL_VERSION}/split-60-40",
            fold=rep,
            seed=rep,
            profile=profile,
            figure="figure2",
            paper_dataset="breast-cancer",
            checkpoints=list(s["checkpoints"]),
            n_path=s["n_path"],
            cdf_grid_points=s["cdf_grid_points"],
        )
        for rep in range(s["n_repeats"])
    ]


def figure2_split(n_samples: int, seed: int):
    """The 60/40 split of Figure 2's repetition ``seed``."""
    return random_splits(n_samples, _FRACTIONS, 1, seed=[_SALT, _FIGURE2_SPLIT_STREAM, seed])[0]


def figure2_cell(spec: dict) -> dict:
    """One AdaBoost run on one split, read at every checkpoint and along a log-spaced path.

    Returns ``n_rounds_fitted``, ``stop_reason``, ``n_train``, ``n_test``, ``checkpoints``
    (``{"T": {"mean_margin", "margin_variance", "min_margin", "cdf", "train_error",
    "test_error"}}``, errors in percent, margins normalized by the l1 norm of the first ``T``
    weights) and ``path`` (``rounds``, ``mean_margin``, ``margin_variance``, ``train_error``,
    ``test_error`` at ``n_path`` log-spaced round counts).
    """
    from ...boosting import AdaBoost

    if spec.get("figure") != "figure2":
        raise ValueError(f"figure2_cell: spec is not a Figure 2 cell: {spec!r}")
    if spec.get("algorithm") != "AdaBoost":
        raise ValueError(
            f"figure2_cell: unknown algorithm {spec.get('algorithm')!r}; expected 'AdaBoost'"
        )
    ds = load(spec["dataset"])
    X, y = ds.X, ds.y_signed()
    split = figure2_split(X.shape[0], int(spec["seed"]))
    tr, te = split.train, split.test
    n_rounds = int(spec["params"]["n_estimators"])
    model = AdaBoost(n_estimators=n_rounds).fit(X[tr], y[tr])
    fitted = int(model.n_estimators_)
    l1 = np.cumsum(np.abs(np.asarray(model.alphas_, dtype=float)))
    path_rounds = np.unique(np.geomspace(1, n_rounds, int(spec["n_path"])).round().astype(int))
    wanted = {int(t) for t in spec["checkpoints"]} | {int(t) for t in path_rounds}
    n_grid = int(spec["cdf_grid_points"])
    stages = {}
    for t, (train_scores, test_scores) in enumerate(
        zip(model.staged_decision_function(X[tr]), model.staged_decision_function(X[te])), start=1
    ):
        if t in wanted:
            margins = normalized_margins(y[tr], train_scores, l1[t - 1])
            stages[t] = {
                **_margin_summary(margins, n_grid),
                "train_error": 100.0 * float(np.mean(margins <= 0)),
                "test_error": 100.0 * float(np.mean(y[te] * test_scores <= 0)),
            }
    checkpoints = {str(int(t)): stages[int(t)] for t in spec["checkpoints"] if int(t) in stages}
    path = [t for t in path_rounds.tolist() if t in stages]
    return {
        "n_rounds_fitted": fitted,
        "stop_reason": str(model.stop_reason_),
        "n_train": int(tr.size),
        "n_test": int(te.size),
        "checkpoints": checkpoints,
        "path": {
            "rounds": path,
            **{
                key: [stages[t][key] for t in path]
                for key in ("mean_margin", "margin_variance", "train_error", "test_error")
            },
        },
    }


# ---- summaries: the paper's qualitative claims, computed from the numbers --------------------
def figure1_frame(cells: list[dict], metrics: list[dict]):
    """One row per Figure 1 cell: repetition, E, errors (%), iterations, active classifiers,
    and the mean, variance and minimum of the normalized training margins."""
    import pandas as pd

    keys = (
        "train_error",
        "test_error",
        "n_iterations",
        "n_active",
        "mean_margin",
        "margin_variance",
        "min_margin",
    )
    return pd.DataFrame(
        [
            {"repetition": c["fold"], "E": float(c["params"]["E"]), **{k: m[k] for k in keys}}
            for c, m in zip(cells, metrics)
        ]
    )


def _monotone(values, direction: str) -> bool:
    steps = np.diff(np.asarray(values, dtype=float))
    return bool(np.all(steps <= 0) if direction == "down" else np.all(steps >= 0))


def figure1_claims(frame) -> dict:
    """The claims of Figure 1 evaluated on the rows of ONE repetition (any order of E).

    ``optimal_E``: the E with the lowest test error, ties to the largest E (the paper's rule,
    Sec. 5); ``iterations_nonincreasing``: the number of iterations never increases with E;
    ``iterations_spearman``: Spearman correlation of iterations and E;
    ``iterations_max_increase``: the largest increase of the iterations from one E to the next
    (0 when they never increase);
    ``mean_margin_nondecreasing`` / ``variance_nondecreasing``: the mean / variance of the
    training margins never decrease with E (paper: small E gives a small mean and variance,
    large E a large mean and variance); ``large_E_underfits``: every E >= 0.5 has a larger
    training error and a larger test error than the optimal E (False when the optimum is itself
    >= 0.5); ``small_E_overfits``: the smallest E has a smaller training error and a larger test
    error than the optimal E; ``min_train_error``: the smallest training error over the grid (%).
    """
    from scipy import stats

    f = frame.sort_values("E").reset_index(drop=True)
    if f["repetition"].nunique() != 1:
        raise ValueError(
            "figure1_claims: pass the rows of one repetition; got repetitions "
            f"{sorted(f['repetition'].unique())}"
        )
    best = f["test_error"].min()
    opt = f[f["test_error"] == best].iloc[-1]  # ties -> the largest E
    large = f[f["E"] >= 0.5]
    smallest = f.iloc[0]
    underfits = bool(
        opt["E"] < 0.5
        and len(large) > 0
        and (large["train_error"] > opt["train_error"]).all()
        and (large["test_error"] > opt["test_error"]).all()
    )
    overfits = bool(
        smallest["E"] < opt["E"]
        and smallest["train_error"] < opt["train_error"]
        and smallest["test_error"] > opt["test_error"]
    )
    rho = stats.spearmanr(f["E"], f["n_iterations"]).statistic if len(f) > 2 else float("nan")
    return {
        "optimal_E": float(opt["E"]),
        "test_error_at_optimum": float(opt["test_error"]),
        "train_error_at_optimum": float(opt["train_error"]),
        "iterations_at_optimum": int(opt["n_iterations"]),
        "iterations_nonincreasing": _monotone(f["n_iterations"], "down"),
        "iterations_spearman": float(rho),
        "iterations_max_increase": int(max(0, np.diff(f["n_iterations"]).max(initial=0))),
        "mean_margin_nondecreasing": _monotone(f["mean_margin"], "up"),
        "variance_nondecreasing": _monotone(f["margin_variance"], "up"),
        "large_E_underfits": underfits,
        "small_E_overfits": overfits,
        "min_train_error": float(f["train_error"].min()),
    }


def _settled(rounds, values) -> int:
    """The first round of the path after which ``values`` never increase again."""
    ups = np.flatnonzero(np.diff(np.asarray(values, dtype=float)) > 0)
    return int(rounds[ups[-1] + 1]) if ups.size else int(rounds[0])


def figure2_claims(metric: dict) -> dict:
    """The claims of Figure 2 evaluated on one AdaBoost run (one split).

    ``mean_decreasing`` / ``variance_decreasing``: the mean / variance of the normalized
    training margins never increase from one checkpoint to the next; ``*_path_increases``: the
    number of steps of the log-spaced path where it does increase, and ``*_path_settled``
    the round from which on it never increases along the path; ``first_*`` / ``last_*``:
    the values at the first and last checkpoint; ``best_test_error`` and ``best_test_round``:
    the lowest test error over the checkpoints and where (the earliest), ``last_test_error``.
    """
    points = sorted(metric["checkpoints"], key=int)
    means = [metric["checkpoints"][t]["mean_margin"] for t in points]
    variances = [metric["checkpoints"][t]["margin_variance"] for t in points]
    tests = [metric["checkpoints"][t]["test_error"] for t in points]
    best = int(np.argmin(tests))
    path = metric["path"]
    return {
        "mean_decreasing": _monotone(means, "down"),
        "variance_decreasing": _monotone(variances, "down"),
        "mean_path_increases": int(np.sum(np.diff(path["mean_margin"]) > 0)),
        "variance_path_increases": int(np.sum(np.diff(path["margin_variance"]) > 0)),
        "mean_path_settled": _settled(path["rounds"], path["mean_margin"]),
        "variance_path_settled": _settled(path["rounds"], path["margin_variance"]),
        "first_round": int(points[0]),
        "last_round": int(points[-1]),
        "first_mean": float(means[0]),
        "last_mean": float(means[-1]),
        "first_variance": float(variances[0]),
        "last_variance": float(variances[-1]),
        "best_test_error": float(tests[best]),
        "best_test_round": int(points[best]),
        "last_test_error": float(tests[-1]),
    }


def cell_function(spec: dict):
    """The cell function that computed a stored Figure 1 or Figure 2 record."""
    figure = spec.get("figure") if isinstance(spec, dict) else None
    if figure == "figure1":
        return figure1_cell
    if figure == "figure2":
        return figure2_cell
    raise ValueError(
        f"no mcboost figure cell function for the spec {spec!r}; expected "
        "figure 'figure1' or 'figure2'"
    )
