#!/bin/bash
# spill.sh: memory stays bounded and nothing is dropped. 8 ranks make 1 M
# calls each with a 4 KiB buffer per thread (256 records: a ring of 8
# slices of 32), so every rank writes about 31 000 slices out; the file
# must hold every call, say no event was dropped, and no spill file or
# segment may be left behind. Then the same with 2 ranks of 3 threads each
# making 300 000 calls at once, all through one writer thread per rank:
# every thread's calls are in the file, exactly. And one rank's 300 000
# top-level calls, with only 1 000 of them kept in memory for the self
# times (SCOPE_TEST_SELF_CALLS, test-only): self_ns is there and exact.
# usage: spill.sh   (env: SCOPE_CLI PROGRAM=many_calls THREADED=threaded_calls MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-spill-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir spill
# Runs RANKS ranks of a program under CONF, spilling into spill/: every
# call must be said written, and no spill file left.
spill_run() {   # RANKS CONF CALLS PROGRAM ARGS...
    local ranks=$1 conf=$2 calls=$3
    shift 3
    rm -f profiling_data.h5
    TMPDIR=$work/spill $MPIRUN -n "$ranks" "$SCOPE_CLI" run -c "$conf" -- "$@" \
        >out.txt 2>err.txt || { cat out.txt err.txt; exit 1; }
    cat out.txt err.txt
    grep -q "^scope: wrote profiling_data.h5 ($calls calls, $ranks rank" err.txt
    [ -z "$(find spill -type f)" ] || { echo "FAIL: spill files left: $(find spill -type f | head)"; exit 1; }
}

printf '[output]\nbuffer = 4K\n[functions]\nwork\n' >spill.conf
spill_run 8 spill.conf 8000000 "$PROGRAM" 1000000
"$PYTHON" - <<'PY'
import h5py, sys
with h5py.File("profiling_data.h5") as f:
    for r in range(8):
        g = f[f"rank{r}"]
        s, e = g["regions/work/start_times"][:], g["regions/work/end_times"][:]
        if len(s) != 1000000 or g.attrs["dropped_events"] != 0:
            sys.exit(f"FAIL: rank {r}: {len(s)} calls, dropped {g.attrs['dropped_events']}")
        if (s[1:] < s[:-1]).any() or (e < s).any():
            sys.exit(f"FAIL: rank {r}: times out of order")
PY
echo "ok: 8 ranks x 1 M calls through 4 KiB buffers, none lost"

printf '[output]\nbuffer = 4K\n[functions]\nthread_work\n' >threads.conf
spill_run 2 threads.conf 1800000 "$THREADED" 3 300000
"$PYTHON" - <<'PY'
import collections, h5py, sys
with h5py.File("profiling_data.h5") as f:
    for r in range(2):
        g = f[f"rank{r}"]
        region = g["regions/thread_work"]
        threads = collections.Counter(region["thread_ids"][:].tolist())
        if sorted(threads.values()) != [300000] * 3 or g.attrs["dropped_events"] != 0:
            sys.exit(f"FAIL: rank {r}: calls per thread {dict(threads)}, "
                     f"dropped {g.attrs['dropped_events']}")
        s, e, t = region["start_times"][:], region["end_times"][:], region["thread_ids"][:]
        for k in threads:
            if (s[t == k][1:] < s[t == k][:-1]).any() or (e < s).any():
                sys.exit(f"FAIL: rank {r} thread {k}: times out of order")
PY
echo "ok: 2 ranks x 3 threads x 300 000 calls through 4 KiB buffers, none lost"

printf '[functions]\nwork\n' >self.conf
SCOPE_TEST_SELF_CALLS=1000 spill_run 1 self.conf 300000 "$PROGRAM" 300000
"$PYTHON" - <<'PY'
import h5py, sys
with h5py.File("profiling_data.h5") as f:
    region = f["rank0/regions/work"]
    s, e = region["start_times"][:], region["end_times"][:]
    if "self_ns" not in region.attrs or region.attrs["self_ns"] != (e - s).sum():
        sys.exit(f"FAIL: self_ns {region.attrs.get('self_ns')}, calls took {(e - s).sum()}")
PY
echo "ok: 300 000 top-level calls, 1 000 of them in memory: self_ns exact"
