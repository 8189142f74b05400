r"""Protocols of Mason, Baxter, Bartlett & Frean (1999), Figures 1-3.

The paper defers its experimental set-up to the full version; what it states is: nine binary
UCI problems, label noise of 0%, 5% and 15%, decision stumps, DOOM II with the normalized
sigmoid cost (4) and the fixed step :math:`\varepsilon = 0.05`.  Everything else below is our
choice, made once and stated in the notebooks:

* **Splits.** ``n_repeats`` random splits 60% train / 20% validation / 20% test of each data set
  (seeded).  Label noise flips exactly ``round(rate * n)`` labels of the training and the
  validation part (never the test part): the test error is measured on clean labels.
* **AdaBoost.** Discrete AdaBoost with stumps for ``n_rounds`` rounds on the training part.
* **DOOM II.** ``n_rounds`` rounds of :class:`~marginboost.boosting.DoomII` with
  ``sampling="resample"`` (see its docstring for why), :math:`\lambda` chosen on the validation
  part from ``steepness_grid`` (ties to the smaller :math:`\lambda`).
* Both are scored on the test part after the last round.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...data import flip_split_labels, load, random_splits
from ...experiments.grids import dataset_fingerprint
from ...experiments.profiles import check_profile
from ...experiments.store import experiment_spec

__all__ = [
    "FIGURE1_DATASETS",
    "FIGURE1_NOISE",
    "figure1_settings",
    "figure1_cells",
    "figure1_cell",
    "figure1_summary",
    "PROTOCOL_VERSION",
    "FIGURE1_AXIS",
    "doom2_first_stump_settings",
    "doom2_first_stump",
    "first_stump_test_error",
    "FIGURE2_DATASETS",
    "FIGURE2_NOISE",
    "figure2_cells",
    "figure2_cell",
    "rounds_sensitivity_cells",
    "FIGURE3_DATASETS",
    "figure3_settings",
    "figure3_rounds",
    "figure3_cells",
    "figure3_cell",
]

#: The nine data sets of Figure 1 (paper name -> registry name).
FIGURE1_DATASETS = {
    "sonar": "sonar",
    "cleve": "cleve",
    "ionosphere": "ionosphere",
    "vote1": "vote1",
    "credit": "credit_a",
    "breast-cancer": "breast_cancer_wisconsin_uci",
    "pima": "pima",
    "hypo": "hypothyroid",
    "splice": "ida_splice",
}
FIGURE1_NOISE = (0.0, 0.05, 0.15)
#: The paper's Figure 1 y axis runs from about -2 to 3.5 points (data/targets/anyboost.yaml;
#: the same range as the claim C5 predicate in marginboost.experiments.predicates).
FIGURE1_AXIS = (-2.0, 3.5)
PROTOCOL_VERSION = "anyboost-v1"


def figure1_settings(profile: str) -> dict:
    """Grid sizes of Figure 1 for a profile."""
    if check_profile(profile) == "full":
        return {
            "datasets": list(FIGURE1_DATASETS),
            "noise": list(FIGURE1_NOISE),
            "n_repeats": 20,
            "n_rounds": 1000,
            "steepness_grid": [2.0, 5.0, 10.0, 20.0],
            "rounds_sensitivity": [500, 2000],
        }
    return {
        "datasets": ["sonar", "vote1", "breast-cancer"],
        "noise": [0.0, 0.15],
        "n_repeats": 2,
        "n_rounds": 60,
        "steepness_grid": [5.0],
        "rounds_sensitivity": [30, 120],
    }


def _settings_with_rounds(profile: str, n_rounds: int | None) -> dict:
    """:func:`figure1_settings` with its round count replaced by ``n_rounds`` (if given)."""
    s = figure1_settings(profile)
    if n_rounds is None:
        return s
    if isinstance(n_rounds, bool) or not isinstance(n_rounds, (int, np.integer)) or n_rounds < 1:
        raise ValueError(f"n_rounds must be a positive integer; got {n_rounds!r}")
    return {**s, "n_rounds": int(n_rounds)}


def figure1_cells(profile: str, n_rounds: int | None = None) -> list[dict]:
    """One cell per data set, noise level, repetition and algorithm.

    ``n_rounds`` replaces the profile's round count (``figure1_settings(profile)["n_rounds"]``)
    for both algorithms: the grid of the round-count sensitivity (``"rounds_sensitivity"``).
    Neither algorithm has a stop of its own on these data, so every fit runs its rounds.
    """
    s = _settings_with_rounds(profile, n_rounds)
    cells = []
    for paper_name in s["datasets"]:
        name = FIGURE1_DATASETS[paper_name]
        sha = dataset_fingerprint(name)
        for noise in s["noise"]:
            for rep in range(s["n_repeats"]):
                for algorithm, params in (
                    ("AdaBoost", {"n_estimators": s["n_rounds"]}),
                    (
                        "DoomII",
                        {
                            "n_estimators": s["n_rounds"],
                            "step_size": 0.05,
                            "steepness_grid": s["steepness_grid"],
                            "sampling": "resample",
                        },
                    ),
                ):
                    cells.append(
                        experiment_spec(
                            algorithm=algorithm,
                            params=params,
                            dataset=name,
                            dataset_sha256=sha,
                            protocol=f"{PROTOCOL_VERSION}/split-60-20-20",
                            fold=rep,
                            seed=rep,
                            profile=profile,
                            noise_rate=noise,
                            paper_dataset=paper_name,
                        )
                    )
    return cells


def _split_and_noise(spec: dict):
    ds = load(spec["dataset"])
    X, y = ds.X, ds.y_signed()
    # One permutation stream per (data set, repetition): both algorithms see the same split.
    split = random_splits(X.shape[0], (0.6, 0.2, 0.2), 1, seed=[spec["seed"], 1999])[0]
    noisy = flip_split_labels(
        y, split, spec["noise_rate"], [spec["seed"], 2], parts=("train", "validation")
    )
    return X, y, noisy, split


def figure1_cell(spec: dict, return_model: bool = False) -> dict:
    """Test error of one algorithm on one split of one noisy data set (Figure 1).

    With ``return_model`` the fitted model is included under ``"model"`` (not storable).
    """
    from ...boosting import AdaBoost, DoomII

    X, y, noisy, split = _split_and_noise(spec)
    tr, va, te = split.train, split.validation, split.test
    params = spec["params"]
    if spec["algorithm"] == "AdaBoost":
        model = AdaBoost(n_estimators=params["n_estimators"]).fit(X[tr], noisy[tr])
        chosen = {}
    elif spec["algorithm"] == "DoomII":
        best = None
        for steepness in params["steepness_grid"]:
            candidate = DoomII(
                steepness=steepness,
                step_size=params["step_size"],
                sampling=params["sampling"],
                n_estimators=params["n_estimators"],
                random_state=spec["seed"],
            ).fit(X[tr], noisy[tr])
            val_error = 1.0 - candidate.score(X[va], noisy[va])
            if best is None or val_error < best[0]:
                best = (val_error, steepness, candidate)
        assert best is not None  # the steepness grid is not empty
        _, steepness, model = best
        chosen = {"steepness": steepness}
    else:
        raise ValueError(f"figure1_cell: unknown algorithm {spec['algorithm']!r}")
    out = {
        "test_error": float(1.0 - model.score(X[te], y[te])),
        "train_error": float(1.0 - model.score(X[tr], noisy[tr])),
        "n_rounds": int(model.n_estimators_),
        **chosen,
    }
    if return_model:
        out["model"] = model
    return out


def figure1_summary(cells: list[dict], metrics: list[dict]):
    """Per data set and noise level: mean test errors and the DOOM II advantage with its
    standard error over repetitions (AdaBoost error minus DOOM II error, in percent)."""
    import pandas as pd

    rows = [
        {
            "dataset": c["paper_dataset"],
            "noise": c["noise_rate"],
            "rep": c["fold"],
            "algorithm": c["algorithm"],
            "test_error": m["test_error"],
        }
        for c, m in zip(cells, metrics)
    ]
    frame = pd.DataFrame(rows).pivot_table(
        index=["dataset", "noise", "rep"], columns="algorithm", values="test_error"
    )
    frame["advantage"] = 100 * (frame["AdaBoost"] - frame["DoomII"])
    grouped = frame.groupby(level=["dataset", "noise"], sort=False)
    out = grouped.agg(
        adaboost=("AdaBoost", "mean"),
        doom2=("DoomII", "mean"),
        advantage=("advantage", "mean"),
        advantage_sd=("advantage", "std"),
        n=("advantage", "size"),
    )
    out["advantage_se"] = out["advantage_sd"] / np.sqrt(out["n"])
    return out.drop(columns="advantage_sd").reset_index()


# ---- Figure 1: why DOOM II can stay on its first stump ------------------------------------
def doom2_first_stump_settings(profile: str) -> dict:
    """Sizes of the first-stump diagnosis of Figure 1's DOOM II (:func:`doom2_first_stump`)."""
    if check_profile(profile) == "full":
        s = figure1_settings("full")
        return {
            "datasets": ["splice", "sonar"],
            "noise": list(FIGURE1_NOISE),
            "n_draws": 200,
            "n_rounds": s["n_rounds"],
            "steepness_grid": s["steepness_grid"],
        }
    return {
        "datasets": ["splice", "sonar"],
        "noise": [0.0, 0.15],
        "n_draws": 40,
        "n_rounds": 60,
        "steepness_grid": [5.0],
    }


