#!/bin/bash
# bench_reader.sh: the reader on three files, each command against an h5py
# + numpy script computing the same, alternated in one run:
# - a 10 M-event, 4-rank file profiled from many_calls under mpirun:
#   `scope summary` (the statistics the writer stored), `summary
#   --recompute` (from the calls, as the script does) and `scope events
#   --format csv`; targets: summary <= 1 s, >= 10x faster than the script;
# - a 10 M-event file written by h5py as a Python tool would
#   (make_h5py_profile.py: 4 ranks of 8 nested regions, shuffle + gzip, no
#   statistics): `scope summary` against a bare script (calls, total, mean,
#   std, min, max per region) and the self-time script; target: <= 0.6 x the
#   bare script;
# - 1 024 ranks x 20 regions written by libscope-writer (make_many_ranks):
#   `scope summary`, target <= 2 s;
# and `scope info` on each (target <= 0.1 s); and on 1 024 ranks x 8
# regions written by h5py, which has no index or statistics: there info
# opens every region's group and start_times, and H5_WALK_FLOOR says what
# libhdf5 alone takes for that walk. With BEFORE_CLI, an older scope is
# timed in the same rounds, for before/after figures.
# usage: bench_reader.sh MPIRUN_CMD PROGRAM SCOPE_CLI PYTHON MAKE_MANY_RANKS H5_WALK_FLOOR [BEFORE_CLI]
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"
mpirun=$1 program=$2 scope=$3 python=$4 make_many_ranks=$5 h5_walk_floor=$6 before=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-reader-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
# shellcheck disable=SC2086  # the launcher command carries its options
$mpirun -n 4 "$scope" run -f work -- "$program" 2500000 >/dev/null 2>&1
"$python" "$here/make_h5py_profile.py" h5py.h5
"$make_many_ranks" ranks.h5 1024 20
"$python" "$here/make_h5py_profile.py" h5py_ranks.h5 200000 1024
cat >summary.py <<'PY'
"""The same summary with h5py + numpy: per region calls, total, mean, std,
min, max and self time (the duration minus that of the direct children,
nesting from containment per rank and thread); per region and rank calls,
total and self; imbalance (max/min, max/mean of the per-rank totals)."""
import sys
import h5py
import numpy as np

def self_times(start, end, thread):
    """Each call's duration minus its direct children's, in input order."""
    order = np.lexsort((-end, start, thread))
    s, e, t = start[order], end[order], thread[order]
    dur = (e - s).astype(np.float64)
    depth = np.empty(len(s), np.int64)
    for lo, hi in zip(*thread_bounds(t)):   # open calls at each start
        depth[lo:hi] = np.arange(hi - lo) - np.searchsorted(np.sort(e[lo:hi]), s[lo:hi], "right")
    nested = np.zeros(len(s))
    for d in range(1, depth.max() + 1 if len(s) else 0):
        child = np.flatnonzero(depth == d)
        parents = np.flatnonzero(depth == d - 1)
        parent = parents[np.searchsorted(parents, child) - 1]
        nested += np.bincount(parent, weights=dur[child], minlength=len(s))
    result = np.empty(len(s))
    result[order] = dur - nested
    return result

def thread_bounds(t):
    cut = np.flatnonzero(np.diff(t)) + 1
    return np.r_[0, cut], np.r_[cut, len(t)]

per_rank = {}   # (name, rank) -> (durations ns, self ns)
with h5py.File(sys.argv[1]) as f:
    for rank in (k for k in f if k != "metadata"):
        names, starts, ends, threads = [], [], [], []
        for name, g in f[rank]["regions"].items():
            s, e = g["start_times"][:], g["end_times"][:]
            tid = g["thread_ids"][:] if "thread_ids" in g else np.zeros(len(s), np.int64)
            names.append(name), starts.append(s), ends.append(e), threads.append(tid)
        own = self_times(np.concatenate(starts), np.concatenate(ends), np.concatenate(threads))
        at = 0
        for name, s, e in zip(names, starts, ends):
            per_rank[name, int(rank[4:])] = (e - s, own[at:at + len(s)])
            at += len(s)
