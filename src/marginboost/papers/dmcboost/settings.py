r"""The settings of the DMCBoost protocol (:mod:`.protocol`) that its grids and cells share.

The data sets (:data:`DATASETS`) and their rotations or fixed splits (:func:`load_fold`); the
:math:`n'` grid, tree depths, methods and noise rates; each profile's data sets, rotations and
round caps (:func:`grid_settings`); each table's protocol per data set (:func:`table2_protocol`,
:func:`table3_protocol`, :func:`table4_protocol`); and the spec of one cell of Tables 2-4.
"""

from __future__ import annotations

import numpy as np

from ...data import load, rotated_splits
from ...data.noise import flip_split_labels
from ...data.splits import Split
from ...experiments.grids import dataset_fingerprint
from ...experiments.profiles import check_profile as _check_profile
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
    "DMC_SAFETY_CAP",
    "load_fold",
    "table4_protocol",
    "n_prime_label",
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
    >>> from marginboost.papers.dmcboost.settings import load_dataset
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
    "table4": {name: {"folds": 5, "depths": list(DEPTHS)} for name in ("Car", "Nursery")},
    # Table 4's sets on the paper's protocol (as Table 2's table2_paper)
    "table4_paper": ["Car", "Nursery"],
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
    * Table 4 on Car and Nursery (all depths) on the paper's protocol (``table4_paper``,
      :func:`table4_protocol`).

    ``quick`` runs one rotation of Car, Wine and Glass with 60 rounds, two depths, three n'.

    ``protocol="paper"`` (``full`` profile only) lifts every reduction: Table 2 on the 13 sets,
    Table 3 on the 13 sets at depths 3, 5, 8 and 12, Table 4 on Car and Nursery at those
    depths, all on the paper's protocol (:func:`table2_protocol`), 5 rotations each (the fixed
    splits once).  Its cells include the ``book`` protocol's cells on the paper's protocol,
    so a run of it reuses them.

    Examples
    --------
    >>> from marginboost.papers.dmcboost.settings import grid_settings
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
