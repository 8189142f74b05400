"""What a user relies on without reading the code: documented defaults, input checks at
``predict`` time, and the documented formulas of small public functions."""

from __future__ import annotations

import ast
import inspect
import re

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import marginboost.boosting as boosting
import marginboost.weak as weak
from marginboost.boosting import AdaBoostL1, AdaBoostQP, AnyBoost, ArcGv, DoomII
from marginboost.duality import build_gibbs_problem, mcboost_margins_from_weights
from marginboost.margins import cumulative_margin_distribution, multiclass_margins


def _estimator_classes() -> list[type]:
    classes = []
    for module in (boosting, weak):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
                classes.append(obj)
    return classes


def _documented_callables() -> list:
    """Every public class and function of the estimator packages (not only estimators)."""
    found = []
    for module in (boosting, weak):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                found.append(obj)
    return found


def _documented_defaults(cls: type) -> dict[str, str]:
    """``name -> text after 'default='`` from the numpydoc Parameters section."""
    doc = inspect.getdoc(cls) or ""
    section = re.search(r"Parameters\n-{3,}\n(.*?)(\n\S[^\n]*\n-{3,}\n|\Z)", doc, re.S)
    if section is None:
        return {}
    found = {}
    for line in section.group(1).splitlines():
        match = re.match(r"(\w+) : .*default[= ](.+?)\.?$", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def _same(documented: str, value: object) -> bool:
    try:
        return ast.literal_eval(documented) == value
    except (ValueError, SyntaxError):
        return documented in (repr(value), str(value))


@pytest.mark.parametrize("cls", _documented_callables(), ids=lambda c: c.__name__)
def test_documented_defaults_are_the_real_defaults(cls):
    """Every ``default=...`` in a Parameters section is the signature's default."""
    signature = inspect.signature(cls.__init__ if inspect.isclass(cls) else cls)
    documented = _documented_defaults(cls)
    for name, text in documented.items():
        parameter = signature.parameters.get(name)
        if parameter is None or parameter.default is inspect.Parameter.empty:
            continue
        assert _same(text, parameter.default), (cls.__name__, name, text, parameter.default)


def test_the_documented_defaults_are_found():
    """The parser above reads the defaults of the reference estimator (so the test is live)."""
    documented = _documented_defaults(AnyBoost)
    assert documented["n_estimators"] == "100"
    assert len(documented) >= 8


def _toy(n: int = 60, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)
    return X, y


def test_predict_rejects_a_different_number_of_features():
    X, y = _toy()
    model = ArcGv(n_estimators=3).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :2])
    assert model.n_features_in_ == 3


def test_predict_rejects_non_finite_inputs():
    X, y = _toy()
    model = ArcGv(n_estimators=3).fit(X, y)
    bad = X.copy()
    bad[0, 1] = np.nan
    with pytest.raises(ValueError, match="NaN|infinity"):
        model.predict(bad)


def test_max_bins_below_two_is_rejected():
    X, y = _toy()
    with pytest.raises(ValueError, match="max_bins"):
        ArcGv(n_estimators=2, max_bins=1).fit(X, y)


def test_vote_probability_is_the_normalized_margin_mapped_to_zero_one():
    """Voting ensembles without a link function report P(y = +1) = (1 + F / sum|alpha|) / 2."""
    X, y = _toy()
    model = ArcGv(n_estimators=5, max_depth=2).fit(X, y)
    scores = model.decision_function(X)
    expected = np.clip(0.5 * (1.0 + scores / np.abs(model.alphas_).sum()), 0.0, 1.0)
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba[:, 1], expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    assert np.all(proba >= 0.0)


