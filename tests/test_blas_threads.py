"""Every fit runs with BLAS on one thread (:mod:`marginboost.boosting._blas_threads`): OpenBLAS
shares a dot product of more than 10,000 elements out among its threads, and the partial sums
change its last bits, so without the limit a fit on more than 10,000 examples depended on the
machine's number of cores."""

from __future__ import annotations

import ast
import inspect
import textwrap

import numpy as np
import pytest
from sklearn.datasets import make_classification
from threadpoolctl import ThreadpoolController

import marginboost
from marginboost.boosting._blas_threads import one_blas_thread

#: The methods that fit a model.
FIT_METHODS = ("fit", "fit_path")

#: More examples than OpenBLAS's 10,000-element threshold for a threaded dot product.
N_ABOVE_THRESHOLD = 12_000


def _blas_threads_available() -> int:
    info = ThreadpoolController().select(user_api="blas").info()
    return max((lib["num_threads"] for lib in info), default=1)


@pytest.mark.parametrize("name", ["AdaBoost", "LogitBoost", "BrownBoost"])
def test_a_fit_does_not_depend_on_blas_threads(name):
    if _blas_threads_available() < 2:
        pytest.skip("BLAS has one thread here: nothing to compare")
    X, y = make_classification(
        n_samples=N_ABOVE_THRESHOLD, n_features=8, flip_y=0.1, random_state=0
    )
    controller = ThreadpoolController()
    fits = []
    for threads in (1, 2):
        with controller.limit(limits=threads, user_api="blas"):
            cls = getattr(marginboost, name)
            fits.append(cls(n_estimators=30, max_depth=2).fit(X, y).decision_function(X))
    assert np.array_equal(fits[0], fits[1])


def _runs_in_one_blas_thread(function) -> bool:
    """Whether ``function``'s body (after its docstring) is one ``with one_blas_thread():``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    body = tree.body[0].body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return (
        len(body) == 1
        and isinstance(body[0], ast.With)
        and ast.unparse(body[0].items[0].context_expr) == "one_blas_thread()"
    )


def test_every_public_estimators_fit_is_limited():
    checked = 0
    for name in marginboost.__all__:
        if name not in marginboost._ESTIMATORS:
            continue
        cls = getattr(marginboost, name)
        for method in FIT_METHODS:
            for klass in cls.__mro__:  # every definition a call can reach (super().fit too)
                if method in vars(klass) and klass.__module__.startswith("marginboost"):
                    assert _runs_in_one_blas_thread(vars(klass)[method]), (klass, method)
                    checked += 1
    assert checked >= len(marginboost._ESTIMATORS)


def test_the_limit_holds_inside_and_is_restored_after():
    controller = ThreadpoolController()
    before = [lib["num_threads"] for lib in controller.select(user_api="blas").info()]
    seen = []

    with one_blas_thread():
        seen.extend(
            lib["num_threads"] for lib in ThreadpoolController().select(user_api="blas").info()
        )
    assert seen and set(seen) == {1}
    assert [lib["num_threads"] for lib in controller.select(user_api="blas").info()] == before
