"""Where and why DirectBoost's phase 1 (Algorithm 1) stops on Tic-tac-toe: the numbers of
``book/directboost-checks.md``.

For the whole data set (958 rows, the PMLB coding, our default binning) and each tree depth,
the estimator runs phase 1 alone (``phase2=False``, patience 50).  At the state where it
stops, the plain reference of ``tests/reference/directboost.py`` (no code shared with the
estimator) searches

* every stump (all thresholds, both signs), and
* every tree of depth <= 2 with leaves +-1 (enumerated, duplicates removed),

each with its exact line search over alpha, and reports the fewest training errors any of
them reaches.  If that is below the estimator's error count, the stop is not a coordinatewise
minimum over that weak-learner space.  It also grows the greedy direct tree of the reference
at that state (the estimator's builder grows the same tree: ``tests/test_directboost_reference.py``).

Separately, the reference runs Algorithm 1 with the stump pool to its own stop under
patience 50 and without a patience cap, and the estimator's stump run is compared round by
round with it.

Run: ``python benchmarks/directboost_phase1_checks.py`` (with ``MARGINBOOST_DATA_MIRROR`` set);
writes ``benchmarks/results/directboost_phase1_checks.json``.  Deterministic: no random
numbers, and the results do not depend on the number of threads.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "directboost_phase1_checks.json"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from _common import environment, write_result  # noqa: E402
from reference import directboost as ref  # noqa: E402


def _state(model, codes, y):
    """Margins a_i and sum of weights c of a fitted model (phase 1 only)."""
    a = np.zeros(y.size)
    for tree, alpha in zip(model.estimators_, model.alphas_):
        a = a + alpha * (y * tree.predict(codes))
    return a, float(np.sum(model.alphas_))


def _best(a, y, pool):
    """The fewest errors any candidate of ``pool`` reaches from margins ``a``, how many
    candidates lower the error count, and how many keep it while lowering the exponential
    loss (the estimator's zero-gain step)."""
    errors, alphas, losses = ref.pool_zero_one(a, y, pool.H)
    k = int(np.argmin(errors))
    now = int(np.count_nonzero(a <= 0))
    current = ref.log_exp_loss(a, np.zeros_like(a), 0.0)
    return {"errors": int(errors[k]), "alpha": float(alphas[k]), "label": repr(pool.labels[k]),
            "n_candidates": int(pool.H.shape[0]),
            "n_lowering": int(np.count_nonzero(errors < now)),
            "n_keeping_with_lower_exp_loss": int(np.count_nonzero((errors == now)
                                                                  & (losses < current)))}


def _split_only_if_better(DirectBoost, ZeroOneObjective):
    """Ablation (not the estimator): DirectBoost whose tree builder leaves a node unsplit
    unless a split scores better than the partial tree as it is (by the same 0-1 loss and
    exponential-loss tie rule).  The estimator's builder splits every node that can be split,
    even when every split raises the error."""

    class LeafAllowed(ZeroOneObjective):
        def split_scores(self, codes, node, state):
            scores, left, right = super().split_scores(codes, node, state)
            as_is = self.line(state.predictions())[2]
            return np.where(scores > as_is, scores, -np.inf), left, right

    class Ablation(DirectBoost):
        def _phase1(self, codes, y_signed, objectives=None):
            import marginboost.boosting.direct as module

            original = module.ZeroOneObjective
            module.ZeroOneObjective = LeafAllowed
            try:
                return super()._phase1(codes, y_signed, objectives)
            finally:
                module.ZeroOneObjective = original

    return Ablation


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args(argv)

    from marginboost.boosting.direct import DirectBoost, ZeroOneObjective
    from marginboost.data import load

    data = load("tic_tac_toe")
    X = data.X
    n = X.shape[0]
    result = {"dataset": "tic_tac_toe", "n": n, "environment": environment(), "depths": {}}
    stumps = trees = None
    for depth in (1, 2, 3):
        model = DirectBoost(phase2=False, max_depth=depth, n_iter_no_change=50).fit(X, data.y)
        codes = model.mapper_.transform(X)
        y = np.where(data.y == model.classes_[1], 1.0, -1.0)
        if stumps is None:
            stumps, trees = ref.stump_pool(codes), ref.tree_pool_depth2(codes)
        a, _ = _state(model, codes, y)
        errors = int(np.count_nonzero(a <= 0))
        greedy2 = ref.greedy_tree(codes, a, y, 2)
        greedy2_errors = ref.zero_one_line(a, y * greedy2)[0]
        counts = np.rint(model.history_["train_error"] * n).astype(int)
        gains = -np.diff(np.concatenate([[n], counts]))
        zero_gain = np.flatnonzero(gains == 0)
        alphas = np.asarray(model.alphas_)
        steps = {"last_round_lowering_errors": int(np.flatnonzero(gains > 0).max()) + 1,
                 "zero_gain_rounds": int(zero_gain.size),
                 "alpha_first_round": float(alphas[0]),
                 "alpha_last_round": float(alphas[-1]),
                 "alpha_last_over_first": float(alphas[-1] / alphas[0])}
        entry = {"steps": steps,
                 "rounds": len(model.estimators_), "stop_reason": model.stop_reason_,
                 "errors": errors, "train_error": errors / n,
                 "first_round_errors": int(round(model.history_["train_error"][0] * n)),
                 "best_stump_at_stop": _best(a, y, stumps),
                 "best_depth2_tree_at_stop": _best(a, y, trees),
                 "greedy_depth2_tree_at_stop": int(greedy2_errors)}
        result["depths"][str(depth)] = entry
        print(f"depth {depth}: {entry['rounds']} rounds, stop '{entry['stop_reason']}', "
              f"{errors} errors ({errors / n:.3%}); at the stop the best stump reaches "
              f"{entry['best_stump_at_stop']['errors']}, the best depth-<=2 tree "
              f"{entry['best_depth2_tree_at_stop']['errors']} "
              f"({entry['best_depth2_tree_at_stop']['n_lowering']} of "
              f"{entry['best_depth2_tree_at_stop']['n_candidates']} distinct trees lower the "
              f"error), the greedy depth-2 tree {greedy2_errors}")
        print(f"  {steps['zero_gain_rounds']} rounds kept the error count; the error last "
              f"fell in round {steps['last_round_lowering_errors']}; alpha went from "
              f"{steps['alpha_first_round']:.3g} (round 1) to {steps['alpha_last_round']:.3g} "
              f"(last round)")
        print(f"  at the stop, {entry['best_stump_at_stop']['n_keeping_with_lower_exp_loss']} "
              f"stumps and {entry['best_depth2_tree_at_stop']['n_keeping_with_lower_exp_loss']}"
              f" depth-<=2 trees keep the error count and lower the exponential loss")
        if depth == 1:
            # the reference follows the estimator wherever it finds a tie (the estimator's pick
            # must be among the tied candidates), so the two paths can be compared to the end
            hs = [tree.predict(codes) for tree in model.estimators_]

            def follow(t, ties, hs=hs):
                match = [i for i in ties if t < len(hs) and np.array_equal(stumps.H[i], hs[t])]
                return match[0] if match else ties[0]

            same = ref.phase1(y, stumps, max_rounds=len(hs) + 1, patience=50, choose=follow)
            agree = sum(np.array_equal(r.h, h) for r, h in zip(same.rounds, hs))
            tied = sum(len({stumps.H[i].tobytes() for i in r.ties}) > 1 for r in same.rounds)
            entry["reference_rounds"] = len(same.rounds)
            entry["reference_rounds_agreeing"] = int(agree)
            entry["rounds_with_distinct_tied_stumps"] = int(tied)
            print(f"  reference with stumps: {len(same.rounds)} rounds, stop "
                  f"'{same.stop_reason}'; the same weak classifier in {agree} of {len(hs)} "
                  f"rounds; {tied} rounds had tied stumps with different predictions")
        ablation = _split_only_if_better(DirectBoost, ZeroOneObjective)(
            phase2=False, max_depth=depth, n_iter_no_change=50).fit(X, data.y)
        errors_ab = int(round(ablation.history_["train_error"][-1] * n))
        entry["ablation_leaf_allowed"] = {"rounds": len(ablation.estimators_),
                                          "stop_reason": ablation.stop_reason_,
                                          "errors": errors_ab, "train_error": errors_ab / n}
        print(f"  ablation, a node splits only when that helps: {len(ablation.estimators_)} "
              f"rounds, stop '{ablation.stop_reason_}', {errors_ab} errors ({errors_ab / n:.3%})")

    # the first round of the depth-2 estimator against the exhaustive depth-2 search
    a0 = np.zeros(n)
    first = {"best_stump": _best(a0, y, stumps), "best_depth2_tree": _best(a0, y, trees),
             "greedy_depth2_tree": int(ref.zero_one_line(a0, y * ref.greedy_tree(codes, a0, y, 2))[0])}
    result["first_round"] = first
    print(f"round 1 (all margins 0): best stump {first['best_stump']['errors']}, best depth-<=2 "
          f"tree {first['best_depth2_tree']['errors']}, greedy depth-2 tree "
          f"{first['greedy_depth2_tree']}")

    # Algorithm 1 with stumps, by the reference alone: patience 50, then no patience cap
    for patience in (50, 10_000):
        path = ref.phase1(y, stumps, max_rounds=3000, patience=patience)
        key = f"reference_stumps_patience_{patience}"
        errors = int(path.rounds[-1].objective) if path.rounds else n
        result[key] = {"rounds": len(path.rounds), "stop_reason": path.stop_reason,
                       "errors": errors, "train_error": errors / n}
        print(f"reference, stumps, patience {patience}: {len(path.rounds)} rounds, stop "
              f"'{path.stop_reason}', {errors} errors ({errors / n:.3%})")
    write_result(args.output, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
