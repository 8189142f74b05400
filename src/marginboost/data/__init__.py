"""Benchmark data: registry, loaders, synthetic generators, label noise and split protocols.

Quick start::

    from marginboost.data import load, list_datasets, rotated_splits
    ds = load("ionosphere")            # Dataset(X float64, y codes, classes, meta)
    y = ds.y_signed()                  # -1/+1 for binary data
    for split in rotated_splits(ds.n_samples, seed=0):
        ...

Files come from ``$MARGINBOOST_DATA_MIRROR`` (an offline copy of the benchmark mirror) or are
downloaded into the user cache; their SHA-256 is always checked.
"""

from __future__ import annotations

from .dataset import Dataset
from .errors import (
    ChecksumError,
    DataError,
    DataFormatError,
    DataUnavailableError,
    ProtocolError,
    UnknownDatasetError,
)
from .fetch import locate, verify, verify_report
from .loaders import load, load_train_test
from .noise import flip_labels, flip_split_labels
from .page import datasets_page_markdown
from .poker import poker525k, poker_hand_label, poker_hands
from .registry import format_registry_table, get_entry, list_datasets, registry_table
from .splits import (
    Split,
    fixed_split,
    ida_realisation_split,
    mcboost_splits,
    random_splits,
    rotated_splits,
    shen_li_splits,
)
from .synthetic import long_servedio, mcboost_toy, ringnorm, twonorm, waveform
from .transform import ADULT_CATEGORICAL, binarize_adult, one_hot_encode

__all__ = [
    "Dataset",
    "load",
    "load_train_test",
    "list_datasets",
    "get_entry",
    "registry_table",
    "format_registry_table",
    "verify",
    "verify_report",
    "locate",
    "datasets_page_markdown",
    "DataError",
    "UnknownDatasetError",
    "ChecksumError",
    "DataUnavailableError",
    "DataFormatError",
    "ProtocolError",
    "flip_labels",
    "flip_split_labels",
    "Split",
    "rotated_splits",
    "random_splits",
    "shen_li_splits",
    "mcboost_splits",
    "ida_realisation_split",
    "fixed_split",
    "long_servedio",
    "twonorm",
    "ringnorm",
    "waveform",
    "mcboost_toy",
    "poker_hands",
    "poker_hand_label",
    "poker525k",
    "one_hot_encode",
    "binarize_adult",
    "ADULT_CATEGORICAL",
]
