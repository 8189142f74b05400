r"""Protocols of Zhai, Xia & Wang, "A multi-class boosting method with direct optimization"
(DMCBoost, KDD 2014).

**Tables 2-4** (Sec. 3) share one grid of cells: one cell per data set, fold, label-noise
rate, tree depth and method.  Table 2 reads the depth-3 cells, Table 3 picks the depth from
:data:`DEPTHS` per data set and method by validation error, Table 4 reads Car and Nursery with
5% and 20% of the training *and* validation labels changed (test labels clean).

* The 13 UCI sets (:data:`DATASETS`: the paper's name -> registry name).  Eleven are split
  into 5 equal random parts; rotation ``k`` tests on part ``k``, validates on part ``k + 1``
  and trains on the other three (:func:`~marginboost.data.rotated_splits`).  Segmentation
  and Poker525k have fixed train/test splits and no validation part (:data:`FIXED`).
* Baselines (AdaBoost.M1, SAMME, AdaBoost.MH, GD-MCBoost) run up to ``max_rounds`` rounds
  and keep the round with the lowest validation error (the earliest among ties:
  :func:`~marginboost.experiments.selection.best_round`); on the fixed splits they keep all
  their rounds.  AdaBoost.M1 that cannot boost (weighted error of its first tree >= 1/2)
  has no test error: the paper's "-".
* DMCBoost runs phase I once and phase II for every :math:`n'` of :data:`N_PRIME_GRID`
  (:meth:`~marginboost.boosting.DMCBoost.fit_path`) and keeps the :math:`n'` with the
  lowest validation error (ties: the smallest); on the fixed splits :math:`n' = n/4`.  It
  stops by itself (no early stopping), within ``dmc_max_rounds`` rounds.

**Figure 3**: training and test error after every round on Car (rotation 0, depth 3) of
AdaBoost.M1, SAMME, DMCBoost phase I alone, and DMCBoost switching to phase II.

Profiles.  ``quick`` runs a few small sets with short runs (CI).  ``full`` is a *reduced*
version of the paper's protocol sized for a two-core machine (:func:`grid_settings`): every
number it produces is marked as such in the notebooks.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from ...data import load, rotated_splits
from ...data.noise import flip_split_labels
from ...data.splits import Split
from ...experiments.grids import dataset_fingerprint
from ...experiments.profiles import check_profile as _check_profile
from ...experiments.selection import best_round
from ...experiments.store import experiment_spec

__all__ = [
    "PROTOCOL_VERSION",
    "DATASETS",
    "FIXED",
    "load_dataset",
    "N_PRIME_GRID",
    "DEPTHS",
    "METHODS",
    "NOISE_RATES",
    "PROTOCOL_CHOICES",
    "grid_settings",
    "table2_protocol",
    "table3_protocol",
    "on_paper_protocol",
    "checkpoint_folder",
    "DMC_SAFETY_CAP",
    "grid_cells",
    "grid_cell",
    "CAP_ABLATION",
    "CAP_RAISE",
    "chosen_run_capped",
    "raise_capped_cells",
    "raised_cap_cells",
    "with_raised_cap",
    "cap_ablation_cells",
    "phase1_only_cells",
    "PHASE1_ONLY",
    "paper_protocol_cells",
    "select_paper_cells",
    "REDUCED_CAP_CHECK",
    "reduced_cap_cells",
    "figure3_cells",
    "figure3_cell",
    "load_fold",
    "cell_function",
    "results_frame",
    "table2_frame",
    "table3_frame",
    "table4_frame",
    "table4_protocol",
    "n_prime_label",
    "rounds_run",
    "cost_frame",
    "missing_cost",
    "estimate_missing",
]

PROTOCOL_VERSION = "dmcboost-v1"

#: The paper's data set names (Table 1 order) -> registry names.
DATASETS = {
    "Abalone": "abalone",
    "Car": "car",
    "CNAE-9": "cnae9",
    "Glass": "glass_uci",
    "Krkopt": "krkopt",
    "Letter": "letter",
    "Nursery": "nursery",
    "Poker525k": "poker525k",
    "Segmentation": "segmentation_uci",
    "Vowel": "vowel",
    "Waveform": "waveform_21",
    "Wine": "wine_recognition",
    "Yeast": "yeast",
}
#: Data sets with a fixed train/test split (no validation part; DMCBoost with n' = n/4).
FIXED = ("Poker525k", "Segmentation")
#: The paper's n' grid: labels and values (an int: a count; a float: a fraction of n).
N_PRIME_GRID = {
    "1": 1,
    "n/10": 0.1,
    "n/5": 0.2,
    "n/4": 0.25,
    "n/3": 1.0 / 3.0,
    "n/2": 0.5,
    "2n/3": 2.0 / 3.0,
}
#: Tree depths of Tables 3 and 4.
DEPTHS = (3, 5, 8, 12)
#: Methods in the paper's column order (AdaBoost.MH only in Tables 3 and 4).
METHODS = ("AdaBoost.M1", "AdaBoost.MH", "SAMME", "GD-MCBoost", "DMCBoost")
#: Label-noise rates of Table 4.
NOISE_RATES = (0.0, 0.05, 0.2)
_SALT = 2014


def _check_dataset(name: str) -> str:
    if name not in DATASETS:
        raise ValueError(f"unknown DMCBoost data set {name!r}; expected one of {list(DATASETS)}")
    return name


def n_prime_label(value) -> str:
    """The grid label of an n' value (``0.25`` -> ``"n/4"``)."""
    for label, v in N_PRIME_GRID.items():
        if v == value:
            return label
    raise ValueError(f"{value!r} is not on the n' grid {list(N_PRIME_GRID.values())}")


