#!/usr/bin/env bash
# bench_hook_cost.sh: the entry+exit cost of a hooked function (target: <=
# 1.15 x two rdtsc in the same run, >= 5 x faster than uftrace). Runs the
# plain program bench_calls, which calls work() N times, alternately
# unprofiled, under libscope (LD_PRELOAD, SCOPE_FUNCTIONS=work) with the
# default buffer (which spills: 10 M calls are 160 MB of records), with
# a buffer that holds the whole run, in profile mode (SCOPE_MODE=profile:
# calls counted in place, nothing recorded) and folding every call
# (SCOPE_MIN_DURATION=1s: a trace whose calls are all counted, not stored),
# and under `uftrace record -P work`
# when uftrace is installed, for several rounds in one invocation, and
# prints the medians: ns per call, the overhead per call against the
# unprofiled run, the ratio uftrace overhead / scope overhead, and bytes
# recorded per call; each both in wall time and in the calling thread's
# CPU time (on a shared machine the wall time also holds what other
# processes took from the loop), with the CPU time of the whole process
# during the loop (scope's spill writer thread included) and the wall time
# of the whole run (start to written file). Each overhead is set against
# the floor, two rdtsc measured in the same runs. It checks from the HDF5
# file that every call was recorded, and, when valgrind is installed,
# counts the instructions of a hooked call with callgrind (a noise-free
# supplement to the timings of a shared machine).
#
# usage: bench_hook_cost.sh BENCH_CALLS_EXE LIBSCOPE_SO [SCOPE_CLI]
# environment: BENCH_CALLS (default 10000000), BENCH_ROUNDS (default 5),
#   BENCH_THREADS2=0 to skip the 2-thread runs, BENCH_CALLGRIND=0 to skip
#   callgrind, BENCH_UFTRACE=0 to skip uftrace, BENCH_BASELINE_LIB=PATH to
#   run another libscope (a build of an earlier commit, its companion
#   libraries beside it) with the default buffer in the same rounds.
# Exits non-zero only when a run fails or the profile misses calls; the
# targets (default buffer <= 1.15 x the two-rdtsc floor, >= 5 x faster
# than uftrace, a whole run <= 0.75 x uftrace's) are reported.
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"

if [ $# -lt 2 ]; then
    echo "usage: $0 BENCH_CALLS_EXE LIBSCOPE_SO [SCOPE_CLI]" >&2
    exit 2
fi
bench=$1
lib=$2
cli=${3:-}
calls=${BENCH_CALLS:-10000000}
rounds=${BENCH_ROUNDS:-5}
do_threads2=${BENCH_THREADS2:-1}
do_callgrind=${BENCH_CALLGRIND:-1}
do_uftrace=${BENCH_UFTRACE:-1}
baseline_lib=${BENCH_BASELINE_LIB:-}
warmup=1000   # untimed calls bench_calls makes per thread before its loop
record_bytes=16

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scope-hook-cost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ "$do_uftrace" != 0 ] && ! command -v uftrace > /dev/null; then
    echo "uftrace not installed: skipping the uftrace runs (apt-get install uftrace)"
    do_uftrace=0
fi
if [ "$do_callgrind" != 0 ] && ! command -v valgrind > /dev/null; then
    echo "valgrind not installed: skipping the instruction counts"
    do_callgrind=0
fi

# A config whose buffer holds every record: the runs without spills to disk.
big_buffer=$(( (calls + warmup) * record_bytes / 1048576 + 16 ))
cat > "$tmp/bigbuf.conf" <<EOF
[output]
buffer = ${big_buffer}M

[functions]
work
EOF

ns_of() {      # ns_of FIELD OUTPUT: ns_per_call or cpu_ns_per_call
    sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<< "$2"
}