regions = sorted({name for name, _ in per_rank})
ranks = sorted({rank for _, rank in per_rank})
for name in regions:
    parts = [per_rank[name, r] for r in ranks if (name, r) in per_rank]
    d = np.concatenate([p[0] for p in parts]) / 1e9
    own = sum(p[1].sum() for p in parts) / 1e9
    print(name, len(d), d.sum(), d.mean(), d.std(ddof=1), d.min(), d.max(), own)
for (name, rank), (d, own) in sorted(per_rank.items()):
    print(name, rank, len(d), d.sum() / 1e9, own.sum() / 1e9)
for name in regions:
    totals = np.array([per_rank[name, r][0].sum() / 1e9 if (name, r) in per_rank else 0.0 for r in ranks])
    print(name, totals.max() / totals.min(), totals.max() / totals.mean())
PY
cat >bare.py <<'PY'
"""The bare statistics with h5py + numpy: per region calls, total, mean,
std, min and max over all ranks (no self time)."""
import sys
import h5py
import numpy as np
durations = {}
with h5py.File(sys.argv[1]) as f:
    for rank in (k for k in f if k != "metadata"):
        for name, g in f[rank]["regions"].items():
            durations.setdefault(name, []).append(g["end_times"][:] - g["start_times"][:])
for name, parts in durations.items():
    d = np.concatenate(parts) / 1e9
    print(name, len(d), d.sum(), d.mean(), d.std(ddof=1), d.min(), d.max())
PY
cat >events.py <<'PY'
"""The same events CSV with h5py + numpy."""
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1]) as f:
    origin = f["metadata"].attrs["run_start_time"]
    out = sys.stdout
    out.write("name,rank,call_index,start,end,duration\n")
    for rank in sorted((k for k in f if k != "metadata"), key=lambda k: int(k[4:])):
        for name, g in f[rank]["regions"].items():
            s, e = g["start_times"][:], g["end_times"][:]
            table = np.column_stack([np.arange(len(s)), (s - origin) / 1e9, (e - origin) / 1e9, (e - s) / 1e9])
            np.savetxt(out, table, fmt=[f"{name},{rank[4:]},%d", "%.9f", "%.9f", "%.9f"], delimiter=",")
PY
cat >same.py <<'PY'
"""The script and scope agree on each region's calls, total and self time."""
import csv
import sys
scope = {row["region"]: row for row in csv.DictReader(open(sys.argv[1])) if "calls" in row}
for line in open(sys.argv[2]):
    fields = line.rsplit(" ", 7)
    if len(fields) < 8 or fields[0] not in scope:
        continue   # the per-rank and imbalance lines
    name, calls, total, _mean, _std, _min, _max, own = fields
    row = scope.pop(name)
    for mine, theirs in ((int(calls), int(row["calls"])), (float(total), float(row["total"])),
                         (float(own), float(row["self"]))):
        if abs(mine - theirs) > 1e-6 * max(1.0, abs(theirs)):
            sys.exit(f"bench_reader: {name}: script {mine} but scope {theirs}")
if scope:
    sys.exit(f"bench_reader: regions the script did not see: {sorted(scope)}")
