#!/bin/bash
# faults.sh: runs that never reach MPI_Finalize still leave their data. A
# 2-rank job is killed with SIGKILL (also with 4 KiB buffers, so that most
# records are in spill-file windows), or with SIGTERM, SIGINT or SIGXCPU, or
# rank 0 calls MPI_Abort, or every rank calls exit() without MPI_Finalize;
# `scope recover` must then write a file holding at
# least 99 % of the calls each rank completed (the program counts them in a
# shared file), and remove the segments it used.
# usage: faults.sh   (env: SCOPE_CLI PROGRAM=busy_loop MPIRUN PYTHON)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-faults-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*"; [ -f err.txt ] && { echo "--- stderr:"; cat err.txt; }; exit 1; }

slot() {   # value of 64-bit slot N of the counter file
    od -An -tu8 -j $(($1 * 8)) -N8 counts | tr -d ' '
}

run_args=(-f work)   # how `scope run` is told what to hook

start_job() {   # extra args for busy_loop
    rm -f counts err.txt
    $MPIRUN -n 2 "$SCOPE_CLI" run "${run_args[@]}" -o never.h5 -- "$PROGRAM" "$work/counts" "$@" \
        >/dev/null 2>err.txt &
    job=$!
    for _ in $(seq 100); do
        if [ -f counts ] && [ "$(slot 32)" -gt 0 ] && [ "$(slot 33)" -gt 0 ] &&
           [ "$(slot 0)" -gt 500 ] && [ "$(slot 1)" -gt 500 ]; then
            return 0
        fi
        sleep 0.1
    done
    fail "the job did not get going"
}

# Recovers the run whose rank 0 had pid $(slot 32) and checks every rank,
# once the job and its ranks are gone.
check_recovered() {
    local pid0 pid1
    pid0=$(slot 32) pid1=$(slot 33)
    wait "$job" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid0" 2>/dev/null || kill -0 "$pid1" 2>/dev/null || break
        sleep 0.1
    done
    rm -f recovered.h5
    "$SCOPE_CLI" recover --run "$pid0" -o recovered.h5 2>>err.txt || fail "scope recover failed"
    "$PYTHON" "$here/check_recovered.py" recovered.h5 "$(slot 0)" "$(slot 1)" ||
        fail "recovered file is short"
    for pid in "$pid0" "$pid1"; do
        ! ls /dev/shm | grep -q "^scope-$(id -u)-$pid-" || fail "segments of pid $pid left behind"
    done
    [ ! -e never.h5 ] || fail "the killed job wrote its file"
}

# 1. kill -9 of every rank
start_job
sleep 1
kill -KILL "$(slot 32)" "$(slot 33)"
check_recovered
echo "ok: SIGKILL"

# 2. SIGTERM, as a scheduler sends it (SIGINT from a terminal, SIGXCPU at a
# CPU-time limit): one line per rank, then recover
for sig in TERM INT XCPU; do
    start_job
    sleep 1
    kill -"$sig" "$(slot 32)" "$(slot 33)"
    wait "$job" 2>/dev/null || true
    # every rank that ran its handler says so; under load the launcher may
    # kill a rank before it does (its records are kept all the same)
    grep -qE "^scope: pid ($(slot 32)|$(slot 33)): SIG$sig: records kept for \`scope recover\`" err.txt ||
        fail "no SIG$sig message"
    check_recovered
    echo "ok: SIG$sig"
done

# 3. MPI_Abort from rank 0 after exactly 3000 calls
start_job 3000 || true
wait "$job" 2>/dev/null && fail "MPI_Abort did not end the job with an error"
grep -q "^scope: pid $(slot 32): MPI_Abort: records kept" err.txt || fail "no MPI_Abort message"
[ "$(slot 0)" -eq 3000 ] || fail "rank 0 made $(slot 0) calls, expected 3000"
check_recovered
echo "ok: MPI_Abort"

# 4. exit(0) without MPI_Finalize on every rank after exactly 3000 calls
start_job 3000 exit || true
wait "$job" 2>/dev/null || true
grep -Eq "^scope: pid ($(slot 32)|$(slot 33)): exit without MPI_Finalize: records kept" err.txt ||
    fail "no exit message"
# (MPICH's launcher may kill the other rank once the first has exited)
[ "$(slot 0)" -eq 3000 ] || [ "$(slot 1)" -eq 3000 ] ||
    fail "ranks made $(slot 0) and $(slot 1) calls, expected 3000 on one at least"
check_recovered
echo "ok: exit without MPI_Finalize"

# 5. kill -9 while spilling: 4 KiB buffers, spill files in their own TMPDIR,
# which recover must read (the killed windows' unused slots are zeros) and
# then remove
printf '[output]\nbuffer = 4K\n[functions]\nwork\n' > spill.conf
mkdir spill
run_args=(-c spill.conf)
export TMPDIR=$work/spill
start_job
sleep 1
[ -n "$(find spill -type f)" ] || fail "no spill file while recording with 4 KiB buffers"
kill -KILL "$(slot 32)" "$(slot 33)"
check_recovered
[ -z "$(find spill -type f)" ] || fail "spill files left after recover: $(find spill -type f)"
echo "ok: SIGKILL while spilling"
