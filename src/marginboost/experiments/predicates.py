"""Every claim of the papers as a predicate over the committed results.

A predicate reads the committed evidence — the full-profile key numbers
``data/results/<paper>/<item>.full.json``, the committed benchmark records
``benchmarks/results/<name>.json`` and, for claims checked by unit tests, the named test functions
in ``tests/`` — and returns a :class:`Check`: one of the :data:`VERDICT_STATUSES`, the numbers that
decided it and the sentence that says how.  The scoreboard (``data/results/scoreboard.yaml`` and
``book/scoreboard.md``) is generated from these checks; nothing in it is typed by hand except the
explanatory notes, which never decide.

How a verdict is reached (:data:`CLAIM_RULE`): a claim is split into the parts it asserts; each
part is decided from the numbers; the claim is *reproduced* when every part holds, *partly* when
some part holds, *not reproduced* when none does, and *not tested* when no committed result
decides it.  A claim checked only under a protocol we had to change or invent is capped at
*partly* (the cap and its reason are shown).  Where a part says that one method beats another
over repeated splits, it holds only when the count of splits on which it does is significant
under a one-sided sign test at the 5% level (:func:`sign_test_p`); over fewer than five runs,
where no count is significant, it must hold on every run (:func:`over_splits`).

A predicate must pass the paper it checks: applied to the paper's own printed numbers
(:class:`PaperEvidence`) it says "reproduced" (``tests/test_scoreboard.py`` checks every claim).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

import yaml

from .._paths import project_root

__all__ = [
    "Check",
    "Part",
    "VERDICT_STATUSES",
    "CLAIM_RULE",
    "PREDICATES",
    "Evidence",
    "PaperEvidence",
    "UNIT_CHECKS",
    "fingerprint_of_test",
    "evaluate",
    "evaluate_all",
    "sign_test_p",
    "over_splits",
    "could_change",
    "CAP_COUNTS",
]

#: The verdicts a predicate can return.
VERDICT_STATUSES = ("reproduced", "partly", "not reproduced", "not decided (capped)", "not tested")

#: How a claim's verdict follows from its parts (shown on the scoreboard page).
CLAIM_RULE = (
    "Each claim is split into the parts it asserts, and each part is decided by a predicate over "
    "the committed results (full-profile key numbers, committed benchmark records, or a named "
    "unit test that checks it). A claim is 'reproduced' when every part holds, 'partly' when at "
    "least one part holds, 'not reproduced' when none does, and 'not tested' when no committed "
    "result decides it. A claim checked only under a protocol we had to change or invent is "
    "capped at 'partly'. 'A beats B over repeated splits' holds only when the number of splits "
    "on which A is better is significant under a one-sided sign test at the 5% level (over fewer "
    "than five runs, where no count can be significant, A must be better on every run). Every "
    "predicate passes the paper itself: applied to the paper's own printed numbers, it says "
    "'reproduced'. No cap of ours decides a verdict: a part that fails while some of its "
    "deciding runs ended on a round or column cap the paper does not have is not decided, and a "
    "claim with such a part and no other failing part is 'not decided (capped)', with the count."
)


@dataclass(frozen=True)
class Part:
    """One part of a claim: what it asserts, whether it holds, and the sentence with our numbers."""

    label: str
    holds: bool | None  # None: not decided by any committed result
    detail: str = ""
    #: How many of the runs that decide this part ended on a round or column cap the paper does
    #: not have (None: the committed results do not record it).
    runs_on_cap: int | None = None
    #: Numbers this part adds to the claim's record (a part decided by unit tests: how many of
    #: them passed in their recorded run).
    numbers: dict = field(default_factory=dict)


@dataclass
class Check:
    """The verdict of one claim's predicate."""

    status: str
    numbers: dict = field(default_factory=dict)
    parts: list[Part] = field(default_factory=list)
    cap: str = ""
    evidence: str = ""

    @property
    def runs_on_cap(self) -> int | None:
        """Deciding runs that ended on a cap of ours: the largest count of any part (the parts
        of a claim share their runs); None when no part records it."""
        counts = [p.runs_on_cap for p in self.parts if p.runs_on_cap is not None]
        return max(counts) if counts else None

    @property
    def reason(self) -> str:
        """One line per part: holds / fails / not tested, with its numbers."""
        lines = []
        for p in self.parts:
            mark = {True: "holds", False: "fails", None: "not decided"}[p.holds]
            lines.append(f"{p.label}: {mark}" + (f" ({p.detail})" if p.detail else ""))
        if self.cap:
            lines.append(f"capped at partly: {self.cap}")
        return "; ".join(lines) + "."


#: The one-sided 5% critical value of a standard normal statistic (the paper's 1.645).
Z_ONE_SIDED_5 = round(NormalDist().inv_cdf(0.95), 3)


def sign_test_p(wins: int, n: int) -> float:
    """One-sided sign-test p-value of ``wins`` successes in ``n`` paired comparisons (ties dropped)."""
    if n <= 0:
        return 1.0
    return sum(math.comb(n, k) for k in range(wins, n + 1)) / 2**n


def over_splits(wins: int, n: int) -> bool:
    """Whether "A beats B" holds over ``n`` paired runs of which A wins ``wins``.

    Over enough runs for a one-sided sign test to reach the 5% level (five or more), the count
    must be significant (:func:`sign_test_p`); over fewer — a paper's single run among them —
    no count can be significant, and A must win on every run.
    """
    if n >= 5:
        return sign_test_p(wins, n) < 0.05
    return n > 0 and wins == n


def _r(x, digits=3):
    """Round a number for the record (the committed verdict must not depend on the last digits)."""
    if isinstance(x, bool):
        return x
    if isinstance(x, (int,)) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e9):
        return int(x)
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return round(float(x), digits)


class Evidence:
    """Read-only access to the committed results of a checkout."""

    def __init__(self, root: str | Path | None = None):
        root = project_root() if root is None else Path(root)
        if root is None:
            raise FileNotFoundError(
                "the claims are evaluated on the committed results of a "
                "marginboost checkout, which was not found"
            )
        self.root = Path(root)
        self._cache: dict = {}

    def key(self, paper: str, item: str) -> dict | None:
        """The full-profile key numbers of one notebook, or None when none are committed."""
        path = self.root / "data" / "results" / paper / f"{item}.full.json"
        if path not in self._cache:
            self._cache[path] = json.loads(path.read_text())["numbers"] if path.is_file() else None
        return self._cache[path]

    def bench(self, name: str) -> dict | None:
        """A committed benchmark record ``benchmarks/results/<name>.json``, or None."""
        path = self.root / "benchmarks" / "results" / f"{name}.json"
        return json.loads(path.read_text()) if path.is_file() else None

    def test(self, module: str, name: str) -> bool | None:
        """Whether the test ``tests/<module>.py::name`` passed when it was last recorded.

        The outcomes are recorded in ``data/results/unit_checks.yaml`` by ``marginboost
        scoreboard --update``, which runs the named tests (:data:`UNIT_CHECKS`).  True when the
        recorded run passed and the test's source is the one that ran; False when it failed;
        None when no outcome is recorded for the test as it stands (never run, or changed since).
        """
        if "unit_checks" not in self._cache:
            path = self.root / UNIT_CHECKS
            data = yaml.safe_load(path.read_text()) if path.is_file() else None
            self._cache["unit_checks"] = (data or {}).get("tests", {})
        record = self._cache["unit_checks"].get(f"tests/{module}.py::{name}")
        if record is None or record.get("source_sha256") != fingerprint_of_test(
            self.root, module, name
        ):
            return None
        return record.get("outcome") == "passed"


#: Where ``marginboost scoreboard --update`` records the outcomes of the tests that decide claims.
UNIT_CHECKS = "data/results/unit_checks.yaml"


def fingerprint_of_test(root: str | Path, module: str, name: str) -> str | None:
    """sha256 of the source of the test function ``name`` in ``tests/<module>.py`` (None if absent).

    A recorded outcome counts only for the source it ran: a test edited since its run has no
    recorded outcome until the scoreboard is updated again.
    """
    import ast
    import hashlib

    path = Path(root) / "tests" / f"{module}.py"
    if not path.is_file():
        return None
    text = path.read_text()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            source = ast.get_source_segment(text, node, padded=False) or ""
            decorators = [ast.get_source_segment(text, d) or "" for d in node.decorator_list]
            return hashlib.sha256("\n".join([*decorators, source]).encode()).hexdigest()
    return None


class PaperEvidence(Evidence):
    """The paper's own printed numbers, served to a claim's predicate as if they were our results.

    A predicate must pass the paper it checks: applied to the numbers the paper prints (or, where
    the paper prints none, to the weakest numbers its words allow), it must say "reproduced";
    otherwise it asks more than the paper does.  The numbers are the section ``as_printed`` of
    ``data/targets/<paper>.yaml``, one entry per claim: for each item a predicate reads, a mapping
    of key numbers, and ``rows`` that names a table of the target file whose rows become key
    numbers ``"{dataset}_{algorithm}"`` (or the entry's own ``name`` pattern, with the
    substitutions of its ``replace``); ``bench`` for
    benchmark records; ``proof`` for parts checked by unit tests, which hold by the paper's proof
    or argument at the place it names.

    Parameters
    ----------
    claim : str
        ``"paper/Cn"``.
    targets_directory : str or path-like, optional
        Folder of the target files (default: the checkout's ``data/targets``).

    Examples
    --------
    >>> from marginboost.experiments.predicates import PaperEvidence, evaluate
    >>> evaluate("directboost/C8", PaperEvidence("directboost/C8")).status
    'reproduced'
    """

    def __init__(self, claim: str, targets_directory: str | Path | None = None):
        from .targets import load_targets

        super().__init__(None)
        self.claim = claim
        self.paper, cid = claim.split("/")
        self._targets = targets_directory
        entries = load_targets(self.paper, directory=targets_directory).get("as_printed") or {}
        if cid not in entries:
            raise KeyError(f"data/targets/{self.paper}.yaml has no as_printed entry for {cid}")
        self.entry: dict = entries[cid] or {}

    def key(self, paper: str, item: str) -> dict | None:
        from .targets import target_table

        spec = self.entry.get(item)
        if not isinstance(spec, dict):
            return None
        numbers: dict = {}
        rows = spec.get("rows")
        if rows:
            rows = {"table": rows} if isinstance(rows, str) else rows
            table = target_table(self.paper, rows["table"], directory=self._targets)
            if "metric" in rows:
                table = table[table.metric == rows["metric"]]
            pattern = rows.get("name", "{dataset}_{algorithm}")
            for r in table.itertuples(index=False):
                if r.mean != r.mean:  # a cell the paper leaves empty is no number
                    continue
                name = pattern.format(**r._asdict())
                for old, new in (rows.get("replace") or {}).items():
                    name = name.replace(old, new)
                numbers[name] = float(r.mean)
        numbers.update({k: v for k, v in spec.items() if k not in ("rows", "reading")})
        return numbers

    def bench(self, name: str) -> dict | None:
        return (self.entry.get("bench") or {}).get(name)

    def test(self, module: str, name: str) -> bool | None:
        return True if self.entry.get("proof") else None