PY
time_of() {   # seconds of one run of the command
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
rounds=3
clis=("$scope")
[ -n "$before" ] && clis+=("$before")
for _ in $(seq $rounds); do
    time_of "$scope" summary profiling_data.h5 >>scope_summary
    time_of "$scope" summary --recompute profiling_data.h5 >>scope_recompute
    time_of "$python" summary.py profiling_data.h5 >>py_summary
    time_of "$scope" events profiling_data.h5 --format csv >>scope_events
    time_of "$python" events.py profiling_data.h5 >>py_events
    for k in "${!clis[@]}"; do
        time_of "${clis[$k]}" info profiling_data.h5 >>"info_scope_$k"
        time_of "${clis[$k]}" info h5py.h5 >>"info_h5py_$k"
        time_of "${clis[$k]}" info ranks.h5 >>"info_ranks_$k"
        time_of "${clis[$k]}" info h5py_ranks.h5 2>/dev/null >>"info_h5py_ranks_$k"
        time_of "${clis[$k]}" summary h5py.h5 >>"summary_h5py_$k"
        time_of "${clis[$k]}" summary ranks.h5 >>"summary_ranks_$k"
    done
    time_of "$python" bare.py h5py.h5 >>py_bare_h5py
    time_of "$python" summary.py h5py.h5 >>py_summary_h5py
    "$h5_walk_floor" h5py_ranks.h5 >>floor
done
for file in profiling_data h5py; do
    "$scope" summary $file.h5 --format csv | sed -n '/^# per_rank/q;p' >scope.csv
    "$python" summary.py $file.h5 >script.txt
    "$python" same.py scope.csv script.txt
done
s1=$(median <scope_summary) p1=$(median <py_summary) s2=$(median <scope_events) p2=$(median <py_events)
s3=$(median <scope_recompute)
printf '%-28s %10s %14s %8s\n' task "scope s" "h5py+numpy s" ratio
printf '%-28s %10.3f %14.3f %7.1fx\n' "summary (10 M events)" "$s1" "$p1" "$(echo "$p1 / $s1" | bc -l)"
printf '%-28s %10.3f %14.3f %7.1fx\n' "summary --recompute" "$s3" "$p1" "$(echo "$p1 / $s3" | bc -l)"
printf '%-28s %10.3f %14.3f %7.1fx\n' "events --format csv" "$s2" "$p2" "$(echo "$p2 / $s2" | bc -l)"
echo "RESULT reader summary_s=$s1 recompute_s=$s3 summary_script_s=$p1 events_csv_s=$s2 events_script_s=$p2"
bare=$(median <py_bare_h5py) selfpy=$(median <py_summary_h5py)
echo
printf '%-40s %10s %10s\n' "scope (targets)" "s" "before s"
for k in "${!clis[@]}"; do
    for m in info_scope info_h5py info_ranks info_h5py_ranks summary_h5py summary_ranks; do
        eval "${m}_$k=$(median <"${m}_$k")"
    done
done
row() {   # label, key
    local now before_s=-
    now=$(eval echo "\$${2}_0")
    [ -n "$before" ] && before_s=$(printf '%.3f' "$(eval echo "\$${2}_1")")
    printf '%-40s %10.3f %10s\n' "$1" "$now" "$before_s"
}
row "info, scope's 10 M file (<= 0.1 s)" info_scope
row "info, h5py's 10 M file (<= 0.1 s)" info_h5py
row "info, 1 024 x 20 (<= 0.1 s)" info_ranks
row "info, h5py's 1 024 x 8 (<= 0.1 s)" info_h5py_ranks
floor_of() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" floor | median; }
floor_names=$(floor_of names_s) floor_groups=$(floor_of groups_s) floor_datasets=$(floor_of datasets_s)
printf '  libhdf5 alone on that file: names %.3f s, + groups %.3f s, + start_times %.3f s\n' \
    "$floor_names" "$floor_groups" "$floor_datasets"
row "summary, h5py's 10 M file" summary_h5py
row "summary, 1 024 x 20 (<= 2 s)" summary_ranks
printf '%-40s %10.3f\n' "h5py+numpy bare statistics, h5py's file" "$bare"
printf '%-40s %10.3f\n' "h5py+numpy with self time, h5py's file" "$selfpy"
ratio=$(echo "$summary_h5py_0 / $bare" | bc -l)
printf 'summary of h5py'"'"'s file / bare script: %.2f (target <= 0.6)' "$ratio"
[ -n "$before" ] && printf ', before %.2f' "$(echo "$summary_h5py_1 / $bare" | bc -l)"
echo
echo "RESULT reader-scale info_scope_s=$info_scope_0 info_h5py_s=$info_h5py_0 info_ranks_s=$info_ranks_0 info_h5py_ranks_s=$info_h5py_ranks_0 floor_names_s=$floor_names floor_groups_s=$floor_groups floor_datasets_s=$floor_datasets summary_h5py_s=$summary_h5py_0 bare_script_s=$bare self_script_s=$selfpy summary_ranks_s=$summary_ranks_0"