# Number of calls of work in a scope HDF5 file, from the dataset's extent
# (a profile, or folded calls: from its calls attribute).
recorded_in() {
    local n
    if [ "$2" = profile ]; then
        n=$(h5dump -a /rank0/regions/work/calls "$1" | sed -n 's/^ *(0): \([0-9]*\).*/\1/p')
    else
        n=$(h5ls -r "$1" | sed -n 's@^/rank0/regions/work/start_times *Dataset {\([0-9]*\).*@\1@p')
    fi
    echo "${n:-0}"
}

# Per variant: a file of ns/call figures, one per round, and one of the
# recorded calls / bytes written per run.
declare -A label threads
variants=(base1 scope1 scopebig1)
label[base1]="unprofiled";                threads[base1]=1
label[scope1]="scope, default buffer (spills)"; threads[scope1]=1
label[scopebig1]="scope, ${big_buffer} MiB buffer (no spill)"; threads[scopebig1]=1
variants+=(scopeprof1 scopefold1)
label[scopeprof1]="scope, profile mode"; threads[scopeprof1]=1
label[scopefold1]="scope, min_duration = 1s (all folded)"; threads[scopefold1]=1
if [ -n "$baseline_lib" ]; then
    variants+=(scopebase1)
    label[scopebase1]="baseline libscope, default buffer"; threads[scopebase1]=1
fi
if [ "$do_uftrace" != 0 ]; then
    variants+=(uftrace1)
    label[uftrace1]="uftrace record -P work"; threads[uftrace1]=1
fi
if [ "$do_threads2" != 0 ]; then
    variants+=(base2 scope2)
    label[base2]="unprofiled";            threads[base2]=2
    label[scope2]="scope, default buffer (spills)"; threads[scope2]=2
fi
: > "$tmp/rdtsc.cpu"
for v in "${variants[@]}"; do
    : > "$tmp/$v.ns"
    : > "$tmp/$v.cpu"
    : > "$tmp/$v.pcpu"
    : > "$tmp/$v.run"
    : > "$tmp/$v.file"
done

run_variant() {
    local v=$1 t=${threads[$1]} out expect got start
    expect=$(( (calls + warmup) * t ))
    start=$(date +%s%N)
    case $v in
    base*)
        out=$("$bench" "$calls" "$t")
        ;;
    scope*)
        rm -f "$tmp/scope.h5"
        if [ "$v" = scopebig1 ]; then
            out=$(env -u SCOPE_FUNCTIONS SCOPE_CONFIG="$tmp/bigbuf.conf" \
                SCOPE_OUTPUT="$tmp/scope.h5" LD_PRELOAD="$lib" \
                "$bench" "$calls" "$t" 2> "$tmp/stderr")
        elif [ "$v" = scopeprof1 ]; then
            out=$(env -u SCOPE_CONFIG SCOPE_FUNCTIONS=work SCOPE_MODE=profile \
                SCOPE_OUTPUT="$tmp/scope.h5" LD_PRELOAD="$lib" \
                "$bench" "$calls" "$t" 2> "$tmp/stderr")
        elif [ "$v" = scopefold1 ]; then
            out=$(env -u SCOPE_CONFIG SCOPE_FUNCTIONS=work SCOPE_MIN_DURATION=1s \
                SCOPE_OUTPUT="$tmp/scope.h5" LD_PRELOAD="$lib" \
                "$bench" "$calls" "$t" 2> "$tmp/stderr")
        else
            out=$(env -u SCOPE_CONFIG SCOPE_FUNCTIONS=work SCOPE_OUTPUT="$tmp/scope.h5" \
                LD_PRELOAD="$([ "$v" = scopebase1 ] && echo "$baseline_lib" || echo "$lib")" \
                "$bench" "$calls" "$t" 2> "$tmp/stderr")
        fi
        got=$(recorded_in "$tmp/scope.h5" \
            "$([ "$v" = scopeprof1 ] || [ "$v" = scopefold1 ] && echo profile)")
        if [ "$got" != "$expect" ]; then
            echo "FAIL: $v recorded $got calls of work, expected $expect" >&2
            cat "$tmp/stderr" >&2
            exit 1
        fi
        echo "$got $(stat -c %s "$tmp/scope.h5")" >> "$tmp/$v.file"
        ;;
    uftrace*)
        rm -rf "$tmp/uftrace.data"
        out=$(uftrace record --no-libcall -d "$tmp/uftrace.data" -P work \
            "$bench" "$calls" "$t" 2> "$tmp/stderr")
        echo "$expect $(du -sb "$tmp/uftrace.data" | cut -f1)" >> "$tmp/$v.file"
        rm -rf "$tmp/uftrace.data"
        ;;
    esac
    echo "$start $(date +%s%N)" | awk '{printf "%.3f\n", ($2 - $1) / 1e9}' >> "$tmp/$v.run"
    ns_of ns_per_call "$out" >> "$tmp/$v.ns"
    ns_of cpu_ns_per_call "$out" >> "$tmp/$v.cpu"
    ns_of process_cpu_ns_per_call "$out" >> "$tmp/$v.pcpu"
    [ "$v" != base1 ] || ns_of rdtsc_cpu_ns "$out" >> "$tmp/rdtsc.cpu"
}


