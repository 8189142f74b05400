#!/usr/bin/env bash
# Test command of one mutant (called by cosmic-ray from benchmarks/mutation/run.py).
#   run_tests.sh fresh|shared TEST_FILE...
# fresh: a new, empty NUMBA_CACHE_DIR, so every numba kernel of the mutated module is compiled
# from the mutated source; shared: the cache of the unmutated kernels (the module has none).
set -u
mode=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tree=$root/_build/mutation/tree
export PYTHONPATH=$tree/src
if [ "$mode" = fresh ]; then
    cache=$(mktemp -d)
    trap 'rm -rf "$cache"' EXIT
    export NUMBA_CACHE_DIR=$cache
else
    export NUMBA_CACHE_DIR=$root/_build/mutation/numba-shared
fi
cd "$tree" || exit 2
"${MUTATION_PYTHON:-python}" -m pytest -x -q -p no:cacheprovider -m "not slow" "$@"
