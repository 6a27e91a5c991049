#!/bin/bash
# profile_mode.sh: profile mode ([output] mode = profile, scope run --mode,
# SCOPE_MODE) on profile_calls, whose calls and nesting are known, under
# mpirun -n 2: every region's calls equal those of a trace run exactly; on
# 1 rank, best of three runs, its shortest call close to the trace run's;
# each histogram's first and last bins those of its min and max, its most
# common bin that of the trace's calls (+-1); each call path's total minus
# its self time its child paths' total; plot --kind durations draws the
# histograms (every call of both ranks), scope info says the profile has no
# thread ids; the documented layout (h5py: empty
# start_times, the histogram and the call paths adding up to the calls,
# each path's parent the path of its caller); scope tree lists the paths
# with their calls, the folded stacks and the flame graph have them, scope
# diff compares with the trace; damaged paths are one line; the same run on
# pretend nodes of one rank each counts the same; a run 10 times as long
# counts 10 times the calls in a file whose size is within 10 %; per-call
# commands say in one line that the file is a profile and fail; a bad mode
# is a config error.
# usage: profile_mode.sh   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-profile-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }
steps=2000

printf '[functions]\nouter\nmiddle\nleaf\ndescend\n' >calls.conf
printf '[output]\nmode = profile\n[functions]\nouter\nmiddle\nleaf\ndescend\n' >profile.conf
$MPIRUN -n 2 "$SCOPE_CLI" run -c calls.conf -o trace.h5 -- "$PROGRAM" $steps >/dev/null 2>err.txt ||
    fail "trace run"
$MPIRUN -n 2 "$SCOPE_CLI" run --mode profile -c calls.conf -o profile.h5 -- "$PROGRAM" $steps \
    >/dev/null 2>err.txt || fail "profile run (--mode)"
line=$(grep "^scope: wrote profile.h5 (a profile, 2 ranks): " err.txt) || fail "no profile written"
# the closing line gives the file's size (under 1 MiB: KiB, one decimal) and the seconds taken
kib=$(stat -c %s profile.h5 | awk '{printf "%.1f KiB", $1 / 1024}')
case $line in
*": $kib in "[0-9]*.[0-9][0-9]" s") ;;
*) fail "closing line without the file's size ($kib) and seconds: $line" ;;
esac
SCOPE_MODE=profile $MPIRUN -n 2 "$SCOPE_CLI" run -c calls.conf -o long.h5 -- "$PROGRAM" \
    $((10 * steps)) >/dev/null 2>err.txt || fail "profile run (SCOPE_MODE)"
SCOPE_TEST_RANKS_PER_NODE=1 $MPIRUN -n 2 "$SCOPE_CLI" run -c profile.conf -o nodes.h5 -- \
    "$PROGRAM" $steps >/dev/null 2>err.txt || fail "profile run ([output] mode) on two nodes"
[ -f nodes.h5.d/node1.h5 ] || fail "no node file"
# times on 1 rank (no peer spinning in MPI beside it), trace and profile
# runs taking turns three times: the machine's load varies from run to run
for turn in 1 2 3; do
    for mode in trace profile; do
        $MPIRUN -n 1 "$SCOPE_CLI" run --mode $mode -c calls.conf -o $mode-$turn.h5 -- "$PROGRAM" \
            $steps >/dev/null 2>err.txt || fail "$mode run on 1 rank"
    done
done

for f in trace profile long nodes trace-{1,2,3} profile-{1,2,3}; do
    "$SCOPE_CLI" summary $f.h5 --format json >$f.json 2>err.txt || fail "scope summary $f.h5"
done
"$SCOPE_CLI" imbalance profile.h5 >/dev/null 2>err.txt || fail "scope imbalance"
"$SCOPE_CLI" info profile.h5 | grep -q "^mode *profile$" || fail "scope info: no mode"

"$PYTHON" - $steps <<'PY' || fail "profile numbers against the trace run"
import json, sys
n = int(sys.argv[1])
def rows(name):
    return {r["region"]: r for r in json.load(open(name + ".json"))["regions"]}