echo "hook cost: $calls calls of work() per thread, $rounds alternating rounds, medians"
echo "(per round: wall/cpu ns per call)"
for r in $(seq 1 "$rounds"); do
    printf '  round %d/%d:' "$r" "$rounds"
    for v in "${variants[@]}"; do
        run_variant "$v"
        printf ' %s=%s/%s' "$v" "$(tail -n 1 "$tmp/$v.ns")" "$(tail -n 1 "$tmp/$v.cpu")"
    done
    echo
done

declare -A med cpu pcpu run
for v in "${variants[@]}"; do
    med[$v]=$(median <"$tmp/$v.ns")
    cpu[$v]=$(median <"$tmp/$v.cpu")
    pcpu[$v]=$(median <"$tmp/$v.pcpu")
    run[$v]=$(median <"$tmp/$v.run")
done
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }
base_of() { [ "${threads[$1]}" = 1 ] && echo "${med[base1]}" || echo "${med[base2]}"; }
cpu_base_of() { [ "${threads[$1]}" = 1 ] && echo "${cpu[base1]}" || echo "${cpu[base2]}"; }

echo
printf '%-40s %7s %9s %9s %9s %9s %9s %8s %10s %12s\n' variant threads ns/call overhead \
    cpu-ns cpu-ovh proc-ovh "run s" "rec B/call" "file B/call"
for v in "${variants[@]}"; do
    ovh=-; cpu_ovh=-; proc_ovh=-; rec=-; file=-
    case $v in
    base*) ;;
    *)
        ovh=$(calc "${med[$v]} - $(base_of "$v")")
        cpu_ovh=$(calc "${cpu[$v]} - $(cpu_base_of "$v")")
        proc_ovh=$(calc "${pcpu[$v]} - $(cpu_base_of "$v")")
        file=$(tail -n 1 "$tmp/$v.file" | awk '{printf "%.1f", $2 / $1}')
        case $v in
        scopeprof* | scopefold*) rec=0 ;;
        scope*) rec=$(tail -n 1 "$tmp/$v.file" | awk -v b="$record_bytes" -v c="$calls" \
                    -v w="$warmup" -v t="${threads[$v]}" '{printf "%.1f", $1 * b / ((c + w) * t)}') ;;
        uftrace*) rec=$file ;;
        esac
        ;;
    esac
    printf '%-40s %7s %9s %9s %9s %9s %9s %8s %10s %12s\n' "${label[$v]}" "${threads[$v]}" \
        "${med[$v]}" "$ovh" "${cpu[$v]}" "$cpu_ovh" "$proc_ovh" "${run[$v]}" "$rec" "$file"
done
echo "(proc-ovh: the CPU time of the whole process during the loop, helper threads included,"
echo " over the unprofiled thread's; run s: the whole run, start to written file)"

