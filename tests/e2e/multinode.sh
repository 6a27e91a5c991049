#!/bin/bash
# multinode.sh: `scope recover` of a job across nodes, simulated with two
# directories. A 2-rank job that spills (4 KiB buffers) is killed with
# SIGKILL; `scope recover --gather G` copies this node's records into
# G/HOSTNAME and removes them from /dev/shm and TMPDIR; rank 1's records are
# then moved to G/node-b as if another node had gathered them, and
# `scope recover --dir G` must write one file with both ranks holding at
# least 99 % of the calls each completed, and leave nothing behind.
# usage: multinode.sh   (env: SCOPE_CLI PROGRAM=busy_loop MPIRUN PYTHON)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-multinode-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir spill gathered
fail() { echo "FAIL: $*"; [ -f err.txt ] && { echo "--- stderr:"; cat err.txt; }; exit 1; }
slot() { od -An -tu8 -j $(($1 * 8)) -N8 counts | tr -d ' '; }

printf '[output]\nbuffer = 4K\n[functions]\nwork\n' >small.conf
TMPDIR=$work/spill $MPIRUN -n 2 "$SCOPE_CLI" run -c small.conf -o never.h5 -- \
    "$PROGRAM" "$work/counts" >/dev/null 2>err.txt &
job=$!
for _ in $(seq 100); do
    [ -f counts ] && [ "$(slot 0)" -gt 2000 ] && [ "$(slot 1)" -gt 2000 ] && break
    sleep 0.1
done
pid0=$(slot 32) pid1=$(slot 33)
kill -KILL "$pid0" "$pid1"
wait "$job" 2>/dev/null || true
for _ in $(seq 100); do
    kill -0 "$pid0" 2>/dev/null || kill -0 "$pid1" 2>/dev/null || break
    sleep 0.1
done
ls spill/scope-$(id -u) | grep -q "^scope-$(id -u)-$pid1-[0-9a-f]*-0.spill$" || fail "rank 1 did not spill"

"$SCOPE_CLI" recover --gather gathered --run "$pid0" 2>>err.txt || fail "gather failed"
node=gathered/$(hostname)
for pid in "$pid0" "$pid1"; do
    ls "$node" | grep -q "^scope-$(id -u)-$pid-[0-9a-f]*-meta$" || fail "pid $pid not gathered"
    ls "$node" | grep -q "^scope-$(id -u)-$pid-[0-9a-f]*-0.spill$" || fail "spill file of pid $pid not gathered"
    ! ls /dev/shm spill/scope-$(id -u) | grep -q "^scope-$(id -u)-$pid-" || fail "pid $pid left in place"
done
mkdir gathered/node-b
mv "$node/scope-$(id -u)-$pid1-"* gathered/node-b/

"$SCOPE_CLI" recover --dir gathered -o recovered.h5 2>>err.txt || fail "recover from nodes failed"
"$PYTHON" "$here/check_recovered.py" recovered.h5 "$(slot 0)" "$(slot 1)" ||
    fail "recovered file is short"
left=$(find "$node" gathered/node-b -type f)
[ -z "$left" ] || fail "gathered records left: $left"
echo "ok: two nodes gathered into two directories, one file recovered"
