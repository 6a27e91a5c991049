#!/bin/bash
# bench_reader.sh: the reader on a 10 M-event, 4-rank file (profiled from
# many_calls under mpirun): `scope summary` and `scope events --format csv`
# against an h5py + numpy script computing the same per-region summary and
# CSV, alternated in one run. Targets (DESIGN.md section 8, issue 6):
# summary <= 1 s, >= 10x faster than the script. `scope summary` reads the
# statistics the writer stored; `summary --recompute` (derived from the
# calls, as the script does) is timed too.
# usage: bench_reader.sh MPIRUN_CMD PROGRAM SCOPE_CLI PYTHON
set -euo pipefail
mpirun=$1 program=$2 scope=$3 python=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-reader-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
# shellcheck disable=SC2086  # the launcher command carries its options
$mpirun -n 4 "$scope" run -f work -- "$program" 2500000 >/dev/null 2>&1
cat >summary.py <<'PY'
"""The same summary with h5py + numpy: per region calls, total, mean, std, min, max."""
import sys
import h5py
import numpy as np
durations = {}
with h5py.File(sys.argv[1]) as f:
    for rank in (k for k in f if k != "metadata"):
        for name, g in f[rank]["regions"].items():
            d = (g["end_times"][:] - g["start_times"][:]) / 1e9
            durations.setdefault(name, []).append(d)
for name, parts in durations.items():
    d = np.concatenate(parts)
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
time_of() {   # seconds of one run of the command
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
rounds=3
for _ in $(seq $rounds); do
    time_of "$scope" summary profiling_data.h5 >>scope_summary
    time_of "$scope" summary --recompute profiling_data.h5 >>scope_recompute
    time_of "$python" summary.py profiling_data.h5 >>py_summary
    time_of "$scope" events profiling_data.h5 --format csv >>scope_events
    time_of "$python" events.py profiling_data.h5 >>py_events
done
s1=$(median <scope_summary) p1=$(median <py_summary) s2=$(median <scope_events) p2=$(median <py_events)
s3=$(median <scope_recompute)
printf '%-28s %10s %14s %8s\n' task "scope s" "h5py+numpy s" ratio
printf '%-28s %10.3f %14.3f %7.1fx\n' "summary (10 M events)" "$s1" "$p1" "$(echo "$p1 / $s1" | bc -l)"
printf '%-28s %10.3f %14.3f %7.1fx\n' "summary --recompute" "$s3" "$p1" "$(echo "$p1 / $s3" | bc -l)"
printf '%-28s %10.3f %14.3f %7.1fx\n' "events --format csv" "$s2" "$p2" "$(echo "$p2 / $s2" | bc -l)"
echo "RESULT reader summary_s=$s1 recompute_s=$s3 summary_script_s=$p1 events_csv_s=$s2 events_script_s=$p2"