scope_ovh=$(calc "${med[scope1]} - ${med[base1]}")
scope_cpu_ovh=$(calc "${cpu[scope1]} - ${cpu[base1]}")
rdtsc=$(median <"$tmp/rdtsc.cpu")
floor=$(calc "2 * $rdtsc")
big_ovh=$(calc "${med[scopebig1]} - ${med[base1]}")
big_cpu_ovh=$(calc "${cpu[scopebig1]} - ${cpu[base1]}")
scope_proc_ovh=$(calc "${pcpu[scope1]} - ${cpu[base1]}")
per_floor() { awk -v o="$1" -v f="$floor" 'BEGIN { printf "%.2f", o / f }'; }
verdict() { awk "BEGIN { exit !($1) }" && echo ok || echo MISSED; }
floor_ratio=$(per_floor "$scope_ovh")
floor_cpu_ratio=$(per_floor "$scope_cpu_ovh")
echo
echo "one rdtsc costs ${rdtsc} ns cpu here: a hooked call reads two, the floor: ${floor} ns"
echo "overhead / floor, wall and cpu:" \
    "default buffer ${floor_ratio} and ${floor_cpu_ratio}" \
    "(process cpu, spill writer included: $(per_floor "$scope_proc_ovh")), whole-run buffer" \
    "$(per_floor "$big_ovh") and $(per_floor "$big_cpu_ovh")"
prof_ovh=$(calc "${med[scopeprof1]} - ${med[base1]}")
prof_cpu_ovh=$(calc "${cpu[scopeprof1]} - ${cpu[base1]}")
prof_vs_trace=$(awk -v p="$prof_ovh" -v s="$scope_ovh" 'BEGIN { printf "%.2f", (s > 0 ? p / s : 0) }')
echo "profile mode: overhead ${prof_ovh} ns wall, ${prof_cpu_ovh} ns cpu per call; / floor" \
    "$(per_floor "$prof_ovh") wall, $(per_floor "$prof_cpu_ovh") cpu; / the default buffer's" \
    "overhead ${prof_vs_trace}; its file $(tail -n 1 "$tmp/scopeprof1.file" | cut -d' ' -f2) bytes" \
    "for $((calls + warmup)) calls"
echo "target default buffer <= 1.15 x floor: ${floor_ratio} wall, $(verdict "$floor_ratio <= 1.15");" \
    "${floor_cpu_ratio} cpu, $(verdict "$floor_cpu_ratio <= 1.15")"
if [ -n "$baseline_lib" ]; then
    echo "baseline libscope, default buffer: overhead / floor" \
        "$(per_floor "$(calc "${med[scopebase1]} - ${med[base1]}")") wall," \
        "$(per_floor "$(calc "${cpu[scopebase1]} - ${cpu[base1]}")") cpu"
fi
echo "scope recorded every call: $(tail -n 1 "$tmp/scope1.file" | cut -d' ' -f1) of $((calls + warmup)) (h5ls)"
if [ -n "$cli" ] && [ -x "$cli" ]; then
    env -u SCOPE_CONFIG SCOPE_FUNCTIONS=work SCOPE_OUTPUT="$tmp/scope.h5" LD_PRELOAD="$lib" \
        "$bench" 100000 > /dev/null 2>&1
    echo "scope summary of a 100000-call run:"
    "$cli" summary "$tmp/scope.h5" | sed 's/^/  /'
fi
ratio=nan; uft_ovh=nan; cpu_ratio=nan; run_ratio=nan
if [ "$do_uftrace" != 0 ]; then
    uft_ovh=$(calc "${med[uftrace1]} - ${med[base1]}")
    ratio=$(awk -v u="$uft_ovh" -v s="$scope_ovh" 'BEGIN { printf "%.2f", (s > 0 ? u / s : 0) }')
    echo "target uftrace overhead / scope overhead >= 5: ${uft_ovh} / ${scope_ovh} = ${ratio}, $(verdict "$ratio >= 5")"
    uft_cpu_ovh=$(calc "${cpu[uftrace1]} - ${cpu[base1]}")
    cpu_ratio=$(awk -v u="$uft_cpu_ovh" -v s="$scope_cpu_ovh" 'BEGIN { printf "%.2f", (s > 0 ? u / s : 0) }')
    echo "  in cpu time: ${uft_cpu_ovh} / ${scope_cpu_ovh} = ${cpu_ratio}, $(verdict "$cpu_ratio >= 5")"
    run_ratio=$(awk -v s="${run[scope1]}" -v u="${run[uftrace1]}" 'BEGIN { printf "%.2f", s / u }')
    echo "target whole run <= 0.75 x uftrace's: ${run[scope1]} s / ${run[uftrace1]} s = ${run_ratio}," \
        "$(verdict "$run_ratio <= 0.75")"
