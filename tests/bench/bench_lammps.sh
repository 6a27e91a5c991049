#!/usr/bin/env bash
# bench_lammps.sh: what profiling costs a real C++ application. Runs
# Debian's LAMMPS on its Lennard-Jones melt (in.melt, STEPS steps, 1 rank)
# unprofiled, traced with every LAMMPS_NS:: function hooked, traced with
# the config `scope suggest` writes from that trace, and in profile mode
# with every LAMMPS_NS:: function hooked, alternated for ROUNDS rounds in
# one invocation, and prints per variant the median wall time and CPU time
# (user + system: less disturbed by the other jobs of a shared machine), their ratio
# to the unprofiled run's, the calls recorded (counted, for the profile) and
# the file's size; the same ratio for the least wall time of each variant
# (the rounds the machine's other jobs disturbed least); then per variant
# its parts apart: startup (hooking,
# as scope -v reports it), finalize (the same), the hot path's cost per call
# (what is left of the added wall time, per call) and the per-call cost
# scope measured at startup (hook_cost_ns in the file's /metadata); then
# whether the profile's calls per region equal the trace's (target:
# profile <= 1.08 x plain, the same calls). The profiled runs run with -v:
# its 10 000 "hooked" lines to a file cost a few ms.
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

wall() {   # "WALL CPU" seconds of one run of "$@"; its stderr kept in run.err
    local t0 t1
    t0=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o cpu.txt "$@" >/dev/null 2>run.err ||
        { echo "FAIL: $* exited with $?" >&2; cat run.err >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" '{printf "%.3f %.3f\n", b - a, $1 + $2}' cpu.txt
}
calls_of() { grep -o '([0-9]* calls' run.err | tr -dc 0-9; }
hooking_of() { sed -n 's/.* functions hooked in \([0-9.]*\) ms.*/\1/p' run.err | head -1; }
finalize_of() { sed -n 's/.*finalize: clock sync, merge and write took \([0-9.]*\) s.*/\1/p' run.err; }

# The suggested config comes from one traced run first.
wall "$cli" run -c all.conf -o first.h5 -- "$lmp" -in in.melt -log none >/dev/null
"$cli" suggest first.h5 -o suggested.conf >suggest.txt
echo "scope suggest left out $(grep -c '^!' suggested.conf) functions:"
grep '^!' suggested.conf | head -5

declare -A times cpus calls sizes hookings finalizes
variants=(plain trace suggested profile)
for r in $(seq "$rounds"); do
    line="round $r:"
    for v in "${variants[@]}"; do
        case $v in
        plain) t=$(wall "$lmp" -in in.melt -log none) ;;
        trace) t=$(wall "$cli" run -v -c all.conf -o $v.h5 -- "$lmp" -in in.melt -log none) ;;
        suggested) t=$(wall "$cli" run -v -c suggested.conf -o $v.h5 -- "$lmp" -in in.melt \
                       -log none) ;;
        profile) t=$(wall "$cli" run -v --mode profile -c all.conf -o $v.h5 -- "$lmp" \
                     -in in.melt -log none) ;;
        esac
        if [ "$v" != plain ]; then
            hookings[$v]+="$(hooking_of) "
            finalizes[$v]+="$(finalize_of) "
        fi
        if [ "$v" = profile ]; then
            calls[$v]=$("$cli" info $v.h5 | awk '$1 == "events" {print $2}')
            sizes[$v]=$(stat -c %s $v.h5)
        elif [ "$v" != plain ]; then
            calls[$v]=$(calls_of)
            sizes[$v]=$(stat -c %s $v.h5)
        fi
        times[$v]+="${t% *} "
        cpus[$v]+="${t#* } "
        line+=" $v ${t% *} s (cpu ${t#* } s)"
    done
    echo "$line"
done

p=$(printf '%s\n' ${times[plain]} | median)
pc=$(printf '%s\n' ${cpus[plain]} | median)
echo "LAMMPS in.melt, $steps steps, 1 rank, $rounds rounds, medians: plain $p s (cpu $pc s)"
for v in trace suggested profile; do
    s=$(printf '%s\n' ${times[$v]} | median)
    c=$(printf '%s\n' ${cpus[$v]} | median)
    echo "  $v: $s s = $(awk -v p="$p" -v s="$s" 'BEGIN {printf "%.2f", s / p}') x plain," \
         "cpu $c s = $(awk -v p="$pc" -v s="$c" 'BEGIN {printf "%.2f", s / p}') x plain," \
         "${calls[$v]} calls, file $(awk -v b="${sizes[$v]}" 'BEGIN {printf "%.1f", b / 1048576}') MiB"
done
pl=$(printf '%s\n' ${times[plain]} | least)
echo "  least of the rounds (the runs the machine's other jobs disturbed least): plain $pl s"
for v in trace suggested profile; do
    s=$(printf '%s\n' ${times[$v]} | least)
    echo "  $v: $s s = $(awk -v p="$pl" -v s="$s" 'BEGIN {printf "%.2f", s / p}') x plain"
    echo "RESULT lammps-least variant=$v wall_s=$s plain_s=$pl" \
         "ratio=$(awk -v p="$pl" -v s="$s" 'BEGIN {printf "%.3f", s / p}')"
done
echo "  parts (medians): startup = hooking; hot path = (wall - plain - hooking - finalize) / calls"
for v in trace suggested profile; do
    s=$(printf '%s\n' ${times[$v]} | median)
    h=$(printf '%s\n' ${hookings[$v]} | median)
    f=$(printf '%s\n' ${finalizes[$v]} | median)
    cost=$("$cli" info $v.h5 | awk '$1 == "hook_cost_ns" {print $2}')
    hot=$(awk -v s="$s" -v p="$p" -v h="$h" -v f="$f" -v n="${calls[$v]}" \
        'BEGIN {printf "%.0f", (n > 0 ? (s - p - h / 1000 - f) / n * 1e9 : 0)}')
    echo "  $v: startup $h ms, finalize $f s, hot path $hot ns per call (scope measured" \
         "${cost:-?} ns at startup)"
    echo "RESULT lammps variant=$v wall_s=$s plain_s=$p hooking_ms=$h finalize_s=$f" \
         "hot_ns_per_call=$hot hook_cost_ns=${cost:-nan} calls=${calls[$v]} bytes=${sizes[$v]}"
done
"$cli" summary trace.h5 --all --format csv | sed -n '/^region,/,/^$/p' | cut -d, -f1,2 | sort >trace.calls
"$cli" summary profile.h5 --all --format csv | sed -n '/^region,/,/^$/p' | cut -d, -f1,2 | sort >profile.calls
if cmp -s trace.calls profile.calls; then
    echo "  profile: every region's calls equal the trace's ($(($(wc -l <trace.calls) - 2)) regions)"
else
    echo "  profile: calls differ from the trace's in $(diff trace.calls profile.calls | grep -c '^>') regions"
fi
