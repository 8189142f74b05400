r"""Protocols of Shen & Li (2010), "On the dual formulation of boosting algorithms", Figs. 3-4.

**Figure 3** (Lemma 3.1, claim C6): normal probability plots of AdaBoost's normalized training
margins (eq. (34)) with 50 and with 1100 decision stumps on ``australian``, with their excess
kurtosis (paper: -0.056 and -0.34).  The paper says only "we run AdaBoost with decision stumps on
the dataset australian", so:

* the **reference cell** trains on the whole data set (690 examples) -- training margins need no
  held-out part, and no split is stated;
* as our addition, ``n_repeats`` further cells train on the 70% training part of random
  70/15/15 splits (the protocol of the paper's Sec. 4), to show how much the kurtosis moves with
  the training sample.

One AdaBoost run of ``max(n_weak)`` rounds gives every checkpoint: AdaBoost is deterministic, so
its first 50 rounds are exactly a 50-round run.

**Figure 4** (claim C9): cumulative distributions of the normalized training margins of
AdaBoost, AdaBoost-QP (eq. (41)) and Arc-Gv on ``breast-cancer`` with decision stumps, and their
test errors (paper: 0.029, 0.027, 0.058).  The caption states 600 rounds for AdaBoost and Arc-Gv;
AdaBoost-QP follows Sec. 4.1 (Table II):

* random 70/15/15 train/validation/test splits (:func:`marginboost.data.shen_li_splits`),
  ``n_repeats`` of them; the figure's curves are drawn from split 0;
* AdaBoost and Arc-Gv: ``n_rounds`` rounds on the training part, no early stopping;
* AdaBoost-QP: solved on the pool of the stumps of an ``n_pool``-round AdaBoost run on the
  training part (Table II: 1500), :math:`T` chosen on the validation part from the paper's grid
  :math:`\{1/10, \dots, 1/500\}`; ties go to the first value in the paper's order (the largest
  :math:`T`).
"""

from __future__ import annotations

import numpy as np

from ...data import load, shen_li_splits
from ...experiments.grids import dataset_fingerprint
from ...experiments.profiles import check_profile as _check_profile
from ...experiments.store import experiment_spec
from .table2_3 import table2_cell, table3_cell
from .table4_figure5 import table4_cell
from .table5_8 import table5_cell, table7_cell

__all__ = [
    "PROTOCOL_VERSION",
    "FIGURE3_DATASET",
    "FIGURE4_DATASET",
    "paper_split",
    "FIGURE4_ALGORITHMS",
    "ALGORITHM_LABELS",
    "figure3_settings",
    "figure3_cells",
    "figure3_cell",
    "figure3_summary",
    "figure4_settings",
    "figure4_cells",
    "figure4_cell",
    "figure4_summary",
    "figure4_claims",
    "cell_function",
]

PROTOCOL_VERSION = "shen_li-v1"
#: Registry name of the data set of Figure 3 (paper name: australian).
FIGURE3_DATASET = "australian_scale"
#: Registry name of the data set of Figure 4 (paper name: breast-cancer).
FIGURE4_DATASET = "breast-cancer_scale"
#: Algorithms of Figure 4, in the paper's order.
FIGURE4_ALGORITHMS = ("AdaBoost", "AdaBoostQP", "ArcGv")
#: Our class names -> the paper's labels (as in the target file).
ALGORITHM_LABELS = {"AdaBoost": "AdaBoost", "AdaBoostQP": "AdaBoost-QP", "ArcGv": "Arc-Gv"}
#: The paper's grid of 1/T for AdaBoost-QP (Sec. 4.1).
PAPER_INVERSE_T_GRID = (10, 20, 30, 40, 50, 100, 200, 500)

_SPLIT_SALT = 2010  # second entry of every split seed: the split stream of this paper


def paper_split(n_samples: int, seed: int):
    """The 70/15/15 split of repetition ``seed`` of the paper's protocol (one permutation
    stream per repetition).

    Parameters
    ----------
    n_samples : int
        Number of examples of the data set.
    seed : int
        The repetition.

    Returns
    -------
    Split
        Index arrays ``train``, ``validation`` and ``test``.

    Examples
    --------
    >>> from marginboost.papers.shen_li.protocol import paper_split
    >>> split = paper_split(100, 0)
    >>> len(split.train), len(split.validation), len(split.test)
    (70, 15, 15)
    """
    return shen_li_splits(n_samples, 1, seed=[seed, _SPLIT_SALT])[0]


