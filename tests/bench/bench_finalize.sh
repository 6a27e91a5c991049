#!/bin/bash
# bench_finalize.sh: how long MPI_Finalize takes with scope (clock sync,
# decoding, sorting, streaming every rank to rank 0, writing the HDF5 file)
# for 1 M, 4 M and 10 M events across 4 ranks, and 10 M on one rank, and
# rank 0's peak memory.
# Target: 10 M events in <= 2 s on 2 cores.
# usage: bench_finalize.sh MPIRUN_CMD PROGRAM SCOPE_CLI
set -euo pipefail
mpirun=$1 program=$2 scope=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-finalize-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
printf '%-10s %-8s %12s %16s %12s\n' events ranks "finalize s" "rank0 peak MiB" "file MB"
result="RESULT finalize"
# the last row: one rank holding all 10 M events, beyond the sort window
# (512 Ki events, preload/writing/event_groups.h): its memory stays bounded
for run in 4x250000 4x1000000 4x2500000 1x10000000; do
    ranks=${run%x*} per_rank=${run#*x}
    total=$((per_rank * ranks))
    # shellcheck disable=SC2086  # the launcher command carries its options
    $mpirun -n "$ranks" "$scope" run -v -f work -- "$program" "$per_rank" >out.txt 2>err.txt
    line=$(grep "finalize: clock sync, merge and write took" err.txt)
    seconds=$(echo "$line" | sed 's/.*took \([0-9.]*\) s.*/\1/')
    peak=$(echo "$line" | sed 's/.*peak memory \([0-9-]*\) MiB.*/\1/')
    size=$(stat -c %s profiling_data.h5)
    grep -q "wrote profiling_data.h5 ($total calls, $ranks rank" err.txt
    printf '%-10s %-8s %12s %16s %12.1f\n' "$total" "$ranks" "$seconds" "$peak" "$(echo "$size / 1000000" | bc -l)"
    result="$result events_${total}x${ranks}_s=$seconds peak_${total}x${ranks}_mib=$peak"
    rm -f profiling_data.h5
done
echo "$result"
