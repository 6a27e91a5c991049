#!/usr/bin/env bash
# bench_builds.sh: two builds of scope side by side in one invocation (a
# change against the commit before it): the hook cost (bench_calls, 10 M
# calls of one hooked function, ns per call) and the whole run of 4 ranks
# x 2.5 M calls under mpirun (`scope run` from launch to a written file,
# and the finalize time it reports), in alternating rounds; prints the
# medians of each build and the ratio B / A.
#
# usage: bench_builds.sh BUILD_A BUILD_B   (meson build directories, built
#   with the benchmarks: tests/bench/bench_calls, bench_many_calls)
# environment: BENCH_ROUNDS (default 5), BENCH_CALLS (default 10000000),
#   BENCH_RANK_CALLS (default 2500000), MPIRUN (default mpirun.openmpi
#   --allow-run-as-root --oversubscribe)
set -euo pipefail
# shellcheck source=bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_A BUILD_B" >&2
    exit 2
fi
builds=("$(cd "$1" && pwd)" "$(cd "$2" && pwd)")
rounds=${BENCH_ROUNDS:-5}
calls=${BENCH_CALLS:-10000000}
rank_calls=${BENCH_RANK_CALLS:-2500000}
mpirun=${MPIRUN:-mpirun.openmpi --allow-run-as-root --oversubscribe}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-builds-XXXXXX")
trap 'rm -rf "$work"' EXIT

for b in "${builds[@]}"; do
    for f in tests/bench/bench_calls tests/bench/bench_many_calls tools/scope \
             preload/libscope-openmpi.so; do
        [ -x "$b/$f" ] || [ -f "$b/$f" ] || { echo "$b/$f: missing (build it first)" >&2; exit 2; }
    done
done


cd "$work"
for ((r = 1; r <= rounds; r++)); do
    for i in 0 1; do
        b=${builds[$i]}
        out=$(env -u SCOPE_CONFIG SCOPE_FUNCTIONS=work SCOPE_OUTPUT="$work/hook.h5" \
            LD_PRELOAD="$b/preload/libscope-openmpi.so" "${builds[1]}/tests/bench/bench_calls" "$calls" 1 \
            2> /dev/null)
        sed -n 's/.* ns_per_call=\([0-9.]*\).*/\1/p' <<< "$out" >> "hook.$i"
        rm -f hook.h5
        start=$(date +%s.%N)
        # shellcheck disable=SC2086  # the launcher command carries its options
        $mpirun -n 4 "$b/tools/scope" run -v -f work -- "$b/tests/bench/bench_many_calls" \
            "$rank_calls" > out.txt 2> err.txt
        end=$(date +%s.%N)
        grep -q "wrote profiling_data.h5 ($((4 * rank_calls)) calls, 4 rank" err.txt ||
            { echo "build $b: the run did not write every call:" >&2; cat err.txt >&2; exit 1; }
        echo "$end - $start" | bc -l >> "run.$i"
        sed -n 's/.*finalize: clock sync, merge and write took \([0-9.]*\) s.*/\1/p' err.txt >> "finalize.$i"
        rm -f profiling_data.h5
    done
    echo "round $r of $rounds done" >&2
done

printf '%-34s %12s %12s %8s\n' "median of $rounds rounds" A B "B / A"
for what in hook run finalize; do
    a=$(median < "$what.0") b=$(median < "$what.1")
    case $what in
    hook) name="hooked call, ns (10 M calls)" ;;
    run) name="scope run 4 x $rank_calls calls, s" ;;
    finalize) name="finalize of that run, s" ;;
    esac
    printf '%-34s %12.3f %12.3f %8.3f\n' "$name" "$a" "$b" "$(echo "$b / $a" | bc -l)"
done
echo "A = ${builds[0]}"
echo "B = ${builds[1]}"