def load_dataset(name: str):
    """The data set of the paper's name ``name`` (a key of :data:`DATASETS`), as the registry
    loads it: its features, labels and metadata (``poker525k`` builds UCI's training hands plus
    the generated ones).

    Examples
    --------
    >>> from marginboost.papers.dmcboost.protocol import load_dataset
    >>> load_dataset("Car").X.shape
    (1728, 6)
    """
    registry = DATASETS[_check_dataset(name)]
    if registry == "poker525k":
        from ...data import poker525k

        return poker525k()
    return load(registry)


def _fingerprint(name: str) -> str:
    if DATASETS[name] == "poker525k":  # UCI's training hands plus generated ones
        return dataset_fingerprint("poker_train") + "+poker_hands-seed-2014"
    return dataset_fingerprint(DATASETS[name])


def load_fold(name: str, fold: int, noise_rate: float = 0.0):
    """``(X, y, y_clean, split)`` of one rotation (or the fixed split): class codes ``0..K-1``;
    ``y`` has ``noise_rate`` of its training and validation labels changed (uniformly to
    another class, seeded per data set, fold and rate), ``y_clean`` is the original."""
    ds = load_dataset(name)
    X, y = ds.X, np.asarray(ds.y)
    fold = int(fold)
    if name in FIXED:
        if fold != 0:
            raise ValueError(f"{name} has one fixed split: fold must be 0, got {fold}")
        split = Split(train=ds.meta["split"]["train"], test=ds.meta["split"]["test"])
    else:
        if not 0 <= fold < 5:
            raise ValueError(f"fold must be in 0..4, got {fold}")
        split = rotated_splits(y.size, seed=[_SALT, list(DATASETS).index(name)])[fold]
    noisy = y
    if noise_rate:
        seed = [_SALT, list(DATASETS).index(name), fold, int(round(1000 * noise_rate))]
        noisy = flip_split_labels(y, split, float(noise_rate), seed, parts=("train", "validation"))
    return X, noisy, y, split


#: Table 3's sets in the full profile, every one on the paper's protocol.
_FULL_TABLE3 = ("Car", "Glass", "Nursery", "Segmentation", "Vowel", "Waveform", "Wine", "Yeast")
_FULL = {
    # reduced protocol: rotations, round caps and depths per data set (see grid_settings)
    "folds": {
        "Abalone": 5,
        "Car": 5,
        "CNAE-9": 5,
        "Glass": 5,
        "Krkopt": 1,
        "Letter": 5,
        "Nursery": 1,
        "Poker525k": 1,
        "Segmentation": 1,
        "Vowel": 5,
        "Waveform": 5,
        "Wine": 5,
        "Yeast": 5,
    },
    "max_rounds": 1000,
    "dmc_max_rounds": 500,
    # Table 2 on the paper's protocol: 5 rotations (the fixed split once), baselines up to
    # 5000 rounds, DMCBoost to its own stop rule within a 5000-round safety cap
    "table2_paper": [
        "Abalone",
        "Car",
        "CNAE-9",
        "Glass",
        "Krkopt",
        "Letter",
        "Nursery",
        "Poker525k",
        "Segmentation",
        "Vowel",
        "Waveform",
        "Wine",
        "Yeast",
    ],
    # Table 2's sets where the baselines run the paper's protocol (5000 rounds with early
    # stopping on validation) and DMCBoost the reduced cap
    "table2_paper_baselines": [],
    "table3_datasets": list(_FULL_TABLE3),
    "table3_folds": 1,
    # Table 3's sets on the paper's protocol (as Table 2's table2_paper)
    "table3_paper": list(_FULL_TABLE3),
    "depths": list(DEPTHS),
    "n_prime_grid": list(N_PRIME_GRID),
    "table4": {"Car": {"folds": 1, "depths": list(DEPTHS)}, "Nursery": {"folds": 1, "depths": [3]}},
    # Table 4's sets on the paper's protocol (as Table 2's table2_paper)
    "table4_paper": ["Car"],
}
_QUICK = {
    "folds": {"Car": 1, "Wine": 1, "Glass": 1},
    "max_rounds": 60,
    "dmc_max_rounds": 60,
    "table2_paper": [],
    "table2_paper_baselines": [],
    "table3_datasets": ["Wine"],
    "table3_folds": 1,
    "table3_paper": [],
    "depths": [3, 5],
    "n_prime_grid": ["1", "n/4", "n/2"],
    "table4": {"Car": {"folds": 1, "depths": [3]}},
    "table4_paper": [],
}
#: Every cell of Tables 2-4 on the paper's protocol (``protocol="paper"``): what the book's
#: ``full`` profile reduces, run in full; its cells on the paper's protocol are the book's own.
_PAPER = {
    "folds": {name: 5 for name in DATASETS},
    "table2_paper": list(DATASETS),
    "table2_paper_baselines": [],
    "table3_datasets": list(DATASETS),
    "table3_folds": 5,
    "table3_paper": list(DATASETS),
    "depths": list(DEPTHS),
    "n_prime_grid": list(N_PRIME_GRID),
    "table4": {name: {"folds": 5, "depths": list(DEPTHS)} for name in ("Car", "Nursery")},
    "table4_paper": ["Car", "Nursery"],
}
#: ``protocol`` of :func:`grid_settings`: the book's (``full`` reduced where it says so) or the
#: paper's in full (every data set, rotation, depth and noise rate of Tables 2-4).
PROTOCOL_CHOICES = ("book", "paper")
#: The paper's caps and protocol, for the notebooks' comparison.
PAPER_SETTINGS = {"folds": 5, "max_rounds": 5000, "depths": list(DEPTHS)}
#: DMCBoost's safety cap on the paper's protocol (the paper has none: it stops by itself).
DMC_SAFETY_CAP = 5000


