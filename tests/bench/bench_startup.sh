#!/usr/bin/env bash
# bench_startup.sh: what hooking costs at startup as the number of hooked
# functions grows (target: 10 000 functions in <= 0.1 s over the
# unprofiled start). Runs PROGRAM (which should do next to nothing: LAMMPS
# on an empty input, say) unprofiled and under libscope with each pattern
# in turn, alternated, for several rounds in one invocation, and prints per
# pattern the functions it hooks (from `scope check`), the median wall and
# CPU time (user + system) and page faults, and the median added over the
# unprofiled run, per run and per function. The added time includes writing
# the (nearly empty) file at exit. Where a page written for the first time
# is dear (a virtual machine that backs guest memory lazily: see
# bench_page_cost), the faults, one per patched code page among them, are
# most of the cost.
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

measure() {   # "WALL CPU FAULTS" of one run of "$@" (output discarded)
    /usr/bin/time -f '%e %U %S %R' -o "$work/time.txt" "$@" >/dev/null 2>&1 ||
        { echo "FAIL: $* exited with $?" >&2; exit 1; }
    awk '{printf "%.3f %.3f %d\n", $1, $2 + $3, $4}' "$work/time.txt"
}


program=$(command -v "$1")
declare -A counts
for p in "${patterns[@]}"; do
    counts[$p]=$("$cli" check -f "$p" "$program" 2>/dev/null | sed -n 's/^\([0-9]*\) functions selected.*/\1/p' | head -1)
done
for r in $(seq "$rounds"); do
    measure "$@" >>"$work/base"
    for k in "${!patterns[@]}"; do
        measure env LD_PRELOAD="$lib" SCOPE_FUNCTIONS="${patterns[$k]}" \
            SCOPE_OUTPUT="$work/out.h5" SCOPE_WARN_STALE=0 "$@" >>"$work/run$k"
        rm -f "$work/out.h5"
    done
done
column() { cut -d' ' -f"$1" "$2" | median; }   # the median of field $1 of file $2
base=$(column 1 "$work/base") base_cpu=$(column 2 "$work/base") base_faults=$(column 3 "$work/base")
printf '%-32s %9s %8s %8s %8s %9s %9s %10s\n' pattern functions wall_s cpu_s faults \
    added_s added_cpu added_faults
printf '%-32s %9s %8.3f %8.3f %8d %9s %9s %10s\n' '(unprofiled)' 0 "$base" "$base_cpu" \
    "$base_faults" - - -
for k in "${!patterns[@]}"; do
    t=$(column 1 "$work/run$k") c=$(column 2 "$work/run$k") f=$(column 3 "$work/run$k")
    n=${counts[${patterns[$k]}]:-0}
    added=$(awk -v a="$t" -v b="$base" 'BEGIN {printf "%.3f", a - b}')
    added_cpu=$(awk -v a="$c" -v b="$base_cpu" 'BEGIN {printf "%.3f", a - b}')
    added_faults=$(awk -v a="$f" -v b="$base_faults" 'BEGIN {printf "%d", a - b}')
    printf '%-32s %9s %8.3f %8.3f %8d %9.3f %9.3f %10d\n' "${patterns[$k]}" "$n" "$t" "$c" "$f" \
        "$added" "$added_cpu" "$added_faults"
    echo "RESULT startup pattern=${patterns[$k]} functions=$n wall_s=$t base_s=$base" \
        "added_s=$added cpu_s=$c base_cpu_s=$base_cpu added_cpu_s=$added_cpu" \
        "added_faults=$added_faults"
done
