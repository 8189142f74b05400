"""The CPU cost of DMCBoost's cells: the seconds of the cells run, a projection of the
paper's protocol in full at that speed (:func:`cost_frame`), and an estimate of the cells not
computed yet (:func:`missing_cost`, :func:`estimate_missing`)."""

from __future__ import annotations

import numpy as np

from .protocol import paper_protocol_cells
from .settings import FIXED, PAPER_SETTINGS

__all__ = [
    "rounds_run",
    "cost_frame",
    "missing_cost",
    "estimate_missing",
]


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
    in full (:func:`~.protocol.paper_protocol_cells`) that ``store`` (a result store) holds."""
    cells = paper_protocol_cells("full")
    metrics = []
    for cell in cells:
        try:
            metrics.append(store.get(cell)["metrics"])
        except KeyError:  # not computed yet
            metrics.append(None)
    return missing_cost(cells, metrics, missing)