def grid_settings(profile: str, protocol: str = "book") -> dict:
    """Data sets, rotations, round caps and depths of the profile.

    ``full`` is the paper's protocol **reduced** to fit a two-core machine:

    * Table 2 on its 13 sets (``table2_paper``) on the paper's protocol
      (:func:`table2_protocol`);
    * Table 3 (depths 3, 5, 8, 12) on the sets in ``table3_datasets``, every one of them also in
      ``table3_paper``, so on the paper's protocol (:func:`table3_protocol`);
    * Table 4 on Car (all depths) on the paper's protocol (``table4_paper``,
      :func:`table4_protocol`) and Nursery reduced (rotation 0, depth 3).

    ``quick`` runs one rotation of Car, Wine and Glass with 60 rounds, two depths, three n'.

    ``protocol="paper"`` (``full`` profile only) lifts every reduction: Table 2 on the 13 sets,
    Table 3 on the 13 sets at depths 3, 5, 8 and 12, Table 4 on Car and Nursery at those
    depths, all on the paper's protocol (:func:`table2_protocol`), 5 rotations each (the fixed
    splits once).  Its cells include the ``book`` protocol's cells on the paper's protocol,
    so a run of it reuses them.

    Examples
    --------
    >>> from marginboost.papers.dmcboost.protocol import grid_settings
    >>> len(grid_settings("full", protocol="paper")["table3_paper"])
    13
    >>> grid_settings("quick", protocol="paper")
    Traceback (most recent call last):
    ...
    ValueError: protocol='paper' needs the full profile, got 'quick'
    """
    _check_profile(profile)
    if protocol not in PROTOCOL_CHOICES:
        raise ValueError(f"unknown protocol {protocol!r}; expected one of {PROTOCOL_CHOICES}")
    if protocol == "paper":
        if profile != "full":
            raise ValueError(f"protocol='paper' needs the full profile, got {profile!r}")
        return {**_FULL, **_PAPER}
    return dict(_FULL if profile == "full" else _QUICK)


def table2_protocol(name: str, profile: str, protocol: str = "book") -> dict:
    """Table 2's rotations and round caps for one data set: ``folds``, ``max_rounds`` (the
    baselines'), ``dmc_max_rounds`` (DMCBoost's), ``paper`` (whether these are the
    paper's protocol: 5 rotations, 5000 rounds for the baselines, DMCBoost to its own stop
    rule within :data:`DMC_SAFETY_CAP`) and ``paper_baselines`` (whether the baselines'
    rotations and cap are the paper's, whatever DMCBoost's); ``protocol`` as in
    :func:`grid_settings`."""
    s = grid_settings(profile, protocol)
    _check_dataset(name)
    if name in s["table2_paper"]:
        return _paper_protocol(name)
    out = _reduced_protocol(name, s, int(s["folds"][name]))
    if name in s["table2_paper_baselines"]:
        if out["folds"] != _paper_protocol(name)["folds"]:
            raise ValueError(f"{name}: the paper's baselines need all its rotations")
        out["max_rounds"] = int(PAPER_SETTINGS["max_rounds"])  # type: ignore[call-overload]
        out["paper_baselines"] = True
    return out


def on_paper_protocol(protocol: dict, method: str) -> bool:
    """Whether ``method``'s cells run the paper's protocol under ``protocol`` (a dict of
    :func:`table2_protocol`, :func:`table3_protocol` or :func:`table4_protocol`)."""
    return bool(protocol["paper"] if method == "DMCBoost" else protocol["paper_baselines"])


def table3_protocol(name: str, profile: str, protocol: str = "book") -> dict:
    """Table 3's rotations and round caps for one data set, as :func:`table2_protocol` gives
    Table 2's: the paper's protocol on the sets in ``table3_paper``, otherwise the reduced caps
    on ``table3_folds`` rotations."""
    s = grid_settings(profile, protocol)
    _check_dataset(name)
    if name in s["table3_paper"]:
        return _paper_protocol(name)
    return _reduced_protocol(name, s, int(s["table3_folds"]))


def table4_protocol(name: str, profile: str, protocol: str = "book") -> dict:
    """Table 4's rotations and round caps for one data set, as :func:`table2_protocol` gives
    Table 2's: the paper's protocol on the sets in ``table4_paper``, otherwise the reduced caps
    on the rotations that ``table4`` names."""
    s = grid_settings(profile, protocol)
    _check_dataset(name)
    if name in s["table4_paper"]:
        return _paper_protocol(name)
    if name not in s["table4"]:
        raise ValueError(f"{name!r} is not one of Table 4's data sets: {sorted(s['table4'])}")
    return _reduced_protocol(name, s, int(s["table4"][name]["folds"]))


