#!/bin/bash
# finalize_signal.sh: SIGTERM reaches every rank while rank 0 writes the
# file at MPI_Finalize (a scheduler's time limit does this). Each rank says
# in one line that its records are kept, the job ends as the signal ends it
# without scope, no file and no half-written temporary file is left, and
# `scope recover` then writes every call.
# usage: finalize_signal.sh   (env: SCOPE_CLI PROGRAM=many_calls MPIRUN)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-finsig-XXXXXX")
trap 'pkill -KILL -f "^$PROGRAM" 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
calls=4000000   # per rank: a merge of seconds, long enough to be caught in

fail() { echo "FAIL: $*"; echo "--- stderr:"; cat err.txt; exit 1; }

status=0
$MPIRUN -n 2 "$SCOPE_CLI" run -f work -o "$work/out.h5" -- "$PROGRAM" "$calls" \
    >out.txt 2>err.txt &
job=$!
# rank 0 creates its temporary file once its own calls are grouped, and
# writes the other rank's as they come: that is finalize under way
tmp=
for _ in $(seq 1200); do
    tmp=$(ls out.h5.tmp.* 2>/dev/null | head -1) && [ -n "$tmp" ] && break
    kill -0 "$job" 2>/dev/null || break
    sleep 0.05
done
[ -n "$tmp" ] || { wait "$job" || true; fail "never saw rank 0 writing the file"; }
pids=$(pgrep -f "^$PROGRAM") || fail "no rank process found"
kill -TERM $pids
wait "$job" || status=$?
[ "$status" -ne 0 ] || fail "the job ended with status 0 after SIGTERM"
[ ! -e out.h5 ] || fail "the file was finished after all: the signal came too late"
[ -z "$(ls out.h5.tmp.* 2>/dev/null)" ] || fail "half-written file left: $(ls out.h5.tmp.*)"
for pid in $pids; do
    grep -q "^scope: pid $pid: SIGTERM: records kept for \`scope recover\`$" err.txt ||
        fail "pid $pid did not say its records are kept"
done
grep -q "^scope: wrote" err.txt && fail "scope says it wrote the file"

pid0=${tmp##*.tmp.}
"$SCOPE_CLI" recover --run "$pid0" 2>>err.txt || fail "scope recover failed"
"$SCOPE_CLI" summary out.h5 --format csv >summary.csv || fail "cannot read the recovered file"
grep -q "^work,$((2 * calls))," summary.csv || fail "recovered file lacks calls: $(cat summary.csv)"
for pid in $pids; do
    ! ls /dev/shm | grep -q "^scope-$(id -u)-$pid-" || fail "segments of pid $pid left behind"
done
echo "ok: SIGTERM during finalize, then recover: $((2 * calls)) calls"
