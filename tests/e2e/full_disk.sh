#!/bin/bash
# full_disk.sh: the output's filesystem fills up while rank 0 writes the
# file at MPI_Finalize (a 256 KiB tmpfs), then the same filesystem turns
# read-only. Each time the program's output and exit status stay its own,
# scope says in one line what failed and that the data is kept, no
# half-written file is left, and `scope recover` writes every call once
# there is room. Needs to mount a tmpfs (root): skipped where it cannot.
# usage: full_disk.sh   (env: SCOPE_CLI PROGRAM=many_calls MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-full-XXXXXX")
mkdir "$work/disk"
if ! mount -t tmpfs -o size=256k tmpfs "$work/disk" 2>/dev/null; then
    rm -rf "$work"
    echo "cannot mount a tmpfs here: skipped"
    exit 77
fi
trap 'umount "$work/disk"; rm -rf "$work"' EXIT
cd "$work"
calls=200000

fail() { echo "FAIL: $*"; echo "--- stderr:"; cat err.txt; exit 1; }

# Runs the 2-rank job writing to disk/out.h5; it must end as unprofiled.
run_job() {
    local status=0
    $MPIRUN -n 2 "$SCOPE_CLI" run -f work -o "$work/disk/out.h5" -- "$PROGRAM" "$calls" \
        >out.txt 2>err.txt || status=$?
    [ "$status" -eq 0 ] || fail "exit status $status, expected the program's 0"
    [ "$(grep -c "^many_calls: $calls calls per rank" out.txt)" -eq 1 ] ||
        fail "the program's output changed: $(cat out.txt)"
    ! grep -q "SIG" err.txt || fail "a signal during the write"
    [ -z "$(ls disk)" ] || fail "left in the full filesystem: $(ls disk)"
}

# The one line saying what failed and why (the pattern $1), and that the
# data is kept for `scope recover --run PID` (rank 0's pid).
expect_failure_line() {
    [ "$(grep -c '^scope:' err.txt)" -eq 1 ] || fail "expected one scope: line"
    grep -q "^scope: $1: data left for \`scope recover --run [0-9]*\`$" err.txt ||
        fail "the message does not say what failed ($1) and that the data is kept"
}

# Recovers the run the failure line names, which was to write disk/out.h5,
# and checks every call is there.
recover_and_check() {
    local pid
    pid=$(sed -n 's/.*`scope recover --run \([0-9]*\)`$/\1/p' err.txt)
    "$SCOPE_CLI" recover --list 2>&1 | grep -q "run of pid $pid: 2 of 2 rank(s) -> $work/disk/out.h5" ||
        fail "scope recover --list does not offer the run of pid '$pid'"
    "$SCOPE_CLI" recover --run "$pid" 2>>err.txt || fail "scope recover failed"
    "$SCOPE_CLI" summary disk/out.h5 --format csv >summary.csv || fail "cannot read the recovered file"
    grep -q "^work,$((2 * calls))," summary.csv || fail "recovered file lacks calls: $(cat summary.csv)"
    rm -f disk/out.h5
}

# 1. the filesystem is full
run_job
expect_failure_line "writing $work/disk/out.h5 failed (.*HDF5: .*No space left on device.*)"
mount -o remount,size=64m "$work/disk"
recover_and_check
echo "ok: full filesystem"

# 2. the filesystem is read-only
mount -o remount,ro "$work/disk"
run_job
expect_failure_line "cannot create $work/disk/out.h5.*: Read-only file system"
mount -o remount,rw "$work/disk"
recover_and_check
echo "ok: read-only filesystem"