# ---- Figure 3: Gaussianity of AdaBoost's margins ---------------------------------------------
def figure3_settings(profile: str) -> dict:
    """Checkpoints (numbers of stumps), extra 70% training subsets and kurtosis-path points.

    Both profiles use the paper's 50 and 1100 stumps (one run takes well under a second); the
    quick profile uses fewer random training subsets and path points.
    """
    _check_profile(profile)
    if profile == "full":
        return {"n_weak": [50, 1100], "n_repeats": 10, "n_points": 30}
    return {"n_weak": [50, 1100], "n_repeats": 2, "n_points": 12}


def figure3_cells(profile: str) -> list[dict]:
    """The whole-data cell (fold 0) and one cell per 70% training subset (folds 0..n-1)."""
    s = figure3_settings(profile)
    sha = dataset_fingerprint(FIGURE3_DATASET)
    common = {
        "algorithm": "AdaBoost",
        "params": {"n_estimators": max(s["n_weak"])},
        "dataset": FIGURE3_DATASET,
        "dataset_sha256": sha,
        "profile": profile,
        "figure": "figure3",
        "paper_dataset": "australian",
        "n_weak": list(s["n_weak"]),
        "n_points": s["n_points"],
    }
    cells = [experiment_spec(protocol=f"{PROTOCOL_VERSION}/whole-data", fold=0, seed=0, **common)]
    for rep in range(s["n_repeats"]):
        cells.append(
            experiment_spec(
                protocol=f"{PROTOCOL_VERSION}/train-70-of-70-15-15", fold=rep, seed=rep, **common
            )
        )
    return cells


def _figure3_rows(spec: dict) -> np.ndarray:
    n = load(spec["dataset"]).X.shape[0]
    if spec["protocol"].endswith("/whole-data"):
        return np.arange(n)
    if spec["protocol"].endswith("/train-70-of-70-15-15"):
        return paper_split(n, spec["seed"]).train
    raise ValueError(
        f"figure3_cell: unknown protocol {spec['protocol']!r}; expected "
        f"'{PROTOCOL_VERSION}/whole-data' or '{PROTOCOL_VERSION}/train-70-of-70-15-15'"
    )


def _margin_statistics(margins: np.ndarray) -> dict:
    from scipy import stats

    (_, _), (slope, intercept, r) = stats.probplot(margins, dist="norm")
    return {
        "excess_kurtosis": float(stats.kurtosis(margins, fisher=True)),
        "skewness": float(stats.skew(margins)),
        "probplot_r": float(r),
        "probplot_slope": float(slope),
        "probplot_intercept": float(intercept),
        "min_margin": float(margins.min()),
        "mean_margin": float(margins.mean()),
        "std_margin": float(margins.std()),
        "train_error": float(np.mean(margins <= 0)),
    }


def figure3_cell(spec: dict) -> dict:
    """Normalized training margins of one AdaBoost run at each checkpoint, with their statistics.

    Returns ``{"n_rounds_fitted", "stop_reason", "n_train", "checkpoints": {"50": {...}, ...},
    "kurtosis_path": {"rounds", "excess_kurtosis"}}``; each checkpoint holds the margins (in
    example order) and :func:`scipy.stats.kurtosis` (Fisher: 0 for a Gaussian), skewness, the
    correlation ``probplot_r`` of the normal probability plot (:func:`scipy.stats.probplot`),
    and minimum / mean / standard deviation of the margins.
    """
    from scipy import stats

    from ...boosting import AdaBoost

    if spec.get("figure") != "figure3":
        raise ValueError(f"figure3_cell: spec is not a Figure 3 cell: {spec!r}")
    ds = load(spec["dataset"])
    rows = _figure3_rows(spec)
    X, y = ds.X[rows], ds.y_signed()[rows]
    n_rounds = int(spec["params"]["n_estimators"])
    model = AdaBoost(n_estimators=n_rounds).fit(X, y)
    fitted = int(model.n_estimators_)
    path_rounds = np.unique(np.geomspace(1, n_rounds, int(spec["n_points"])).round().astype(int))
    wanted = {int(t) for t in spec["n_weak"]} | {int(t) for t in path_rounds}
    l1 = np.cumsum(np.abs(model.alphas_))
    staged = {}
    for t, scores in enumerate(model.staged_decision_function(X), start=1):
        if t in wanted:
            staged[t] = y * scores / l1[t - 1]
    checkpoints = {}
    for t in spec["n_weak"]:
        if int(t) in staged:
            margins = staged[int(t)]
            checkpoints[str(int(t))] = {"margins": margins.tolist(), **_margin_statistics(margins)}
    path = [t for t in path_rounds.tolist() if t in staged]
    return {
        "n_rounds_fitted": fitted,
        "stop_reason": str(model.stop_reason_),
        "n_train": int(rows.size),
        "checkpoints": checkpoints,
        "kurtosis_path": {
            "rounds": path,
            "excess_kurtosis": [float(stats.kurtosis(staged[t])) for t in path],
        },
    }


