#!/bin/bash
# crash.sh: a program that dies of a fault inside a hooked function
# (crash_in_hook.c). scope prints the faulting thread's backtrace naming the
# hooked function as open, the exit status stays the signal's, and `scope
# recover` gets every call completed before: alone (SIGSEGV, SIGABRT from
# abort(), a stack overflow) and with 2 ranks under the launcher (rank 1 crashes).
# usage: crash.sh   (env: SCOPE_CLI PROGRAM=crash_in_hook MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-crash-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*"; [ -f err.txt ] && { echo "--- stderr:"; cat err.txt; }; exit 1; }

# Recovers the run of the ranks listed in pids (lines "rank pid") once they
# are gone; each must hold the 1000 calls of work().
check_recovered() {
    local ranks=$1 pid0
    pid0=$(awk '$1 == 0 { print $2 }' pids)
    for _ in $(seq 100); do
        local alive=0
        for pid in $(awk '{ print $2 }' pids); do
            ! kill -0 "$pid" 2>/dev/null || alive=1
        done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    rm -f recovered.h5
    "$SCOPE_CLI" recover --run "$pid0" -o recovered.h5 2>>err.txt || fail "scope recover failed"
    "$PYTHON" - "$ranks" <<'PY' || fail "recovered file is wrong"
import sys, h5py
ranks = int(sys.argv[1])
with h5py.File("recovered.h5") as f:
    assert sorted(k for k in f if k != "metadata") == [f"rank{r}" for r in range(ranks)], list(f)
    for r in range(ranks):
        got = len(f[f"rank{r}/regions/work/start_times"])
        assert got == 1000, (r, got)
PY
    [ ! -e never.h5 ] || fail "the crashed run wrote its file"
}

# $1: the line of the backtrace that must name crunch as open
check_backtrace() {
    local pid=$1 signal=$2
    grep -q "^scope: pid $pid: $signal: records kept for \`scope recover\`" err.txt ||
        fail "no '$signal: records kept' line for pid $pid"
    grep -q "^scope: pid $pid: $signal.*backtrace of the faulting thread:" err.txt ||
        fail "no backtrace header for pid $pid"
    grep -Eq "^scope:   #[0-9]+ 0x[0-9a-f]+ crunch(\.cold)?\+0x[0-9a-f]+   <- hooked, open: crunch$" err.txt ||
        fail "the backtrace does not show crunch open"
    grep -Eq "^scope:   #[0-9]+ 0x[0-9a-f]+ main\+0x[0-9a-f]+$" err.txt ||
        fail "the backtrace does not reach main"
}

# Runs the program alone with crash kind $1 ("" for the null pointer) and
# checks that it died of signal $2 (exit status $3) with the backtrace; sets
# pid.
crash_alone() {
    local kind=$1 signal=$2 expected=$3 status=0
    rm -f pids
    "$SCOPE_CLI" run -f work,crunch -o never.h5 -- "$PROGRAM" "$work/pids" $kind >/dev/null \
        2>err.txt || status=$?
    [ "$status" = "$expected" ] || fail "exit status $status, expected $expected ($signal)"
    pid=$(awk '{ print $2 }' pids)
    check_backtrace "$pid" "$signal"
}

# 1. SIGSEGV inside crunch(): exit status 128 + 11, frame #0 is crunch
crash_alone "" SIGSEGV 139
grep -q "^scope: pid $pid: SIGSEGV at address 0x38," err.txt || fail "wrong fault address"
grep -Eq "^scope:   #0 0x[0-9a-f]+ crunch\+0x[0-9a-f]+   <- hooked, open: crunch$" err.txt ||
    fail "frame #0 is not crunch"
check_recovered 1
echo "ok: SIGSEGV alone"

# 2. abort() inside crunch(): exit status 128 + 6
crash_alone abort SIGABRT 134
grep -Eq "^scope:   #[0-9]+ 0x[0-9a-f]+ abort\+0x[0-9a-f]+$" err.txt || fail "abort not in the backtrace"
check_recovered 1
echo "ok: SIGABRT alone"

# 3. a stack overflow in dive(), called by crunch(): the handler runs on
# scope's alternate stack, so the backtrace is there
crash_alone overflow SIGSEGV 139
grep -Eq "^scope:   #0 0x[0-9a-f]+ dive\+0x[0-9a-f]+$" err.txt || fail "frame #0 is not dive"
grep -Eq "^scope:   #1 0x[0-9a-f]+ dive\+0x[0-9a-f]+   \(repeated to #[0-9]{4,}\)$" err.txt ||
    fail "the recursion is not one line"
check_recovered 1
echo "ok: stack overflow alone"

# 4. 2 ranks under the launcher: rank 1 crashes, the launcher ends rank 0
rm -f pids
$MPIRUN -n 2 "$SCOPE_CLI" run -f work,crunch -o never.h5 -- "$PROGRAM" "$work/pids" \
    >/dev/null 2>err.txt && fail "the launcher reported success"
[ "$(wc -l < pids)" = 2 ] || fail "expected the pids of 2 ranks"
check_backtrace "$(awk '$1 == 1 { print $2 }' pids)" SIGSEGV
check_recovered 2
echo "ok: SIGSEGV on rank 1 of 2"