class _Missing(Exception):
    """A predicate needs a number that no committed file holds."""


def _need(numbers: dict | None, *names: str):
    if numbers is None:
        raise _Missing("no committed key numbers")
    missing = [n for n in names if n not in numbers]
    if missing:
        raise _Missing(f"key numbers {missing} are not committed")
    values = [numbers[n] for n in names]
    return values[0] if len(values) == 1 else values


Predicate = Callable[[Evidence], tuple[list[Part], dict]]
#: ``{"paper/claim": (evidence link, predicate, cap)}``; filled by :func:`_claim`.
PREDICATES: dict[str, tuple[str, Predicate, str]] = {}


def _claim(key: str, evidence: str, cap: str = ""):
    def register(fn: Predicate) -> Predicate:
        PREDICATES[key] = (evidence, fn, cap)
        return fn

    return register


#: Every test a predicate names, ``"tests/<module>.py::<name>"``; filled by :func:`_tests`
#: when the predicates run (``marginboost scoreboard --update`` runs them and records outcomes).
NAMED_TESTS: set[str] = set()


def _tests(ev: Evidence, label: str, *names: str) -> Part:
    """A part checked by unit tests: holds when every named ``module::test`` passed in its
    recorded run (:meth:`Evidence.test`), fails when one failed, is undecided otherwise."""
    shown = [f"tests/{n.replace('::', '.py::')}" for n in names]
    NAMED_TESTS.update(shown)
    outcomes = [ev.test(*n.split("::")) for n in names]
    if isinstance(ev, PaperEvidence):
        return Part(label, outcomes[0], f"the paper's proof ({ev.entry.get('proof')})")
    failed = [t for t, o in zip(shown, outcomes) if o is False]
    missing = [t for t, o in zip(shown, outcomes) if o is None]
    counts = {"unit_tests_named": len(shown), "unit_tests_passed": outcomes.count(True)}
    if failed:
        return Part(label, False, "failed: " + ", ".join(failed), numbers=counts)
    if missing:
        return Part(label, None, "no recorded pass of " + ", ".join(missing), numbers=counts)
    return Part(label, True, "passed: " + ", ".join(shown), numbers=counts)


#: Where a claim's notebook counts the deciding fits that ended on a round or column cap of ours
#: (a limit the paper does not state), for the claims whose predicates do not place them
#: themselves: ``{claim: (paper, item, key number)}``.  Every part of the claim not decided by
#: unit tests gets the count.  For the DMCBoost tables the count is of the chosen runs.
CAP_COUNTS = {
    "anyboost/C5": ("anyboost", "figure1", "fits_on_cap"),
    "anyboost/C6": ("anyboost", "figure3", "fits_on_cap"),
    "anyboost/C7": ("anyboost", "figure2", "fits_on_cap"),
    "shen_li/C5": ("shen_li", "figure1", "fits_on_cap"),
    "shen_li/C6": ("shen_li", "figure3", "fits_on_cap"),
    "shen_li/C7": ("shen_li", "table2-3", "fits_on_cap"),
    "shen_li/C8": ("shen_li", "table2-3", "fits_on_cap"),
    "shen_li/C11": ("shen_li", "table5-8", "fits_on_cap"),
    "shen_li/C12": ("shen_li", "table5-8", "fits_on_cap"),
    "mcboost/C1": ("mcboost", "table1-2", "fits_on_cap"),
    "mcboost/C2": ("mcboost", "figure1", "fits_on_cap"),
    "mcboost/C6": ("mcboost", "figure1", "fits_on_cap"),
    "mcboost/C7": ("mcboost", "figure2", "fits_on_cap"),
    "mcboost/C8": ("mcboost", "figures3-4", "fits_on_cap"),
    "directboost/C3": ("directboost", "table1", "choice_default_fits_on_cap"),
    "directboost/C14": ("directboost", "table1", "choice_default_fits_on_cap"),
    "directboost/C12": ("directboost", "checks", "fits_on_cap_order"),
    "directboost/C13": ("directboost", "checks", "fits_on_cap_theorem3"),
    "dmcboost/C2": ("dmcboost", "table3", "fits_on_cap_chosen"),
    "dmcboost/C3": ("dmcboost", "table4", "fits_on_cap_chosen"),
    "dmcboost/C4": ("dmcboost", "table4", "fits_on_cap_chosen"),
    "dmcboost/C5": ("dmcboost", "figure3", "fits_on_cap"),
}


def evaluate(key: str, evidence: Evidence | None = None) -> Check:
    """Evaluate the predicate of one claim ``"paper/Cn"``."""
    ev = Evidence() if evidence is None else evidence
    link, fn, cap = PREDICATES[key]
    try:
        parts, numbers = fn(ev)
    except _Missing as exc:
        return Check("not tested", {}, [Part("committed results", None, str(exc))], "", link)
    if key in CAP_COUNTS:
        paper, item, name = CAP_COUNTS[key]
        count = (ev.key(paper, item) or {}).get(name)
        if count is not None:
            parts = [
                p
                if p.runs_on_cap is not None or "unit_tests_named" in p.numbers
                else Part(p.label, p.holds, p.detail, int(count), p.numbers)
                for p in parts
            ]
    for p in parts:  # numbers a part adds (unit tests passed), summed over the parts
        for name, value in p.numbers.items():
            numbers[name] = numbers.get(name, 0) + value
    numbers = {k: _r(v) for k, v in numbers.items()}
    # a part that fails on runs our cap ended is not decided by them
    capped = False
    for i, p in enumerate(parts):
        if p.holds is False and p.runs_on_cap:
            capped = True
            parts[i] = Part(
                p.label,
                None,
                f"{p.detail}; not decided: {p.runs_on_cap} of its deciding runs ended on a round "
                "or column cap the paper does not have",
                p.runs_on_cap,
                p.numbers,
            )
    decided = [p.holds for p in parts if p.holds is not None]
    if capped and all(decided):
        status = "not decided (capped)"
    elif not decided:
        status = "not tested"
    elif all(p.holds for p in parts):
        status = "reproduced"
    elif any(decided):
        status = "partly"
    else:
        status = "not reproduced"
    applied = ""
    # a cap stands for a protocol of ours; the paper's own numbers come from its own protocol
    if cap and status == "reproduced" and not isinstance(ev, PaperEvidence):
        status, applied = "partly", cap
    return Check(status, numbers, parts, applied, link)


def evaluate_all(evidence: Evidence | None = None) -> dict[str, Check]:
    """Every registered claim's check, keyed ``"paper/Cn"``."""
    ev = Evidence() if evidence is None else evidence
    return {key: evaluate(key, ev) for key in PREDICATES}


def _on_cap(parts: list[Part], runs: float | None) -> list[Part]:
    """The parts, each decided by runs of which ``runs`` ended on a cap of ours (None: not
    recorded)."""
    n = None if runs is None else int(runs)
    return [Part(p.label, p.holds, p.detail, n) for p in parts]


def _pct(x: float) -> str:
    return f"{x:.1f}%"


# ---------------------------------------------------------------------------------------------
# AnyBoost (Mason et al., 1999)

_ANY_SETS = [
    "sonar",
    "cleve",
    "ionosphere",
    "vote1",
    "credit",
    "breast-cancer",
    "pima",
    "hypo",
    "splice",
]
#: The paper's Figure 1 y axis runs from about -2 to 3.5 points (data/targets/anyboost.yaml).
_ANY_AXIS = (-2.0, 3.5)


@_claim("anyboost/C1", "anyboost.md")
def _any_c1(ev):
    return [
        _tests(
            ev,
            "weights -c'(yF)/sum handed to the weak learner, round by round",
            "test_stagewise_reference::test_adaboost_is_anyboost_with_exponential_cost_and_line_search",
            "test_stagewise_reference::test_logistic_cost_with_newton_raphson_step",
        )
    ], {}


@_claim("anyboost/C2", "../notebooks/anyboost-table1.ipynb")
def _any_c2(ev):
    k = ev.key("anyboost", "table1")
    same, lo, hi, pred = _need(
        k,
        "rows_with_same_cost",
        "sklearn_weight_ratio_min",
        "sklearn_weight_ratio_max",
        "sklearn_same_predictions",
    )
    parts = [
        Part(
            "all four rows of Table 1 are the one engine with the listed cost and step",
            same == 4,
            f"{same} of 4 rows",
        ),
        Part(
            "AdaBoost equals scikit-learn's SAMME (weights exactly 2x, same predictions)",
            abs(lo - 2) < 1e-9 and abs(hi - 2) < 1e-9 and pred == 1,
            f"weight ratio {lo:.6f} to {hi:.6f}",
        ),
    ]
    return parts, {
        "rows_with_same_cost": same,
        "sklearn_weight_ratio_min": lo,
        "sklearn_weight_ratio_max": hi,
    }


