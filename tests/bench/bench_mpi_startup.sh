#!/usr/bin/env bash
# bench_mpi_startup.sh: what scope adds to a run that does next to nothing:
# a 1-rank MPI program calling one function 100 times, under mpirun,
# unprofiled, under `scope run -f work` and under `scope run -c
# mpi-all.conf` (every MPI function), alternated for ROUNDS rounds in one
# invocation. Prints per variant the median wall and CPU time (user +
# system of mpirun and everything it starts) and what each adds over the
# unprofiled run (aimed at: +30 ms with -f work, +60 ms with mpi-all.conf).
# What is added is all of it: loading libscope, hooking, reading the
# symbols of the modules MPI_Init opens, and writing the file at finalize.
#
# usage: bench_mpi_startup.sh MPIRUN PROGRAM SCOPE_CLI CONFIG_DIR [ROUNDS]
#        (MPIRUN: the launcher with its options; PROGRAM takes a call count)
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"
if [ $# -lt 4 ]; then
    echo "usage: $0 MPIRUN PROGRAM SCOPE_CLI CONFIG_DIR [ROUNDS]" >&2
    exit 2
fi
read -r -a mpirun <<<"$1"
program=$(readlink -f "$2") cli=$(readlink -f "$3") configs=$(readlink -f "$4")
rounds=${5:-11}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-mpi-startup-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

variants=(plain work mpi-all)
run() {   # one run of variant $1; appends "WALL CPU" seconds to $1.times
    local -a cmd=("${mpirun[@]}" -n 1)
    case $1 in
        plain) cmd+=("$program" 100) ;;
        work) cmd+=("$cli" run -f work -o out.h5 -- "$program" 100) ;;
        mpi-all) cmd+=("$cli" run -c "$configs/mpi-all.conf" -o out.h5 -- "$program" 100) ;;
    esac
    local TIMEFORMAT='%3R %3U %3S'
    { time "${cmd[@]}" >run.out 2>&1; } 2>time.txt ||
        { echo "FAIL: ${cmd[*]}" >&2; cat run.out >&2; exit 1; }
    awk '{printf "%.3f %.3f\n", $1, $2 + $3}' time.txt >>"$1.times"
    rm -f out.h5
}

for _ in $(seq "$rounds"); do
    for v in "${variants[@]}"; do
        run "$v"
    done
done
base_wall=$(cut -d' ' -f1 plain.times | median)
base_cpu=$(cut -d' ' -f2 plain.times | median)
echo "trivial 1-rank MPI program under ${mpirun[*]}, $rounds rounds, medians:"
printf '%-10s %9s %9s %11s %11s\n' variant wall_ms cpu_ms added_wall added_cpu
for v in "${variants[@]}"; do
    w=$(cut -d' ' -f1 "$v.times" | median) c=$(cut -d' ' -f2 "$v.times" | median)
    awk -v v="$v" -v w="$w" -v c="$c" -v bw="$base_wall" -v bc="$base_cpu" 'BEGIN {
        printf "%-10s %9.0f %9.0f %+11.0f %+11.0f\n", v, w * 1000, c * 1000,
               (w - bw) * 1000, (c - bc) * 1000 }'
    echo "RESULT mpi_startup variant=$v wall_s=$w cpu_s=$c base_wall_s=$base_wall base_cpu_s=$base_cpu"
done