fi
scope2_ovh=nan; scope2_cpu_ovh=nan
if [ "$do_threads2" != 0 ]; then
    scope2_ovh=$(calc "${med[scope2]} - ${med[base2]}")
    scope2_cpu_ovh=$(calc "${cpu[scope2]} - ${cpu[base2]}")
fi

# Instructions per hooked call: callgrind counts only inside run() (the
# calling loop); two call counts, differenced, cancel one-time costs.
insn=nan; insn_base=nan
if [ "$do_callgrind" != 0 ]; then
    n1=100000; n2=200000
    ir() {   # ir MODE CALLS -> instructions executed inside run()
        local f="$tmp/callgrind.out"
        if [ "$1" = scope ]; then
            env -u SCOPE_CONFIG SCOPE_FUNCTIONS=work SCOPE_OUTPUT="$tmp/cg.h5" LD_PRELOAD="$lib" \
                valgrind --tool=callgrind --toggle-collect=run --callgrind-out-file="$f" \
                "$bench" "$2" > /dev/null 2>&1
        else
            valgrind --tool=callgrind --toggle-collect=run --callgrind-out-file="$f" \
                "$bench" "$2" > /dev/null 2>&1
        fi
        sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$f"
    }
    per_call() { awk -v a="$2" -v b="$3" -v d=$((n2 - n1)) 'BEGIN { printf "%.1f", (b - a) / d }'; }
    insn_base=$(per_call base "$(ir base $n1)" "$(ir base $n2)")
    insn_scope=$(per_call scope "$(ir scope $n1)" "$(ir scope $n2)")
    insn=$(calc "$insn_scope - $insn_base")
    echo "callgrind: ${insn_base} instructions per loop iteration unprofiled, ${insn_scope} hooked:" \
        "${insn} instructions per hooked call (entry + exit, no spill)"
fi

echo "RESULT hook-cost calls=$calls rounds=$rounds base_ns=${med[base1]} scope_ns=${med[scope1]}" \
    "scope_overhead_ns=$scope_ovh scope_nospill_overhead_ns=$big_ovh" \
    "uftrace_ns=${med[uftrace1]:-nan} uftrace_overhead_ns=$uft_ovh ratio=$ratio" \
    "scope_bytes_per_call=$record_bytes scope2_overhead_ns=$scope2_ovh insn_per_call=$insn" \
    "scope_cpu_overhead_ns=$scope_cpu_ovh scope_nospill_cpu_overhead_ns=$big_cpu_ovh" \
    "scope_process_cpu_overhead_ns=$scope_proc_ovh floor_ns=$floor floor_ratio=$floor_ratio" \
    "floor_cpu_ratio=$floor_cpu_ratio nospill_floor_ratio=$(per_floor "$big_ovh")" \
    "scope_run_s=${run[scope1]} uftrace_run_s=${run[uftrace1]:-nan} run_ratio=$run_ratio" \
    "uftrace_cpu_overhead_ns=${uft_cpu_ovh:-nan} cpu_ratio=$cpu_ratio scope2_cpu_overhead_ns=$scope2_cpu_ovh" \
    "rdtsc_cpu_ns=$rdtsc profile_overhead_ns=$prof_ovh profile_cpu_overhead_ns=$prof_cpu_ovh" \
    "profile_floor_ratio=$(per_floor "$prof_ovh") profile_vs_trace=$prof_vs_trace"