def _stump_edges(codes: np.ndarray, y: np.ndarray):
    """Unweighted edge ``mean(y h)`` and predictions of every stump on binned features, each
    threshold in its better orientation (``h = +1`` on ``code <= b`` or its negation)."""
    for j in range(codes.shape[1]):
        column = codes[:, j]
        for b in np.unique(column)[:-1]:
            h = np.where(column <= b, 1.0, -1.0)
            edge = float(np.mean(y * h))
            yield (edge, h) if edge >= 0 else (-edge, -h)


def first_stump_test_error(spec: dict) -> float:
    """Test error of DOOM II's first stump (the exact weak learner under uniform weights) on the
    split and noisy training labels of a Figure 1 cell; a DOOM II run that never leaves it has
    this test error."""
    from ...boosting import DoomII

    X, y, noisy, split = _split_and_noise(spec)
    model = DoomII(n_estimators=1, sampling="reweight").fit(X[split.train], noisy[split.train])
    return float(1.0 - model.score(X[split.test], y[split.test]))


def doom2_first_stump(spec: dict, n_draws: int, n_rounds: int, steepness_grid) -> dict:
    r"""Why DOOM II stays on its first stump on one split of one noisy data set.

    From :math:`F_0 = 0` the first round returns the best stump :math:`f_1` under uniform
    weights and :math:`F_1 = f_1`.  There every normalized margin is :math:`\pm 1` and
    :math:`c'(z) = -\lambda\,\mathrm{sech}^2(\lambda z)` is even, so the weights stay uniform:
    the exact weak learner returns :math:`f_1` again and the combination never changes (a single
    stump is a local minimum of the normalized sigmoid cost over convex combinations, for every
    step and steepness; ``tests/test_doom2_reference.py``).  Boosting by resampling leaves
    :math:`f_1` only when a resample's best stump is another one.

    Parameters
    ----------
    spec : dict
        A Figure 1 cell spec (``dataset``, ``seed``, ``noise_rate``); its split and noisy labels.
    n_draws : int
        Number of uniform bootstrap resamples of the training part used to estimate how often a
        resample's best stump differs from :math:`f_1`.
    n_rounds : int
        Rounds of each DOOM II run.
    steepness_grid : list of float
        The :math:`\lambda` values of the runs (``seed`` seeds the resampling, as in Figure 1).

    Returns
    -------
    dict
        ``best_edge`` and ``runner_up_edge`` (unweighted edges :math:`\frac1m\sum_i y_i h(x_i)`
        of :math:`f_1` and of the best stump with other predictions on the training part),
        ``escape_fraction`` (the fraction of resamples whose best stump is not :math:`f_1`),
        ``first_stump_test_error`` and, per sampling rule ``"reweight"`` and ``"resample"``,
        ``<rule>_distinct`` (the largest number of distinct stumps over the grid),
        ``<rule>_rounds`` (rounds run, at the largest number of distinct stumps) and
        ``<rule>_test_error`` (mean over the grid).
    """
    from ...boosting import DoomII
    from ...weak import DecisionTree

    X, y, noisy, split = _split_and_noise(spec)
    tr, te = split.train, split.test
    reference = DoomII(n_estimators=1, sampling="reweight").fit(X[tr], noisy[tr])  # f_1
    codes = reference.mapper_.transform(X[tr])
    y_train = noisy[tr].astype(float)
    first = reference.estimators_[0].predict(codes)
    edges = sorted(((e, h) for e, h in _stump_edges(codes, y_train)), key=lambda item: -item[0])
    runner_up = next(e for e, h in edges if not np.array_equal(h, first))
    rng = np.random.default_rng([spec["seed"], 7])
    stump = DecisionTree(max_depth=1)
    m = y_train.shape[0]
    escapes = 0
    for _ in range(n_draws):
        drawn = rng.integers(0, m, size=m)
        tree = stump.fit_binary(
            np.asfortranarray(codes[drawn]), y_train[drawn], np.full(m, 1.0 / m)
        )
        escapes += not np.array_equal(tree.predict(codes), first)
    out = {
        "best_edge": float(np.mean(y_train * first)),
        "runner_up_edge": float(runner_up),
        "escape_fraction": escapes / n_draws,
        "first_stump_test_error": float(1.0 - reference.score(X[te], y[te])),
    }
    for rule in ("reweight", "resample"):
        distinct, rounds, errors = 0, 0, []
        for steepness in steepness_grid:
            model = DoomII(
                steepness=steepness,
                step_size=0.05,
                sampling=rule,
                n_estimators=n_rounds,
                random_state=spec["seed"],
            ).fit(X[tr], noisy[tr])
            codes_model = model.mapper_.transform(X[tr])
            n_distinct = len(
                {
                    model.estimators_[t].predict(codes_model).tobytes()
                    for t in range(model.n_estimators_)
                }
            )
            if n_distinct > distinct:
                distinct, rounds = n_distinct, int(model.n_estimators_)
            errors.append(1.0 - model.score(X[te], y[te]))
        out[f"{rule}_distinct"] = distinct
        out[f"{rule}_rounds"] = rounds
        out[f"{rule}_test_error"] = float(np.mean(errors))
    return out


