#!/bin/bash
# bench_app_overhead.sh: what profiling costs a real application. Runs hpcc
# (Debian's HPC Challenge) under mpirun -n 2, alternately without scope and
# under `scope run` with the shipped MPI collectives + point-to-point +
# BLAS/LAPACK configs, and with the same minus the polling calls (MPI_Test*,
# MPI_Iprobe: hpcc's RandomAccess polls tens of millions of times), ROUNDS
# times each in one go so that all see the same machine, and prints the
# wall times, their medians and the overheads.
# usage: bench_app_overhead.sh HPCC SCOPE_CLI CONFIG_DIR [ROUNDS [N]]
#        (env: MPIRUN, the launcher with its options; N is HPL's matrix size)
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"
hpcc=$(readlink -f "$1") scope_cli=$(readlink -f "$2") configs=$(readlink -f "$3")
rounds=${4:-5} n=${5:-1000}
mpirun=${MPIRUN:-mpirun.openmpi --allow-run-as-root --oversubscribe}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-app-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# the example input of the package, with N x N on a 1 x 2 grid
sed -e "6s/^[0-9]* /$n /" -e '8s/^[0-9]* /40 /' -e '11s/^[0-9]* /1 /' -e '12s/^[0-9]* /2 /' \
    /usr/share/doc/hpcc/examples/_hpccinf.txt >hpccinf.txt
printf 'include = %s/%s\n' "$configs" mpi-collectives.conf "$configs" mpi-p2p.conf \
    "$configs" blas-lapack.conf >full.conf
{ cat full.conf; echo '!re:^MPI_(Test|Testall|Testany|Testsome|Iprobe|Improbe)$'; } >nopoll.conf

seconds() {   # runs "$@", prints its wall time in seconds
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>run.err || { cat run.err >&2; exit 1; }
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", (b - a) / 1e9}'
}

declare -A times calls
variants=(plain full nopoll)
# shellcheck disable=SC2086  # mpirun carries the launcher's own options
for i in $(seq "$rounds"); do
    line="round $i:"
    for v in "${variants[@]}"; do
        if [ "$v" = plain ]; then
            t=$(seconds $mpirun -n 2 "$hpcc")
        else
            t=$(seconds $mpirun -n 2 "$scope_cli" run -c "$v.conf" -- "$hpcc")
            calls[$v]=$(grep -o '([0-9]* calls' run.err | tr -dc 0-9)
        fi
        times[$v]+="$t "
        line+=" $v $t s"
    done
    echo "$line"
done
p=$(printf '%s\n' ${times[plain]} | median)
echo "hpcc N=$n on 2 ranks, $rounds rounds, medians: plain $p s"
for v in full nopoll; do
    s=$(printf '%s\n' ${times[$v]} | median)
    echo "  $v: $s s, overhead $(awk -v p="$p" -v s="$s" 'BEGIN {printf "%.1f", 100 * (s - p) / p}') %," \
         "${calls[$v]} calls in the last run"
done