@pytest.mark.parametrize(
    ("name", "link"),
    [
        ({"cls": "AdaBoost"}, lambda f: 1.0 / (1.0 + np.exp(-2.0 * f))),
        ({"cls": "LogitBoost"}, lambda f: 1.0 / (1.0 + np.exp(-2.0 * f))),  # FHT's half log-odds
        ({"cls": "AnyBoost", "cost": "logistic"}, lambda f: 1.0 / (1.0 + np.exp(-f))),
        ({"cls": "L2Boost"}, lambda f: np.clip(0.5 * (1.0 + f), 0.0, 1.0)),
    ],
    ids=["AdaBoost", "LogitBoost", "AnyBoost-logistic", "L2Boost"],
)
def test_probability_follows_the_documented_link_of_the_loss(name, link):
    """P(y = +1) is the loss's link of the score F: 1/(1 + e^{-2F}) for the exponential loss
    (and LogitBoost, whose F is half the log-odds), 1/(1 + e^{-F}) for the logistic loss,
    (1 + F)/2 clipped to [0, 1] for the squared loss."""
    X, y = _toy()
    kwargs = dict(name)
    model = getattr(boosting, kwargs.pop("cls"))(n_estimators=6, max_depth=2, **kwargs).fit(X, y)
    scores = model.decision_function(X)
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba[:, 1], link(scores), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    assert len(np.unique(np.round(proba[:, 1], 9))) > 2  # not a constant


@pytest.mark.parametrize("cls", ["AdaBoost", "ArcGv", "L2Boost"])
def test_probability_argmax_is_the_prediction_for_scores_within_rounding_of_zero(cls):
    """A positive score too small to move the link off 1/2 (1 + tiny == 1) still gives the
    positive class the larger probability, as predict does; zero gives 1/2 each."""
    X, y = _toy()
    model = getattr(boosting, cls)(n_estimators=3, max_depth=2).fit(X, y)
    scores = np.array([1e-300, 1e-17, 0.0, -1e-17, -1e-300, 0.3, -0.3])
    proba = model._proba_from_scores(scores)
    labels = model._labels_from_scores(scores)
    np.testing.assert_array_equal(model.classes_[np.argmax(proba, axis=1)], labels)
    assert proba[2, 0] == proba[2, 1] == 0.5
    assert np.all(proba[:2, 1] > 0.5) and np.all(proba[3:5, 1] <= 0.5)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-15)


def test_resampling_draws_from_the_normalized_cost_gradient():
    """DOOM II's resampling draws with probabilities proportional to |gradient| (which do not
    sum to one by themselves), reproducibly for a given ``random_state``."""
    X, y = _toy(80)
    model = DoomII(n_estimators=4, sampling="resample", random_state=0).fit(X, y)
    again = DoomII(n_estimators=4, sampling="resample", random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), again.predict(X))
    assert model.score(X, y) > 0.7


def test_multiclass_margins_reject_labels_of_another_length():
    scores = np.zeros((5, 3))
    with pytest.raises(ValueError, match=r"y must have shape \(5,\)"):
        multiclass_margins(scores, np.array([0, 1, 2]))
    with pytest.raises(ValueError, match=r"y must have shape \(5,\)"):
        multiclass_margins(scores, np.zeros(7, dtype=int))


def test_margin_distribution_of_no_margins_is_an_error():
    with pytest.raises(ValueError, match="at least one margin"):
        cumulative_margin_distribution([])


def test_ignored_n_pool_warns_at_the_callers_line():
    """``n_pool`` has no use with ``pool='all_stumps'``: any value but the default warns, and
    the warning points at the user's own call."""
    X, y = _toy(40)
    for n_pool in (10, 2000):
        with pytest.warns(UserWarning, match=f"n_pool={n_pool} is ignored") as record:
            AdaBoostL1(T=0.5, pool="all_stumps", n_pool=n_pool).fit(X, y)
        assert record[0].filename == __file__


def test_with_T_rejects_a_negative_temperature():
    X, y = _toy(40)
    model = AdaBoostL1(T=0.5).fit(X, y)
    with pytest.raises(ValueError, match="T"):
        model.with_T(-0.5)