# ---- Figure 2: cumulative training-margin distributions --------------------------------------
#: Data sets of Figure 2 (paper name -> registry name) and its noise levels.
FIGURE2_DATASETS = {
    "breast-cancer-wisconsin": "breast_cancer_wisconsin_uci",
    "splice": "ida_splice",
}
FIGURE2_NOISE = (0.0, 0.15)


def figure2_cells(profile: str, n_rounds: int | None = None) -> list[dict]:
    """One cell per data set and noise level: split 0 of the Figure 1 protocol.

    ``n_rounds`` replaces the profile's round count, as in :func:`figure1_cells`.
    """
    s = _settings_with_rounds(profile, n_rounds)
    cells = []
    for paper_name, name in FIGURE2_DATASETS.items():
        sha = dataset_fingerprint(name)
        for noise in FIGURE2_NOISE:
            cells.append(
                experiment_spec(
                    algorithm="AdaBoost+DoomII",
                    params={
                        "n_estimators": s["n_rounds"],
                        "step_size": 0.05,
                        "steepness_grid": s["steepness_grid"],
                        "sampling": "resample",
                    },
                    dataset=name,
                    dataset_sha256=sha,
                    protocol=f"{PROTOCOL_VERSION}/split-60-20-20",
                    fold=0,
                    seed=0,
                    profile=profile,
                    noise_rate=noise,
                    paper_dataset=paper_name,
                )
            )
    return cells


