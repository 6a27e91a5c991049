#!/bin/bash
# bench_finalize.sh: how long MPI_Finalize takes with scope (clock sync,
# every rank reading back and encoding its own calls, each node's writer
# placing them) as a function of ranks (1, 2, 4, 8) and events (1 M, 4 M,
# 10 M in all), with rank 0's share of it (its own calls encoded and
# written; the other ranks' windows placed) and its peak memory. Then 8
# ranks x 2 M calls against h5py writing the same 16 M events (the arrays
# of scope's file, read into memory first) into the same datasets with the
# same filters (shuffle + deflate 1, chunks of 64 Ki), in the same
# invocation. Target: scope's finalize no slower than h5py's write.
# usage: bench_finalize.sh MPIRUN_CMD PROGRAM SCOPE_CLI [PYTHON]
set -euo pipefail
mpirun=$1 program=$2 scope=$3 python=${4:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-finalize-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# Runs RANKS x PER_RANK calls under scope; sets seconds, own, placed, peak.
run() {
    local ranks=$1 per_rank=$2
    # shellcheck disable=SC2086  # the launcher command carries its options
    $mpirun -n "$ranks" "$scope" run -v -f work -- "$program" "$per_rank" >out.txt 2>err.txt
    grep -q "wrote profiling_data.h5 ($((ranks * per_rank)) calls, $ranks rank" err.txt || {
        echo "FAIL: $ranks x $per_rank: not every call written" >&2
        cat err.txt >&2
        exit 1
    }
    local line steps
    line=$(grep "finalize: clock sync, merge and write took" err.txt)
    steps=$(grep "finalize on rank 0:" err.txt)
    seconds=$(echo "$line" | sed 's/.*took \([0-9.]*\) s.*/\1/')
    peak=$(echo "$line" | sed 's/.*peak memory \([0-9-]*\) MiB.*/\1/')
    own=$(echo "$steps" | sed 's/.*encoded and written in \([0-9.]*\) s.*/\1/')
    placed=$(echo "$steps" | sed 's/.*MB) in \([0-9.]*\) s.*/\1/')
}

printf '%-10s %-6s %11s %16s %15s %15s %9s\n' events ranks "finalize s" "rank 0 own s" \
    "rank 0 place s" "peak MiB" "file MB"
result="RESULT finalize"
for total in 1000000 4000000 10000000; do
    for ranks in 1 2 4 8; do
        run "$ranks" $((total / ranks))
        size=$(stat -c %s profiling_data.h5)
        printf '%-10s %-6s %11s %16s %15s %15s %9.1f\n' "$total" "$ranks" "$seconds" "$own" \
            "$placed" "$peak" "$(echo "$size / 1000000" | bc -l)"
        result="$result s_${total}x${ranks}=$seconds"
        rm -f profiling_data.h5
    done
done

run 8 2000000
echo
echo "8 ranks x 2 M calls: finalize $seconds s (rank 0: own calls $own s, other ranks placed $placed s)"
h5py_s=$("$python" - profiling_data.h5 <<'PY'
import sys, time
import h5py
with h5py.File(sys.argv[1]) as f:
    data = {f"rank{r}/regions/work/{name}": f[f"rank{r}/regions/work/{name}"][...]
            for r in range(8) for name in ("start_times", "end_times", "thread_ids")
            if f"rank{r}/regions/work/{name}" in f}
began = time.perf_counter()
with h5py.File("h5py.h5", "w") as out:
    for path, values in data.items():
        out.create_dataset(path, data=values, chunks=(65536,), maxshape=(None,),
                           shuffle=True, compression="gzip", compression_opts=1)
print(f"{time.perf_counter() - began:.3f}")
PY
)
ratio=$(awk -v s="$seconds" -v h="$h5py_s" 'BEGIN { printf "%.2f", s / h }')
echo "h5py writing the same 16 M events, same datasets and filters: $h5py_s s"
echo "scope finalize / h5py write: $ratio (target <= 1)"
echo "$result s_16000000x8=$seconds h5py_16000000_s=$h5py_s ratio_to_h5py=$ratio"
