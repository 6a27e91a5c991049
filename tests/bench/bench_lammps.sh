#!/usr/bin/env bash
# bench_lammps.sh: what profiling costs a real C++ application. Runs
# Debian's LAMMPS on its Lennard-Jones melt (in.melt, STEPS steps, 1 rank)
# unprofiled, traced with every LAMMPS_NS:: function hooked, and traced with
# the config `scope suggest` writes from that trace, alternated for ROUNDS
# rounds in one invocation, and prints per variant the median wall time,
# its ratio to the unprofiled run, the calls recorded and the file's size.
#
# usage: bench_lammps.sh SCOPE_CLI LMP [STEPS [ROUNDS]]
# example: bench_lammps.sh build/tools/scope /usr/bin/lmp 2000 3
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"
if [ $# -lt 2 ]; then
    echo "usage: $0 SCOPE_CLI LMP [STEPS [ROUNDS]]" >&2
    exit 2
fi
cli=$(readlink -f "$1") lmp=$(command -v "$2")
steps=${3:-2000} rounds=${4:-3}
input=/usr/share/lammps/examples/melt/in.melt
if [ ! -r "$input" ]; then
    echo "SKIP: $input is missing (Debian's lammps-examples)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-lammps-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
sed "s/^run[[:space:]].*/run $steps/" "$input" >in.melt
printf '[functions]\nLAMMPS_NS::*\n' >all.conf

wall() {   # seconds of one run of "$@"; its stderr kept in run.err
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>run.err || { echo "FAIL: $* exited with $?" >&2; cat run.err >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}
calls_of() { grep -o '([0-9]* calls' run.err | tr -dc 0-9; }

# The suggested config comes from one traced run first.
wall "$cli" run -c all.conf -o first.h5 -- "$lmp" -in in.melt -log none >/dev/null
"$cli" suggest first.h5 -o suggested.conf >suggest.txt
echo "scope suggest left out $(grep -c '^!' suggested.conf) functions:"
grep '^!' suggested.conf | head -5

declare -A times calls sizes
variants=(plain trace suggested)
for r in $(seq "$rounds"); do
    line="round $r:"
    for v in "${variants[@]}"; do
        case $v in
        plain) t=$(wall "$lmp" -in in.melt -log none) ;;
        trace) t=$(wall "$cli" run -c all.conf -o $v.h5 -- "$lmp" -in in.melt -log none) ;;
        suggested) t=$(wall "$cli" run -c suggested.conf -o $v.h5 -- "$lmp" -in in.melt -log none) ;;
        esac
        if [ "$v" != plain ]; then
            calls[$v]=$(calls_of)
            sizes[$v]=$(stat -c %s $v.h5)
        fi
        times[$v]+="$t "
        line+=" $v $t s"
    done
    echo "$line"
done

p=$(printf '%s\n' ${times[plain]} | median)
echo "LAMMPS in.melt, $steps steps, 1 rank, $rounds rounds, medians: plain $p s"
for v in trace suggested; do
    s=$(printf '%s\n' ${times[$v]} | median)
    echo "  $v: $s s = $(awk -v p="$p" -v s="$s" 'BEGIN {printf "%.2f", s / p}') x plain," \
         "${calls[$v]} calls, file $(awk -v b="${sizes[$v]}" 'BEGIN {printf "%.1f", b / 1048576}') MiB"
done
