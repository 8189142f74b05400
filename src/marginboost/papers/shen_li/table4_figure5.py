r"""Protocols of Shen & Li (2010), Table IV and Figure 5: AdaBoost vs AdaBoost-CG.

**Table IV and Figure 5** (Sec. 4.2; claim C10): 70% training, 15% test, 15% unused (the
validation part of the same 70/15/15 splits is left unused), 5 runs, stumps.  AdaBoost runs 1000
rounds; AdaBoost-CG uses :math:`T = 1/\sum_j w_j` of that 1000-round AdaBoost
(:func:`~marginboost.boosting.adaboost_cg.adaboost_T_heuristic`) and at most 1000 iterations.
The paper forces AdaBoost-CG to 1000 iterations "even if its stopping criterion is met"; once
no dual constraint is violated the next column gets weight 0 at the optimum of the restricted
master (KKT), so its ensemble no longer changes: we stop at convergence and carry the
converged model forward to the later checkpoints, which is the same classifier.
"""

from __future__ import annotations

import numpy as np

from ...experiments.profiles import check_profile as _check_profile
from .tables import DATASETS, PROTOCOL_VERSION, _cell_inputs, _long, _spec, _staged_errors

__all__ = [
    "FIGURE5_DATASETS",
    "table4_settings",
    "table4_cells",
    "table4_cell",
]


#: Data sets of Figure 5.
FIGURE5_DATASETS = ("australian", "b-cancer", "diabetes", "heart", "splice", "svmguide3")


# ---- Table IV and Figure 5: AdaBoost vs AdaBoost-CG -------------------------------------------
def table4_settings(profile: str) -> dict:
    """Data sets, runs, iterations, checkpoints and curve resolution of Table IV / Fig. 5."""
    _check_profile(profile)
    if profile == "full":
        return {
            "datasets": list(DATASETS),
            "n_repeats": 5,
            "n_iterations": 1000,
            "checkpoints": [100, 500, 1000],
            "n_points": 60,
        }
    return {
        "datasets": ["australian", "heart"],
        "n_repeats": 1,
        "n_iterations": 100,
        "checkpoints": [10, 50, 100],
        "n_points": 20,
    }


def table4_cells(profile: str) -> list[dict]:
    """One cell per data set and run (AdaBoost-CG's T comes from the cell's AdaBoost run)."""
    s = table4_settings(profile)
    return [
        _spec(
            "table4",
            name,
            rep,
            profile,
            algorithm="AdaBoost+AdaBoostCG",
            protocol=f"{PROTOCOL_VERSION}/train-70-test-15-unused-15",
            params={
                "n_iterations": s["n_iterations"],
                "checkpoints": s["checkpoints"],
                "n_points": s["n_points"],
                "T": "1/sum(w) of AdaBoost",
            },
        )
        for name in s["datasets"]
        for rep in range(s["n_repeats"])
    ]


def table4_cell(spec: dict) -> dict:
    """Training and test errors of AdaBoost and AdaBoost-CG along the iterations.

    Returns, for ``"AdaBoost"`` and ``"AdaBoostCG"``: ``iterations`` (log-spaced, including the
    checkpoints), ``train_error`` and ``test_error`` at those iterations, ``n_iterations`` (for
    AdaBoost-CG: the iterations run before its stopping criterion held) and ``converged``;
    plus ``T``, ``n_active`` (AdaBoost-CG's hypotheses with a non-zero weight) and the times.
    """
    import time

    from ...boosting import AdaBoost, AdaBoostCG

    params, X, y, split = _cell_inputs(spec, "table4", "Table IV")
    tr, te = split.train, split.test  # the validation part stays unused
    n = int(params["n_iterations"])
    points = (
        np.unique(
            np.concatenate(
                [
                    np.geomspace(1, n, int(params["n_points"])).round(),
                    np.asarray(params["checkpoints"], dtype=float),
                ]
            )
        )
        .astype(int)
        .tolist()
    )
    start = time.perf_counter()
    ab = AdaBoost(n_estimators=n).fit(X[tr], y[tr])
    ab_time = time.perf_counter() - start
    T = 1.0 / float(np.sum(ab.alphas_))  # = adaboost_T_heuristic(X[tr], y[tr], n)
    start = time.perf_counter()
    cg = AdaBoostCG(T=T, n_estimators=n).fit(X[tr], y[tr])
    cg_time = time.perf_counter() - start
    out = {"T": T, "iterations": points, "n_train": int(tr.size), "n_test": int(te.size)}
    for name, model, seconds in (("AdaBoost", ab, ab_time), ("AdaBoostCG", cg, cg_time)):
        train = _staged_errors(model, X[tr], y[tr], points)
        test = _staged_errors(model, X[te], y[te], points)
        record = {
            "train_error": [train[p] for p in points],
            "test_error": [test[p] for p in points],
            "seconds": seconds,
        }
        if name == "AdaBoost":
            record.update(n_iterations=int(model.n_estimators_), converged=model.n_estimators_ < n)
        else:
            record.update(
                n_iterations=int(model.n_iterations_),
                converged=bool(model.converged_),
                n_active=int(np.count_nonzero(model.alphas_ > 0)),
                final_duality_gap=float(model.history_["duality_gap"][-1]),
            )
        out[name] = record
    return out