@_claim("anyboost/C3", "anyboost.md")
def _any_c3(ev):
    return [
        _tests(
            ev,
            "with the Lipschitz step the cost never increases (numerically, not proved)",
            "test_stagewise::test_lipschitz_step_decreases_the_cost_every_round",
        )
    ], {}


@_claim("anyboost/C4", "anyboost.md")
def _any_c4(ev):
    return [
        _tests(
            ev,
            "on a finite negation-closed stump pool the engine reaches the convex optimum",
            "test_stagewise::test_lipschitz_step_converges_to_the_convex_optimum_over_the_stump_hull",
        )
    ], {}


@_claim("anyboost/C5", "../notebooks/anyboost-figure1.ipynb")
def _any_c5(ev):
    k = ev.key("anyboost", "figure1")
    nums, parts = {}, []
    means = {}
    for noise in (0, 15):
        adv = [_need(k, f"advantage_{s}_{noise}") for s in _ANY_SETS]
        wins = sum(a > 0 for a in adv)
        means[noise] = _need(k, f"mean_advantage_{noise}")
        p = sign_test_p(wins, len(adv))
        nums[f"wins_{noise}"], nums[f"mean_advantage_{noise}"] = wins, means[noise]
        nums[f"sign_test_p_{noise}"] = p
        # "generally outperforms": on most of the nine sets and on average; the paper's own
        # Figure 1 has negative bars, so a significant count is more than it shows
        parts.append(
            Part(
                f"DOOM II generally better than AdaBoost at {noise}% noise (on most of the nine "
                "sets, and on average)",
                means[noise] > 0 and 2 * wins > len(adv),
                f"better on {wins} of 9 sets (sign test p = {p:.3f}), mean advantage "
                f"{means[noise]:+.1f} points",
            )
        )
    parts.append(
        Part(
            "the advantage grows with label noise",
            means[15] > means[0],
            f"mean {means[0]:+.1f} at 0% to {means[15]:+.1f} points at 15%",
        )
    )
    bars = [_need(k, f"advantage_{s}_{n}") for s in _ANY_SETS for n in (0, 5, 15)]
    outside = sum(not (_ANY_AXIS[0] <= b <= _ANY_AXIS[1]) for b in bars)
    nums["bars_outside_paper_axis"] = outside
    return parts, nums


@_claim("anyboost/C6", "../notebooks/anyboost-figure3.ipynb")
def _any_c6(ev):
    k = ev.key("anyboost", "figure3")
    nums, overfits, exp_late = {}, [], []
    lambdas = (2, 5, 10, 20)
    close: dict[int, list[bool]] = {lam: [] for lam in lambdas}
    for s in ("labor", "vote1"):
        best, final, br, er = _need(
            k,
            f"{s}_best_test_error",
            f"{s}_final_test_error",
            f"{s}_best_round",
            f"{s}_exp_cost_argmin_round",
        )
        overfits.append(round(final - best, 9) >= 0.01)
        exp_late.append(er >= 10 * br)
        nums[f"{s}_best_round"], nums[f"{s}_exp_cost_argmin_round"] = br, er
        nums[f"{s}_test_error_rise_points"] = 100 * (final - best)
        for lam in lambdas:
            sr = _need(k, f"{s}_sigmoid_{lam}_argmin_round")
            nums[f"{s}_sigmoid_{lam}_argmin_round"] = sr
            close[lam].append(0.5 <= sr / br <= 2.0)
    good = [lam for lam in lambdas if all(close[lam])]
    parts = [
        Part(
            "AdaBoost with stumps overfits (final test error at least 1 point above its "
            "minimum) on labor and vote1",
            all(overfits),
            f"rise {nums['labor_test_error_rise_points']:.1f} and "
            f"{nums['vote1_test_error_rise_points']:.1f} points",
        ),
        Part(
            "the exponential cost does not track the test error (its minimum comes at "
            "least 10x later)",
            all(exp_late),
            f"rounds {nums['labor_exp_cost_argmin_round']} and "
            f"{nums['vote1_exp_cost_argmin_round']} against "
            f"{nums['labor_best_round']} and {nums['vote1_best_round']}",
        ),
        Part(
            "one lambda puts the sigmoid cost's minimum within a factor 2 of the "
            "test-error minimum on both sets",
            bool(good),
            f"lambda in {list(lambdas)}: " + ("works for " + str(good) if good else "none does"),
        ),
    ]
    return parts, nums


@_claim("anyboost/C7", "../notebooks/anyboost-figure2.ipynb")
def _any_c7(ev):
    k = ev.key("anyboost", "figure2")
    panels = [(s, n) for s in ("breast-cancer-wisconsin", "splice") for n in ("0%", "15%")]
    nums: dict[str, float] = {}
    lower_median, gives_up, degenerate = 0, 0, 0
    used = 0
    for s, n in panels:
        a_med, d_med, a_q, d_q = _need(
            k,
            f"{s}_{n}_AdaBoost_median",
            f"{s}_{n}_DOOM II_median",
            f"{s}_{n}_AdaBoost_q10",
            f"{s}_{n}_DOOM II_q10",
        )
        # a DOOM II fit that never leaves its first stump has every margin at +-1
        if abs(d_med) > 1 - 1e-9 and abs(d_q) > 1 - 1e-9:
            degenerate += 1
            continue
        used += 1
        lower_median += a_med < d_med
        gives_up += d_q < a_q
    nums.update(
        panels_used=used,
        degenerate_panels=degenerate,
        adaboost_lower_median=lower_median,
        doom2_lower_q10=gives_up,
    )
    parts = [
        Part(
            "AdaBoost gives up positive margin (lower median margin than DOOM II)",
            used > 0 and lower_median == used,
            f"{lower_median} of {used} non-degenerate panels",
        ),
        Part(
            "DOOM II gives up on the worst examples (lower 10% quantile of the margins)",
            used > 0 and gives_up == used,
            f"{gives_up} of {used} non-degenerate panels",
        ),
    ]
    return parts, nums


@_claim("anyboost/C8", "anyboost.md")
def _any_c8(ev):
    return [
        _tests(
            ev,
            "the engine stops when the weak learner no longer points downhill",
            "test_stagewise::test_stops_when_the_weak_learner_no_longer_points_downhill",
        )
    ], {}


# ---------------------------------------------------------------------------------------------
# Shen & Li (2010)


def _duality(ev, label, *prefixes):
    k = ev.key("shen_li", "duality-checks")
    nums, ok = {}, True
    for p in prefixes:
        gap, kkt = _need(k, f"{p}_max_gap", f"{p}_max_kkt")
        nums[f"{p}_max_gap"], nums[f"{p}_max_kkt"] = gap, kkt
        ok = ok and gap <= 1e-6 and kkt <= 1e-4
    return Part(
        label + " (duality gap <= 1e-6, KKT residual <= 1e-4)",
        ok,
        ", ".join(f"{n} {v:.1e}" for n, v in nums.items()),
    ), nums


