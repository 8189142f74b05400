"""One cell of DMCBoost's Tables 2-4 (:func:`grid_cell`): one method fitted on one rotation,
with its model selection on the validation part, its fit saved in parts while it runs
(:func:`checkpoint_folder`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ...experiments.selection import best_round
from .settings import FIXED, METHODS, N_PRIME_GRID, _step, load_fold

__all__ = [
    "checkpoint_folder",
    "grid_cell",
]


# ---- one cell -----------------------------------------------------------------------------
def _pct(pred, y) -> float:
    return float(100.0 * np.mean(pred != y))


def _staged_pct(model, X, y) -> list[float]:
    return [
        _pct(model.classes_[np.argmax(s, axis=1)], y) for s in model.staged_decision_function(X)
    ]


@contextmanager
def _phase_two_recorded() -> Iterator[None]:
    """Silence DMCBoost's PhaseTwoWarning: the cells record both phases' training errors
    (``phase1_train_error`` and ``train_error``, or the per-round curves)."""
    import warnings

    from ...boosting import PhaseTwoWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PhaseTwoWarning)
        yield


def _baseline(method: str, params: dict, data, fixed: bool, checkpoint=None) -> dict:
    import warnings

    from ...boosting import SAMME, AdaBoostM1, AdaBoostMH, GDMCBoost

    cls = {
        "AdaBoost.M1": AdaBoostM1,
        "SAMME": SAMME,
        "AdaBoost.MH": AdaBoostMH,
        "GD-MCBoost": GDMCBoost,
    }[method]
    X, y, Xv, yv, Xt, yt = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NotBoostedWarning: recorded below
        model = _fit_in_parts(
            cls(n_estimators=int(params["max_rounds"]), max_depth=int(params["depth"])),
            X,
            y,
            checkpoint,
        )
    record = {
        "boosted": bool(model.boosted_),
        "stop_reason": str(model.stop_reason_),
        "rounds_fitted": int(model.n_estimators_),
    }
    if not model.boosted_:
        return {
            **record,
            "test_error": float("nan"),
            "validation_error": float("nan"),
            "train_error": float("nan"),
            "chosen": 0,
        }
    test = _staged_pct(model, Xt, yt)
    train = _staged_pct(model, X, y)
    if fixed:
        rounds = len(test)
        val_error = float("nan")
    else:
        val = _staged_pct(model, Xv, yv)
        rounds = best_round(val)
        val_error = val[rounds - 1]
    return {
        **record,
        "test_error": test[rounds - 1],
        "validation_error": val_error,
        "train_error": train[rounds - 1],
        "chosen": rounds,
    }


#: Seconds between the saves of a cell's fit in progress (a killed cell loses at most about
#: this much of its fit).
CHECKPOINT_EVERY = 300.0


#: Rounds of a baseline's first part (:func:`_fit_in_parts`), which times its rounds.
FIRST_PART = 25


def _fit_in_parts(model, X, y, saved):
    """``model.fit(X, y)`` run in parts (the estimator's ``warm_start``), the model saved in
    ``saved`` (a :class:`~marginboost.boosting.dmcboost.checkpoint.PathCheckpoint`, or ``None``: one fit)
    after each part: a killed cell goes on from its last part.  The first part has
    :data:`FIRST_PART` rounds, the next ones about ``saved.every`` seconds of rounds at the
    rate measured so far.  The fitted model is that of one fit (warm starts replay the rounds
    they go on from)."""
    if saved is None:
        return model.fit(X, y)
    target = int(model.n_estimators)
    saved.open(model, X, y, [], None)
    done = saved.load("fit-progress")
    if done is not None:
        model = done
    model.set_params(warm_start=True)
    while not hasattr(model, "estimators_") or (
        model.stop_reason_ == "n_estimators" and model.n_estimators_ < target
    ):
        fitted = getattr(model, "n_estimators_", 0)
        part = FIRST_PART
        if fitted:
            per_round = float(model.history_["time"][-1]) / fitted
            part = max(FIRST_PART, int(saved.every / max(per_round, 1e-6)))
        model.set_params(n_estimators=min(target, fitted + part))
        model.fit(X, y)
        saved.save("fit-progress", model)
    return model


def checkpoint_folder(spec: dict):
    """Where a cell keeps its fit in progress while it runs (a DMCBoost cell the finished
    parts of its :math:`n'` path, a baseline its model after each part,
    :func:`_fit_in_parts`; :class:`~marginboost.boosting.dmcboost.checkpoint.PathCheckpoint`):
    ``<results>/dmcboost/checkpoints/<cell key>`` (:func:`marginboost._paths.results_dir`,
    ``_build/results`` in a checkout).  A cell that was interrupted goes on from there; the
    folder is removed once the cell's record is made."""
    from ..._paths import results_dir
    from ...experiments.store import cell_key

    return results_dir() / "dmcboost" / "checkpoints" / cell_key(spec)


def _dmcboost(params: dict, data, fixed: bool, checkpoint=None) -> dict:
    from ...boosting import DMCBoost

    X, y, Xv, yv, Xt, yt = data
    labels = list(params["n_prime_grid"])
    # cells without the key use DMCBoost's default max_intervals (the reduced search)
    search = {"max_intervals": params["max_intervals"]} if "max_intervals" in params else {}
    with _phase_two_recorded():
        models = DMCBoost(
            max_depth=int(params["depth"]),
            n_estimators=int(params["max_rounds"]),
            step=_step(params),
            phase2=bool(params.get("phase2", True)),
            **search,
        ).fit_path(X, y, [N_PRIME_GRID[label] for label in labels], checkpoint=checkpoint)
    test = [_pct(m.predict(Xt), yt) for m in models]
    train = [_pct(m.predict(X), y) for m in models]
    if fixed:
        best, val = 0, [float("nan")] * len(models)
    else:
        val = [_pct(m.predict(Xv), yv) for m in models]
        best = int(np.flatnonzero(np.asarray(val) == min(val))[0])  # ties: the smallest n'
    model = models[best]
    phase1 = np.asarray(model.history_["phase"]) == 1
    n1 = int(model.n_phase1_)
    return {
        # fit seconds of phase I (shared by the n' runs; for the cost model's rates per phase)
        "phase1_seconds": float(models[0].history_["time"][n1 - 1]) if n1 else 0.0,
        "test_error": test[best],
        "validation_error": val[best],
        "train_error": train[best],
        "chosen": labels[best],
        "n_prime": int(model.n_prime_),
        "test_errors": test,
        "validation_errors": val,
        "train_errors": train,
        "n_phase1": int(model.n_phase1_),
        "rounds": [int(m.n_estimators_) for m in models],
        "phase1_stop_reason": str(model.phase1_stop_reason_),
        "stop_reasons": [str(m.stop_reason_) for m in models],
        "phase1_train_error": float(100.0 * model.history_["train_error"][phase1][-1])
        if phase1.any()
        else float("nan"),
        "objective": float(model.history_["objective"][-1])
        if model.n_estimators_
        else float("nan"),
        "boosted": bool(model.boosted_),
    }


def grid_cell(spec: dict) -> dict:
    """Fit one method on one rotation with its model selection; percent errors."""
    if spec.get("paper") != "dmcboost" or spec.get("table") != "tables2-4":
        raise ValueError(f"grid_cell: not a DMCBoost table cell: {spec!r}")
    name, method, params = spec["paper_dataset"], spec["algorithm"], spec["params"]
    X, y, y_clean, split = load_fold(name, spec["fold"], spec["noise_rate"])
    data = (
        X[split.train],
        y[split.train],
        X[split.validation],
        y[split.validation],
        X[split.test],
        y_clean[split.test],
    )
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    import shutil

    from ...boosting.dmcboost import PathCheckpoint

    start = time.perf_counter()
    folder = checkpoint_folder(spec)
    saved = PathCheckpoint(folder, every=CHECKPOINT_EVERY)
    if method == "DMCBoost":
        record = _dmcboost(params, data, name in FIXED, saved)
    else:
        record = _baseline(method, params, data, name in FIXED, saved)
    if saved.restored_seconds > 0:
        # the fit time of the parts an interrupted run of this cell had finished
        record["resumed_seconds"] = saved.restored_seconds
    record["seconds"] = time.perf_counter() - start + record.get("resumed_seconds", 0.0)
    record["n_train"] = int(split.train.size)
    shutil.rmtree(folder, ignore_errors=True)  # the record replaces the parts
    return record