def _paper_protocol(name: str) -> dict:
    return {
        "folds": 1 if name in FIXED else int(PAPER_SETTINGS["folds"]),  # type: ignore[call-overload]
        "max_rounds": int(PAPER_SETTINGS["max_rounds"]),  # type: ignore[call-overload]
        "dmc_max_rounds": DMC_SAFETY_CAP,
        "paper": True,
        "paper_baselines": True,
    }


def _reduced_protocol(name: str, s: dict, folds: int) -> dict:
    max_rounds, dmc_max_rounds = _reduced_caps(s)
    return {
        "folds": 1 if name in FIXED else folds,
        "max_rounds": max_rounds,
        "dmc_max_rounds": dmc_max_rounds,
        "paper": False,
        "paper_baselines": False,
    }


#: Phase I's step rule in the cells (``DMCBoost(step=...)``).  Cells without a ``"step"``
#: key ran the first implementation's rule, the midpoint of the first best interval.
STEP = "best-midpoint"


def _step(params: dict) -> str:
    return str(params.get("step", "midpoint"))


def _params(method: str, depth: int, caps: tuple[int, int], s: dict, name: str) -> dict:
    if method == "DMCBoost":
        grid = ["n/4"] if name in FIXED else list(s["n_prime_grid"])
        return {
            "depth": int(depth),
            "max_rounds": int(caps[1]),
            "n_prime_grid": grid,
            "step": STEP,
        }
    return {"depth": int(depth), "max_rounds": int(caps[0])}


def _reduced_caps(s: dict) -> tuple[int, int]:
    """The reduced protocol's caps: ``(baselines', DMCBoost's)``."""
    return int(s["max_rounds"]), int(s["dmc_max_rounds"])


def _cell(name, fold, noise, depth, method, caps, s, profile, **extra_params) -> dict:
    registry = DATASETS[name]
    split_name = "fixed" if name in FIXED else "rotation-3-1-1"
    return experiment_spec(
        algorithm=method,
        params={**_params(method, depth, caps, s, name), **extra_params},
        dataset=registry,
        dataset_sha256=_fingerprint(name),
        protocol=f"{PROTOCOL_VERSION}/{split_name}",
        fold=fold,
        seed=fold,
        profile=profile,
        table="tables2-4",
        paper="dmcboost",
        paper_dataset=name,
        noise_rate=float(noise),
    )


def grid_cells(
    profile: str, tables=("table2", "table3", "table4"), protocol: str = "book"
) -> list[dict]:
    """The cells of the asked tables, without repeats (Table 2's cells are Table 3's depth-3
    cells where both tables run the same protocol, :func:`table2_protocol` and
    :func:`table3_protocol`, and Table 4's noise-free cells where :func:`table4_protocol` runs
    the same protocol as Table 3; where the caps differ, so do the cells); ``protocol`` as in
    :func:`grid_settings`."""
    s = grid_settings(profile, protocol)
    wanted = []
    if "table2" in tables:
        for name in s["folds"]:
            t2 = table2_protocol(name, profile, protocol)
            caps = (t2["max_rounds"], t2["dmc_max_rounds"])
            for fold in range(t2["folds"]):
                for method in METHODS:
                    if method != "AdaBoost.MH":
                        wanted.append((name, fold, 0.0, 3, method, caps))
    if "table3" in tables:
        for name in s["table3_datasets"]:
            t3 = table3_protocol(name, profile, protocol)
            caps = (t3["max_rounds"], t3["dmc_max_rounds"])
            for fold in range(t3["folds"]):
                for depth in s["depths"]:
                    for method in METHODS:
                        wanted.append((name, fold, 0.0, depth, method, caps))
    if "table4" in tables:
        for name, part in s["table4"].items():
            t4 = table4_protocol(name, profile, protocol)
            caps = (t4["max_rounds"], t4["dmc_max_rounds"])
            for noise in NOISE_RATES:
                for fold in range(t4["folds"]):
                    for depth in part["depths"]:
                        for method in METHODS:
                            wanted.append((name, fold, noise, depth, method, caps))
    seen, cells = set(), []
    for key in wanted:
        if key not in seen:
            seen.add(key)
            cells.append(_cell(*key, s, profile))
    return cells


def paper_protocol_cells(profile: str) -> list[dict]:
    """Every cell of Tables 2-4 on the paper's protocol in full (``full`` profile; none in
    ``quick``): :func:`grid_cells` with ``protocol="paper"``.  The Table 2 notebook counts those
    the store holds, so records of them may be committed before the whole protocol is run."""
    _check_profile(profile)
    return grid_cells(profile, protocol="paper") if profile == "full" else []


def select_paper_cells(
    tables: Sequence[str] = (),
    datasets: Sequence[str] = (),
    methods: Sequence[str] = (),
) -> list[dict]:
    """The cells of the paper's protocol in full (:func:`paper_protocol_cells`) of ``tables``,
    ``datasets`` and ``methods`` (the paper's names; empty: all), each once (Tables 2-4 share
    cells).  An unknown name raises ``ValueError`` listing the known ones."""
    known = {
        "table": ("table2", "table3", "table4"),
        "data set": tuple(DATASETS),
        "method": METHODS,
    }
    for kind, names in (("table", tables), ("data set", datasets), ("method", methods)):
        unknown = [name for name in names if name not in known[kind]]
        if unknown:
            raise ValueError(
                f"unknown {kind} {', '.join(map(repr, unknown))}; "
                f"the {kind}s are {', '.join(known[kind])}"
            )
    cells = grid_cells("full", tables=tuple(tables) or known["table"], protocol="paper")
    return [
        c
        for c in cells
        if (not datasets or c["paper_dataset"] in datasets)
        and (not methods or c["algorithm"] in methods)
    ]


