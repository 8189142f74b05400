"""The API reference pages of the book, generated from the package's public names.

Each page lists part of the public API (the ``__all__`` of its module, in groups) with Sphinx's
autosummary and autodoc directives, so the reference never names an object that does not exist
and never leaves a public one out (names no group claims are listed under "Other"). The pages are
committed under ``book/api/`` (``_toc.yml`` names them) and regenerated with the other generated
pages (``marginboost results update``); ``tests/test_generated_pages.py`` checks they are current.
"""

from __future__ import annotations

import importlib
import inspect

from ..papers import PROTOCOLS

__all__ = ["api_pages", "CHAPTER_ESTIMATORS", "chapter_api_block"]

#: The estimators each paper's chapter reproduces or compares against (for its API links).
CHAPTER_ESTIMATORS = {p.paper: list(p.estimators) for p in PROTOCOLS.values()}


def chapter_api_block(stem: str) -> str:
    """A paragraph linking a chapter's estimators to their API entries (empty if none)."""
    names = CHAPTER_ESTIMATORS.get(stem, [])
    if not names:
        return ""
    links = ", ".join(f"{{py:class}}`~marginboost.{name}`" for name in names)
    text = (
        f"\n\n## In the package\n\nThe estimators of this chapter, each with its "
        f"parameters and a runnable example in the API reference: {links}."
    )
    if stem == "shen_li":
        text += (
            " The primal and dual programs are checked numerically by the functions of "
            "`marginboost.duality` ([Duality checks](api/duality.md))."
        )
    return text + "\n"


def _directive(module: str, name: str) -> str:
    from sklearn.base import BaseEstimator

    obj = getattr(importlib.import_module(module), name)
    if inspect.isclass(obj):
        if issubclass(obj, BaseException):
            return f".. autoexception:: {name}\n\n"
        if issubclass(obj, BaseEstimator):
            return (
                f".. autoclass:: {name}\n   :members:\n"
                "   :inherited-members: BaseEstimator, ClassifierMixin\n\n"
            )
        return f".. autoclass:: {name}\n   :members:\n\n"
    if callable(obj):
        return f".. autofunction:: {name}\n\n"
    return f".. autodata:: {name}\n   :no-value:\n\n"


def _sections(
    module: str,
    groups: list[tuple[str, list[str]]],
    *,
    rest: str = "Other",
    also: tuple[str, ...] = (),
) -> str:
    """The groups of ``module``'s public names (only those that exist), then the unclaimed rest
    under the heading ``rest`` (names of the modules in ``also`` are documented elsewhere)."""
    public = [n for n in importlib.import_module(module).__all__ if n != "__version__"]
    for other in also:
        public = [n for n in public if n not in importlib.import_module(other).__all__]
    claimed = {n for _, names in groups for n in names}
    blocks = [(heading, [n for n in names if n in public]) for heading, names in groups]
    blocks.append((rest, [n for n in public if n not in claimed]))
    text = ""
    for heading, names in blocks:
        if not names:
            continue
        text += (
            f"\n## {heading}\n\n```{{eval-rst}}\n.. currentmodule:: {module}\n\n"
            ".. autosummary::\n   :nosignatures:\n\n"
        )
        text += "".join(f"   {n}\n" for n in names) + "\n"
        text += "".join(_directive(module, n) for n in names)
        text = text.rstrip("\n") + "\n```\n"
    return text


def _page(title: str, intro: str, *sections: str) -> str:
    return f"# {title}\n\n{intro}\n" + "".join(sections)