def rounds_sensitivity_cells(profile: str) -> list[dict]:
    """The Figure 1 and Figure 2 grids at the other round counts of the profile
    (``figure1_settings(profile)["rounds_sensitivity"]``): whether our round limit decides the
    claims (the last sections of both notebooks)."""
    rounds = figure1_settings(profile)["rounds_sensitivity"]
    return [cell for r in rounds for cell in figure1_cells(profile, r) + figure2_cells(profile, r)]


def figure2_cell(spec: dict) -> dict:
    """Normalized training margins (w.r.t. the noisy training labels) of AdaBoost and DOOM II."""
    params = spec["params"]
    ada = figure1_cell(
        {**spec, "algorithm": "AdaBoost", "params": {"n_estimators": params["n_estimators"]}},
        return_model=True,
    )
    doom = figure1_cell({**spec, "algorithm": "DoomII"}, return_model=True)
    X, _, noisy, split = _split_and_noise(spec)
    tr = split.train
    return {
        "adaboost_margins": ada["model"].margins(X[tr], noisy[tr]).tolist(),
        "doom2_margins": doom["model"].margins(X[tr], noisy[tr]).tolist(),
        "doom2_steepness": doom["steepness"],
        "adaboost_test_error": ada["test_error"],
        "doom2_test_error": doom["test_error"],
    }


