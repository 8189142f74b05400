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
    "capped_part",
    "round_sensitivity",
    "CAP_COUNTS",
    "registered_claims",
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


def registered_claims() -> dict[str, tuple[str, Predicate, str]]:
    """Every paper's claims, ``{"paper/Cn": (evidence link, predicate, cap)}``.

    The papers register their claims when their ``claims`` modules are imported; the registry
    (:func:`marginboost.papers.load_claims`) imports them all.
    """
    from ..papers import PAPERS, load_claims

    load_claims()
    # in the book's order of papers, each paper's claims in the order its module defines them
    return {k: v for paper in PAPERS for k, v in PREDICATES.items() if k.split("/")[0] == paper}


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
CAP_COUNTS: dict[str, tuple[str, str, str]] = {}

#: The claims decided by fits that cannot end on a cap of ours, with the reason (the paper's own
#: round count, fits run to their optimum, per-round timings): ``{claim: why}``.  Their parts
#: record 0 runs on a cap, and the reason stands beside the count on the page of claims not
#: reproduced.  A part decided by unit tests or by the duality checks records 0 by itself.
NO_CAPPED_RUNS: dict[str, str] = {}


def evaluate(key: str, evidence: Evidence | None = None) -> Check:
    """Evaluate the predicate of one claim ``"paper/Cn"``."""
    ev = Evidence() if evidence is None else evidence
    link, fn, cap = registered_claims()[key]
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
    parts = [
        Part(p.label, p.holds, p.detail, 0, p.numbers)
        if p.runs_on_cap is None and (key in NO_CAPPED_RUNS or "unit_tests_named" in p.numbers)
        else p
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
    return {key: evaluate(key, ev) for key in registered_claims()}


def _on_cap(parts: list[Part], runs: float | None) -> list[Part]:
    """The parts, each decided by runs of which ``runs`` ended on a cap of ours (None: not
    recorded)."""
    n = None if runs is None else int(runs)
    return [Part(p.label, p.holds, p.detail, n) for p in parts]


def _pct(x: float) -> str:
    return f"{x:.1f}%"


def round_sensitivity(
    numbers: dict | None,
    marker: str,
    outcomes: list[bool],
    outcomes_at: Callable[[int], list[bool]],
) -> tuple[list[int | None], list[str], list[int]]:
    """Whether our round limit decides each part of a claim, from a grid rerun at other limits.

    ``numbers`` are the claim's key numbers, among them ``rounds_<R><marker>`` for every round
    count ``R`` the notebook ran; ``outcomes`` are the parts' outcomes at our limit and
    ``outcomes_at(R)`` those at ``R``.  A part with the same outcome at every round count is
    not decided by the limit (0 runs on the cap); one whose outcome changes keeps ``None`` (the
    claim's cap count applies).  Returns the cap counts, a note per part for its detail, and
    the round counts found (none when fewer than two are recorded: nothing is decided then).

    Examples
    --------
    >>> numbers = {"rounds_500_x": 1.0, "rounds_1000_x": 1.0}
    >>> round_sensitivity(numbers, "_x", [False, True], lambda r: [False, r > 500])
    ([0, None], ['; the same at 500, 1000 rounds', '; holds at 1000 of 500, 1000 rounds'], [500, 1000])
    """
    rounds = sorted(
        int(name.split("_")[1])
        for name in (numbers or {})
        if name.startswith("rounds_") and name.endswith(marker)
    )
    if len(rounds) < 2:
        return [None] * len(outcomes), [""] * len(outcomes), []
    at = {r: outcomes_at(r) for r in rounds}
    listed = ", ".join(map(str, rounds))
    caps: list[int | None] = []
    notes = []
    for i, outcome in enumerate(outcomes):
        if all(at[r][i] == outcome for r in rounds):
            caps.append(0)
            notes.append(f"; the same at {listed} rounds")
        else:
            caps.append(None)
            holds = ", ".join(str(r) for r in rounds if at[r][i]) or "none"
            notes.append(f"; holds at {holds} of {listed} rounds")
    return caps, notes, rounds


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


def capped_part(
    label: str,
    table: dict,
    capped: dict | None,
    decide: Callable[[dict], bool],
    detail: str,
    cannot_change: str,
    fallback: int | None = None,
) -> Part:
    """A part decided by ``decide(table)`` whose deciding runs include the capped ones of
    ``capped`` (entry -> runs that ended on a cap of ours; None: not recorded per entry, and
    ``fallback`` is the part's count): those runs count only where some outcome of theirs could
    change the part (:func:`could_change`); where none could, ``cannot_change`` is added to the
    detail."""
    holds = decide(table)
    if capped is None:
        return Part(label, holds, detail, fallback)
    runs = could_change(table, capped, decide)
    if capped and not runs:
        detail += f"; {cannot_change}"
    return Part(label, holds, detail, runs)


def _duality(ev, label, *prefixes):
    """A part decided by the duality checks (notebook shen_li-duality-checks, which checks
    every primal-dual pair of Shen & Li and of MCBoost): gap and KKT residual of each pair."""
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
        0,  # solver checks, no boosting fit
    ), nums