def api_pages() -> dict[str, str]:
    """``{path under book/: markdown}`` of every API reference page."""
    pages = {}
    pages["api/estimators.md"] = _page(
        "Estimators",
        "Every estimator follows scikit-learn's conventions (`fit`, `predict`, "
        "`decision_function`, `get_params`/`set_params`) and is imported from the top-level "
        "package, for example `from marginboost import DirectBoost`. The "
        "[user guide](../user-guide.md) shows them at work; the chapter that reproduces each "
        "method's paper is named in its docstring.",
        _sections(
            "marginboost",
            [
                (
                    "Stage-wise boosting (AnyBoost and its members)",
                    [
                        "AnyBoost",
                        "AdaBoost",
                        "RealAdaBoost",
                        "LogitBoost",
                        "ArcGv",
                        "ArcX4",
                        "DoomII",
                        "L2Boost",
                        "MadaBoost",
                        "BrownBoost",
                    ],
                ),
                (
                    "Totally corrective boosting and column generation",
                    [
                        "LPBoost",
                        "ERLPBoost",
                        "HingeLPBoost",
                        "AdaBoostCG",
                        "LogitBoostCG",
                        "MCBoost",
                        "MDBoost",
                        "AdaBoostL1",
                        "AdaBoostQP",
                    ],
                ),
                (
                    "Direct optimization of the 0-1 loss and the margins",
                    ["DirectBoost", "DMCBoost"],
                ),
                ("Multi-class boosting", ["AdaBoostM1", "SAMME", "AdaBoostMH", "GDMCBoost"]),
            ],
        ),
        _sections("marginboost.boosting", [], rest="Helpers and warnings", also=("marginboost",)),
    )
    pages["api/weak.md"] = _page(
        "Weak learners and binning",
        "Features are binned once into `uint8` codes (`BinMapper`); the weak learners of every "
        "estimator are built on those codes by numba kernels.",
        _sections(
            "marginboost.weak",
            [
                ("Binning", ["BinMapper", "RawFeatures"]),
                (
                    "Trees and linear learners",
                    ["DecisionTree", "FittedTree", "LDALearner", "FittedLDA"],
                ),
                (
                    "Direct trees (DirectBoost, DMCBoost)",
                    [
                        "DirectTreeBuilder",
                        "DirectNode",
                        "DirectTreeState",
                        "SplitObjective",
                        "EdgeObjective",
                    ],
                ),
                ("Fixed pools of weak classifiers", ["WeakPool"]),
            ],
        ),
    )
    pages["api/margins.md"] = _page(
        "Margins",
        "The margin tools behind the papers' figures: normalized margins, the bottom-$n'$ "
        "average, order statistics, cumulative distributions, mean, variance and bias.",
        _sections("marginboost.margins", [], rest="Functions"),
    )
    pages["api/losses.md"] = _page(
        "Margin costs",
        "The margin costs $c(\\rho)$ of the AnyBoost family, with the derivatives and conjugates "
        "the engine and the duality checks use.",
        _sections("marginboost.losses", [], rest="Costs"),
    )
    pages["api/duality.md"] = _page(
        "Duality checks",
        "Each primal/dual pair of Shen & Li (and of MCBoost) is built as a cvxpy problem and "
        "solved both ways; the `verify_*` functions return the two optimal values, the gap and "
        "the primal-dual maps, which the duality chapter and its notebook check numerically.",
        _sections(
            "marginboost.duality",
            [
                (
                    "Verified pairs",
                    [
                        "verify_adaboost_l1",
                        "verify_adaboost_unnormalized",
                        "verify_adaboost_lpboost_form",
                        "verify_gibbs_free_energy",
                        "verify_hard_margin_lpboost",
                        "verify_soft_margin_lpboost",
                        "verify_squared_hinge_lpboost",
                        "verify_generalized_hinge_lpboost",
                        "verify_logitboost",
                        "verify_mcboost",
                        "VerifyResult",
                        "DualitySolverError",
                        "zero_temperature_limit",
                        "bottom_average_identity",
                        "BottomAverageResult",
                        "tsallis_shannon_gaps",
                    ],
                ),
                (
                    "Conjugates and entropies",
                    [
                        "log_sum_exp",
                        "lse_conjugate",
                        "numeric_conjugate",
                        "numeric_conjugate_vector",
                        "check_conjugate",
                        "check_lse_conjugate",
                        "shannon_entropy",
                        "binary_relative_entropy",
                        "tsallis_entropy",
                        "q_logarithm",
                    ],
                ),
                (
                    "Primal-dual maps",
                    [
                        "adaboost_weights_from_primal",
                        "adaboost_margins_from_dual",
                        "lpboost_form_r_star",
                        "gibbs_free_energy",
                        "gibbs_distribution",
                        "tsallis_dual_constant",
                        "logitboost_weights_from_margins",
                        "logitboost_margins_from_weights",
                        "mcboost_weights_from_margins",
                        "mcboost_margins_from_weights",
                    ],
                ),
            ],
            rest="Problem builders (cvxpy)",
        ),
    )
    pages["api/data.md"] = _page(
        "Data",
        "Every benchmark file is registered with its source, a commit-pinned URL and its sha256 "
        "(see the [datasets page](../datasets.md)); `load` reads one, downloading it on first use "
        "or taking it from the folder that `MARGINBOOST_DATA_MIRROR` names.",
        _sections(
            "marginboost.data",
            [
                (
                    "Loading",
                    [
                        "load",
                        "load_train_test",
                        "Dataset",
                        "list_datasets",
                        "get_entry",
                        "registry_table",
                        "format_registry_table",
                        "locate",
                        "verify",
                        "verify_report",
                    ],
                ),
                (
                    "Splits and label noise",
                    [
                        "Split",
                        "rotated_splits",
                        "random_splits",
                        "shen_li_splits",
                        "mcboost_splits",
                        "ida_realisation_split",
                        "fixed_split",
                        "flip_labels",
                        "flip_split_labels",
                    ],
                ),
                (
                    "Generated data and encodings",
                    [
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
                    ],
                ),
                (
                    "Errors",
                    [
                        "DataError",
                        "UnknownDatasetError",
                        "ChecksumError",
                        "DataUnavailableError",
                        "DataFormatError",
                        "ProtocolError",
                    ],
                ),
            ],
        ),
    )
    pages["api/experiments.md"] = _page(
        "Experiments and results",
        "Grids of experiment cells, the append-only result store, model selection and the "
        "comparison with the papers' numbers.",
        _sections(
            "marginboost.experiments",
            [
                (
                    "Grids and the result store",
                    [
                        "run_grid",
                        "ResultStore",
                        "cell_key",
                        "experiment_spec",
                        "CellError",
                        "RecordConflictError",
                        "CorruptRecordError",
                        "computing_environment",
                        "source_fingerprint",
                    ],
                ),
                (
                    "Model selection",
                    [
                        "best_round",
                        "early_stopping_round",
                        "select_hyperparameter",
                        "select_per_fold",
                    ],
                ),
            ],
            rest="The papers' numbers and the verdicts",
        ),
        _sections(
            "marginboost.papers",
            [
                (
                    "The reproduced papers",
                    [
                        "PROTOCOLS",
                        "PAPERS",
                        "PaperProtocol",
                        "protocol",
                        "notebook_cells",
                        "cell_function",
                        "load_claims",
                    ],
                ),
            ],
        ),
    )
    pages["api/cli.md"] = cli_page()
    return pages


def _subparsers(parser):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def cli_page() -> str:
    """The ``marginboost`` command's reference: the help text of every (sub)command."""
    import os

    from .._cli_parser import build_parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps at the terminal's width: fix it
    try:
        return _cli_page(build_parser())
    finally:
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved


def _cli_page(parser) -> str:
    text = (
        "# Command line\n\nThe `marginboost` command is installed with the package. Every "
        "subcommand prints the same text with `--help`.\n\n```text\n"
        + parser.format_help()
        + "```\n"
    )
    for name, sub in _subparsers(parser):
        nested = list(_subparsers(sub))
        text += f"\n## `marginboost {name}`\n\n```text\n{sub.format_help()}```\n"
        for child, subsub in nested:
            text += f"\n### `marginboost {name} {child}`\n\n```text\n{subsub.format_help()}```\n"
    return text
