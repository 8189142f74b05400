"""DMCBoost's Tables 2-4 from the records of their cells: one row per cell
(:func:`results_frame`), then each table in long format."""

from __future__ import annotations

import numpy as np

__all__ = [
    "results_frame",
    "table2_frame",
    "table3_frame",
    "table4_frame",
]


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
    """Table 3 (depth chosen from :data:`~.settings.DEPTHS` by validation; no noise) in long format,
    with the chosen depth."""
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
