"""Where and why DirectBoost's phase 1 (Algorithm 1) stops on Tic-tac-toe: the numbers of
``notebooks/directboost-checks.md``.

For the whole data set (958 rows, the PMLB coding, our default binning), each tree depth and
each set of phase-1 rules of ``DIRECT_CHOICES`` (the estimator's default; midpoint steps with the
same trees; and the first implementation: midpoint steps, every tree node split, a plateau rule
of 50 rounds), the estimator runs phase 1 alone (``phase2=False``).  At the state where it
stops, the plain reference of ``tests/reference/directboost.py`` (no code shared with the
estimator) searches

* every stump (all thresholds, both signs), and
* every tree of depth <= 2 with leaves +-1 (enumerated, duplicates removed),

each with its exact line search over alpha, and reports the fewest training errors any of
them reaches.  If that is below the estimator's error count, the stop is not a coordinatewise
minimum over that weak-learner space.

Separately, the reference runs Algorithm 1 with the stump pool to its own stop, and the
estimator's stump run is compared round by round with it.

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
    return {
        "errors": int(errors[k]),
        "alpha": float(alphas[k]),
        "label": repr(pool.labels[k]),
        "n_candidates": int(pool.H.shape[0]),
        "n_lowering": int(np.count_nonzero(errors < now)),
        "n_keeping_with_lower_exp_loss": int(
            np.count_nonzero((errors == now) & (losses < current))
        ),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args(argv)

    from marginboost.boosting.directboost import DirectBoost
    from marginboost.data import load
    from marginboost.papers.directboost.protocol import DIRECT_CHOICES

    data = load("tic_tac_toe")
    X = data.X
    n = X.shape[0]
    result = {"dataset": "tic_tac_toe", "n": n, "environment": environment(), "runs": {}}
    stumps = trees = codes = y = None
    for choice, rules in DIRECT_CHOICES.items():
        if "patience" in rules:  # a phase-2 reading: its phase 1 is the default one
            continue
        for depth in (1, 2, 3):
            model = DirectBoost(
                phase2=False,
                max_depth=depth,
                n_estimators=5000,
                step=rules["step"],
                split_rule=rules["split_rule"],
                tol=rules["tol"],
                phase1_tol=rules.get("phase1_tol"),
                phase1_n_iter_no_change=rules["phase1_patience"],
            ).fit(X, data.y)
            if stumps is None:
                codes = model.mapper_.transform(X)
                y = np.where(data.y == model.classes_[1], 1.0, -1.0)
                stumps, trees = ref.stump_pool(codes), ref.tree_pool_depth2(codes)
            a, _ = _state(model, codes, y)
            errors = int(np.count_nonzero(a <= 0))
            counts = np.rint(model.history_["train_error"] * n).astype(int)
            gains = -np.diff(np.concatenate([[n], counts]))
            alphas = np.asarray(model.alphas_)
            entry = {
                "choice": choice,
                "depth": depth,
                "rules": rules,
                "rounds": len(model.estimators_),
                "stop_reason": model.stop_reason_,
                "errors": errors,
                "train_error": errors / n,
                "first_round_errors": int(counts[0]),
                "last_round_lowering_errors": int(np.flatnonzero(gains > 0).max()) + 1,
                "zero_gain_rounds": int(np.count_nonzero(gains == 0)),
                "alpha_first_round": float(alphas[0]),
                "alpha_last_round": float(alphas[-1]),
            }
            if errors > 0:
                entry["best_stump_at_stop"] = _best(a, y, stumps)
                entry["best_depth2_tree_at_stop"] = _best(a, y, trees)
            result["runs"][f"{choice}/depth{depth}"] = entry
            line = (
                f"{choice:8s} depth {depth}: {entry['rounds']:5d} rounds, stop "
                f"'{entry['stop_reason']}', {errors} errors ({errors / n:.1%})"
            )
            if errors > 0:
                best2 = entry["best_depth2_tree_at_stop"]
                line += (
                    f"; at the stop the best stump reaches "
                    f"{entry['best_stump_at_stop']['errors']}, the best depth-<=2 tree "
                    f"{best2['errors']} ({best2['n_lowering']} of {best2['n_candidates']} "
                    f"trees lower the error)"
                )
            print(line, flush=True)
            if depth == 1 and choice == "default":
                # the reference follows the estimator wherever it finds a tie (the estimator's
                # pick must be among the tied candidates), so the paths compare to the end
                hs = [tree.predict(codes) for tree in model.estimators_]

                def follow(t, ties, hs=hs):
                    match = [i for i in ties if t < len(hs) and np.array_equal(stumps.H[i], hs[t])]
                    return match[0] if match else ties[0]

                same = ref.phase1(
                    y,
                    stumps,
                    max_rounds=len(hs) + 1,
                    choose=follow,
                    step=rules["step"],
                    loss_tol=model.phase1_tol_,
                )
                agree = sum(np.array_equal(r.h, h) for r, h in zip(same.rounds, hs))
                tied = sum(len({stumps.H[i].tobytes() for i in r.ties}) > 1 for r in same.rounds)
                entry["reference_rounds"] = len(same.rounds)
                entry["reference_rounds_agreeing"] = int(agree)
                entry["rounds_with_distinct_tied_stumps"] = int(tied)
                print(
                    f"  reference with stumps: {len(same.rounds)} rounds, stop "
                    f"'{same.stop_reason}'; the same weak classifier in {agree} of {len(hs)} "
                    f"rounds; {tied} rounds had tied stumps with different predictions"
                )

    # the first round of the depth-2 estimator against the exhaustive depth-2 search
    a0 = np.zeros(n)
    first = {
        "best_stump": _best(a0, y, stumps),
        "best_depth2_tree": _best(a0, y, trees),
        **{
            f"greedy_depth2_tree_{rule}": int(
                ref.zero_one_line(a0, y * ref.greedy_tree(codes, a0, y, 2, split_rule=rule))[0]
            )
            for rule in ("always", "improve")
        },
    }
    result["first_round"] = first
    print(
        f"round 1 (all margins 0): best stump {first['best_stump']['errors']}, best depth-<=2 "
        f"tree {first['best_depth2_tree']['errors']}, greedy depth-2 tree "
        f"{first['greedy_depth2_tree_always']} (every node split) or "
        f"{first['greedy_depth2_tree_improve']} (a node splits only when that helps)"
    )

    # Algorithm 1 with stumps, by the reference alone, under both step rules
    for step in ("exp-loss", "midpoint"):
        path = ref.phase1(y, stumps, max_rounds=5000, step=step)
        key = f"reference_stumps_{step}"
        errors = int(path.rounds[-1].objective) if path.rounds else n
        result[key] = {
            "rounds": len(path.rounds),
            "stop_reason": path.stop_reason,
            "errors": errors,
            "train_error": errors / n,
        }
        print(
            f"reference, stumps, {step} steps: {len(path.rounds)} rounds, stop "
            f"'{path.stop_reason}', {errors} errors ({errors / n:.3%})"
        )
    write_result(args.output, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
