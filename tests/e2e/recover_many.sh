#!/bin/bash
# recover_many.sh: `scope recover` does its best with several runs. Three
# killed runs: one whose output file already exists, one whose directory
# was removed, one plain. --list shows all three; recover writes the plain
# one where it belongs and the homeless one in the current directory, names
# the one it could not write (exit status 2) and leaves its records, which
# --force then recovers. The three runs are gathered into a directory of
# their own first, so that nothing else in /dev/shm takes part.
# usage: recover_many.sh   (env: SCOPE_CLI PROGRAM=busy_loop)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-many-XXXXXX")
pids=()
trap 'kill -9 "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }

for run in exists gone plain; do
    mkdir "$run"
    (cd "$run" && exec "$SCOPE_CLI" run -f work -o out.h5 -- "$PROGRAM" "$work/$run/counts" \
        >/dev/null 2>&1) &
    pids+=($!)
done
for run in exists gone plain; do
    for _ in $(seq 100); do
        [ -f "$run/counts" ] && [ "$(od -An -tu8 -N8 "$run/counts" | tr -d ' ')" -gt 100 ] && break
        sleep 0.1
    done
done
kill -9 "${pids[@]}"
wait "${pids[@]}" 2>/dev/null || true
mkdir gathered here
for pid in "${pids[@]}"; do
    "$SCOPE_CLI" recover --gather gathered --run "$pid" 2>>err.txt || fail "gather of pid $pid failed"
done
touch exists/out.h5
rm -rf gone

cd here
"$SCOPE_CLI" recover --dir ../gathered --list 2>../err.txt || fail "--list failed"
cat ../err.txt
[ "$(grep -c "^scope recover: run of pid [0-9]*: 1 of 1 rank(s) -> " ../err.txt)" = 3 ] ||
    fail "--list does not show the three runs"
grep -q "^scope recover: run of pid ${pids[0]}: .* -> $work/exists/out.h5 (exists: " ../err.txt ||
    fail "--list does not say that pid ${pids[0]}'s file exists"

rc=0
"$SCOPE_CLI" recover --dir ../gathered 2>../err.txt || rc=$?
cat ../err.txt
[ "$rc" = 2 ] || fail "exit status $rc with a run not written, want 2"
grep -q "^scope recover: run of pid ${pids[0]}: $work/exists/out.h5 exists" ../err.txt ||
    fail "the run whose file exists is not named"
grep -q "^scope recover: 1 of 3 runs not recovered" ../err.txt || fail "no count of the failures"
grep -q "^scope recover: run of pid ${pids[1]}: $work/gone: .*, writing out.h5 here instead" \
    ../err.txt || fail "the homeless run's new place is not said"
[ -s out.h5 ] && [ -s "$work/plain/out.h5" ] || fail "the two recoverable runs were not written"
[ ! -s "$work/exists/out.h5" ] || fail "the existing file was overwritten"

"$SCOPE_CLI" recover --dir ../gathered --force 2>../err.txt || fail "recover --force failed"
[ -s "$work/exists/out.h5" ] || fail "--force did not write the remaining run"
echo "ok: three runs, each recovered on its own"
