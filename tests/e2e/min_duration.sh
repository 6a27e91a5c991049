#!/bin/bash
# min_duration.sh: trace mode's folding ([output] min_duration,
# SCOPE_MIN_DURATION) on fold_calls, whose calls are known: N outer() calls
# per rank, each of 50 tiny() calls (tens of ns) and, every fourth, one
# wait_us(60) (60 us at least), under mpirun -n 2 with min_duration = 20us.
# Every region counts its calls exactly (as a run without min_duration
# does), its rows and folded_calls add up to them, every wait_us() and the
# outer() calls holding one are rows, the tiny() calls folded (but those a
# preemption made long); each region's total holds its rows' durations and
# at most 20 us per folded call; outer()'s self time is its total less the
# totals of tiny() and wait_us(), folded or not; /metadata says the
# threshold; scope summary counts every call, per rank too; scope events
# lists the rows only; SCOPE_MIN_DURATION does what the config does; a bad
# duration is a config error (scope.conf:LINE:) or one SCOPE_MIN_DURATION
# line.
# usage: min_duration.sh   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-fold-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }
steps=2000

printf '[functions]\nouter\ntiny\nwait_us\n' >calls.conf
printf '[output]\nmin_duration = 20us\n[functions]\nouter\ntiny\nwait_us\n' >fold.conf
$MPIRUN -n 2 "$SCOPE_CLI" run -c calls.conf -o trace.h5 -- "$PROGRAM" $steps >/dev/null \
    2>err.txt || fail "trace run"
$MPIRUN -n 2 "$SCOPE_CLI" run -c fold.conf -o fold.h5 -- "$PROGRAM" $steps >/dev/null \
    2>err.txt || fail "run with min_duration"
grep -q "^scope: wrote fold.h5 ([0-9]* calls stored, the others folded into statistics, 2 ranks): " \
    err.txt || fail "no file written, or not said so"
SCOPE_MIN_DURATION=20us $MPIRUN -n 1 "$SCOPE_CLI" run -c calls.conf -o env.h5 -- "$PROGRAM" \
    $steps >/dev/null 2>err.txt || fail "run with SCOPE_MIN_DURATION"

for f in trace fold env; do
    "$SCOPE_CLI" summary $f.h5 --format json >$f.json 2>err.txt || fail "scope summary $f.h5"
done
"$SCOPE_CLI" summary fold.h5 >summary.txt 2>err.txt || fail "scope summary (text)"
"$SCOPE_CLI" events fold.h5 --format csv >events.csv 2>err.txt || fail "scope events"

"$PYTHON" - $steps <<'PY' || fail "folded numbers"
import csv, json, sys
import h5py
n = int(sys.argv[1])
expect = {"outer": n, "tiny": 50 * n, "wait_us": (n + 3) // 4}
def rows(name):
    return {r["region"]: r for r in json.load(open(name + ".json"))["regions"]}
for name, ranks in (("trace", 2), ("fold", 2), ("env", 1)):
    got = rows(name)
    for region, calls in expect.items():
        assert got[region]["calls"] == ranks * calls, (name, region, got[region]["calls"])
threshold = 20000
stored = 0
for name, ranks in (("fold", 2), ("env", 1)):
    f = h5py.File(name + ".h5", "r")
    assert f["metadata"].attrs["min_duration_ns"] == threshold, dict(f["metadata"].attrs)
    for rank in range(ranks):
        regions = f[f"rank{rank}/regions"]
        total = {}
        for region, calls in expect.items():
            g = regions[region]
            a = g.attrs
            start, end = g["start_times"][:], g["end_times"][:]
            kept, folded = len(start), int(a["folded_calls"])
            assert a["calls"] == calls and kept + folded == calls, (region, a["calls"], kept, folded)
            durations = end - start
            # a row is a call at least 20 us long (ticks to ns may round by 1 ns)
            assert kept == 0 or durations.min() >= threshold - 1, (region, durations.min())
            rest = int(a["total_ns"]) - int(durations.sum())
            assert 0 <= rest <= folded * threshold, (region, rest, folded)
            total[region] = int(a["total_ns"])
            if name == "fold":
                stored += kept
        assert len(regions["wait_us"]["start_times"]) == expect["wait_us"]
        assert regions["wait_us"].attrs["folded_calls"] == 0
        # outer() holding a wait_us() is kept; the others only when preempted
        assert expect["wait_us"] <= len(regions["outer"]["start_times"]) <= expect["wait_us"] + n // 20
        assert len(regions["tiny"]["start_times"]) <= n // 2, len(regions["tiny"]["start_times"])
        # self times in ticks, totals in ns: 1 ns a call at most apart
        self_outer = int(regions["outer"].attrs["self_ns"])
        children = total["tiny"] + total["wait_us"]
        assert abs(self_outer + children - total["outer"]) <= 2 * (n + 50 * n), \
            (self_outer, children, total["outer"])
        assert self_outer < total["outer"] - children + n, "folded children not subtracted"
with open("events.csv") as fh:
    events = list(csv.DictReader(fh))
assert len(events) == stored, (len(events), stored)
print(f"fold: {stored} rows stored of {2 * sum(expect.values())} calls")
PY
grep -q "^tiny  *$((100 * steps)) " summary.txt || fail "summary does not count every tiny() call"
grep -q "^tiny  *1  *$((50 * steps)) " summary.txt || fail "per_rank does not count every call"

# a bad duration: a config error naming its line, or one SCOPE_MIN_DURATION line
for bad in 20 2xs -1us 0us; do
    printf '[output]\nmin_duration = %s\n[functions]\nouter\n' "$bad" >bad.conf
    "$SCOPE_CLI" run -c bad.conf -o bad.h5 -- "$PROGRAM" 10 >/dev/null 2>err.txt ||
        fail "the program failed with min_duration = $bad"
    grep -q "^scope: .*bad.conf:2: bad duration '$bad' for 'min_duration'" err.txt ||
        fail "min_duration = $bad is not a config error"
    [ ! -e bad.h5 ] || fail "a file was written with min_duration = $bad"
done
SCOPE_MIN_DURATION=fast "$SCOPE_CLI" run -c calls.conf -o bad.h5 -- "$PROGRAM" 10 >/dev/null \
    2>err.txt || fail "the program failed with a bad SCOPE_MIN_DURATION"
[ "$(grep -c '^scope:' err.txt)" -eq 1 ] && grep -q "^scope: SCOPE_MIN_DURATION: bad duration 'fast'" \
    err.txt || fail "a bad SCOPE_MIN_DURATION is not one line"
[ ! -e bad.h5 ] || fail "a file was written with a bad SCOPE_MIN_DURATION"
echo "min_duration: ok"
