#!/bin/bash
# finalize_threads.sh: the threads that encode at finalize. Their number
# follows the rule (the node's online CPUs minus its ranks, at most 3,
# capped by SCOPE_FINALIZE_THREADS), and a file written with them holds,
# chunk for chunk, the bytes one thread gives for the same values
# (check_chunks re-encodes every chunk), as does one written without; the
# chunks of a thread_ids column created late, never written, read as 0.
# usage: finalize_threads.sh   (env: SCOPE_CLI PROGRAM=many_calls
#        THREADED=threaded_calls MPIRUN CHECK_CHUNKS)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-finalize-threads-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
cpus=$(getconf _NPROCESSORS_ONLN)

expected() {   # RANKS [LIMIT]: the rule, written out again
    local n=$((cpus - $1))
    [ "$n" -le 3 ] || n=3
    [ -z "${2:-}" ] || [ "$n" -le "$2" ] || n=$2
    [ "$n" -ge 0 ] || n=0
    echo "$n"
}

# RANKS CALLS LIMIT FUNCTION PROGRAM ARGS...: runs, checks the thread
# count and every chunk of the file.
run() {
    local ranks=$1 calls=$2 limit=$3 function=$4
    shift 4
    rm -f profiling_data.h5
    SCOPE_FINALIZE_THREADS=$limit $MPIRUN -n "$ranks" "$SCOPE_CLI" run -v -f "$function" -- "$@" \
        >out.txt 2>err.txt || { cat out.txt err.txt; exit 1; }
    grep -q "^scope: wrote profiling_data.h5 ($calls calls, $ranks rank" err.txt ||
        { cat err.txt; echo "FAIL: not every call written"; exit 1; }
    local want got
    want=$(expected "$ranks" "$limit")
    got=$(sed -n "s/^scope: finalize: \([0-9]*\) thread(s) besides rank 0's own.*/\1/p" err.txt)
    [ "$got" = "$want" ] ||
        { cat err.txt; echo "FAIL: $ranks rank(s), limit '$limit': $got threads, want $want"; exit 1; }
    "$CHECK_CHUNKS" profiling_data.h5
    echo "ok: $ranks rank(s) x $calls calls, limit '$limit': $got encode thread(s), chunks as one thread's"
}

run 1 1000000 "" work "$PROGRAM" 1000000
run 1 1000000 0 work "$PROGRAM" 1000000
run 2 600000 "" work "$PROGRAM" 300000
run 1 600000 1 thread_work "$THREADED" 3 200000   # interleaved thread ids: zlib's chunks too
# the first thread's 200 000 calls first: thread_ids is created at the
# window where another thread's calls begin, its first chunks never written
run 1 600000 1 thread_work "$THREADED" 3 200000 staggered

SCOPE_FINALIZE_THREADS=many $MPIRUN -n 1 "$SCOPE_CLI" run -f work -- "$PROGRAM" 1000 \
    >out.txt 2>err.txt || { cat out.txt err.txt; exit 1; }
grep -q "^scope: SCOPE_FINALIZE_THREADS=many is not a number of threads: ignored" err.txt ||
    { cat err.txt; echo "FAIL: no word about SCOPE_FINALIZE_THREADS=many"; exit 1; }
grep -q "^scope: wrote profiling_data.h5 (1000 calls, 1 rank" err.txt
echo "ok: a bad SCOPE_FINALIZE_THREADS is said and ignored"
