"""How the time of a DirectBoost round grows with n, M and n' (the paper's claim C11).

Zhai et al. (2013, Secs. 2.1-2.2) state the cost of one iteration: O(Mn) for Algorithm 1 (phase
1, the 0-1 loss descent) and O(max(n log n, M n')) for Algorithm 2 (phase 2, the bottom-n'
margin ascent), with M candidate weak classifiers.  This benchmark measures our rounds of both
phases with stumps on synthetic data and fits the exponent of each size by least squares on
log-log axes:

* ``n``: n = 2,500 to 40,000 samples, d = 16 features (M fixed);
* ``M``: d = 4 to 64 features at n = 10,000; every feature fills its 32 bins, so a stump has
  31 thresholds and two signs and M = 62 d (M is read from the fitted binning);
* ``n_prime``: n'/n = 0.05 to 0.8 at n = 10,000, d = 16 (phase 2 only).

Data: standard normal features, labels from a random linear rule with 10% of them flipped
(seeded), so that neither phase ends within the measured rounds.  Phase 1 is fitted alone
(``phase2=False``); phase 2 follows a phase 1 cut short after one round without fewer errors
(``phase1_n_iter_no_change=1``) and runs DirectBoost^eps_avg's relaxed ascent for a fixed number
of rounds.  A round's time is the median duration of the phase's rounds in one fit
(``history_["time"]``), the best of two fits, after a warm-up fit that loads the compiled
kernels.

Run with ``marginboost bench directboost_scaling`` or
``python benchmarks/bench_directboost_scaling.py [--quick]``; results go to
``benchmarks/results/directboost_scaling.json``.  The verdict of claim C11 is read from that file
(``marginboost.experiments.predicates``).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "directboost_scaling.json"
sys.path.insert(0, str(HERE))

from _common import sklearn_environment, write_result  # noqa: E402

#: Bins per feature: every feature of the synthetic data fills all of them.
BINS = 32
#: A size enters the fitted exponent only when at least this many rounds were timed (a phase
#: that ends by itself sooner gives too few).
MIN_ROUNDS = 5


def _data(n: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) > 0, 1, -1)
    flip = rng.random(n) < 0.1
    y[flip] = -y[flip]
    return X, y


def _estimator_class():
    from marginboost.boosting.directboost import DirectBoost

    class KeepsHistory(DirectBoost):
        """DirectBoost that keeps the history of every round run: the relaxed ascent cuts the
        ensemble (and ``history_``) back to its best round, which would hide the rest."""

        def _truncate(self, n_rounds: int) -> None:
            self.full_history_ = dict(self.history_)
            super()._truncate(n_rounds)

    return KeepsHistory


def _variant(**params):
    from marginboost.boosting.directboost import VARIANTS

    return _estimator_class()(**{**VARIANTS["DirectBoost_eps_avg"], **params})


def _round_times(model, phase: int) -> np.ndarray:
    """Durations of the rounds of ``phase`` (the first round of a phase is left out: it
    includes the phase's set-up)."""
    history = getattr(model, "full_history_", model.history_)
    durations = np.diff(np.concatenate([[0.0], history["time"]]))
    return durations[history["phase"] == phase][1:]


def _fit(X, y, phase: int, rounds: int, n_prime: float):
    from sklearn.exceptions import ConvergenceWarning

    if phase == 1:
        params = {"phase2": False, "n_estimators": rounds + 1}
    else:
        params = {"phase1_n_iter_no_change": 1, "n_iter_no_change": 10 * rounds}
    model = _variant(n_prime=n_prime, max_depth=1, max_bins=BINS, **params)
    if phase == 2:
        # phase 2 gets ``rounds + 1`` rounds after phase 1 (whose length is found first)
        probe = _variant(max_depth=1, max_bins=BINS, phase2=False, phase1_n_iter_no_change=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            probe.fit(X, y)
        model.set_params(n_estimators=int(probe.n_phase1_) + rounds + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    return model


def measure(n: int, d: int, phase: int, rounds: int, n_prime: float = 0.1) -> dict:
    """One case: the median round time of ``phase`` (best of two fits)."""
    X, y = _data(n, d)
    _fit(X[:500], y[:500], phase, 2, n_prime)  # warm-up: compiled kernels
    medians = []
    measured = 0
    for _ in range(2):
        model = _fit(X, y, phase, rounds, n_prime)
        times = _round_times(model, phase)
        measured = int(times.size)
        if measured:
            medians.append(float(np.median(times)))
    return {
        "n": n,
        "d": d,
        # every stump: a threshold between two of a feature's bins, and two signs
        "M": int(2 * (model.mapper_.n_bins_ - 1).sum()),
        "n_prime": int(max(1, round(n_prime * n))),
        "phase": phase,
        "rounds_measured": measured,
        "round_s": min(medians) if medians else None,
    }


def slope(sizes, times) -> float:
    """Least-squares exponent of ``times`` against ``sizes`` on log-log axes."""
    x, t = np.log(np.asarray(sizes, float)), np.log(np.asarray(times, float))
    return float(np.polyfit(x, t, 1)[0])


def cases(quick: bool) -> dict[str, list[dict]]:
    """The three series; ``quick`` shrinks sizes and rounds for a smoke run."""
    rounds = 6 if quick else 30
    ns = [1000, 2000] if quick else [2500, 5000, 10_000, 20_000, 40_000]
    ds = [2, 4] if quick else [4, 8, 16, 32, 64]
    fractions = [0.1, 0.4] if quick else [0.05, 0.1, 0.2, 0.4, 0.8]
    n0, d0 = (2000, 4) if quick else (10_000, 16)
    series: dict[str, list[dict]] = {"n": [], "M": [], "n_prime": []}
    for phase in (1, 2):
        series["n"] += [measure(n, d0, phase, rounds) for n in ns]
        series["M"] += [measure(n0, d, phase, rounds) for d in ds]
    series["n_prime"] = [measure(n0, d0, 2, rounds, f) for f in fractions]
    return series


def exponents(series: dict[str, list[dict]]) -> dict[str, float | None]:
    """``phase<k>_<size>`` -> fitted exponent of the round time in that size."""
    out: dict[str, float | None] = {}
    for size, rows in series.items():
        for phase in (1, 2):
            points = [
                r
                for r in rows
                if r["phase"] == phase and r["round_s"] and r["rounds_measured"] >= MIN_ROUNDS
            ]
            if len(points) >= 2:
                out[f"phase{phase}_{size}"] = slope(
                    [r[size] for r in points], [r["round_s"] for r in points]
                )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few rounds (smoke run)")
    parser.add_argument("--output", default=str(RESULTS), help="result file (JSON)")
    args = parser.parse_args(argv)
    series = cases(args.quick)
    result = {
        "benchmark": "directboost_scaling",
        "quick": args.quick,
        "environment": sklearn_environment(),
        "bins": BINS,
        "series": series,
        "exponents": exponents(series),
    }
    for key, value in result["exponents"].items():
        print(f"{key}: {value:.2f}")
    write_result(args.output, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