def figure3_summary(cells: list[dict], metrics: list[dict]):
    """One row per cell and checkpoint: training sample, stumps and the margin statistics."""
    import pandas as pd

    rows = []
    for cell, metric in zip(cells, metrics):
        sample = (
            "whole data set"
            if cell["protocol"].endswith("/whole-data")
            else f"70% split {cell['fold']}"
        )
        for n_weak, values in metric["checkpoints"].items():
            rows.append(
                {
                    "sample": sample,
                    "n_train": metric["n_train"],
                    "n_weak": int(n_weak),
                    **{k: v for k, v in values.items() if k != "margins"},
                }
            )
    return pd.DataFrame(rows)


# ---- Figure 4: cumulative margins of AdaBoost, AdaBoost-QP and Arc-Gv ------------------------
def figure4_settings(profile: str) -> dict:
    """Rounds, splits, AdaBoost-QP pool size and its grid of 1/T for a profile."""
    _check_profile(profile)
    if profile == "full":
        return {
            "n_rounds": 600,
            "n_repeats": 10,
            "n_pool": 1500,
            "inverse_T_grid": list(PAPER_INVERSE_T_GRID),
        }
    return {"n_rounds": 100, "n_repeats": 1, "n_pool": 100, "inverse_T_grid": [10, 50, 200]}


def figure4_cells(profile: str) -> list[dict]:
    """One cell per split and algorithm (AdaBoost, AdaBoost-QP, Arc-Gv)."""
    s = figure4_settings(profile)
    sha = dataset_fingerprint(FIGURE4_DATASET)
    cells = []
    for rep in range(s["n_repeats"]):
        for algorithm in FIGURE4_ALGORITHMS:
            if algorithm == "AdaBoostQP":
                params = {
                    "pool": "adaboost",
                    "n_pool": s["n_pool"],
                    "inverse_T_grid": list(s["inverse_T_grid"]),
                }
            else:
                params = {"n_estimators": s["n_rounds"]}
            cells.append(
                experiment_spec(
                    algorithm=algorithm,
                    params=params,
                    dataset=FIGURE4_DATASET,
                    dataset_sha256=sha,
                    protocol=f"{PROTOCOL_VERSION}/split-70-15-15",
                    fold=rep,
                    seed=rep,
                    profile=profile,
                    figure="figure4",
                    paper_dataset="breast-cancer",
                )
            )
    return cells


def figure4_cell(spec: dict) -> dict:
    """Test error and normalized training margins of one algorithm on one 70/15/15 split.

    Returns ``test_error``, ``validation_error``, ``train_error``, ``min_margin``,
    ``mean_margin``, ``margins`` (training margins in example order) and ``n_hypotheses`` (weak
    hypotheses with a non-zero weight); for AdaBoost-QP also ``inverse_T`` (the chosen 1/T) and
    ``validation_errors`` (one per grid value).
    """
    from ...boosting import AdaBoost, AdaBoostQP, ArcGv

    if spec.get("figure") != "figure4":
        raise ValueError(f"figure4_cell: spec is not a Figure 4 cell: {spec!r}")
    ds = load(spec["dataset"])
    X, y = ds.X, ds.y_signed()
    split = paper_split(X.shape[0], spec["seed"])
    tr, va, te = split.train, split.validation, split.test
    params = spec["params"]
    chosen: dict = {}
    if spec["algorithm"] in ("AdaBoost", "ArcGv"):
        cls = AdaBoost if spec["algorithm"] == "AdaBoost" else ArcGv
        model = cls(n_estimators=int(params["n_estimators"])).fit(X[tr], y[tr])
        chosen = {"stop_reason": str(model.stop_reason_)}
    elif spec["algorithm"] == "AdaBoostQP":
        grid = [int(v) for v in params["inverse_T_grid"]]
        if not grid:
            raise ValueError(
                "figure4_cell: inverse_T_grid is empty; expected values such as "
                f"{list(PAPER_INVERSE_T_GRID)}"
            )
        best = None
        errors = []
        for inverse_T in grid:
            pool_rounds = {"n_pool": int(params["n_pool"])} if params["pool"] == "adaboost" else {}
            candidate = AdaBoostQP(T=1.0 / inverse_T, pool=params["pool"], **pool_rounds).fit(
                X[tr], y[tr]
            )
            error = float(1.0 - candidate.score(X[va], y[va]))
            errors.append(error)
            if best is None or error < best[0]:
                best = (error, inverse_T, candidate)
        assert best is not None  # the 1/T grid is not empty
        _, inverse_T, model = best
        chosen = {"inverse_T": inverse_T, "validation_errors": errors}
    else:
        raise ValueError(
            f"figure4_cell: unknown algorithm {spec['algorithm']!r}; expected one "
            f"of {FIGURE4_ALGORITHMS}"
        )
    margins = model.margins(X[tr], y[tr])
    return {
        "test_error": float(1.0 - model.score(X[te], y[te])),
        "validation_error": float(1.0 - model.score(X[va], y[va])),
        "train_error": float(np.mean(margins <= 0)),
        "min_margin": float(margins.min()),
        "mean_margin": float(margins.mean()),
        "margins": margins.tolist(),
        "n_hypotheses": int(np.count_nonzero(np.asarray(model.alphas_))),
        **chosen,
    }


