#!/usr/bin/env bash
# bench_startup.sh: what hooking costs at startup as the number of hooked
# functions grows (target: 10 000 functions in <= 0.1 s over the
# unprofiled start). Runs PROGRAM (which should do next to nothing: LAMMPS
# on an empty input, say) unprofiled and under libscope with each pattern
# in turn, alternated, for several rounds in one invocation, and prints per
# pattern the functions it hooks (from `scope check`), the median wall time
# and the median added over the unprofiled run, per run and per function.
# The added time includes writing the (nearly empty) file at exit.
#
# usage: bench_startup.sh SCOPE_CLI LIBSCOPE_SO 'PATTERN;PATTERN...' PROGRAM [ARGS...]
# example: bench_startup.sh build/tools/scope build/preload/libscope-openmpi.so \
#   'LAMMPS_NS::Verlet::run;LAMMPS_NS::Atom::*;LAMMPS_NS::Pair*;LAMMPS_NS::*' \
#   lmp -in /dev/null -log none
# environment: BENCH_ROUNDS (default 5)
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"
if [ $# -lt 4 ]; then
    echo "usage: $0 SCOPE_CLI LIBSCOPE_SO 'PATTERN;...' PROGRAM [ARGS...]" >&2
    exit 2
fi
cli=$(readlink -f "$1") lib=$(readlink -f "$2")
IFS=';' read -r -a patterns <<<"$3"
shift 3
rounds=${BENCH_ROUNDS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-startup-XXXXXX")
trap 'rm -rf "$work"' EXIT

wall() {   # seconds of one run of "$@" (output discarded)
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "FAIL: $* exited with $?" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f\n", b - a}' 
}


program=$(command -v "$1")
declare -A counts
for p in "${patterns[@]}"; do
    counts[$p]=$("$cli" check -f "$p" "$program" 2>/dev/null | sed -n 's/^\([0-9]*\) functions selected.*/\1/p' | head -1)
done
for r in $(seq "$rounds"); do
    wall "$@" >>"$work/base"
    for k in "${!patterns[@]}"; do
        wall env LD_PRELOAD="$lib" SCOPE_FUNCTIONS="${patterns[$k]}" \
            SCOPE_OUTPUT="$work/out.h5" SCOPE_WARN_STALE=0 "$@" >>"$work/run$k"
        rm -f "$work/out.h5"
    done
done
base=$(median <"$work/base")
printf '%-32s %9s %9s %11s %13s\n' pattern functions wall_s added_s added_us/fn
printf '%-32s %9s %9.3f %11s %13s\n' '(unprofiled)' 0 "$base" - -
for k in "${!patterns[@]}"; do
    t=$(median <"$work/run$k")
    n=${counts[${patterns[$k]}]:-0}
    added=$(awk -v a="$t" -v b="$base" 'BEGIN {printf "%.6f", a - b}')
    per=$(awk -v a="$added" -v n="$n" 'BEGIN {printf "%.1f", (n > 0 ? a * 1e6 / n : 0)}')
    printf '%-32s %9s %9.3f %11.3f %13.1f\n' "${patterns[$k]}" "$n" "$t" "$added" "$per"
    echo "RESULT startup pattern=${patterns[$k]} functions=$n wall_s=$t base_s=$base added_s=$added"
done