def _at(metric: dict, name: str, kind: str, iteration: int) -> float:
    return metric[name][kind][metric["iterations"].index(int(iteration))]


def table4_frame(cells: list[dict], metrics: list[dict]):
    """Table IV in long format: ``AB``/``CG`` x ``test_<k>``/``train_<k>`` at the checkpoints."""
    records = []
    for cell, metric in zip(cells, metrics):
        for key, label in (("AdaBoost", "AB"), ("AdaBoostCG", "CG")):
            for kind in ("test", "train"):
                for k in cell["params"]["checkpoints"]:
                    records.append(
                        (
                            cell["paper_dataset"],
                            label,
                            f"{kind}_{k}",
                            _at(metric, key, f"{kind}_error", k),
                        )
                    )
    return _long(records)


def table4_convergence(cells: list[dict], metrics: list[dict]):
    """Iterations to convergence (claim C10, "about 10 times faster").

    Per run, on the recorded (log-spaced) iterations: the first iteration at which AdaBoost-CG's
    training error reaches its final value (``cg_rounds``), the first AdaBoost round at which
    AdaBoost's training error is down to that same value (``ab_rounds``; missing when AdaBoost
    does not get there within the run) and their ratio; also AdaBoost-CG's iterations until its
    stopping criterion held (``cg_iterations``, at least ``cg_rounds``: the criterion certifies
    optimality of the objective, which keeps improving after the training error stops moving).
    Per data set: means of the counts over runs, the median ratio over the runs in which
    AdaBoost got there, and in how many runs it did (``ab_reached``).  Rounds read on the
    log-spaced grid are upper bounds up to one grid step.
    """
    import pandas as pd

    rows = []
    for cell, metric in zip(cells, metrics):
        cg, ab = metric["AdaBoostCG"], metric["AdaBoost"]
        iterations = metric["iterations"]
        target = cg["train_error"][-1]
        cg_rounds = next(t for t, e in zip(iterations, cg["train_error"]) if e <= target)
        reached = [t for t, e in zip(iterations, ab["train_error"]) if e <= target]
        ab_rounds = float(reached[0]) if reached else np.nan
        rows.append(
            {
                "dataset": cell["paper_dataset"],
                "cg_iterations": cg["n_iterations"],
                "cg_rounds": float(cg_rounds),
                "ab_rounds": ab_rounds,
                "ratio": ab_rounds / cg_rounds,
                "ab_reached": float(bool(reached)),
                "cg_seconds": cg["seconds"],
                "ab_seconds": ab["seconds"],
            }
        )
    frame = pd.DataFrame(rows)
    grouped = frame.groupby("dataset", sort=False)
    out = grouped.agg(
        runs=("ratio", "size"),
        ab_reached=("ab_reached", "sum"),
        cg_iterations=("cg_iterations", "mean"),
        cg_rounds=("cg_rounds", "mean"),
        ab_rounds=("ab_rounds", "mean"),
        median_ratio=("ratio", "median"),
        cg_seconds=("cg_seconds", "mean"),
        ab_seconds=("ab_seconds", "mean"),
    )
    return out.reset_index()