def _figure4_frame(cells: list[dict], metrics: list[dict]):
    import pandas as pd

    rows = [
        {
            "split": c["fold"],
            "algorithm": ALGORITHM_LABELS[c["algorithm"]],
            **{
                k: m[k]
                for k in ("test_error", "train_error", "min_margin", "mean_margin", "n_hypotheses")
            },
        }
        for c, m in zip(cells, metrics)
    ]
    return pd.DataFrame(rows)


def figure4_summary(cells: list[dict], metrics: list[dict]):
    """Per algorithm (paper order): mean and standard deviation over splits of the test error,
    training error, minimum and mean normalized training margin, and the number of splits."""
    frame = _figure4_frame(cells, metrics)
    grouped = frame.groupby("algorithm", sort=False)
    out = grouped.agg(
        test_error=("test_error", "mean"),
        test_error_std=("test_error", "std"),
        train_error=("train_error", "mean"),
        min_margin=("min_margin", "mean"),
        min_margin_std=("min_margin", "std"),
        mean_margin=("mean_margin", "mean"),
        mean_margin_std=("mean_margin", "std"),
        n_hypotheses=("n_hypotheses", "mean"),
        n_splits=("test_error", "size"),
    )
    order = [ALGORITHM_LABELS[a] for a in FIGURE4_ALGORITHMS if ALGORITHM_LABELS[a] in out.index]
    return out.loc[order].reset_index()


def figure4_claims(cells: list[dict], metrics: list[dict]) -> dict:
    """Fraction of splits on which each claim of Fig. 4 holds.

    ``arcgv_largest_min_margin``: Arc-Gv's minimum training margin is the largest of the three;
    ``mean_margin_qp_ab_arcgv``: mean margin AdaBoost-QP > AdaBoost > Arc-Gv;
    ``qp_best_test_error``: AdaBoost-QP has the (weakly) smallest test error;
    ``arcgv_worst_test_error``: Arc-Gv has the (weakly) largest test error.
    """
    frame = _figure4_frame(cells, metrics)
    wide = frame.pivot_table(
        index="split", columns="algorithm", values=["min_margin", "mean_margin", "test_error"]
    )
    labels = [ALGORITHM_LABELS[a] for a in FIGURE4_ALGORITHMS]
    missing = [a for a in labels if a not in wide["test_error"].columns]
    if missing:
        raise ValueError(
            f"figure4_claims: no results for {missing}; every split needs all of {labels}"
        )
    ab, qp, arc = labels
    mn, mean, err = wide["min_margin"], wide["mean_margin"], wide["test_error"]
    checks = {
        "arcgv_largest_min_margin": (mn[arc] > mn[ab]) & (mn[arc] > mn[qp]),
        "mean_margin_qp_ab_arcgv": (mean[qp] > mean[ab]) & (mean[ab] > mean[arc]),
        "qp_best_test_error": (err[qp] <= err[ab]) & (err[qp] <= err[arc]),
        "arcgv_worst_test_error": (err[arc] >= err[ab]) & (err[arc] >= err[qp]),
    }
    out = {name: float(np.mean(values.to_numpy())) for name, values in checks.items()}
    out["n_splits"] = int(len(wide))
    return out


#: The cell function of each table (:mod:`.table2_3`, :mod:`.table4_figure5`, :mod:`.table5_8`).
_CELLS = {
    "table2": table2_cell,
    "table3": table3_cell,
    "table4": table4_cell,
    "table5": table5_cell,
    "table7": table7_cell,
}


def cell_function(spec: dict):
    """The cell function that computed a stored record of this paper (for re-execution)."""
    table = _CELLS.get(spec.get("table", ""))
    if table is not None:
        return table
    figure = spec.get("figure")
    if figure == "figure3":
        return figure3_cell
    if figure == "figure4":
        return figure4_cell
    if figure == "duality-checks":
        from .duality import duality_cell, zero_temperature_cell

        if spec["algorithm"] == "zero-temperature limit (15)":
            return zero_temperature_cell
        return duality_cell
    raise ValueError(
        f"no shen_li cell function for the spec {spec!r}; expected "
        f"figure 'figure3', 'figure4' or 'duality-checks', or a table of shen_li_tables"
    )
