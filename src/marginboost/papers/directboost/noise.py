r"""DirectBoost's Tables 3 and 4 (noise): Long & Servedio's problem (Table 3) and wdbc and
ionosphere with flipped training labels (Table 4), their grids and their tables from the cells'
records (:func:`noise_frame`, :func:`cap_frame`)."""

from __future__ import annotations

import itertools

from ...experiments.profiles import check_profile as _check_profile
from ...experiments.store import experiment_spec
from .settings import (
    _FULL,
    _QUICK,
    METHODS,
    PROTOCOL_VERSION,
    TABLE3_ROUNDS,
    TABLE4_ROUNDS,
    _params,
    _uci_spec,
)
from .table1 import _aggregate, _records

__all__ = [
    "table3_settings",
    "table3_cells",
    "table4_settings",
    "table4_cells",
    "noise_frame",
    "cap_frame",
]


# ---- Tables 3 and 4: noise ------------------------------------------------------------------
def table3_settings(profile: str) -> dict:
    """Values of l and eta, sizes and caps of Table 3."""
    _check_profile(profile)
    base = _FULL if profile == "full" else _QUICK
    if profile == "full":
        return {
            "ls": [5, 20],
            "etas": [0.0, 0.05, 0.2],
            "n_train": 1000,
            "n_eval": 5000,
            "runs": [0],
            **base,
            # on 1000 noisy labels the phase-2 ascents creep on for tens of thousands of rounds
            # before their own stop rules end them (one l = 20 fit takes 303,932): 5000 rounds
            # stopped a third of the fits and 50,000 still 6 of 234
            "direct_rounds": TABLE3_ROUNDS,
        }
    return {"ls": [5], "etas": [0.2], "n_train": 300, "n_eval": 1000, "runs": [0], **base}


_NOISE_METHODS = METHODS  # AB, LB, LPB, BB and the DirectBoost variants


#: Row label suffix of the second reading of the Long-Servedio generator (l > 5 only).
SECOND_BLOCK_LABEL = " (second block grows)"


def _ls_layouts(l: int) -> list[str | None]:
    """Readings of :func:`~marginboost.data.long_servedio` run for ``l``: for l = 5 they give
    the same data (one cell, no layout in its spec); otherwise both, the separable
    ``first_block`` reading first."""
    return [None] if l == 5 else ["first_block", "second_block"]


def table3_cells(profile: str) -> list[dict]:
    """One cell per (l, reading of the generator, eta, run, method)."""
    s = table3_settings(profile)
    cells = []
    for l in s["ls"]:
        for layout, eta in itertools.product(_ls_layouts(l), s["etas"]):
            for run in s["runs"]:
                for method in _NOISE_METHODS:
                    suffix = SECOND_BLOCK_LABEL if layout == "second_block" else ""
                    data = {
                        "kind": "long_servedio",
                        "l": l,
                        "noise": eta,
                        "n_train": s["n_train"],
                        "n_eval": s["n_eval"],
                        "name": f"long-servedio l={l} eta={eta}{suffix}",
                        **({"layout": layout} if layout else {}),
                    }
                    cells.append(
                        experiment_spec(
                            algorithm=method,
                            params=_params(method, 1, s),
                            dataset="long_servedio",
                            dataset_sha256="generated",
                            protocol=f"{PROTOCOL_VERSION}/long-servedio",
                            fold=run,
                            seed=run,
                            profile=profile,
                            table="table3",
                            paper="directboost",
                            data=data,
                        )
                    )
    return cells


def table4_settings(profile: str) -> dict:
    """Data sets, noise rates, rotations and caps of Table 4."""
    _check_profile(profile)
    if profile == "full":
        return {
            "datasets": ["Cancer-wdbc", "Ionosphere"],
            "etas": [0.0, 0.05, 0.2],
            "folds": list(range(5)),
            **_FULL,
            # Table 1's cap (its noise-free rows are Table 1's cells); the noisy wdbc fits
            # run several minutes each at this cap
            "direct_rounds": TABLE4_ROUNDS,
        }
    return {"datasets": ["Cancer-wdbc"], "etas": [0.2], "folds": [0], **_QUICK}


def cap_frame(cells: list[dict], metrics: list[dict]):
    """One row per cell and method: ``dataset``, ``noise``, ``method``, ``fits`` and ``on the
    cap`` (fits that stopped on a round or column cap instead of their own stop rule).

    A DirectBoost record holds one fit per value of :math:`n'` (its ``stop_reasons``), an
    LPBoost record one per :math:`\nu` (capped when not ``converged``), AdaBoost and LogitBoost
    one (``cap_reached``); BrownBoost's records keep no stop reason and are left out."""
    import pandas as pd

    rows = []
    for cell, record in zip(cells, metrics):
        for method, fit in record.items():
            if "stop_reasons" in fit:
                flags = [r in ("n_estimators", "max_rounds") for r in fit["stop_reasons"]]
            elif "converged" in fit:
                flags = [not c for c in fit["converged"]]
            elif "cap_reached" in fit:
                flags = [bool(fit["cap_reached"])]
            else:
                continue
            rows.append(
                {
                    "dataset": cell["data"]["name"],
                    "noise": float(cell["data"].get("noise", 0.0)),
                    "method": method,
                    "fits": len(flags),
                    "on the cap": sum(flags),
                }
            )
    return pd.DataFrame(rows, columns=["dataset", "noise", "method", "fits", "on the cap"])


def table4_cells(profile: str) -> list[dict]:
    """One cell per data set, noise rate, rotation and method (the noise-free cells are
    Table 1's: the same computation, stored once)."""
    s = table4_settings(profile)
    return [
        _uci_spec("table1" if eta == 0 else "table4", name, fold, method, s, profile, noise=eta)
        for name in s["datasets"]
        for eta in s["etas"]
        for fold in s["folds"]
        for method in _NOISE_METHODS
    ]


#: Column names of Tables 3 and 4 in the paper.
SHORT_NAMES = {
    "AdaBoost": "AB",
    "LogitBoost": "LB",
    "LPBoost": "LPB",
    "BrownBoost": "BB",
    "DirectBoost_eps_avg": "DB_eps_avg",
    "DirectBoost_order": "DB_order",
    "DirectBoost_avg": "DB_avg",
}


def noise_frame(cells: list[dict], metrics: list[dict]):
    """Tables 3/4 in long format with the paper's labels: ``"<data> eta=<rate>"`` rows and
    short method names; mean over runs/rotations."""
    rows = []
    for cell, method, record in _records(cells, metrics):
        data = cell["data"]
        if data["kind"] == "uci":
            label = {"Cancer-wdbc": "wdbc"}.get(data["name"], data["name"])
            dataset = f"{label} eta={data['noise']}"
        else:
            dataset = data["name"]
        rows.append((dataset, SHORT_NAMES[method], record["test_error"]))
    return _aggregate(rows)