@pytest.mark.parametrize("cls", [AdaBoostL1, AdaBoostQP])
def test_pool_history_reports_normalized_training_margins(cls):
    """``history_`` holds the training margins of the pool solution divided by sum(w)."""
    X, y = _toy(50)
    model = cls(T=0.5).fit(X, y)
    margins = y * model.decision_function(X)
    total = np.abs(model.alphas_).sum()
    assert model.history_["min_margin"][0] == pytest.approx(margins.min() / total, abs=1e-9)
    assert model.history_["mean_margin"][0] == pytest.approx(margins.mean() / total, abs=1e-9)
    assert model.history_["train_error"][0] == pytest.approx(np.mean(margins <= 0))


def test_gibbs_problem_needs_a_vector_of_energies():
    with pytest.raises(ValueError, match="non-empty finite vector"):
        build_gibbs_problem(1.0, T=0.5)
    with pytest.raises(ValueError, match="non-empty finite vector"):
        build_gibbs_problem([[1.0, 2.0]], T=0.5)


def test_mcboost_margins_from_dual_weights():
    """Guo & Chen's KKT map solved for the margins: rho = E - u / 2 (elementwise)."""
    u = np.array([0.0, -1.0, 0.4, 2.0])
    np.testing.assert_allclose(mcboost_margins_from_weights(u, E=0.5), 0.5 - u / 2, rtol=1e-15)


class _InaccurateUntilLast:
    """A stand-in for a cvxpy problem that reports "optimal_inaccurate" until the last attempt."""

    def __init__(self, last: dict):
        self.last, self.attempts, self.status, self.value = last, [], None, None

    def solve(self, solver: str, **options):
        self.attempts.append(options)
        self.status = "optimal" if options == self.last else "optimal_inaccurate"
        self.value = 1.0


@pytest.mark.parametrize("solver", ["CLARABEL", "SCS"])
def test_duality_solves_fall_back_to_looser_but_bounded_tolerances(solver):
    """An "optimal_inaccurate" solve is retried with each fallback in turn; every retry asks
    for tolerances no tighter than the attempt before and none looser than 1e-5."""
    from marginboost.duality import _common

    attempts = [_common.DEFAULT_SOLVER_OPTIONS[solver], *_common.FALLBACK_SOLVER_OPTIONS[solver]]
    problem = _InaccurateUntilLast(attempts[-1])
    assert _common.solve_problem(problem, solver, "test problem") == 1.0
    assert problem.attempts == attempts
    for before, after in zip(attempts, attempts[1:], strict=False):
        for key, value in after.items():
            if key.startswith(("tol", "eps")):
                assert before[key] <= value <= 1e-5, (key, before[key], value)


def test_verify_results_are_read_only():
    """A duality check's result is a frozen record: its numbers cannot be overwritten."""
    import dataclasses

    from marginboost.duality import VerifyResult

    fields = {f.name: 0.0 for f in dataclasses.fields(VerifyResult)}
    result = VerifyResult(**fields)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.gap = 1.0


def test_q_logarithm_names_non_numeric_input():
    from marginboost.duality.entropy import q_logarithm

    with pytest.raises(TypeError, match="x must be real numbers"):
        q_logarithm([object()], 0.5)


def test_gibbs_problem_rejects_non_finite_energies():
    with pytest.raises(ValueError, match="non-empty finite vector"):
        build_gibbs_problem([1.0, np.nan], T=0.5)


def test_logitboost_margins_need_weights_strictly_between_zero_and_one():
    from marginboost.duality import logitboost_margins_from_weights

    with pytest.raises(ValueError, match="0 < u < 1"):
        logitboost_margins_from_weights([0.5, 1.5])


