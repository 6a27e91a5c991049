#!/bin/bash
# multinode.sh: `scope recover` of a job across nodes, simulated with two
# directories. A 2-rank job that spills (4 KiB buffers) is killed with
# SIGKILL; `scope recover --gather G` copies this node's records into
# G/HOSTNAME and removes them from /dev/shm and TMPDIR; rank 1's records are
# then moved to G/node-b as if another node had gathered them. The ranks
# are pretend nodes of one rank each (SCOPE_TEST_RANKS_PER_NODE=1), so
# `scope recover --dir G` must write the layout a finished run across
# nodes has: the file with rank 0 and a link to rank 1 in FILE.d/node1.h5,
# both ranks holding at least 99 % of the calls each completed, and leave
# nothing behind; `scope pack` joins it into one file.
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
TMPDIR=$work/spill SCOPE_TEST_RANKS_PER_NODE=1 $MPIRUN -n 2 "$SCOPE_CLI" run -c small.conf -o never.h5 -- \
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

"$SCOPE_CLI" recover --dir gathered -o recovered.h5 2>recover.txt || fail "recover from nodes failed: $(cat recover.txt)"
grep -q "^scope recover: run of pid $pid0: 2 of 2 rank(s) on 2 nodes -> recovered.h5 + recovered.h5.d/" recover.txt ||
    fail "recover said: $(cat recover.txt)"
grep -q "^scope recover: wrote recovered.h5 and 1 node file(s) in recovered.h5.d/" recover.txt ||
    fail "recover said: $(cat recover.txt)"
"$PYTHON" - <<'PY' || fail "layout of the recovered run"
import h5py, sys
with h5py.File("recovered.h5") as f:
    if not isinstance(f.get("rank0", getlink=True), h5py.HardLink):
        sys.exit("rank 0 is not in the run's file")
    link = f.get("rank1", getlink=True)
    if not (isinstance(link, h5py.ExternalLink) and link.filename == "recovered.h5.d/node1.h5"):
        sys.exit(f"rank 1: {link}, want a link into recovered.h5.d/node1.h5")
PY
"$PYTHON" "$here/check_recovered.py" recovered.h5 "$(slot 0)" "$(slot 1)" ||
    fail "recovered file is short"
"$SCOPE_CLI" pack recovered.h5 -o single.h5 2>pack.txt || fail "pack: $(cat pack.txt)"
rm -r recovered.h5.d
"$PYTHON" "$here/check_recovered.py" single.h5 "$(slot 0)" "$(slot 1)" || fail "packed file is short"
left=$(find "$node" gathered/node-b -type f)
[ -z "$left" ] || fail "gathered records left: $left"
echo "ok: two nodes gathered into two directories, recovered as the run's file + its node's part"
