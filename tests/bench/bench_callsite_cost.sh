#!/usr/bin/env bash
# bench_callsite_cost.sh: what call sites and recorded values add to a
# hooked call. Runs bench_calls, which calls work() N times, unprofiled and
# under libscope with work hooked at call-site depth 0, 1 and 4 and with
# "args=1,2 retval" (depth 0), in alternating rounds of one invocation, and
# prints the medians: ns per call, the overhead against the unprofiled run,
# and what each adds to depth 0. Every run's buffer holds all its records
# (no spill), and the file is checked: every call recorded, with a call site
# at depth > 0, with arg1, arg2 and retval for the values.
#
# usage: bench_callsite_cost.sh BENCH_CALLS_EXE LIBSCOPE_SO
# environment: BENCH_CALLS (default 1000000), BENCH_ROUNDS (default 5).
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"

if [ $# -lt 2 ]; then
    echo "usage: $0 BENCH_CALLS_EXE LIBSCOPE_SO" >&2
    exit 2
fi
bench=$1 lib=$2
calls=${BENCH_CALLS:-1000000}
rounds=${BENCH_ROUNDS:-5}
warmup=1000   # untimed calls bench_calls makes before its loop
variants=(0 1 4 values)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scope-callsite-cost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# values take 48 B/call (call, values header, two records of values)
buffer=$(( (calls + warmup) * 48 / 1048576 + 16 ))
for d in "${variants[@]}"; do
    option="depth=$d"
    [ "$d" != values ] || option="args=1,2 retval"
    printf '[output]\nbuffer = %sM\n[functions]\nwork %s\n' "$buffer" "$option" > "$tmp/depth$d.conf"
    : > "$tmp/depth$d.ns"
done
: > "$tmp/base.ns"

ns_of() { sed -n 's/.* ns_per_call=\([0-9.]*\).*/\1/p' <<< "$1"; }

# Calls of work in the file, and how many of them have a call site (or,
# for the values, a retval).
check_file() {   # check_file DEPTH|values
    local n sites column=callsite_ids
    [ "$1" != values ] || column=retval
    n=$(h5ls -r "$tmp/scope.h5" | sed -n 's@^/rank0/regions/work/start_times *Dataset {\([0-9]*\).*@\1@p')
    sites=$(h5ls -r "$tmp/scope.h5" | sed -n "s@^/rank0/regions/work/$column *Dataset {\\([0-9]*\\).*@\\1@p")
    if [ "${n:-0}" != $((calls + warmup)) ] || { [ "$1" != 0 ] && [ "${sites:-0}" != "$n" ]; }; then
        echo "FAIL: $1: ${n:-0} calls recorded (expected $((calls + warmup))), ${sites:-0} $column" >&2
        cat "$tmp/stderr" >&2
        exit 1
    fi
}

echo "call-site and values cost: $calls calls of work(), $rounds alternating rounds, medians"
for r in $(seq 1 "$rounds"); do
    out=$("$bench" "$calls")
    ns_of "$out" >> "$tmp/base.ns"
    printf '  round %d/%d: base=%s' "$r" "$rounds" "$(tail -n 1 "$tmp/base.ns")"
    for d in "${variants[@]}"; do
        rm -f "$tmp/scope.h5"
        out=$(env -u SCOPE_FUNCTIONS SCOPE_CONFIG="$tmp/depth$d.conf" SCOPE_OUTPUT="$tmp/scope.h5" \
            LD_PRELOAD="$lib" "$bench" "$calls" 2> "$tmp/stderr")
        check_file "$d"
        ns_of "$out" >> "$tmp/depth$d.ns"
        printf ' depth%s=%s' "$d" "$(tail -n 1 "$tmp/depth$d.ns")"
    done
    echo
done

calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }
base=$(median <"$tmp/base.ns")
declare -A med
for d in "${variants[@]}"; do med[$d]=$(median <"$tmp/depth$d.ns"); done
echo
printf '%-12s %9s %9s %16s\n' variant ns/call overhead "over depth 0"
printf '%-12s %9s %9s %16s\n' unprofiled "$base" - -
for d in "${variants[@]}"; do
    printf '%-12s %9s %9s %16s\n' "$( [ "$d" = values ] && echo "args=1,2 rv" || echo "depth $d")" "${med[$d]}" "$(calc "${med[$d]} - $base")" \
        "$(calc "${med[$d]} - ${med[0]}")"
done
echo "RESULT callsite-cost calls=$calls rounds=$rounds base_ns=$base" \
    "depth0_overhead_ns=$(calc "${med[0]} - $base")" \
    "depth1_extra_ns=$(calc "${med[1]} - ${med[0]}") depth4_extra_ns=$(calc "${med[4]} - ${med[0]}")" \
    "values_extra_ns=$(calc "${med[values]} - ${med[0]}")"