trace, profile, nodes, long = (rows(x) for x in ("trace", "profile", "nodes", "long"))
expect = {"outer": 2 * n, "middle": 4 * n, "leaf": 14 * n, "descend": 2 * 4 * ((n + 9) // 10)}
for region, calls in expect.items():
    for name, got in (("trace", trace), ("profile", profile), ("nodes", nodes)):
        assert got[region]["calls"] == calls, (name, region, got[region]["calls"], calls)
    assert long[region]["calls"] == 10 * calls, (region, long[region]["calls"])
# on 1 rank, the best of three runs of each mode. Measured here, with the
# load of other jobs: a run's speed depends on the core it lands on (the
# same leaf takes 0.60 or 0.80 us), and totals vary 4-fold from run to run
# in either mode (preempted time counts). So the shortest leaf call is
# compared within 40 %, the shortest outer and middle calls in leaf calls
# (7 and 3 of them, and the hooks) within 15 %, totals within 50 % only
# for the best of three, and the histogram below against the trace's calls
def best(mode):
    runs = [rows(f"{mode}-{turn}") for turn in (1, 2, 3)]
    return {r: {c: min(run[r][c] for run in runs) for c in ("min", "total", "self")}
            for r in runs[0]}
trace, profile = best("trace"), best("profile")
for mode in (trace, profile):
    for region in ("outer", "middle"):
        mode[region]["in_leaves"] = mode[region]["min"] / mode["leaf"]["min"]
for region, column, within in (("leaf", "min", 0.4), ("outer", "in_leaves", 0.15),
                               ("middle", "in_leaves", 0.15)):
    t, p = trace[region][column], profile[region][column]
    assert abs(p - t) <= within * t, (region, column, t, p)
assert profile["leaf"]["self"] == profile["leaf"]["total"]
assert profile["outer"]["self"] < 0.2 * profile["outer"]["total"]
print("ok: calls exact; profile / trace (best of 3):", ", ".join(
    f'{r} min {profile[r]["min"] / trace[r]["min"]:.2f} total {profile[r]["total"] / trace[r]["total"]:.2f}'
    for r in ("outer", "middle", "leaf")))
PY

"$SCOPE_CLI" events trace.h5 --format csv >events.csv 2>err.txt || fail "scope events trace.h5"
"$PYTHON" - <<'PY' || fail "histogram against the trace's calls"
import csv, h5py, math
from collections import Counter
trace = {}
for row in csv.DictReader(open("events.csv")):
    ns = round(float(row["duration"]) * 1e9)
    trace.setdefault(row["name"], Counter())[int(math.log2(ns)) if ns > 1 else 0] += 1
def bin_of(ns):
    return int(math.log2(ns)) if ns > 1 else 0
with h5py.File("profile.h5") as f:
    for region in ("outer", "middle", "leaf"):
        for r in ("rank0", "rank1"):
            g = f[r]["regions"][region]
            used = [i for i, c in enumerate(g["duration_histogram"][:]) if c]
            assert used[0] == bin_of(g.attrs["min_ns"]) and used[-1] == bin_of(g.attrs["max_ns"]), \
                (region, r, used, g.attrs["min_ns"], g.attrs["max_ns"])
        hist = sum(f[r]["regions"][region]["duration_histogram"][:] for r in ("rank0", "rank1"))
        mode = max(range(64), key=lambda i: hist[i])
        # another run: on another core, a duration near a power of two may fall on either side
        assert abs(mode - trace[region].most_common(1)[0][0]) <= 1, (region, list(hist), trace[region])
print("ok: each histogram spans the bins of its min and max; its most common bin is the trace's, +-1")
PY

"$PYTHON" - $steps <<'PY' || fail "profile layout"
import h5py, os, sys
n = int(sys.argv[1])
small, large = os.path.getsize("profile.h5"), os.path.getsize("long.h5")
assert abs(large - small) <= 0.1 * small, (small, large)
with h5py.File("profile.h5") as f:
    assert f["metadata"].attrs["mode"] == "profile"
    for r in ("rank0", "rank1"):
        parents = f[r]["callpath_parents"][:]
        region_of, calls_of = {}, {}
        for name, g in f[r]["regions"].items():
            assert len(g["start_times"]) == 0 and len(g["end_times"]) == 0
            calls = int(g.attrs["calls"])
            assert int(g["duration_histogram"][:].sum()) == calls, name
            assert len(g["duration_histogram"]) == 64
            assert int(g["path_calls"][:].sum()) + int(g.attrs["pathless_calls"]) == calls, name
            assert int(g["path_self_ns"][:].sum()) <= int(g.attrs["self_ns"]) + 1
            for p, c in zip(g["path_ids"][:], g["path_calls"][:]):
                region_of[int(p)], calls_of[int(p)] = name, int(c)
        def chain(p):
            return chain(int(parents[p])) + [region_of[p]] if p >= 0 else []
        paths = {"/".join(chain(p)): c for p, c in calls_of.items()}
        # a path's total minus its self time is its child paths' total
        total_of, self_of = {}, {}
        for g in f[r]["regions"].values():
            for p, t, s in zip(g["path_ids"][:], g["path_total_ns"][:], g["path_self_ns"][:]):
                total_of[int(p)], self_of[int(p)] = int(t), int(s)
        for p in total_of:
            children = sum(total_of[c] for c in total_of if int(parents[c]) == p)
            assert abs(total_of[p] - self_of[p] - children) <= 4, (r, p, region_of[p])
        want = {"outer": n, "outer/middle": 2 * n, "outer/middle/leaf": 6 * n,
                "outer/leaf": n}
        steps10 = (n + 9) // 10
        for depth in range(1, 5):
            want["/".join(["descend"] * depth)] = steps10
        assert paths == want, (r, paths)
print(f"ok: layout; {small} bytes for {n} steps, {large} for {10 * n}")
PY

# the call paths: scope tree, folded stacks, the flame graph; scope diff
"$SCOPE_CLI" tree profile.h5 --rank 1 --format csv >tree.csv 2>err.txt || fail "scope tree"
"$SCOPE_CLI" export profile.h5 --to folded -o folded.txt 2>err.txt || fail "folded export"
"$SCOPE_CLI" plot profile.h5 --kind flame -o flame.svg 2>err.txt || fail "flame graph"
grep -q "outer;middle;leaf" flame.svg || fail "flame graph without the paths"
"$SCOPE_CLI" plot profile.h5 --kind durations -o durations.svg 2>err.txt || fail "durations plot"
"$SCOPE_CLI" info profile.h5 | grep -q "^thread_ids *no$" || fail "scope info: thread ids"
"$PYTHON" - $steps <<'PY' || fail "the durations plot of a profile is not its histograms"
import re, sys
n = int(sys.argv[1])
svg = open("durations.svg").read()
assert "Calls by duration (log2 bins)" in svg
calls = {}
for region, count in re.findall(r"<title>(\w+): (\d+) calls of ", svg):
    calls[region] = calls.get(region, 0) + int(count)
# both ranks' calls, every bin drawn
assert calls == {"outer": 2 * n, "middle": 4 * n, "leaf": 14 * n,
                 "descend": 2 * 4 * ((n + 9) // 10)}, calls
print("ok: the durations plot draws the stored histograms")
PY
"$SCOPE_CLI" diff trace.h5 profile.h5 --format csv >diff.csv 2>err.txt || fail "scope diff"
[ "$(grep -c ',both$' diff.csv)" -eq 4 ] || fail "scope diff: $(cat diff.csv)"
"$PYTHON" - $steps <<'PY' || fail "call paths of scope tree and the folded stacks"
import csv, sys
n = int(sys.argv[1])
t = (n + 9) // 10
rows = [(r["path"].strip(), int(r["calls"]), int(r["depth"])) for r in csv.DictReader(open("tree.csv"))]
assert rows == [("outer", n, 0), ("middle", 2 * n, 1), ("leaf", 6 * n, 2), ("leaf", n, 1),
                ("descend", t, 0), ("descend", t, 1), ("descend", t, 2), ("descend", t, 3)], rows
stacks = {}
for line in open("folded.txt"):
    stack, value = line.rsplit(" ", 1)
    stacks[stack] = int(value)
assert sorted(stacks) == sorted(["outer", "outer;middle", "outer;middle;leaf", "outer;leaf",
                                 "descend", "descend;descend", "descend;descend;descend",
                                 "descend;descend;descend;descend"]), stacks
assert stacks["outer;middle;leaf"] > stacks["outer;middle"]
print("ok: call paths in scope tree and the folded stacks")
PY

for cmd in "events" "plot --kind gantt -o gantt.svg" "export --to chrome -o trace.json" "comm" \
           "sizes" "plot --kind comm -o comm.svg"; do
    if "$SCOPE_CLI" $cmd profile.h5 >out.txt 2>err.txt; then fail "scope $cmd succeeded on a profile"; fi
    [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "^scope: profile.h5: a profile (mode = profile)" err.txt ||
        fail "scope $cmd: $(cat err.txt)"
done

# damaged call paths: one clear line, no crash
"$PYTHON" - <<'PY' || fail "could not damage a copy"
import h5py, shutil
shutil.copy("profile.h5", "damaged.h5")
with h5py.File("damaged.h5", "r+") as f:
    f["rank0/callpath_parents"][0] = 3
PY
if "$SCOPE_CLI" tree damaged.h5 >out.txt 2>err.txt; then fail "scope tree read damaged paths"; fi
grep -qx "scope: damaged.h5: rank0: callpath_parents\[0\] is not an earlier path" err.txt ||
    fail "damaged paths: $(cat err.txt)"

printf '[output]\nmode = quick\n[functions]\nouter\n' >bad.conf
$MPIRUN -n 1 "$SCOPE_CLI" run -c bad.conf -o bad.h5 -- "$PROGRAM" 10 >/dev/null 2>err.txt ||
    fail "the program failed with a bad mode"
grep -q "bad.conf:2: bad mode 'quick' (expected trace or profile)" err.txt || fail "bad mode not said"
[ ! -e bad.h5 ] || fail "a file written with a bad config"
echo "ok: profile mode"
