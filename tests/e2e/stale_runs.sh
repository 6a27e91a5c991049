#!/bin/bash
# stale_runs.sh: records that a killed run left in /dev/shm over an hour ago
# are pointed out at the next start (they hold memory until recovered), not
# while they are fresh, and not any more once `scope recover` wrote them.
# usage: stale_runs.sh   (env: SCOPE_CLI PROGRAM=busy_loop QUICK=thread_keys)
set -euo pipefail
export SCOPE_WARN_STALE=1   # the suite turns it off for every other test
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-stale-XXXXXX")
trap 'kill -9 "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }

"$SCOPE_CLI" run -f work -o never.h5 -- "$PROGRAM" "$work/counts" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
    [ -f counts ] && [ "$(od -An -tu8 -N8 counts | tr -d ' ')" -gt 100 ] && break
    sleep 0.1
done
meta=$(ls /dev/shm | grep "^scope-$(id -u)-$pid-[0-9a-f]*-meta$") || fail "no segments for pid $pid"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
"$SCOPE_CLI" run -f step -- "$QUICK" >/dev/null 2>err.txt || fail "the next run failed"
! grep -q "pid $pid\b" err.txt || fail "fresh records pointed out"
touch -d "2 hours ago" "/dev/shm/$meta"

"$SCOPE_CLI" run -f step -- "$QUICK" >/dev/null 2>err.txt || fail "the next run failed"
grep -q "^scope: /dev/shm has held the unwritten records of [0-9]* ended process.* (pid $pid\b" err.txt ||
    grep -q "^scope: /dev/shm has held the unwritten records of [0-9]* ended processes (pid [0-9]*, ...)" err.txt ||
    fail "the next run did not point at the killed run's records"

"$SCOPE_CLI" recover --run "$pid" -o recovered.h5 2>err.txt || fail "scope recover failed"
"$SCOPE_CLI" run -f step -- "$QUICK" >/dev/null 2>err.txt || fail "the run after recover failed"
! grep -q "pid $pid" err.txt || fail "still pointed at after recover"
echo "ok: the killed run's records were pointed out until recovered"
