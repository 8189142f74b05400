r"""Protocols of Zhai, Xia & Wang, "A multi-class boosting method with direct optimization"
(DMCBoost, KDD 2014).

**Tables 2-4** (Sec. 3) share one grid of cells: one cell per data set, fold, label-noise
rate, tree depth and method.  Table 2 reads the depth-3 cells, Table 3 picks the depth from
:data:`~.settings.DEPTHS` per data set and method by validation error, Table 4 reads Car and Nursery
with 5% and 20% of the training *and* validation labels changed (test labels clean).

* The 13 UCI sets (:data:`~.settings.DATASETS`: the paper's name -> registry name).  Eleven are
  split into 5 equal random parts; rotation ``k`` tests on part ``k``, validates on part ``k + 1``
  and trains on the other three (:func:`~marginboost.data.rotated_splits`).  Segmentation
  and Poker525k have fixed train/test splits and no validation part (:data:`~.settings.FIXED`).
* Baselines (AdaBoost.M1, SAMME, AdaBoost.MH, GD-MCBoost) run up to ``max_rounds`` rounds
  and keep the round with the lowest validation error (the earliest among ties:
  :func:`~marginboost.experiments.selection.best_round`); on the fixed splits they keep all
  their rounds.  AdaBoost.M1 that cannot boost (weighted error of its first tree >= 1/2)
  has no test error: the paper's "-".
* DMCBoost runs phase I once and phase II for every :math:`n'` of :data:`~.settings.N_PRIME_GRID`
  (:meth:`~marginboost.boosting.DMCBoost.fit_path`) and keeps the :math:`n'` with the
  lowest validation error (ties: the smallest); on the fixed splits :math:`n' = n/4`.  It
  stops by itself (no early stopping), within ``dmc_max_rounds`` rounds.

**Figure 3**: training and test error after every round on Car (rotation 0, depth 3) of
AdaBoost.M1, SAMME, DMCBoost phase I alone, and DMCBoost switching to phase II.

Profiles.  ``quick`` runs a few small sets with short runs (CI).  ``full`` is a *reduced*
version of the paper's protocol sized for a two-core machine (:func:`~.settings.grid_settings`):
every number it produces is marked as such in the notebooks.

The paper's modules: :mod:`.settings` (its data sets, splits, profiles and each table's
protocol), this one (the grids of Tables 2-4: the book's, the paper's in full, and the reruns
and ablations that check a cap or a phase; :func:`cell_function`), :mod:`.cell` (one cell of
Tables 2-4), :mod:`.figure3` (Figure 3's grid and cell), :mod:`.summaries` (Tables 2-4 from
the cells' records) and :mod:`.cost` (the CPU cost of the paper's protocol in full).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...experiments.profiles import check_profile as _check_profile
from .cell import grid_cell
from .figure3 import figure3_cell
from .settings import (
    DATASETS,
    FIXED,
    METHODS,
    NOISE_RATES,
    _cell,
    grid_settings,
    table2_protocol,
    table3_protocol,
    table4_protocol,
)

__all__ = [
    "grid_cells",
    "CAP_ABLATION",
    "CAP_RAISE",
    "chosen_run_capped",
    "raise_capped_cells",
    "replace_capped_runs",
    "raised_cap_cells",
    "capped_and_raised",
    "RAISED_TABLES",
    "raised_reruns_bound_cpu_h",
    "with_raised_cap",
    "cap_ablation_cells",
    "phase1_only_cells",
    "PHASE1_ONLY",
    "paper_protocol_cells",
    "paper_raised_cap_cells",
    "select_paper_cells",
    "REDUCED_CAP_CHECK",
    "reduced_cap_cells",
    "cell_function",
]


def grid_cells(
    profile: str, tables=("table2", "table3", "table4"), protocol: str = "book"
) -> list[dict]:
    """The cells of the asked tables, without repeats (Table 2's cells are Table 3's depth-3
    cells where both tables run the same protocol, :func:`~.settings.table2_protocol` and
    :func:`~.settings.table3_protocol`, and Table 4's noise-free cells where
    :func:`~.settings.table4_protocol` runs the same protocol as Table 3; where the caps differ, so
    do the cells); ``protocol`` as in :func:`~.settings.grid_settings`."""
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


#: How much larger the safety cap of a rerun is (:func:`raise_capped_cells`).
CAP_RAISE = 4


#: The tables whose DMCBoost cells are rerun with a raised cap where the chosen :math:`n'` ended
#: on the safety cap, in the order they are computed: Table 4 (claim C3), then Tables 2 and 3
#: (claims C1 and C2; Table 3's depth-3 cells are Table 2's).
RAISED_TABLES = ("table4", "table2", "table3")


def paper_raised_cap_cells(profile: str) -> list[dict]:
    """The reruns with a raised cap of Tables 4, 2 and 3 on the paper's protocol in full
    (``full`` profile; none in ``quick``): :func:`capped_and_raised` over
    :data:`RAISED_TABLES` with ``protocol="paper"``, found from the stored records of
    :func:`paper_protocol_cells`.  ``marginboost cells dmcboost`` computes them after the
    tables' cells, and the Table 2 notebook counts them and shows those of Tables 2 and 3."""
    _check_profile(profile)
    if profile != "full":
        return []
    return [rerun for _, rerun in capped_and_raised(profile, "paper", RAISED_TABLES)]


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


