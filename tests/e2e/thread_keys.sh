#!/bin/bash
# thread_keys.sh: an application's pthread keys survive scope's finalize.
# Rank 0 loads its HDF5 writer into a namespace of its own (dlmopen), whose
# libc would hand out the application's key indexes (preload/writing/namespace_keys.c);
# this ran into a crash at exit and overwritten values before. Under the
# launcher at 2 ranks and without one.
# usage: thread_keys.sh 2|serial   (env: SCOPE_CLI PROGRAM MPIRUN)
set -euo pipefail
mode=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-keys-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
if [ "$mode" = serial ]; then
    launch=() ranks=1
else
    # shellcheck disable=SC2206  # the launcher command carries its options
    launch=($MPIRUN -n "$mode") ranks=$mode
fi
status=0
"${launch[@]}" "$SCOPE_CLI" run -f step -- "$PROGRAM" >out.txt 2>err.txt || status=$?
cat out.txt err.txt
[ "$status" -eq 0 ] || { echo "FAIL: exit status $status"; exit 1; }
[ "$(grep -c '^thread_keys: ok' out.txt)" -eq "$ranks" ] ||
    { echo "FAIL: not every rank kept its keys"; exit 1; }
grep -q "^scope: wrote profiling_data.h5 ($((ranks * 1000)) calls, $ranks rank" err.txt ||
    { echo "FAIL: profile not written"; exit 1; }
echo "ok: keys intact on $ranks rank(s), profile written"
