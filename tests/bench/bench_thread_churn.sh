#!/bin/bash
# bench_thread_churn.sh: what profiling costs a program that creates and
# joins many short threads (thread_churn: 20 000 threads, 8 at a time, 10
# hooked calls each). Runs it alternately unprofiled, under libscope (from
# launch to the written file) and under `uftrace record -P tc_work`, ROUNDS
# times each, and prints the median wall times, the ratios to the
# unprofiled run and scope's peak resident memory.
# usage: bench_thread_churn.sh PROGRAM LIBSCOPE SCOPE_CLI [ROUNDS]
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"
program=$(readlink -f "$1") lib=$(readlink -f "$2") cli=$(readlink -f "$3")
rounds=${4:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-churn-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

seconds() {   # runs "$@", prints its wall time in seconds; its output in run.out
    local t0 t1
    t0=$(date +%s%N)
    "$@" >run.out 2>run.err || { cat run.out run.err >&2; exit 1; }
    t1=$(date +%s%N)
    echo "scale=3; ($t1 - $t0) / 1000000000" | bc
}

plain=() scope=() uft=() peaks=()
for ((r = 1; r <= rounds; r++)); do
    plain+=("$(seconds "$program")")
    scope+=("$(seconds env LD_PRELOAD="$lib" SCOPE_FUNCTIONS=tc_work SCOPE_OUTPUT=churn.h5 "$program")")
    peaks+=("$(sed -n 's/.*peak \([0-9]*\) KiB.*/\1/p' run.out)")
    "$cli" info churn.h5 >/dev/null
    if command -v uftrace >/dev/null; then
        uft+=("$(seconds uftrace record -d uftrace.data -P tc_work "$program")")
        rm -rf uftrace.data
    fi
done
p=$(printf '%s\n' "${plain[@]}" | median)
s=$(printf '%s\n' "${scope[@]}" | median)
printf 'thread churn (20 000 threads x 10 calls), median of %d rounds\n' "$rounds"
printf '  unprofiled     %6.3f s\n' "$p"
printf '  scope          %6.3f s   %5.2f x   peak RSS %s KiB\n' "$s" "$(echo "$s / $p" | bc -l)" \
    "$(printf '%s\n' "${peaks[@]}" | median)"
if [ ${#uft[@]} -gt 0 ]; then
    u=$(printf '%s\n' "${uft[@]}" | median)
    printf '  uftrace record %6.3f s   %5.2f x\n' "$u" "$(echo "$u / $p" | bc -l)"
fi
