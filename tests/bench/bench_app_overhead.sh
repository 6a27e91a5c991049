#!/bin/bash
# bench_app_overhead.sh: what profiling costs a real application. Runs hpcc
# (Debian's HPC Challenge) under mpirun -n 2, alternately without scope and
# under `scope run` with the shipped MPI collectives + point-to-point +
# BLAS/LAPACK configs, ROUNDS times each in one go so that both see the same
# machine, and prints the wall times, their medians and the overhead.
# usage: bench_app_overhead.sh HPCC SCOPE_CLI CONFIG_DIR [ROUNDS [N]]
#        (env: MPIRUN, the launcher with its options; N is HPL's matrix size)
set -euo pipefail
hpcc=$1 scope_cli=$2 configs=$3 rounds=${4:-5} n=${5:-1000}
mpirun=${MPIRUN:-mpirun.openmpi --allow-run-as-root --oversubscribe}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-app-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# the example input of the package, with N x N on a 1 x 2 grid
sed -e "6s/^[0-9]* /$n /" -e '8s/^[0-9]* /40 /' -e '11s/^[0-9]* /1 /' -e '12s/^[0-9]* /2 /' \
    /usr/share/doc/hpcc/examples/_hpccinf.txt >hpccinf.txt
printf 'include = %s/%s\n' "$configs" mpi-collectives.conf "$configs" mpi-p2p.conf \
    "$configs" blas-lapack.conf >bench.conf

seconds() {   # runs "$@", prints its wall time in seconds
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>run.err || { cat run.err >&2; exit 1; }
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", (b - a) / 1e9}'
}
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

plain=() profiled=()
# shellcheck disable=SC2086  # mpirun carries the launcher's own options
for i in $(seq "$rounds"); do
    plain+=("$(seconds $mpirun -n 2 "$hpcc")")
    profiled+=("$(seconds $mpirun -n 2 "$scope_cli" run -c bench.conf -- "$hpcc")")
    calls=$(grep -o '([0-9]* calls' run.err | tr -dc 0-9)
    echo "round $i: plain ${plain[-1]} s, scope ${profiled[-1]} s ($calls calls)"
done
p=$(printf '%s\n' "${plain[@]}" | median)
s=$(printf '%s\n' "${profiled[@]}" | median)
echo "hpcc N=$n on 2 ranks, $rounds rounds: median plain $p s, with scope $s s," \
     "overhead $(awk -v p="$p" -v s="$s" 'BEGIN {printf "%.1f", 100 * (s - p) / p}') %," \
     "$calls calls per run"
