#!/bin/bash
# threaded_load.sh: 8 ranks, each with 4 threads making 1 M calls at once
# (32 M calls on 2 cores): the file must hold every call, 4 M per rank
# under 4 thread ids of 1 M calls each, with no event dropped.
# usage: threaded_load.sh   (env: SCOPE_CLI PROGRAM=threaded_calls MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-load-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
$MPIRUN -n 8 "$SCOPE_CLI" run -f thread_work -- "$PROGRAM" 4 1000000 >out.txt 2>err.txt ||
    { cat out.txt err.txt; exit 1; }
cat out.txt err.txt
grep -q "^scope: wrote profiling_data.h5 (32000000 calls, 8 ranks)" err.txt
"$PYTHON" - <<'PY'
import collections, h5py, sys
with h5py.File("profiling_data.h5") as f:
    for rank in range(8):
        g = f[f"rank{rank}"]
        threads = collections.Counter(g["regions/thread_work/thread_ids"][:].tolist())
        if sorted(threads.values()) != [1000000] * 4:
            sys.exit(f"rank {rank}: calls per thread {dict(threads)}, expected 4 x 1000000")
        if g.attrs["dropped_events"] != 0:
            sys.exit(f"rank {rank}: {g.attrs['dropped_events']} events dropped")
print("ok: 8 ranks x 4 threads x 1 M calls, all in the file")
PY