#: How much larger the safety cap of a rerun is (:func:`raise_capped_cells`).
CAP_RAISE = 4


def chosen_run_capped(cell: dict, metrics: dict) -> bool:
    """Whether a DMCBoost cell's run of the chosen :math:`n'` ended on the round cap."""
    chosen = list(cell["params"]["n_prime_grid"]).index(metrics["chosen"])
    return metrics["stop_reasons"][chosen].startswith(("n_estimators", "max_rounds"))


def raise_capped_cells(cells: list[dict], metrics: list[dict], protocols: dict) -> list[int]:
    """Positions of the DMCBoost cells to rerun with a cap :data:`CAP_RAISE` times larger: those
    on the paper's protocol, where the cap is ours (not on the fixed splits, whose 5000 rounds
    are the paper's), whose chosen :math:`n'` ended on it.  ``protocols`` maps each data set to
    its table's protocol (:func:`table4_protocol`); :func:`with_raised_cap` gives the rerun."""
    return [
        i
        for i, (c, m) in enumerate(zip(cells, metrics))
        if c["algorithm"] == "DMCBoost"
        and protocols[c["paper_dataset"]]["paper"]
        and c["paper_dataset"] not in FIXED
        and chosen_run_capped(c, m)
    ]


def raised_cap_cells(profile: str, protocol: str = "book") -> list[dict]:
    """Table 4's reruns with a raised cap (:func:`raise_capped_cells`), found from the stored
    records of its cells; none until those cells are in the store."""
    from ...experiments.grids import paper_store

    cells = grid_cells(profile, tables=("table4",), protocol=protocol)
    protocols = {
        name: table4_protocol(name, profile, protocol)
        for name in {c["paper_dataset"] for c in cells}
    }
    candidates = [
        c
        for c in cells
        if c["algorithm"] == "DMCBoost"
        and protocols[c["paper_dataset"]]["paper"]
        and c["paper_dataset"] not in FIXED
    ]
    if not candidates:
        return []
    store = paper_store("dmcboost", profile)
    stored = [c for c in candidates if store.has(c)]
    metrics = [store.get(c)["metrics"] for c in stored]
    return [with_raised_cap(stored[i]) for i in raise_capped_cells(stored, metrics, protocols)]


def with_raised_cap(cell: dict) -> dict:
    """The same cell with a safety cap :data:`CAP_RAISE` times larger (a new cell of the store)."""
    params = {**cell["params"], "max_rounds": CAP_RAISE * int(cell["params"]["max_rounds"])}
    return {**cell, "params": params}


#: Table 2's DMCBoost cells rerun with a larger safety cap, to see whether the cap decides a
#: number (full profile): data set -> (rotations, cap).
CAP_ABLATION = {
    "Abalone": ((0,), 20000),
    "Letter": ((0,), 20000),
    "Nursery": ((0,), 20000),
    "Waveform": ((0,), 20000),
    "Yeast": ((0,), 20000),
}


def cap_ablation_cells(profile: str) -> list[dict]:
    """DMCBoost's Table 2 cells of :data:`CAP_ABLATION` with the larger cap (full profile;
    none in the quick profile): the same cells as Table 2's but for ``max_rounds``."""
    s = grid_settings(profile)
    if profile != "full":
        return []
    return [
        _cell(name, fold, 0.0, 3, "DMCBoost", (cap, cap), s, profile)
        for name, (folds, cap) in CAP_ABLATION.items()
        for fold in folds
    ]


#: Table 2's sets whose DMCBoost cells also run phase I alone (``phase2=False``): where phase
#: II raises the training error (the PhaseTwoWarning), what phase I's model gives, with the
#: default (reduced) interval search and with the exact one (``max_intervals=None``).
PHASE1_ONLY = ("Poker525k",)


def phase1_only_cells(profile: str) -> list[dict]:
    """DMCBoost's Table 2 cells of :data:`PHASE1_ONLY` with ``phase2=False``, once as they are
    and once with ``max_intervals=None`` (full profile; none in the quick profile): the same
    cells as Table 2's but for those parameters."""
    if profile != "full":
        return []
    s = grid_settings(profile)
    cells = []
    for name in PHASE1_ONLY:
        t2 = table2_protocol(name, profile)
        for fold in range(t2["folds"]):
            caps = (t2["max_rounds"], t2["dmc_max_rounds"])
            cells.append(_cell(name, fold, 0.0, 3, "DMCBoost", caps, s, profile, phase2=False))
            cells.append(
                _cell(
                    name,
                    fold,
                    0.0,
                    3,
                    "DMCBoost",
                    caps,
                    s,
                    profile,
                    phase2=False,
                    max_intervals=None,
                )
            )
    return cells


#: Sets of ``table2_paper`` whose DMCBoost cells also run at the reduced cap (``dmc_max_rounds``
#: of the full profile) on every rotation: the cells these sets had before they ran the
#: paper's protocol, and what that cap does where both can be compared.
REDUCED_CAP_CHECK = ("Abalone", "CNAE-9", "Letter")


