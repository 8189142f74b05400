"""DirectBoost's fits of Tables 1 and 4 that end on the tables' safety cap, run again with a
higher cap (:func:`capped_reruns`, :func:`capped_rerun_cells`), and the tables' records with the
reruns' in their place (:func:`with_reruns`)."""

from __future__ import annotations

from ...experiments.store import cell_key
from .noise import table4_cells
from .table1 import table1_cells

#: A DirectBoost fit of Tables 1 and 4 that ends on the tables' safety cap (``direct_rounds``,
#: which the paper does not have) runs again, its variant over the whole n' grid, with the cap
#: raised this many times, and its record replaces the capped one (:func:`capped_reruns`,
#: :func:`with_reruns`).  On Cancer-wdbc a capped fit stops by itself a few rounds past the
#: old cap, in a few minutes.
CAPPED_RERUN_FACTOR = 20


#: Data sets whose capped fits are not rerun, with the reason; their fits stay counted as
#: capped, and a part of a claim they could change is not decided.
CAPPED_RERUN_EXCEPTIONS = {
    "Adult": "a Table 1 cell on Adult takes 20 to 45 minutes at the 50,000-round cap; its "
    "capped fits run on for an unknown number of rounds past it (not run yet)",
}


def _on_cap(reason: str) -> bool:
    return reason in ("n_estimators", "max_rounds")


def capped_reruns(cells: list[dict], metrics: list[dict]) -> list[dict]:
    """The reruns of the DirectBoost fits that ended on the safety cap: one spec per cell and
    variant with a capped fit, that variant alone over the cell's whole n' grid, with the cap
    :data:`CAPPED_RERUN_FACTOR` times higher (data sets in :data:`CAPPED_RERUN_EXCEPTIONS`
    are left out).  Only full-profile cells are rerun: the quick profile's small caps are its
    stated reduction."""
    out = []
    for cell, record in zip(cells, metrics):
        if (
            cell["algorithm"] != "DirectBoost"
            or cell.get("profile") != "full"
            or cell["data"]["name"] in CAPPED_RERUN_EXCEPTIONS
        ):
            continue
        for variant, fit in record.items():
            if any(_on_cap(r) for r in fit.get("stop_reasons", ())):
                params = {
                    **cell["params"],
                    "max_rounds": int(cell["params"]["max_rounds"]) * CAPPED_RERUN_FACTOR,
                    "variants": [variant],
                }
                out.append({**cell, "params": params})
    return out


def capped_rerun_cells(profile: str) -> list[dict]:
    """The reruns (:func:`capped_reruns`) of Tables 1 and 4 that the stored records of their
    cells call for: the cells the notebooks compute after the tables' own grids.  A table cell
    without a stored record has no known rerun yet (its notebook finds it when it runs)."""
    from ...experiments.grids import paper_store

    store = paper_store("directboost", profile)
    cells = {
        cell_key(c): c
        for c in [*table1_cells(profile), *table4_cells(profile)]
        if c["algorithm"] == "DirectBoost"
    }
    stored = [(c, store.get(c)["metrics"]) for c in cells.values() if store.has(c)]
    return capped_reruns([c for c, _ in stored], [m for _, m in stored])


def with_reruns(
    cells: list[dict], metrics: list[dict], reruns: list[dict], rerun_metrics: list[dict]
) -> list[dict]:
    """``metrics`` with each capped variant's record replaced by its rerun's (matched on the
    cell's data, rotation and rules): the cell's numbers as if the cap had been higher."""

    def where(spec: dict) -> tuple:
        rules = {k: v for k, v in spec["params"].items() if k not in ("max_rounds", "variants")}
        return (repr(spec["data"]), spec["fold"], spec["table"], repr(sorted(rules.items())))

    found = {
        (where(spec), variant): fit
        for spec, record in zip(reruns, rerun_metrics)
        for variant, fit in record.items()
    }
    out = []
    for cell, record in zip(cells, metrics):
        if cell["algorithm"] == "DirectBoost":
            record = {v: found.get((where(cell), v), fit) for v, fit in record.items()}
        out.append(record)
    return out
