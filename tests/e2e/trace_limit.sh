#!/bin/bash
# trace_limit.sh: [output] trace_limit (and SCOPE_TRACE_LIMIT) on
# fold_calls (min_duration.sh says its calls), under mpirun -n 2 with a
# limit of 32 KiB: each rank says in one line at finalize that it passed
# the limit; /metadata says the limit and each /rank{N} when it passed it
# (trace_limit_passed_ns), no row ends after that time, the rows hold at
# least the limit's bytes of records and at most one stretch of the
# buffer (64 KiB here) beyond, every region counts its calls exactly, rows
# and folded_calls adding up to them, and scope summary counts them all.
# A limit the run does not reach changes nothing and says nothing; a bad
# limit is a config error (scope.conf:LINE:) or one SCOPE_TRACE_LIMIT line.
# usage: trace_limit.sh   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-limit-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }
steps=2000

printf '[functions]\nouter\ntiny\nwait_us\n' >calls.conf
printf '[output]\ntrace_limit = 32K\n[functions]\nouter\ntiny\nwait_us\n' >limit.conf
printf '[output]\ntrace_limit = 1G\n[functions]\nouter\ntiny\nwait_us\n' >far.conf
$MPIRUN -n 2 "$SCOPE_CLI" run -c limit.conf -o limit.h5 -- "$PROGRAM" $steps >/dev/null \
    2>err.txt || fail "run with trace_limit"
for rank in 0 1; do
    [ "$(grep -c "^scope: rank $rank passed trace_limit (32768 bytes of records) [0-9.]* s into \
the run: its later calls are counted in its regions' statistics (folded_calls), not stored$" \
        err.txt)" -eq 1 ] || fail "rank $rank did not say once that it passed trace_limit"
done
SCOPE_TRACE_LIMIT=32K $MPIRUN -n 1 "$SCOPE_CLI" run -c calls.conf -o env.h5 -- "$PROGRAM" \
    $steps >/dev/null 2>err.txt || fail "run with SCOPE_TRACE_LIMIT"
grep -q "^scope: rank 0 passed trace_limit (32768 bytes" err.txt || fail "SCOPE_TRACE_LIMIT"
$MPIRUN -n 2 "$SCOPE_CLI" run -c far.conf -o far.h5 -- "$PROGRAM" $steps >/dev/null \
    2>err.txt || fail "run with a limit not reached"
! grep -q "trace_limit" err.txt || fail "a limit not reached was said to be passed"

for f in limit env far; do
    "$SCOPE_CLI" summary $f.h5 --format json >$f.json 2>err.txt || fail "scope summary $f.h5"
done

"$PYTHON" - $steps <<'PY' || fail "the file of a rank that passed trace_limit"
import json, sys
import h5py
n = int(sys.argv[1])
expect = {"outer": n, "tiny": 50 * n, "wait_us": (n + 3) // 4}
for name, ranks, passed in (("limit", 2, True), ("env", 1, True), ("far", 2, False)):
    got = {r["region"]: r for r in json.load(open(name + ".json"))["regions"]}
    for region, calls in expect.items():
        assert got[region]["calls"] == ranks * calls, (name, region, got[region]["calls"])
    f = h5py.File(name + ".h5", "r")
    assert f["metadata"].attrs["trace_limit_bytes"] == (32768 if passed else 1 << 30)
    for rank in range(ranks):
        r = f[f"rank{rank}"]
        assert ("trace_limit_passed_ns" in r.attrs) == passed, (name, rank, dict(r.attrs))
        stored = 0
        for region, calls in expect.items():
            g = r["regions"][region]
            kept, folded = len(g["start_times"]), int(g.attrs["folded_calls"])
            assert g.attrs["calls"] == calls and kept + folded == calls, (name, region, kept, folded)
            assert passed or folded == 0, (name, region, folded)
            if passed and kept:
                assert g["end_times"][:].max() <= r.attrs["trace_limit_passed_ns"], (name, region)
            stored += kept
        if passed:
            # 16 bytes a record; the limit is checked as a buffer's stretch (64 KiB) fills
            assert 32768 <= 16 * stored <= 32768 + 65536 + 16, (name, rank, stored)
print("trace_limit: ok")
PY

printf '[output]\ntrace_limit = 1X\n[functions]\nouter\n' >bad.conf
"$SCOPE_CLI" run -c bad.conf -o bad.h5 -- "$PROGRAM" 10 >/dev/null 2>err.txt ||
    fail "the program failed with a bad trace_limit"
grep -q "^scope: .*bad.conf:2: bad size '1X' for 'trace_limit'" err.txt ||
    fail "a bad trace_limit is not a config error"
SCOPE_TRACE_LIMIT=big "$SCOPE_CLI" run -c calls.conf -o bad.h5 -- "$PROGRAM" 10 >/dev/null \
    2>err.txt || fail "the program failed with a bad SCOPE_TRACE_LIMIT"
[ "$(grep -c '^scope:' err.txt)" -eq 1 ] && grep -q "^scope: SCOPE_TRACE_LIMIT: bad size 'big'" \
    err.txt || fail "a bad SCOPE_TRACE_LIMIT is not one line"
[ ! -e bad.h5 ] || fail "a file was written with a bad trace_limit"
echo "trace_limit: ok"