# ---- Figure 3: AdaBoost's test error against its exponential and sigmoid costs --------------
#: Data sets of Figure 3 (paper name -> registry name).
FIGURE3_DATASETS = {"labor": "labor", "vote1": "vote1"}


def figure3_settings(profile: str) -> dict:
    """Rounds, splits and the lambda values at which the sigmoid cost is evaluated."""
    if check_profile(profile) == "full":
        return {
            "n_rounds": 10_000,
            "n_repeats": 20,
            "steepness_grid": [2.0, 5.0, 10.0, 20.0],
            "n_points": 200,
        }
    return {"n_rounds": 300, "n_repeats": 2, "steepness_grid": [5.0], "n_points": 40}


def figure3_rounds(n_rounds: int, n_points: int) -> np.ndarray:
    """Log-spaced rounds 1..n_rounds (distinct integers) at which the curves are recorded."""
    return np.unique(np.geomspace(1, n_rounds, n_points).round().astype(int))


def figure3_cells(profile: str) -> list[dict]:
    """One cell per data set and split (80% train / 20% test, clean labels)."""
    s = figure3_settings(profile)
    cells = []
    for paper_name, name in FIGURE3_DATASETS.items():
        sha = dataset_fingerprint(name)
        for rep in range(s["n_repeats"]):
            cells.append(
                experiment_spec(
                    algorithm="AdaBoost",
                    params={"n_estimators": s["n_rounds"]},
                    dataset=name,
                    dataset_sha256=sha,
                    protocol=f"{PROTOCOL_VERSION}/split-80-20",
                    fold=rep,
                    seed=rep,
                    profile=profile,
                    paper_dataset=paper_name,
                    steepness_grid=s["steepness_grid"],
                    n_points=s["n_points"],
                )
            )
    return cells


def figure3_cell(spec: dict) -> dict:
    """Staged test error, exponential cost and normalized sigmoid costs of one AdaBoost run."""
    from ...boosting import AdaBoost

    ds = load(spec["dataset"])
    X, y = ds.X, ds.y_signed()
    split = random_splits(X.shape[0], (0.8, 0.0, 0.2), 1, seed=[spec["seed"], 1999])[0]
    tr, te = split.train, split.test
    model = AdaBoost(n_estimators=spec["params"]["n_estimators"]).fit(X[tr], y[tr])
    rounds = figure3_rounds(spec["params"]["n_estimators"], spec["n_points"])
    rounds = rounds[rounds <= model.n_estimators_]
    l1 = np.cumsum(np.abs(model.alphas_))
    record = {
        "rounds": rounds.tolist(),
        "test_error": [],
        "exp_cost": [],
        "stop_reason": model.stop_reason_,
    }
    sigmoid: dict[Any, list[float]] = {lam: [] for lam in spec["steepness_grid"]}
    wanted = set(rounds.tolist())
    train_scores = model.staged_decision_function(X[tr])
    test_scores = model.staged_decision_function(X[te])
    for t, (f_train, f_test) in enumerate(zip(train_scores, test_scores), start=1):
        if t not in wanted:
            continue
        margins = y[tr] * f_train
        record["test_error"].append(float(np.mean((f_test > 0) != (y[te] > 0))))
        record["exp_cost"].append(float(np.mean(np.exp(-margins))))
        for lam in sigmoid:
            sigmoid[lam].append(float(np.mean(1.0 - np.tanh(lam * margins / l1[t - 1]))))
    record["sigmoid_cost"] = {f"{lam:g}": values for lam, values in sigmoid.items()}
    return record


def cell_function(spec: dict):
    """The cell function that computed a stored record of this paper (for re-execution)."""
    if spec["algorithm"] == "AdaBoost+DoomII":
        return figure2_cell
    if spec["protocol"].endswith("split-80-20"):
        return figure3_cell
    if spec["algorithm"] in ("AdaBoost", "DoomII"):
        return figure1_cell
    raise ValueError(f"no anyboost cell function for the spec {spec!r}")