@_claim("shen_li/C1", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c1(ev):
    part, nums = _duality(
        ev, "primal (5) and duals (10)/(15) agree", "adaboost_l1__5___10", "5____lpboost_form__15"
    )
    return [part], nums


@_claim("shen_li/C2", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c2(ev):
    part, nums = _duality(ev, "LogitBoost primal (32) and its dual agree", "logitboost__32___31")
    return [part], nums


@_claim("shen_li/C3", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c3(ev):
    part, nums = _duality(
        ev,
        "squared-hinge (27) and generalized-hinge (28) duals agree",
        "squared_hinge____27",
        "generalized_hinge____28",
    )
    return [part], nums


@_claim("shen_li/C4", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c4(ev):
    return [
        _tests(
            ev,
            "margins are determined by u* through (25)",
            "test_duality_pairs::test_margins_are_determined_by_dual_weights",
        )
    ], {}


@_claim("shen_li/C5", "../notebooks/shen_li-figure1.ipynb")
def _sl_c5(ev):
    k = ev.key("shen_li", "figure1")
    parts, nums = [], {}
    for s in ("breast_cancer", "australian"):
        f = _need(k, f"{s}_fraction_adaboost_lower")
        nums[f"{s}_fraction_adaboost_lower"] = f
        # the paper's "consistently lower": both weightings start uniform, so the first
        # iterations can tie; "every iteration" would fail the paper's own Figure 1
        parts.append(
            Part(
                f"AdaBoost's negative entropy consistently lower, on at least 90% of the "
                f"iterations ({s})",
                f >= 0.9,
                f"on {100 * f:.0f}% of the iterations",
            )
        )
    low = min(nums.values())
    parts.append(
        Part("lower on most iterations of both sets", low > 0.5, f"at least {100 * low:.0f}%")
    )
    return parts, nums


@_claim("shen_li/C6", "../notebooks/shen_li-figure3.ipynb")
def _sl_c6(ev):
    k = ev.key("shen_li", "figure3")
    r50, r1100, k50, k1100 = _need(
        k, "probplot_r_50", "probplot_r_1100", "excess_kurtosis_50", "excess_kurtosis_1100"
    )
    paper = {50: -0.056, 1100: -0.34}
    parts = [
        Part(
            "margins approximately Gaussian (probability-plot correlation >= 0.98)",
            min(r50, r1100) >= 0.98,
            f"{r50:.3f} and {r1100:.3f}",
        )
    ]
    for n, ours in ((50, k50), (1100, k1100)):
        parts.append(
            Part(
                f"excess kurtosis with {n} stumps within a factor 2 of the paper's {paper[n]}",
                0.5 <= ours / paper[n] <= 2,
                f"ours {ours:.3f}",
            )
        )
    return parts, {
        "probplot_r_50": r50,
        "probplot_r_1100": r1100,
        "excess_kurtosis_50": k50,
        "excess_kurtosis_1100": k1100,
    }


@_claim("shen_li/C7", "../notebooks/shen_li-table2-3.ipynb")
def _sl_c7(ev):
    k = ev.key("shen_li", "table2-3")
    med = _need(k, "claim_cost39_l1_over_qp_median")
    # Theorem 3.3 says "approximately" and prints no value: the weakest reading is "closer to
    # the optimum than to zero"; the median is shown for the reader to judge the rest
    return [
        Part(
            "AdaBoost-l1 approximately maximizes (39): it attains at least half of the optimum "
            "(median over runs)",
            med >= 0.5,
            f"median {med:.2f} of the optimum",
        ),
    ], {"cost39_l1_over_qp_median": med}


@_claim("shen_li/C8", "../notebooks/shen_li-table2-3.ipynb")
def _sl_c8(ev):
    k = ev.key("shen_li", "table2-3")
    n, qp, mn, avg = _need(
        k,
        "claim_n_datasets",
        "claim_qp_better_test_error",
        "claim_ab_larger_min_margin",
        "claim_qp_larger_avg_margin",
    )
    return [
        Part(
            "AdaBoost-QP has the lower test error on at least 9 of 14 sets", qp >= 9, f"{qp} of {n}"
        ),
        Part("AdaBoost always has the larger minimum margin", mn == n, f"{mn} of {n}"),
        Part("AdaBoost-QP always has the larger average margin", avg == n, f"{avg} of {n}"),
    ], {
        "qp_better_test_error": qp,
        "ab_larger_min_margin": mn,
        "qp_larger_avg_margin": avg,
        "n_datasets": n,
    }


@_claim("shen_li/C9", "../notebooks/shen_li-figure4.ipynb")
def _sl_c9(ev):
    k = ev.key("shen_li", "figure4")
    n = int(_need(k, "n_splits"))
    largest, order, worst = (
        round(n * _need(k, x))
        for x in ("arcgv_largest_min_margin", "mean_margin_qp_ab_arcgv", "arcgv_worst_test_error")
    )
    # shown beside the verdict, not deciding it (the paper prints none of them)
    lp, a600, a10k = (
        k.get(x)
        for x in (
            "lp_optimum_split0",
            "arcgv_min_margin_split0_600",
            "arcgv_min_margin_split0_10000",
        )
    )
    nums = {
        "n_splits": n,
        "arcgv_largest_min_margin_splits": largest,
        "mean_margin_order_splits": order,
        "arcgv_worst_test_error_splits": worst,
        **{
            name: v
            for name, v in (
                ("lp_optimum_split0", lp),
                ("arcgv_min_margin_split0_600", a600),
                ("arcgv_min_margin_split0_10000", a10k),
            )
            if v is not None
        },
    }
    # the suspects measured (our Arc-Gv against its definition: a reference test): on how many
    # splits it is ahead of AdaBoost after 100, 600 and 2000 rounds
    for rounds in (100, 600, 2000):
        ahead = k.get(f"suspects_arcgv_above_adaboost_current_1.0_{rounds}")
        if ahead is not None:
            nums[f"arcgv_ahead_of_adaboost_splits_{rounds}"] = ahead
    parts = []
    for label, wins in (
        ("Arc-Gv has the largest minimum margin", largest),
        ("average margin AdaBoost-QP > AdaBoost > Arc-Gv", order),
        ("Arc-Gv has the worst test error", worst),
    ):
        p = sign_test_p(wins, n)
        parts.append(
            Part(
                label + " (over the splits, sign test)",
                over_splits(wins, n),
                f"{wins} of {n} splits, p = {p:.3f}",
            )
        )
    return parts, nums


@_claim("shen_li/C10", "../notebooks/shen_li-table4-figure5.ipynb")
def _sl_c10(ev):
    t5 = ev.key("shen_li", "table5-8")
    t4 = ev.key("shen_li", "table4-figure5")
    share = _need(t5, "mcnemar_below_critical_share")
    le, speed = _need(t4, "cg_train_le_ab", "median_speedup")
    return [
        Part(
            "same test error: McNemar's chi2 below 3.841 in at least 95% of the runs "
            "(the test's own level)",
            share >= 0.95,
            f"{100 * share:.1f}% of the runs",
        ),
        Part(
            "training error lower or equal on at least 90% of the data sets",
            le >= 0.9,
            f"{100 * le:.0f}%",
        ),
        Part(
            "roughly 10x faster in iterations (median ratio between 5 and 20)",
            5 <= speed <= 20,
            f"median {speed:.1f}x",
        ),
    ], {"mcnemar_below_critical_share": share, "cg_train_le_ab": le, "median_speedup": speed}


@_claim("shen_li/C11", "../notebooks/shen_li-table5-8.ipynb")
def _sl_c11(ev):
    k = ev.key("shen_li", "table5-8")
    dec, tr, te, it = _need(
        k,
        "banana_train_stumps_decreases_with_1/T",
        "banana_train_stumps_range",
        "banana_test_stumps_range",
        "banana_max_iterations",
    )
    return [
        Part(
            "training error depends strongly on T, test error does not (training range "
            "at least 3x the test range)",
            bool(dec) and tr >= 3 * te,
            f"ranges {tr:.3f} and {te:.3f}",
        ),
        Part(
            "all runs converge in fewer than 100 iterations", it < 100, f"up to {it:.0f} on average"
        ),
    ], {"train_range": tr, "test_range": te, "max_mean_iterations": it}


@_claim("shen_li/C12", "../notebooks/shen_li-table5-8.ipynb")
def _sl_c12(ev):
    k = ev.key("shen_li", "table5-8")
    d, lb, ab = _need(
        k, "logit_vs_ada_mean_abs_difference", "logit_better_count", "ada_better_count"
    )
    n = int(lb + ab)
    p = sign_test_p(int(max(lb, ab)), n)
    # "very similar": no systematic difference; the paper's own Tables V and VIII differ by
    # 3.0 points on average (8.5 on ionosphere), so a cutoff on the size would fail the paper
    return [
        Part(
            "neither is better on significantly many sets (sign test)",
            p >= 0.05,
            f"{int(lb)} against {int(ab)}, p = {p:.3f}; mean absolute difference "
            f"{100 * d:.1f} points",
        ),
    ], {"mean_abs_difference": d, "logit_better": lb, "ada_better": ab}


@_claim("shen_li/C13", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c13(ev):
    k = ev.key("shen_li", "duality-checks")
    nums, ok = {}, True
    for s in ("breast_cancer", "australian"):
        r, hm = _need(k, f"{s}_r_star", f"{s}_hard_margin")
        gaps = [abs(x - hm) for x in r]
        ok = ok and all(b <= a for a, b in zip(gaps, gaps[1:])) and gaps[-1] <= 1e-3
        nums[f"{s}_r_star_last_gap"] = gaps[-1]
    m = _need(k, "r_star_corrected_formula_matches")
    return [
        Part(
            "r*(T) tends to the hard-margin optimum as T -> 0",
            ok,
            "final gaps " + ", ".join(f"{v:.1e}" for v in nums.values()),
        ),
        Part("the corrected formula for r* matches the solver", m >= 4, f"{m} of 4"),
    ], {**nums, "r_star_corrected_formula_matches": m}


@_claim("shen_li/C14", "../notebooks/shen_li-table4-figure5.ipynb")
def _sl_c14(ev):
    k = ev.key("shen_li", "table4-figure5")
    parts, nums = [], {}
    # Decided from the whole mean test-error curves (every recorded iteration), not three
    # points of them.  The paper says only "in some datasets such as australian and
    # breast-cancer we observe over-fitting for AdaBoost" (Sec. 4.2) and prints no size; its
    # Table IV has breast-cancer rising 0.6 points, so a fixed size would fail it.  Over-fitting
    # is read as the error ending above the minimum of its curve, with that minimum in the first
    # half of the run (so that a dip at the end is not read as over-fitting).
    for s in ("australian", "b-cancer"):
        low, at, final, last = _need(
            k,
            f"{s}_AB_test_curve_min",
            f"{s}_AB_test_curve_at_iteration",
            f"{s}_AB_test_curve_final",
            f"{s}_AB_test_curve_iterations",
        )
        rise = 100 * (final - low)
        nums[f"{s}_AB_rise_points"] = rise
        nums[f"{s}_AB_min_at_iteration"] = at
        cg_final = (k or {}).get(f"{s}_CG_test_curve_final")
        cg_low = (k or {}).get(f"{s}_CG_test_curve_min")
        aside = ""
        if cg_final is not None and cg_low is not None:
            nums[f"{s}_CG_rise_points"] = 100 * (cg_final - cg_low)
            aside = f"; AdaBoost-CG's rises {100 * (cg_final - cg_low):.1f}"
        parts.append(
            Part(
                f"AdaBoost over-fits on {s} (its mean test error ends above the minimum of its "
                "curve, reached in the first half of the run)",
                rise > 0 and at <= last / 2,
                f"rise {rise:.2f} points from iteration {at:.0f} of {last:.0f}{aside}",
            )
        )
    return parts, nums


# ---------------------------------------------------------------------------------------------
# MCBoost (Guo & Chen)


@_claim("mcboost/C1", "../notebooks/mcboost-table1-2.ipynb")
def _mc_c1(ev):
    k = ev.key("mcboost", "table1-2")
    wins = _need(k, "mc_wins")
    zs = {b: _need(k, f"z_{b}") for b in ("AB", "L2B", "LP", "AB-CG", "MD")}
    sig = sum(z > Z_ONE_SIDED_5 for z in zs.values())
    return [
        Part("MCBoost has the lowest mean test error on 9 of 13 sets", wins >= 9, f"{wins} of 13"),
        Part(
            f"one-tailed Wilcoxon z > {Z_ONE_SIDED_5} against all five baselines",
            sig == 5,
            f"{sig} of 5 (z = " + ", ".join(f"{z:.2f}" for z in zs.values()) + ")",
        ),
    ], {"mc_wins": wins, "significant_z": sig, **{f"z_{b}": z for b, z in zs.items()}}


@_claim("mcboost/C2", "mcboost.md")
def _mc_c2(ev):
    f1 = ev.key("mcboost", "figure1")
    f34 = ev.key("mcboost", "figures3-4")
    var_up, mean_up = _need(f1, "variance_nondecreasing", "mean_margin_nondecreasing")
    smallest = _need(f34, "mc_smallest_variance")
    n = sum(1 for key in f34 if key.endswith("_MC_margin_variance"))
    return [
        _tests(
            ev,
            "the objective is margin variance plus squared bias (10)",
            "test_margins::test_bias_variance_of_mcboost_margins",
        ),
        Part(
            "on the toy problem, small E gives tightly packed margins (variance and mean "
            "margin grow with E)",
            bool(var_up) and bool(mean_up),
            "",
        ),
    ], {"mc_smallest_variance_of_3_methods": smallest, "n_benchmark_sets": n}


@_claim("mcboost/C3", "mcboost.md")
def _mc_c3(ev):
    return [
        _tests(
            ev,
            "column generation reaches the unique optimum of (12) (margins agree)",
            "test_mcboost::test_column_generation_reaches_the_optimum_over_all_stumps",
        )
    ], {}


@_claim("mcboost/C4", "mcboost.md")
def _mc_c4(ev):
    part, nums = _duality(ev, "strong duality between (12) and (19)", "mcboost")
    return [
        part,
        _tests(
            ev,
            "KKT map u = 2(E - rho) of the restricted master",
            "test_mcboost::test_master_kkt_map",
        ),
    ], nums


@_claim("mcboost/C5", "mcboost.md")
def _mc_c5(ev):
    return [
        _tests(
            ev,
            "MCBoost is l1-constrained L2Boost (20), equality = inequality",
            "test_mcboost::test_mcboost_is_l1_constrained_l2boost",
            "test_mcboost_lasso::test_equality_and_inequality_l1_constraints_give_the_same_fit",
        ),
        _tests(
            ev,
            "and lasso-penalized L2Boost (21)",
            "test_mcboost_lasso::test_lasso_l2boost_solves_mcboost_with_E_from_its_l1_norm",
        ),
    ], {}


@_claim(
    "mcboost/C6",
    "../notebooks/mcboost-figure1.ipynb",
    cap="the paper does not describe its toy data; the generator is ours",
)
def _mc_c6(ev):
    k = ev.key("mcboost", "figure1")
    best, under, over, iters = _need(
        k, "optimal_E", "large_E_underfits", "small_E_overfits", "iterations_nonincreasing"
    )
    grid = _need(k, "E_grid")
    step = min(b - a for a, b in zip(grid, grid[1:]))
    return [
        Part(
            "the best E is 0.3 (within one grid step)",
            abs(best - 0.3) <= step + 1e-9,
            f"ours {best:g}, grid step {step:g}",
        ),
        Part("large E underfits, small E overfits", bool(under) and bool(over), ""),
        Part("the number of iterations decreases with E", bool(iters), ""),
    ], {"optimal_E": best, "grid_step": step}


@_claim("mcboost/C7", "../notebooks/mcboost-figure2.ipynb")
def _mc_c7(ev):
    k = ev.key("mcboost", "figure2")
    n, m, v = _need(k, "n_splits", "mean_decreasing_splits", "variance_decreasing_splits")
    pm, pv = sign_test_p(int(m), int(n)), sign_test_p(int(v), int(n))
    return [
        Part(
            "AdaBoost's average margin decreases with the iterations (sign test over splits)",
            over_splits(int(m), int(n)),
            f"{m} of {n} splits, p = {pm:.3f}",
        ),
        Part(
            "AdaBoost's margin variance decreases with the iterations",
            over_splits(int(v), int(n)),
            f"{v} of {n} splits, p = {pv:.3f}",
        ),
    ], {"n_splits": n, "mean_decreasing_splits": m, "variance_decreasing_splits": v}


@_claim("mcboost/C8", "../notebooks/mcboost-figures3-4.ipynb")
def _mc_c8(ev):
    k = ev.key("mcboost", "figures3-4")
    its = {
        s: _need(k, f"{s}_MC_median_iterations")
        for s in ("b-cancer", "german", "heart", "diabetes", "titanic", "ringnorm")
    }
    mx = max(its.values())
    parts = [
        Part(
            "MCBoost converges in far fewer iterations than AdaBoost's 1000 rounds "
            "(median at most 500 on every set)",
            mx <= 500,
            f"at most {mx:.0f}",
        )
    ]
    rise = {
        s: _need(k, f"{s}_AB_last_test_error") - _need(k, f"{s}_AB_min_test_error")
        for s in ("b-cancer", "german")
    }
    parts.append(
        Part(
            "AdaBoost overfits on breast-cancer and german (test error after 1000 "
            "rounds at least 1 point above its minimum)",
            all(r >= 1 for r in rise.values()),
            ", ".join(f"{s} +{r:.1f} points" for s, r in rise.items()),
        )
    )
    return parts, {
        "max_mc_median_iterations": mx,
        **{f"{s}_ab_rise_points": r for s, r in rise.items()},
    }


@_claim("mcboost/C9", "performance.md")
def _mc_c9(ev):
    b = ev.bench("dual_masters")
    if b is None or b.get("quick"):
        raise _Missing("benchmarks/results/dual_masters.json (a full run) is not committed")
    cases = b["cases"]
    gap = max(max(c["mcboost_duality_gap"], c["mdboost_duality_gap"]) for c in cases)
    ratios = [c["solver_ratio"] for c in cases]
    faster = sum(r > 1.0 for r in ratios)
    return [
        Part(
            "the two dual QPs timed are the masters' duals (their optima equal the primal "
            "masters' within 1e-6)",
            gap < 1e-6,
            f"largest relative difference {gap:.1e} over {len(cases)} column sets",
        ),
        Part(
            "MCBoost's per-iteration dual QP (identity quadratic term) is cheaper than MDBoost's "
            "(pseudo-inverse of a PSD matrix), solved by the same interior-point solver",
            faster == len(cases),
            f"faster on {faster} of {len(cases)} column sets; MDBoost's takes "
            f"{min(ratios):.1f}x to {max(ratios):.1f}x MCBoost's time in the solver",
        ),
    ], {"solver_ratio_min": min(ratios), "solver_ratio_max": max(ratios)}


# ---------------------------------------------------------------------------------------------
# DirectBoost (Zhai et al., 2013)

_DB_SETS = [
    "Tic-tac-toe",
    "Diabetes",
    "Australian",
    "Fourclass",
    "Ionosphere",
    "Splice",
    "Cancer-wdbc",
    "Cancer-wpbc",
    "Heart",
    "Adult",
]
_DB_BASE = ["AdaBoost", "LogitBoost", "LPBoost", "BrownBoost"]
_DB_VARIANTS = ["DirectBoost_avg", "DirectBoost_eps_avg", "DirectBoost_order"]


def _paper_table1() -> dict:
    """The paper's own Table 1 (test error in %), ``{(set, method): mean}``."""
    from .targets import target_table

    table = target_table("directboost", "table1")
    return {(r.dataset, r.algorithm): float(r.mean) for r in table.itertuples(index=False)}


def could_change(
    table: dict, capped: dict, decide: Callable[[dict], bool], worst: float = 100.0
) -> int:
    """How many capped runs could change a part: 0 when no outcome of the capped entries does.

    ``table`` maps entries (e.g. ``(set, method)``) to the numbers a part is decided from,
    ``capped`` maps entries to their runs that ended on a cap of ours, and ``decide(table)``
    is the part.  Each capped entry is set to the best (0) and the worst (``worst``) value it
    could take, in every combination; when the part comes out the same in all of them, the
    capped runs cannot decide it and 0 is returned, otherwise the number of those runs.

    Examples
    --------
    >>> t = {"a": 1.0, "b": 2.0, "c": 3.0}
    >>> could_change(t, {"c": 2}, lambda t: t["a"] < t["b"])  # c plays no part
    0
    >>> could_change(t, {"b": 2}, lambda t: t["a"] < t["b"])
    2
    """
    import itertools

    keys = [key for key, n in capped.items() if n and key in table]
    if not keys:
        return 0
    base = decide(table)
    for values in itertools.product((0.0, worst), repeat=len(keys)):
        if decide({**table, **dict(zip(keys, values))}) != base:
            return int(sum(capped[key] for key in keys))
    return 0


def _db_capped(ev) -> dict | None:
    """Table 1's own DirectBoost fits that ended on the round cap, ``{(set, variant): fits}``
    (None: not recorded)."""
    k = ev.key("directboost", "table1") or {}
    if any(f"fits_on_cap_{v}" not in k for v in _DB_VARIANTS):
        return None
    return {
        (s, v): int(k.get(f"{s}_{v}_fits_on_cap", 0))
        for s in _DB_SETS
        for v in _DB_VARIANTS
        if k.get(f"{s}_{v}_fits_on_cap")
    }


def _db_part(ev, t: dict, label: str, decide: Callable[[dict], bool], detail: str) -> Part:
    """A part decided on Table 1: not decided by capped fits that cannot change it."""
    capped = _db_capped(ev)
    runs = None if capped is None else could_change(t, capped, decide)
    if capped and not runs:
        fits = sum(capped.values())
        detail += f"; the {fits} fits of the table that ended on the round cap cannot change it"
    return Part(label, decide(t), detail, runs)


def _db_table1(ev):
    k = ev.key("directboost", "table1")
    return {(s, a): _need(k, f"{s}_{a}") for s in _DB_SETS for a in _DB_BASE + _DB_VARIANTS}


@_claim("directboost/C1", "../notebooks/directboost-table1.ipynb")
def _db_c1(ev):
    t = _db_table1(ev)

    def beats(t: dict) -> list[str]:
        return [s for s in _DB_SETS if all(t[s, "DirectBoost_eps_avg"] < t[s, b] for b in _DB_BASE)]

    wins = beats(t)
    # The text says every set but Cancer-wdbc; the paper's own Table 1 (as reconstructed from
    # its scrambled text) also has AdaBoost and LogitBoost ahead on Fourclass: the predicate
    # asks for as many sets as the paper's table shows, counted from it.
    pt = _paper_table1()
    paper = sum(all(pt[s, "DirectBoost_eps_avg"] < pt[s, b] for b in _DB_BASE) for s in _DB_SETS)
    return [
        _db_part(
            ev,
            t,
            "DirectBoost_eps_avg beats all four baselines on as many sets as in the paper's "
            f"Table 1 ({paper} of 10; its text says every set but Cancer-wdbc)",
            lambda t: len(beats(t)) >= paper,
            f"on {len(wins)} of 10: {', '.join(wins) or 'none'}",
        )
    ], {"eps_avg_beats_all": len(wins), "paper_eps_avg_beats_all": paper}


@_claim("directboost/C2", "../notebooks/directboost-table1.ipynb")
def _db_c2(ev):
    t = _db_table1(ev)

    def counts(t: dict) -> dict[str, int]:
        best = {v: 0 for v in _DB_VARIANTS}
        for s in _DB_SETS:
            lo = min(t[s, v] for v in _DB_VARIANTS)
            for v in _DB_VARIANTS:
                best[v] += t[s, v] == lo
        return best

    def ordered(t: dict) -> bool:
        c = counts(t)
        return c["DirectBoost_eps_avg"] > c["DirectBoost_order"] > c["DirectBoost_avg"]

    best = counts(t)
    # The text's counts (avg 2, order 3, eps_avg 5) partition the ten sets, but the paper's own
    # Table 1 has ties (order is best or tied on 4): what the counts assert is their order.
    return [
        _db_part(
            ev,
            t,
            "eps_avg is the best variant on the most sets, then order, then avg (the text's "
            "2, 3 and 5 of 10; ties count for each)",
            ordered,
            ", ".join(f"{v} {n}" for v, n in best.items()),
        )
    ], {f"best_{v}": n for v, n in best.items()}


@_claim("directboost/C3", "../notebooks/directboost-table1.ipynb")
def _db_c3(ev):
    k = ev.key("directboost", "table1")
    spread = {
        key[len("validation_spread_") :]: v
        for key, v in (k or {}).items()
        if key.startswith("validation_spread_")
    }
    if not spread:
        raise _Missing("the validation spread over the n'/n grid is not a committed key number")
    order = next(v for m, v in spread.items() if "order" in m)
    return [
        Part(
            "DirectBoost_order is the method most sensitive to its grid parameter (the "
            "largest mean spread of the validation error over the grid)",
            order == max(spread.values()),
            ", ".join(f"{m} {v:.1f} points" for m, v in spread.items()),
        )
    ], {f"spread_{m}": v for m, v in spread.items()}


@_claim("directboost/C4", "../notebooks/directboost-table1.ipynb")
def _db_c4(ev):
    t = _db_table1(ev)
    s = "Tic-tac-toe"
    best = min(t[s, v] for v in _DB_VARIANTS)
    ab, avg = t[s, "AdaBoost"], t[s, "DirectBoost_avg"]
    return [
        _db_part(
            ev,
            t,
            "some DirectBoost variant more than halves AdaBoost's error on Tic-tac-toe",
            lambda t: min(t[s, v] for v in _DB_VARIANTS) < t[s, "AdaBoost"] / 2,
            f"best variant {_pct(best)} against AdaBoost {_pct(ab)}",
        ),
        _db_part(
            ev,
            t,
            "DirectBoost_avg reaches the paper's 0.63% (within one point)",
            lambda t: abs(t[s, "DirectBoost_avg"] - 0.63) <= 1.0,
            f"ours {_pct(avg)}",
        ),
    ], {
        "tictactoe_best_directboost": best,
        "tictactoe_adaboost": ab,
        "tictactoe_directboost_avg": avg,
    }


@_claim("directboost/C5", "../notebooks/directboost-table1.ipynb")
def _db_c5(ev):
    t = _db_table1(ev)

    def beats(t: dict) -> list[str]:
        return [
            s
            for s in _DB_SETS
            if min(t[s, v] for v in _DB_VARIANTS) < min(t[s, b] for b in _DB_BASE)
        ]

    wins = beats(t)
    p = sign_test_p(len(wins), len(_DB_SETS))
    return [
        _db_part(
            ev,
            t,
            "the best DirectBoost variant beats every baseline on significantly many sets "
            "(sign test)",
            lambda t: sign_test_p(len(beats(t)), len(_DB_SETS)) < 0.05,
            f"{len(wins)} of 10, p = {p:.3f}",
        )
    ], {"directboost_beats_all": len(wins)}


@_claim("directboost/C6", "../notebooks/directboost-figure3.ipynb")
def _db_c6(ev):
    k = ev.key("directboost", "figure3")
    d3, d1, lp1 = _need(
        k,
        "depth3_directboost_minus_lpboost",
        "depth1_directboost_minus_lpboost",
        "depth1_lpboost_final",
    )
    # the phase-1 stop read literally is shown beside the verdict (the estimator's reading
    # decides); the runs that decide a part are LPBoost's and DirectBoost's at that depth
    literal = {d: k.get(f"depth{d}_directboost_literal_minus_lpboost") for d in (3, 1)}
    on_cap: dict[int, int | None] = {}
    for d in (3, 1):
        flags = [k.get(f"depth{d}_lpboost_capped"), k.get(f"depth{d}_directboost_capped")]
        on_cap[d] = None if None in flags else int(sum(flags))

    def aside(d: int) -> str:
        return "" if literal[d] is None else f" (phase-1 stop read literally: {literal[d]:+.4f})"

    return [
        Part(
            "with depth-3 trees DirectBoost_eps_avg's bottom-n' margin exceeds LPBoost's",
            d3 > 0,
            f"difference {d3:+.3f}{aside(3)}",
            on_cap[3],
        ),
        Part(
            "with stumps DirectBoost_eps_avg gets within 10% of LPBoost's optimum",
            d1 >= -0.1 * abs(lp1),
            f"difference {d1:+.4f} against {lp1:.4f}{aside(1)}",
            on_cap[1],
        ),
    ], {
        "depth3_minus_lpboost": d3,
        "depth1_minus_lpboost": d1,
        "depth1_lpboost": lp1,
        **{f"depth{d}_literal_minus_lpboost": v for d, v in literal.items() if v is not None},
    }


@_claim("directboost/C7", "../notebooks/directboost-table2.ipynb")
def _db_c7(ev):
    b = ev.bench("directboost")
    if b is None:
        raise _Missing("benchmarks/results/directboost.json is not committed")
    cases = {c["algorithm"]: c for c in b["cases"]}
    db, ab, lp = (cases[a]["total_s"] for a in ("DirectBoost_eps_avg", "AdaBoost", "LPBoost"))
    lp_it = cases["LPBoost"]["iterations"]
    lp_converged = bool(cases["LPBoost"].get("converged", False))
    per = (lp / lp_it) / (db / cases["DirectBoost_eps_avg"]["iterations"])
    # the paper's stop rule read literally (phase 2 ends at the first round without a new best
    # value): shown beside the verdict, which uses the estimator's default reading
    literal = next((r for r in b.get("stop_readings", ()) if r["patience"] == 1), None)
    aside = (
        f"; read literally, the stop rule ends it after {literal['iterations']} rounds "
        f"in {literal['total_s']:.1f} s"
        if literal
        else ""
    )
    return [
        Part(
            "DirectBoost_eps_avg takes less total time than AdaBoost",
            db < ab,
            f"{db:.0f} s against {ab:.0f} s{aside}",
        ),
        Part("and less than LPBoost", db < lp, f"{db:.0f} s against {lp:.0f} s"),
        Part(
            "LPBoost converges in fewer than 300 rounds",
            lp_converged and lp_it < 300,
            f"{lp_it} rounds, " + ("converged" if lp_converged else "not converged"),
            0 if lp_converged else 1,
        ),
        Part(
            "each LPBoost round is expensive (at least 10x a DirectBoost round)",
            per >= 10,
            f"{per:.0f}x a DirectBoost round",
        ),
    ], {"directboost_s": db, "adaboost_s": ab, "lpboost_s": lp, "lpboost_round_ratio": per}


def _db_noise(k, template, methods):
    return {m: _need(k, template.format(m=m)) for m in methods}


@_claim("directboost/C8", "../notebooks/directboost-table3.ipynb")
def _db_c8(ev):
    k = ev.key("directboost", "table3")
    # rows of the generator's separable reading (for l = 5 both readings give the same data)
    g = lambda l, e, m: _need(k, f"long-servedio l={l} eta={e}_{m}")  # noqa: E731
    noisy = [(l, e) for l in (5, 20) for e in (0.05, 0.2)]
    everywhere = [(l, e) for l in (5, 20) for e in (0.0, 0.05, 0.2)]
    ab = min(g(l, e, "AB") for l, e in noisy)
    ok5 = [m for m in ("LB", "LPB", "DB_eps_avg") if g(5, 0.05, m) <= 5]
    others = [(l, e) for l, e in noisy if (l, e) != (5, 0.05)]
    bad_elsewhere = [
        m for m in ("LB", "LPB", "DB_eps_avg") if min(g(l, e, m) for l, e in others) > 5
    ]
    bb5 = max(g(5, e, "BB") for e in (0.0, 0.05, 0.2))
    bb20 = min(g(20, e, "BB") for e in (0.05, 0.2))
    order = max(g(l, e, "DB_order") for l, e in everywhere)
    return _on_cap(
        [
            Part(
                "AdaBoost does very poorly under noise (above 10% in every noisy setting)",
                ab > 10,
                f"at least {_pct(ab)}",
            ),
            Part(
                "LogitBoost, LPBoost and DirectBoost_eps_avg are fine at l = 5, eta = 5% (at most 5%)",
                len(ok5) == 3,
                f"fine: {', '.join(ok5) or 'none'}",
            ),
            Part(
                "... and only there (above 5% in the other noisy settings)",
                len(bad_elsewhere) == 3,
                f"above 5% elsewhere: {', '.join(bad_elsewhere) or 'none'}",
            ),
            Part(
                "BrownBoost is fine for l = 5 (at most 5%) but fails for l = 20 with noise (above 10%)",
                bb5 <= 5 and bb20 > 10,
                f"l = 5: up to {_pct(bb5)}; l = 20 with noise: at least {_pct(bb20)}",
            ),
            Part(
                "DirectBoost_order performs very well in all cases (at most 5%)",
                order <= 5,
                f"up to {_pct(order)}",
            ),
        ],
        (k or {}).get("fits_on_cap"),
    ), {
        "ab_noisy_min": ab,
        "bb_l5_max": bb5,
        "bb_l20_noisy_min": bb20,
        "order_max": order,
        "order_l5_eta05": g(5, 0.05, "DB_order"),
    }


@_claim("directboost/C9", "../notebooks/directboost-table4.ipynb")
def _db_c9(ev):
    k = ev.key("directboost", "table4")
    sets = ("wdbc", "Ionosphere")
    methods = ("AB", "LB", "BB", "LPB", "DB_eps_avg", "DB_order")
    t = {
        (s, e, m): _need(k, f"{s} eta={e}_{m}")
        for s in sets
        for e in (0.0, 0.05, 0.2)
        for m in methods
    }

    def beat(t: dict) -> int:
        return sum(
            max(t[s, 0.05, m] for m in ("LPB", "DB_eps_avg", "DB_order"))
            < min(t[s, 0.05, m] for m in ("AB", "LB", "BB"))
            for s in sets
        )

    # "all methods degrade strongly except DirectBoost_order, which stays close to its
    # noise-free error": the paper's own wdbc row rises 2.9 points, so "close" is relative to
    # the other methods' rises, not a fixed cutoff
    def least(t: dict) -> list[str]:
        rise = {(s, m): t[s, 0.2, m] - t[s, 0.0, m] for s in sets for m in methods}
        return [
            s
            for s in sets
            if rise[s, "DB_order"] < min(rise[s, m] for m in methods if m != "DB_order")
        ]

    close = {s: t[s, 0.2, "DB_order"] - t[s, 0.0, "DB_order"] for s in sets}
    # the fits of a setting that ended on a cap of ours, where the notebook names them
    total = None if k is None or "fits_on_cap" not in k else int(k["fits_on_cap"])
    capped = {
        key: int((k or {}).get(f"{key[0]} eta={key[1]}_{key[2]}_fits_on_cap", 0)) for key in t
    }
    placed = sum(capped.values()) == total  # the notebook names the setting of each capped fit

    def part(label: str, decide: Callable[[dict], bool], detail: str) -> Part:
        if total is None:
            runs = None
        elif placed:
            runs = could_change(t, capped, decide)
        else:  # counted in all, not per setting: any part could rest on them
            runs = total
        if total and not runs:
            detail += "; the table's fits on a cap cannot change it"
        return Part(label, decide(t), detail, runs)

    return [
        part(
            "at 5% noise LPBoost, DirectBoost_eps_avg and DirectBoost_order all beat "
            "AdaBoost, LogitBoost and BrownBoost",
            lambda t: beat(t) == 2,
            f"on {beat(t)} of 2 sets",
        ),
        part(
            "at 20% noise DirectBoost_order's error rises least of the six methods (the others "
            "'degrade strongly')",
            lambda t: len(least(t)) == len(sets),
            f"on {len(least(t))} of 2 sets; its rise "
            + ", ".join(f"{s} {d:+.1f} points" for s, d in close.items()),
        ),
    ], {
        "sets_where_margin_methods_beat": beat(t),
        **{f"{s}_order_rise_20": d for s, d in close.items()},
    }


@_claim("directboost/C10", "directboost.md")
def _db_c10(ev):
    return [
        _tests(
            ev,
            "phase 1's training error never increases",
            "test_directboost::test_phase1_training_error_never_increases",
            "test_direct_line_search::test_phase_one_training_error_never_increases",
        )
    ], {}


#: A measured exponent of the round time may exceed the bound's (1 in each size) by this much:
#: the log factor of n log n over a 16-fold range of n (about 0.1) and cache effects.
SCALING_SLACK = 0.2


@_claim("directboost/C11", "performance.md")
def _db_c11(ev):
    b = ev.bench("directboost_scaling")
    if b is None or b.get("quick"):
        raise _Missing("benchmarks/results/directboost_scaling.json (a full run) is not committed")
    e = b["exponents"]
    limit = 1.0 + SCALING_SLACK

    def within(*keys: str) -> bool:
        return all(e[k] <= limit for k in keys)

    def said(*keys: str) -> str:
        names = {"n": "n", "M": "M", "n_prime": "n'"}
        return (
            ", ".join(f"{names[k.split('_', 1)[1]]}^{e[k]:.2f}" for k in keys)
            + f" (bound: exponent 1 in each; we allow {limit:g})"
        )

    one = ("phase1_n", "phase1_M")
    two = ("phase2_n", "phase2_M", "phase2_n_prime")
    return [
        Part(
            "a round of Algorithm 1 costs O(Mn): its time grows no faster than M and n",
            within(*one),
            "phase-1 round time grows like " + said(*one),
        ),
        Part(
            "a round of Algorithm 2 costs O(max(n log n, M n')): its time grows no faster "
            "than n log n, M and n'",
            within(*two),
            "phase-2 round time grows like " + said(*two),
        ),
    ], {k: e[k] for k in (*one, *two)}


@_claim("directboost/C12", "directboost.md")
def _db_c12(ev):
    k = ev.key("directboost", "checks")
    n_sets, stuck, better, rounds = _need(
        k, "order_sets", "order_stuck_sets", "order_relaxation_better", "order_unrelaxed_rounds_max"
    )
    return [
        _tests(
            ev,
            "without relaxation the bottom-n' ascent stops at a coordinatewise maximum",
            "test_directboost::test_phase2_stops_at_a_coordinatewise_maximum_over_all_stumps",
        ),
        Part(
            "the n'-th-margin variant usually gets stuck without relaxation (on most sets it "
            "stops at a coordinatewise maximum below the n'-th margin the relaxed run reaches)",
            2 * stuck > n_sets and 2 * better > n_sets,
            f"without relaxation a coordinatewise maximum on {stuck:.0f} of {n_sets:.0f} Table 1 "
            f"sets after at most {rounds:.0f} phase-2 rounds; the relaxed run's n'-th margin "
            f"is larger on {better:.0f}",
        ),
    ], {"order_stuck_sets": stuck, "order_relaxation_better": better}


@_claim("directboost/C13", "directboost.md")
def _db_c13(ev):
    k = ev.key("directboost", "checks")
    n_sets, below, gap_min, gap_max = _need(
        k, "theorem3_sets", "theorem3_below_optimum", "theorem3_gap_min", "theorem3_gap_max"
    )
    return [
        _tests(
            ev,
            "Theorem 1 (the zero-error region is a convex cone)",
            "test_direct_figures::test_theorem1_zero_error_region_is_a_convex_cone",
            "test_directboost::test_theorem1_zero_error_region_of_trained_models_is_a_convex_cone",
        ),
        _tests(
            ev,
            "Theorem 2 (quasiconcavity)",
            "test_direct_line_search::test_theorem2_bottom_average_is_quasiconcave_in_the_zero_error_region",
        ),
        Part(
            "Theorem 3 (the average-margin ascent converges to an optimum)",
            below == 0,
            f"on {below:.0f} of {n_sets:.0f} toy sets it stops at a coordinatewise maximum, "
            f"{gap_min:.3f} to {gap_max:.3f} below the linear program's optimum over the same "
            "stumps; tests/test_directboost.py::test_theorem3_average_of_all_margins_stops_at_"
            "a_corner_below_the_lp_optimum checks two of them",
        ),
        _tests(
            ev,
            "Theorem 4 (coordinatewise maximum only)",
            "test_directboost::test_phase2_stops_at_a_coordinatewise_maximum_over_all_stumps",
        ),
    ], {"theorem3_below_optimum": below, "theorem3_gap_max": gap_max}


@_claim("directboost/C14", "../notebooks/directboost-table1.ipynb")
def _db_c14(ev):
    k = ev.key("directboost", "table1")
    zero = [s for s in _DB_SETS if _need(k, f"{s}_phase1_train_error") == 0]
    return [
        Part(
            "phase 1 usually reaches zero training error (on most sets)",
            2 * len(zero) > len(_DB_SETS),
            f"on {len(zero)} of 10",
        )
    ], {"phase1_zero_error_sets": len(zero)}


# ---------------------------------------------------------------------------------------------
# DMCBoost (Zhai et al., 2014)

_DMC_METHODS = ["AdaBoost.M1", "SAMME", "GD-MCBoost", "DMCBoost"]


def _dmc_table(k, methods):
    sets = sorted({key.rsplit("_", 1)[0] for key in k if key.rsplit("_", 1)[-1] in methods})
    return {s: {m: k[f"{s}_{m}"] for m in methods if f"{s}_{m}" in k} for s in sets}


@_claim("dmcboost/C1", "../notebooks/dmcboost-table2.ipynb")
def _dmc_c1(ev):
    k = ev.key("dmcboost", "table2")
    t = _dmc_table(k, _DMC_METHODS)
    no_model = _need(k, "m1_no_model")
    best = [s for s, r in t.items() if r["DMCBoost"] == min(r.values())]
    second = [
        s for s, r in t.items() if "GD-MCBoost" in r and sorted(r.values())[1] == r["GD-MCBoost"]
    ]
    boosted = [s for s, r in t.items() if "AdaBoost.M1" in r]
    worst = [s for s in boosted if t[s]["AdaBoost.M1"] == max(t[s].values())]
    return [
        Part(
            "DMCBoost has the lowest test error on all 13 sets",
            len(best) == len(t),
            f"on {len(best)} of {len(t)}",
            None
            if k is None or "dmc_chosen_on_cap_paper" not in k
            else int(k["dmc_chosen_on_cap_paper"]),
        ),
        Part("GD-MCBoost is second", 2 * len(second) > len(t), f"on {len(second)} of {len(t)}"),
        Part("AdaBoost.M1 fails to boost on 5 of 13 sets", no_model == 5, f"{no_model} sets"),
        Part(
            "AdaBoost.M1 is worst where it boosts",
            2 * len(worst) > len(boosted),
            f"on {len(worst)} of {len(boosted)}",
        ),
    ], {
        "dmc_best": len(best),
        "gd_second": len(second),
        "m1_no_model": no_model,
        "m1_worst": len(worst),
        "m1_boosted": len(boosted),
    }


@_claim("dmcboost/C2", "../notebooks/dmcboost-table3.ipynb")
def _dmc_c2(ev):
    k = ev.key("dmcboost", "table3")
    t = _dmc_table(k, _DMC_METHODS + ["AdaBoost.MH"])
    best = [s for s, r in t.items() if r["DMCBoost"] == min(r.values())]
    gaps = {s: r["DMCBoost"] - min(r.values()) for s, r in t.items()}
    return [
        Part(
            "DMCBoost is the most accurate on most sets",
            2 * len(best) > len(t),
            f"on {len(best)} of the {len(t)} sets run",
        ),
        Part(
            "and within one point of the best elsewhere",
            max(gaps.values()) <= 1,
            f"up to {max(gaps.values()):.1f} points behind",
        ),
    ], {"dmc_best": len(best), "sets_run": len(t), "max_gap_points": max(gaps.values())}


@_claim("dmcboost/C3", "../notebooks/dmcboost-table4.ipynb")
def _dmc_c3(ev):
    k = ev.key("dmcboost", "table4")
    methods = _DMC_METHODS + ["AdaBoost.MH"]
    rise = {
        (s, e, m): _need(k, f"{s}_{e}_{m}") - _need(k, f"{s}_0.0_{m}")
        for s in ("Car", "Nursery")
        for e in (0.05, 0.2)
        for m in methods
    }
    smallest20 = [
        s
        for s in ("Car", "Nursery")
        if rise[s, 0.2, "DMCBoost"] == min(rise[s, 0.2, m] for m in methods)
    ]
    nursery = _need(k, "Nursery_0.2_DMCBoost")
    hurt = all(
        rise[s, 0.05, m] > rise[s, 0.05, "DMCBoost"]
        for s in ("Car", "Nursery")
        for m in ("AdaBoost.M1", "SAMME")
    )
    return [
        Part(
            "DMCBoost's error rises least of all methods at 20% noise",
            len(smallest20) == 2,
            f"on {len(smallest20)} of 2 sets",
        ),
        Part(
            "on Nursery it reaches the paper's 1.6% at 20% noise (within one point)",
            abs(nursery - 1.6) <= 1,
            f"ours {_pct(nursery)}",
        ),
        Part(
            "AdaBoost.M1 and SAMME are hurt more than DMCBoost already at 5% noise",
            hurt,
            ", ".join(
                f"{s} {m} +{rise[s, 0.05, m]:.1f}"
                for s in ("Car", "Nursery")
                for m in ("AdaBoost.M1", "SAMME", "DMCBoost")
            ),
        ),
    ], {
        "nursery_dmc_20": nursery,
        **{f"{s}_{m}_rise_20": rise[s, 0.2, m] for s in ("Car", "Nursery") for m in methods},
    }


@_claim("dmcboost/C4", "../notebooks/dmcboost-table4.ipynb")
def _dmc_c4(ev):
    k = ev.key("dmcboost", "table4")
    nums, parts, aside = {}, [], []
    # The paper shows its claim on Car; Nursery, where the paper prints no n', is shown beside
    # the verdict without deciding it.
    for s in ("Car", "Nursery"):
        names = [
            f"{s}_{e}_DMCBoost_{what}"
            for what in ("n_prime", "train_error")
            for e in (0.0, 0.05, 0.2)
        ]
        if s != "Car" and not all(n in (k or {}) for n in names):
            continue
        values: list[float] = [float(v) for v in _need(k, *names)]
        nps, trs = values[:3], values[3:]
        nums.update({f"{s}_n_prime_{e}": v for e, v in zip((0, 5, 20), nps)})
        nums.update({f"{s}_train_error_{e}": v for e, v in zip((0, 5, 20), trs)})
        if s != "Car":
            grows = all(b > a for a, b in zip(nps, nps[1:])) and all(
                b > a for a, b in zip(trs, trs[1:])
            )
            aside.append(
                f"on {s} (not deciding) n' = " + ", ".join(f"{v:g}" for v in nps) + ", "
                "training error "
                + ", ".join(_pct(v) for v in trs)
                + (" (both grow)" if grows else " (not both grow)")
            )
            continue
        parts.append(
            Part(
                f"{s}: the chosen n' grows with the noise",
                all(b > a for a, b in zip(nps, nps[1:])),
                "n' = " + ", ".join(f"{v:g}" for v in nps),
            )
        )
        parts.append(
            Part(
                f"{s}: the training error grows with the noise",
                all(b > a for a, b in zip(trs, trs[1:])),
                ", ".join(_pct(v) for v in trs),
            )
        )
    if aside and parts:
        last = parts[-1]
        parts[-1] = Part(last.label, last.holds, "; ".join([last.detail, *aside]))
    return parts, nums


@_claim("dmcboost/C5", "../notebooks/dmcboost-figure3.ipynb")
def _dmc_c5(ev):
    k = ev.key("dmcboost", "figure3")
    p1, m1, samme, p1t, endt, endtr = _need(
        k,
        "lowest_train_DMCBoost-I",
        "lowest_train_AdaBoost.M1",
        "lowest_train_SAMME",
        "phase1_test",
        "end_test",
        "end_train",
    )
    return [
        Part(
            "phase I's training error is lower than AdaBoost.M1's",
            p1 < m1,
            f"{_pct(p1)} against {_pct(m1)}",
        ),
        Part("and lower than SAMME's", p1 < samme, f"{_pct(p1)} against {_pct(samme)}"),
        Part("phase II lowers the test error", endt < p1t, f"{_pct(p1t)} to {_pct(endt)}"),
        Part(
            "at constant training error (within half a point)",
            abs(endtr - p1) <= 0.5,
            f"{_pct(p1)} to {_pct(endtr)}",
        ),
    ], {
        "phase1_train": p1,
        "m1_train": m1,
        "samme_train": samme,
        "phase1_test": p1t,
        "end_test": endt,
        "end_train": endtr,
    }


def _poker(ev):
    b = ev.bench("multiclass")
    if b is None:
        raise _Missing("benchmarks/results/multiclass.json is not committed")
    cases = {c["case"]: c for c in b["cases"]}
    # DMCBoost's phase times come from its own clock, which starts after the binning; the
    # baselines' median round leaves the binning out too (older records: fit time / rounds)
    base = max(
        cases[f"poker-{m}"].get("median_round_s") or cases[f"poker-{m}"]["round_s"]
        for m in ("AdaBoost.M1", "SAMME")
    )
    d = cases["poker-DMCBoost"]
    return d["phase1_round_s"] / base, d["phase2_round_s"] / base, b


@_claim("dmcboost/C6", "performance.md")
def _dmc_c6(ev):
    r1, r2, b = _poker(ev)
    paper = b["paper"]["poker_round_s"]
    pr = paper["DMCBoost"] / paper["SAMME"]
    parts = [
        Part(
            f"a DMCBoost phase-{ph} round costs about {pr:g}x an AdaBoost.M1/SAMME round "
            "(within a factor 1.5; absolute times are machine-bound)",
            pr / 1.5 <= r <= pr * 1.5,
            f"{r:.1f}x",
        )
        for ph, r in (("I", r1), ("II", r2))
    ]
    return parts, {"paper_ratio": pr, "phase1_ratio": r1, "phase2_ratio": r2}


@_claim("dmcboost/C7", "performance.md")
def _dmc_c7(ev):
    r1, r2, b = _poker(ev)
    k = b["data"]["poker"]["n_classes"]
    return [
        Part(
            f"a phase-{ph} round costs about K = {k} times a SAMME round (within a factor 1.5)",
            k / 1.5 <= r <= k * 1.5,
            f"{r:.1f}x",
        )
        for ph, r in (("I", r1), ("II", r2))
    ], {"K": k, "phase1_ratio": r1, "phase2_ratio": r2}


@_claim("dmcboost/C8", "dmcboost.md")
def _dmc_c8(ev):
    return [
        _tests(
            ev,
            "the bottom-n' average margin (5) equals the soft-margin LP (6)",
            "test_dmcboost_search::test_theorem1_bottom_average_equals_the_soft_margin_lp",
        )
    ], {}


@_claim(
    "dmcboost/C9",
    "../notebooks/dmcboost-figure3.ipynb",
    cap="the statement's 1/n has to be read as 1/n' for the proof to hold",
)
def _dmc_c9(ev):
    return [
        _tests(
            ev,
            "the bound's Chernoff step and its monotonicity",
            "test_dmcboost_search::test_chernoff_step_of_the_proof",
            "test_dmcboost_search::test_generalization_bound_is_monotone",
        )
    ], {}


@_claim("dmcboost/C10", "dmcboost.md")
def _dmc_c10(ev):
    return [
        _tests(
            ev,
            "quasi-concavity in alpha and the bisection line search",
            "test_dmcboost_search::test_theorem3_quasiconcave_along_random_lines",
            "test_dmcboost_search::test_margin_search_matches_the_exact_optimum_on_each_side",
        )
    ], {}


@_claim("dmcboost/C11", "dmcboost.md")
def _dmc_c11(ev):
    return [
        _tests(
            ev,
            "phase I never increases the training error and stops at a coordinatewise minimum",
            "test_dmcboost::test_phase1_error_never_increases_and_steps_are_the_sweeps",
        ),
        _tests(
            ev,
            "phase II ends at a coordinatewise maximum (no relaxation)",
            "test_dmcboost::test_phase2_objective_never_decreases_and_ends_at_a_coordinatewise_maximum",
        ),
    ], {}
