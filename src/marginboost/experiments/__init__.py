"""Running experiments and comparing them with the papers: the machinery every paper uses.

The papers themselves (their protocols, claims and registry) live in :mod:`marginboost.papers`.

* :mod:`~marginboost.experiments.profiles`: the ``quick`` and ``full`` profiles.
* :mod:`~marginboost.experiments.grids`: a paper's result store and the executor of its grids.
* :mod:`~marginboost.experiments.predicates`: how a claim's verdict follows from its parts.
* :mod:`~marginboost.experiments.store`: content-addressed, append-only result store.
* :mod:`~marginboost.experiments.runner`: grid runner (serial, local processes, dask).
* :mod:`~marginboost.experiments.selection`: model selection on validation folds.
* :mod:`~marginboost.experiments.targets`: the papers' numbers and claims.
* :mod:`~marginboost.experiments.compare`: paper | ours | difference | verdict tables.
* :mod:`~marginboost.experiments.scoreboard`: status of every claim, rendered for the book.
"""

from __future__ import annotations

from .compare import VERDICT_RULE, compare, compare_tables, describe_agreement, verdict_counts
from .profiles import Profile, check_profile
from .runner import CellError, run_grid
from .scoreboard import STATUSES, load_statuses, scoreboard, scoreboard_markdown
from .selection import best_round, early_stopping_round, select_hyperparameter, select_per_fold
from .store import (
    CorruptRecordError,
    RecordConflictError,
    ResultStore,
    cell_key,
    computing_environment,
    experiment_spec,
    source_fingerprint,
)
from .targets import claims, list_items, list_papers, load_targets, target_table

__all__ = [
    "Profile",
    "check_profile",
    "ResultStore",
    "cell_key",
    "experiment_spec",
    "RecordConflictError",
    "CorruptRecordError",
    "computing_environment",
    "source_fingerprint",
    "run_grid",
    "CellError",
    "best_round",
    "early_stopping_round",
    "select_hyperparameter",
    "select_per_fold",
    "load_targets",
    "list_papers",
    "list_items",
    "target_table",
    "claims",
    "compare",
    "compare_tables",
    "VERDICT_RULE",
    "describe_agreement",
    "verdict_counts",
    "scoreboard",
    "scoreboard_markdown",
    "load_statuses",
    "STATUSES",
]