def reduced_cap_cells(profile: str) -> list[dict]:
    """DMCBoost's Table 2 cells of the sets in :data:`REDUCED_CAP_CHECK` at the full profile's
    reduced cap, every rotation (full profile; none in the quick profile): the cells those sets
    had in Table 2 before they ran the paper's protocol."""
    if profile != "full":
        return []
    s = grid_settings(profile)
    cap = int(s["dmc_max_rounds"])
    return [
        _cell(name, fold, 0.0, 3, "DMCBoost", (cap, cap), s, profile)
        for name in REDUCED_CAP_CHECK
        for fold in range(table2_protocol(name, profile)["folds"])
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


# ---- Figure 3 -----------------------------------------------------------------------------
def figure3_cells(profile: str) -> list[dict]:
    """Car, rotation 0, depth 3: AdaBoost.M1, SAMME, DMCBoost phase I, DMCBoost I + II."""
    _check_profile(profile)
    rounds = 1000 if profile == "full" else 60
    cells = []
    for method in ("AdaBoost.M1", "SAMME", "DMCBoost-I", "DMCBoost"):
        params: dict[str, Any] = {"depth": 3, "max_rounds": rounds}
        if method.startswith("DMCBoost"):
            params["n_prime"] = "n/10"
            params["step"] = STEP
        cells.append(
            experiment_spec(
                algorithm=method,
                params=params,
                dataset=DATASETS["Car"],
                dataset_sha256=_fingerprint("Car"),
                protocol=f"{PROTOCOL_VERSION}/rotation-3-1-1",
                fold=0,
                seed=0,
                profile=profile,
                figure="figure3",
                paper="dmcboost",
                paper_dataset="Car",
                noise_rate=0.0,
            )
        )
    return cells


def figure3_cell(spec: dict) -> dict:
    """Training and test error (percent) after every round."""
    from ...boosting import SAMME, AdaBoostM1, DMCBoost

    if spec.get("paper") != "dmcboost" or spec.get("figure") != "figure3":
        raise ValueError(f"figure3_cell: not a DMCBoost Figure 3 cell: {spec!r}")
    X, y, _, split = load_fold(spec["paper_dataset"], spec["fold"])
    Xtr, ytr, Xt, yt = X[split.train], y[split.train], X[split.test], y[split.test]
    p, method = spec["params"], spec["algorithm"]
    start = time.perf_counter()
    if method in ("AdaBoost.M1", "SAMME"):
        cls = AdaBoostM1 if method == "AdaBoost.M1" else SAMME
        model = cls(n_estimators=int(p["max_rounds"]), max_depth=int(p["depth"])).fit(Xtr, ytr)
        phase = [1] * int(model.n_estimators_)
    else:
        with _phase_two_recorded():
            model = DMCBoost(
                n_prime=N_PRIME_GRID[p["n_prime"]],
                max_depth=int(p["depth"]),
                n_estimators=int(p["max_rounds"]),
                phase2=(method == "DMCBoost"),
                step=_step(p),
            ).fit(Xtr, ytr)
        phase = [int(v) for v in model.history_["phase"]]
    return {
        "train_curve": _staged_pct(model, Xtr, ytr),
        "test_curve": _staged_pct(model, Xt, yt),
        "phase": phase,
        "stop_reason": str(model.stop_reason_),
        "seconds": time.perf_counter() - start,
    }


def cell_function(spec: dict):
    """The cell function that computed a stored record of this paper."""
    if spec.get("table") == "tables2-4":
        return grid_cell
    if spec.get("figure") == "figure3":
        return figure3_cell
    raise ValueError(f"no dmcboost cell function for the spec {spec!r}")


# ---- summaries ----------------------------------------------------------------------------
def results_frame(cells: list[dict], metrics: list[dict]):
    """One row per cell: data set, fold, noise, depth, method and the cell's numbers."""
    import pandas as pd

    rows = []
    for cell, m in zip(cells, metrics):
        rows.append(
            {
                "dataset": cell["paper_dataset"],
                "fold": cell["fold"],
                "noise_rate": cell["noise_rate"],
                "depth": cell["params"]["depth"],
                "algorithm": cell["algorithm"],
                "test_error": m["test_error"],
                "validation_error": m["validation_error"],
                "train_error": m["train_error"],
                "boosted": m.get("boosted", True),
                "chosen": m.get("chosen"),
                "seconds": m["seconds"],
            }
        )
    return pd.DataFrame(rows)


def rounds_run(record: dict, max_rounds: int, patience: int = 50) -> list[int]:
    """Rounds each run of a DMCBoost cell (one per :math:`n'`) trained, both phases together.

    A record keeps the rounds of the returned model (after a relaxed phase II is cut back to
    its best round) and the stop reason; a run that stopped on the cap (``"n_estimators"``)
    trained ``max_rounds``, one stopped by the patience rule ``patience`` rounds beyond its
    best round, any other exactly its rounds."""
    out = []
    for kept, reason in zip(record["rounds"], record["stop_reasons"]):
        if reason.startswith("n_estimators"):
            out.append(int(max_rounds))
        elif reason.startswith("phase II no improvement within patience"):
            out.append(min(int(max_rounds), int(kept) + int(patience)))
        else:
            out.append(int(kept))
    return out


def cost_frame(cells: list[dict], metrics: list[dict], paper_rounds: int = 5000):
    """Per data set and method: the CPU seconds of the cells run, the seconds per round, and a
    projection of the paper's protocol at that speed.

    The projection counts 5 rotations (1 on a fixed split), ``paper_rounds`` rounds for a
    baseline run that reached our cap (its observed rounds when it stopped by itself) and,
    for DMCBoost, phase I once plus each :math:`n'`'s phase II, with ``paper_rounds`` rounds
    for a run that reached our cap: on the rotated sets those runs would go on to their own
    stop, so where any did (``capped`` > 0) the projection is a lower bound in rounds (on the
    fixed splits the paper's own limit is 5000 rounds).

    The seconds per round (``rate``): for a baseline, and for DMCBoost records without
    ``phase1_seconds`` (made before it was recorded), the cells' seconds over their rounds
    (``"blended"``: for DMCBoost this mixes phase I's rounds with phase II's, which can cost
    far less, so the projection of a capped set can then overstate); for DMCBoost records that
    all have it, phase I's seconds as they are and the rest over phase II's rounds
    (``"per phase"``)."""
    import pandas as pd

    rows = []
    for cell, m in zip(cells, metrics):
        cap, method = int(cell["params"]["max_rounds"]), cell["algorithm"]
        phase1_s, phase2_rounds, phase2_projected = float("nan"), 0, 0
        if method == "DMCBoost":
            ran = rounds_run(m, cap)
            n1 = int(m["n_phase1"])
            phase2_rounds = sum(r - n1 for r in ran)
            phase2_projected = sum((paper_rounds if r >= cap else r) - n1 for r in ran)
            total, projected = n1 + phase2_rounds, n1 + phase2_projected
            capped = sum(r >= cap for r in ran)
            phase1_s = float(m.get("phase1_seconds", float("nan")))
        else:
            total = int(m.get("rounds_fitted", 0))
            capped = int(str(m.get("stop_reason", "")).startswith("n_estimators"))
            projected = paper_rounds if capped else total
        rows.append(
            {
                "dataset": cell["paper_dataset"],
                "algorithm": method,
                "seconds": float(m["seconds"]),
                "rounds": total,
                "capped": capped,
                "runs": len(m["rounds"]) if method == "DMCBoost" else 1,
                "projected_rounds": projected,
                "phase1_seconds": phase1_s,
                "phase2_rounds": phase2_rounds,
                "phase2_projected": phase2_projected,
            }
        )
    frame = pd.DataFrame(rows)
    out = frame.groupby(["dataset", "algorithm"], sort=False).agg(
        cells=("seconds", "size"),
        seconds=("seconds", "sum"),
        rounds=("rounds", "sum"),
        capped=("capped", "sum"),
        runs=("runs", "sum"),
        projected_rounds=("projected_rounds", "mean"),
        phase1_seconds=("phase1_seconds", lambda v: v.sum(min_count=len(v))),
        phase2_rounds=("phase2_rounds", "sum"),
        phase2_projected=("phase2_projected", "sum"),
    )
    out["s_per_round"] = out["seconds"] / out["rounds"].clip(lower=1)
    folds = PAPER_SETTINGS["folds"]
    assert isinstance(folds, int)
    rotations = np.array([1 if name in FIXED else folds for name, _ in out.index], dtype=float)
    blended = out["s_per_round"] * out["projected_rounds"]
    phase2_rate = (out["seconds"] - out["phase1_seconds"]) / out["phase2_rounds"].clip(lower=1)
    per_phase = (out["phase1_seconds"] + phase2_rate * out["phase2_projected"]) / out["cells"]
    split = out["phase1_seconds"].notna().to_numpy()
    out["rate"] = np.where(split, "per phase", "blended")
    out["paper_cpu_h"] = np.where(split, per_phase, blended) * rotations / 3600.0
    out = out.drop(columns=["phase1_seconds", "phase2_rounds", "phase2_projected"])
    out = out.reset_index()
    # a baseline's paper cap is 5000 rounds, and DMCBoost's on the fixed splits: only
    # DMCBoost on the rotated sets runs on beyond it
    rotated = ~out["dataset"].isin(FIXED)
    out["lower_bound"] = (out["capped"] > 0) & (out["algorithm"] == "DMCBoost") & rotated
    return out


def missing_cost(cells: list[dict], metrics: list[dict | None], missing: list[dict]):
    """Estimated CPU hours of the ``missing`` cells, per data set and method, from the seconds
    of the computed ``cells`` (``metrics[i]`` is ``None`` for a cell not computed).

    A missing cell costs the mean seconds of the computed cells of its data set, method,
    depth and noise rate (basis ``"same depth"``); failing those, of its data set, method and
    depth at another noise rate (``"other noise"``); failing those, the mean of its data set's
    and method's depth-3 cells (at its noise rate where there are such cells, else at any)
    times the method's depth factor (``"depth 3 x factor"``): over the data sets where the
    method has computed noise-free cells at both depths, the sum of their mean seconds at that
    depth over the sum at depth 3 (so the sets that take longest weigh most).  Depth can make
    a cell cheaper as well as dearer (deeper trees can fit a small training part in a few
    rounds, not a large one), so the factor is not a bound.  A cell with none of these (e.g. a
    method never run on the data set) has no estimate and is counted in ``unestimated``.
    Returns a frame with ``dataset, algorithm, missing, unestimated, cpu_h, basis`` (the bases
    used, most frequent first)."""
    import pandas as pd

    seen = pd.DataFrame(
        [
            {
                "dataset": c["paper_dataset"],
                "algorithm": c["algorithm"],
                "depth": int(c["params"]["depth"]),
                "noise": float(c.get("noise_rate", 0.0)),
                "seconds": float(m["seconds"]),
            }
            for c, m in zip(cells, metrics)
            if m is not None
        ],
        columns=["dataset", "algorithm", "depth", "noise", "seconds"],
    )
    exact = seen.groupby(["dataset", "algorithm", "depth", "noise"])["seconds"].mean()
    any_noise = seen.groupby(["dataset", "algorithm", "depth"])["seconds"].mean()
    clean = seen[seen.noise == 0.0].groupby(["algorithm", "dataset", "depth"])["seconds"].mean()
    factor: dict[tuple[str, int], float] = {}
    for method, by_set in clean.groupby(level="algorithm"):
        table = by_set.droplevel("algorithm").unstack("depth")
        if 3 not in table:
            continue
        for depth in table.columns.drop(3):
            both = table[[3, depth]].dropna()
            if both[3].sum() > 0:
                factor[method, int(depth)] = float(both[depth].sum() / both[3].sum())
    rows = []
    for c in missing:
        name, method = c["paper_dataset"], c["algorithm"]
        depth, noise = int(c["params"]["depth"]), float(c.get("noise_rate", 0.0))
        seconds, basis = np.nan, "none"
        if (name, method, depth, noise) in exact.index:
            seconds, basis = exact[name, method, depth, noise], "same depth"
        elif (name, method, depth) in any_noise.index:
            seconds, basis = any_noise[name, method, depth], "other noise"
        elif (name, method, 3) in any_noise.index and (method, depth) in factor:
            at_3 = exact.get((name, method, 3, noise), any_noise[name, method, 3])
            seconds = at_3 * factor[method, depth]
            basis = "depth 3 x factor"
        rows.append({"dataset": name, "algorithm": method, "seconds": seconds, "basis": basis})
    frame = pd.DataFrame(rows, columns=["dataset", "algorithm", "seconds", "basis"])
    if frame.empty:
        return frame.assign(missing=0, unestimated=0, cpu_h=0.0)
    return (
        frame.groupby(["dataset", "algorithm"], sort=False)
        .agg(
            missing=("seconds", "size"),
            unestimated=("seconds", lambda v: int(v.isna().sum())),
            cpu_h=("seconds", lambda v: float(v.sum()) / 3600.0),
            basis=("basis", lambda v: ", ".join(v.value_counts().index)),
        )
        .reset_index()
    )


def estimate_missing(store, missing: list[dict]):
    """:func:`missing_cost` of the ``missing`` cells from every cell of the paper's protocol
    in full (:func:`paper_protocol_cells`) that ``store`` (a result store) holds."""
    cells = paper_protocol_cells("full")
    metrics = []
    for cell in cells:
        try:
            metrics.append(store.get(cell)["metrics"])
        except KeyError:  # not computed yet
            metrics.append(None)
    return missing_cost(cells, metrics, missing)


def _summary(frame, keys):
    """Mean and sample std of the test error over rotations, with the rotation count; a method
    that could not boost on any rotation has a missing mean."""
    out = (
        frame.groupby(keys, sort=False)["test_error"]
        .agg(
            mean="mean",
            std=lambda v: float(np.std(v.dropna(), ddof=1)) if v.notna().sum() > 1 else np.nan,
            n_runs="count",
        )
        .reset_index()
    )
    out.insert(len(keys), "metric", "test_error")
    return out


def table2_frame(frame):
    """Table 2 in long format (depth 3, no noise): ``dataset, algorithm, metric, mean, std,
    n_runs``."""
    part = frame[
        (frame.depth == 3) & (frame.noise_rate == 0.0) & (frame.algorithm != "AdaBoost.MH")
    ]
    return _summary(part, ["dataset", "algorithm"])


def _depth_selected(frame):
    """Per data set, noise rate and method: the depth with the lowest mean validation error
    over the rotations (ties: the smaller depth; fixed splits without validation: the lowest
    mean training error), then its rows."""
    rows = []
    for _, group in frame.groupby(["dataset", "noise_rate", "algorithm"], sort=False):
        by_depth = group.groupby("depth")
        score = by_depth["validation_error"].mean()
        if score.isna().all():
            score = by_depth["train_error"].mean()
        score = score.fillna(np.inf)
        depth = int(score.index[np.flatnonzero(score.to_numpy() == score.min())[0]])
        rows.append(group[group.depth == depth].assign(chosen_depth=depth))
    import pandas as pd

    return pd.concat(rows, ignore_index=True) if rows else frame.iloc[:0]


def table3_frame(frame, datasets=None):
    """Table 3 (depth chosen from :data:`DEPTHS` by validation; no noise) in long format, with
    the chosen depth."""
    part = frame[frame.noise_rate == 0.0]
    if datasets is not None:
        part = part[part.dataset.isin(datasets)]
    chosen = _depth_selected(part)
    out = _summary(chosen, ["dataset", "algorithm"])
    depth = chosen.groupby(["dataset", "algorithm"], sort=False)["chosen_depth"].first()
    return out.merge(depth.reset_index(), on=["dataset", "algorithm"])


def table4_frame(frame, datasets=("Car", "Nursery")):
    """Table 4 (Car and Nursery with label noise; depth chosen by noisy validation) in long
    format, with the chosen depth."""
    part = frame[frame.dataset.isin(datasets)]
    chosen = _depth_selected(part)
    out = _summary(chosen, ["dataset", "noise_rate", "algorithm"])
    depth = chosen.groupby(["dataset", "noise_rate", "algorithm"], sort=False)[
        "chosen_depth"
    ].first()
    return out.merge(depth.reset_index(), on=["dataset", "noise_rate", "algorithm"])