def chosen_run_capped(cell: dict, metrics: dict) -> bool:
    """Whether a DMCBoost cell's run of the chosen :math:`n'` ended on the round cap."""
    chosen = list(cell["params"]["n_prime_grid"]).index(metrics["chosen"])
    return metrics["stop_reasons"][chosen].startswith(("n_estimators", "max_rounds"))


def raise_capped_cells(cells: list[dict], metrics: list[dict], protocols: dict) -> list[int]:
    """Positions of the DMCBoost cells to rerun with a cap :data:`CAP_RAISE` times larger: those
    on the paper's protocol, where the cap is ours (not on the fixed splits, whose 5000 rounds
    are the paper's), whose chosen :math:`n'` ended on it.  ``protocols`` maps each data set to
    its table's protocol (:func:`~.settings.table4_protocol`); :func:`with_raised_cap` gives the
    rerun."""
    return [
        i
        for i, (c, m) in enumerate(zip(cells, metrics))
        if c["algorithm"] == "DMCBoost"
        and protocols[c["paper_dataset"]]["paper"]
        and c["paper_dataset"] not in FIXED
        and chosen_run_capped(c, m)
    ]


def replace_capped_runs(
    cells: list[dict],
    metrics: list[dict],
    protocols: dict,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    desc: str = "dmcboost, raised cap",
) -> tuple[list[dict], list[dict], list[int]]:
    """A table's cells with each DMCBoost cell of :func:`raise_capped_cells` replaced by its
    rerun (:func:`with_raised_cap`; computed through the store where it lacks it):
    ``(cells, metrics, positions replaced)``, the input lists untouched.  The rerun's chosen
    run may still end on its larger cap (:func:`chosen_run_capped` says so)."""
    from ...experiments.grids import run_paper_grid

    raised = raise_capped_cells(cells, metrics, protocols)
    cells, metrics = list(cells), list(metrics)
    if raised:
        reruns = [with_raised_cap(cells[i]) for i in raised]
        rerun_metrics = run_paper_grid(
            "dmcboost", grid_cell, reruns, jobs=jobs, scheduler=scheduler, desc=desc
        )
        for i, cell, record in zip(raised, reruns, rerun_metrics):
            cells[i], metrics[i] = cell, record
    return cells, metrics, raised


_TABLE_PROTOCOLS = {
    "table2": table2_protocol,
    "table3": table3_protocol,
    "table4": table4_protocol,
}


def raised_cap_cells(profile: str, protocol: str = "book") -> list[dict]:
    """Table 4's reruns with a raised cap (:func:`raise_capped_cells`), found from the stored
    records of its cells; none until those cells are in the store."""
    return [raised for _, raised in capped_and_raised(profile, protocol)]


def capped_and_raised(
    profile: str, protocol: str = "book", tables: Sequence[str] = ("table4",)
) -> list[tuple[dict, dict]]:
    """The stored DMCBoost cells of ``tables`` (of :data:`RAISED_TABLES`; Table 4's by default)
    whose chosen :math:`n'` ended on the safety cap, each with its rerun
    (:func:`with_raised_cap`): ``(capped cell, rerun cell)`` pairs, each cell once (the tables
    share cells)."""
    from ...experiments.grids import paper_store
    from ...experiments.store import cell_key

    unknown = [t for t in tables if t not in RAISED_TABLES]
    if unknown:
        raise ValueError(f"unknown table(s) {unknown}; the tables are {', '.join(RAISED_TABLES)}")
    store = None
    pairs: dict[str, tuple[dict, dict]] = {}
    for table in tables:
        cells = grid_cells(profile, tables=(table,), protocol=protocol)
        protocols = {
            name: _TABLE_PROTOCOLS[table](name, profile, protocol)
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
            continue
        store = store or paper_store("dmcboost", profile)
        stored = [c for c in candidates if store.has(c)]
        metrics = [store.get(c)["metrics"] for c in stored]
        for i in raise_capped_cells(stored, metrics, protocols):
            pairs.setdefault(cell_key(stored[i]), (stored[i], with_raised_cap(stored[i])))
    return list(pairs.values())


def raised_reruns_bound_cpu_h(store, pairs: list[tuple[dict, dict]]) -> float:
    """At most how many CPU hours the reruns of ``pairs`` (:func:`capped_and_raised`) that
    ``store`` lacks take: :data:`CAP_RAISE` times their capped cells' own seconds (a rerun
    runs at most that many times the capped cell's rounds)."""
    seconds = sum(
        store.get(capped)["elapsed_seconds"] for capped, rerun in pairs if not store.has(rerun)
    )
    return CAP_RAISE * seconds / 3600


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


def cell_function(spec: dict):
    """The cell function that computed a stored record of this paper."""
    if spec.get("table") == "tables2-4":
        return grid_cell
    if spec.get("figure") == "figure3":
        return figure3_cell
    raise ValueError(f"no dmcboost cell function for the spec {spec!r}")