def test_bottom_average_identity_needs_an_integer_count():
    from marginboost.duality import bottom_average_identity

    H = np.array([[-1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [1.0, 1.0, -1.0], [1.0, 1.0, 1.0]])
    with pytest.raises(ValueError, match="n_bottom must be an integer"):
        bottom_average_identity(H, np.ones(4), n_bottom=2.5)


def test_vector_conjugate_probes_rays_that_stay_in_the_box():
    """sup over x1 >= 0 of x1 - x2^2 is unbounded along +e1, a ray inside the bounds."""
    from marginboost.duality import numeric_conjugate_vector

    value = numeric_conjugate_vector(
        lambda x: x[1] ** 2, [1.0, 0.0], bounds=[(0, None), (None, None)]
    )
    assert value == np.inf


@pytest.mark.parametrize(("per_unit_slope", "unbounded"), [(0.5, False), (2.0, True)])
def test_unboundedness_rule_measures_slopes_along_unit_directions(per_unit_slope, unbounded):
    """Off the simplex, lse*(u) grows along the diagonal by (sum(u) - 1)/sqrt(n) per unit of
    length; the documented rule declares +inf when that slope exceeds SLOPE_TOLERANCE."""
    from marginboost.duality import log_sum_exp, numeric_conjugate_vector
    from marginboost.duality.conjugates import SLOPE_TOLERANCE

    excess = per_unit_slope * SLOPE_TOLERANCE * np.sqrt(2.0)
    value = numeric_conjugate_vector(log_sum_exp, [0.5, 0.5 + excess])
    assert (value == np.inf) is unbounded
    if not unbounded:  # then the value is a finite lower bound from the local search
        assert np.isfinite(value)


def test_first_highs_model_prints_nothing_and_leaves_stderr_working():
    """HiGHS prints a banner on the C-level stdout when a process creates its first model;
    the LPBoost master hides it, and restores the process's output streams afterwards."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from marginboost.boosting import _masters\n"
        "_masters._new_highs()\n"
        "print('after', flush=True)\n"
        "print('still here', file=sys.stderr, flush=True)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "after\n"
    assert "still here" in run.stderr


def test_bin_threshold_error_names_the_number_of_bins():
    X = np.array([[0.0], [1.0], [2.0], [1.0]])
    mapper = weak.BinMapper().fit(X)
    with pytest.raises(ValueError, match=r"feature has 3 bins"):
        mapper.threshold(0, 5)


def test_validation_fraction_must_leave_training_data():
    X, y = _toy()
    with pytest.raises(ValueError, match="validation_fraction"):
        ArcGv(n_estimators=2, validation_fraction=1.0, n_iter_no_change=2).fit(X, y)


def test_masters_refuse_an_empty_matrix():
    from marginboost.boosting import _masters

    for shape in [(0, 3), (3, 0)]:
        with pytest.raises(ValueError, match="non-empty 2-D array"):
            _masters.solve_mcboost(np.zeros(shape), 0.5)


def test_nth_order_margin_objective_is_the_nth_smallest():
    from marginboost.boosting.directboost import margin_objective

    margins = [0.3, -0.1, 0.5, 0.2]
    assert margin_objective(margins, 1, "order") == pytest.approx(-0.1)
    assert margin_objective(margins, 2, "order") == pytest.approx(0.2)
    assert margin_objective(margins, 2, "average") == pytest.approx(0.05)


def test_lda_label_error_shows_the_offending_label():
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match="found np.float64\\(2.0\\)|found 2.0"):
        weak.LDALearner().fit_binary(X, np.array([1.0, -1.0, 2.0]))


def test_duality_instances_need_one_label_per_row():
    from marginboost.duality._common import check_instance

    H = np.array([[1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]])
    for y in (np.ones(4), np.ones(2)):
        with pytest.raises(ValueError, match=r"one label per row of H \(3\)"):
            check_instance(H, y)


def test_scalar_conjugate_of_a_function_that_does_not_vectorize():
    """f reduces its argument to one number, so it cannot be called on many points at once;
    the conjugate then evaluates it point by point: (x^2/2)* = u^2/2."""
    from marginboost.duality import numeric_conjugate

    value = numeric_conjugate(lambda x: float(np.sum(np.square(x))) / 2.0, 1.5)
    assert value == pytest.approx(1.125, rel=1e-6)


def test_lse_conjugate_check_accepts_search_options():
    from marginboost.duality import check_lse_conjugate

    assert check_lse_conjugate([[0.2, 0.3, 0.5]], search_radius=1e6, tolerance=1e-9) < 1e-6


@pytest.mark.parametrize("p", [1.0, 0.5, -2.0, np.inf, np.nan])
def test_hinge_dual_refuses_p_outside_one_to_infinity(p):
    """The q-norm dual needs 1/p + 1/q = 1 with a finite p > 1."""
    from marginboost.boosting import _masters

    with pytest.raises(ValueError, match=r"p must be a finite number > 1"):
        _masters.solve_hinge_dual(np.eye(3), 0.5, p)


def test_fit_binary_names_the_first_label_that_is_not_plus_or_minus_one():
    codes = np.asfortranarray(np.array([[0], [1], [2], [3]], dtype=np.uint8))
    with pytest.raises(ValueError, match=r"only -1 and \+1; found (np\.float64\()?0\.5\b"):
        weak.DecisionTree(max_depth=1).fit_binary(codes, np.array([1.0, -1.0, 0.5, 2.0]))


@pytest.mark.parametrize("cls", _estimator_classes(), ids=lambda c: c.__name__)
def test_every_estimator_documents_its_parameters_and_has_an_example(cls):
    """help(Estimator) shows every constructor parameter and a runnable Examples section."""
    doc = inspect.getdoc(cls) or ""
    section = re.search(r"Parameters\n-{3,}\n(.*?)(\n\S[^\n]*\n-{3,}\n|\Z)", doc, re.S)
    assert section is not None, f"{cls.__name__} has no Parameters section"
    documented = set()
    for line in section.group(1).splitlines():
        if line and not line[0].isspace():  # "name : type" or "name1, name2" (shared text)
            documented.update(name.strip() for name in line.split(" : ")[0].split(","))
    parameters = set(inspect.signature(cls.__init__).parameters) - {"self"}
    assert parameters <= documented, (cls.__name__, sorted(parameters - documented))
    assert re.search(r"Examples\n-{3,}\n.*>>> ", doc, re.S), f"{cls.__name__} has no example"


def test_string_labels_are_kept_as_given():
    X, y = _toy()
    for dtype in (str, object):  # object: as a pandas column of strings arrives
        labels = np.where(y == y.max(), "spam", "ham").astype(dtype)
        model = boosting.AdaBoost(n_estimators=5).fit(X, labels)
        assert model.classes_.tolist() == ["ham", "spam"]
        assert set(model.predict(X)) <= {"ham", "spam"}


def test_multiclass_margins_name_what_is_wrong():
    with pytest.raises(TypeError, match=r"scores must be a real \(n, K\) array"):
        multiclass_margins([["a", "b"], ["c", "d"]], np.array([0, 1]))
    with pytest.raises(TypeError, match=r"scores must be a real \(n, K\) array"):
        multiclass_margins([[object(), 1.0]], np.array([0]))
    # the first five offending distinct values are shown
    with pytest.raises(ValueError, match=r"got values \[-3 -2 -1  3  4\]$"):
        multiclass_margins(np.ones((7, 3)), np.array([-3, -2, -1, 3, 4, 5, 6]))


def test_staged_score_is_the_accuracy_of_each_stage():
    X, y = _toy()
    model = boosting.AdaBoost(n_estimators=6, max_depth=1).fit(X, y)
    staged = list(model.staged_score(X, y))
    expected = [float(np.mean(labels == y)) for labels in model.staged_predict(X)]
    assert staged == expected
    assert staged[-1] == model.score(X, y)
    assert len(set(staged)) > 1 or staged[0] < 1.0  # not trivially perfect
