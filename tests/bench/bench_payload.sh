#!/bin/bash
# bench_payload.sh: what recording MPI payload costs. bench_payload (RANKS
# ranks, 1 by default: the rank exchanges empty messages with itself, so
# that no other process's scheduling is in the time; 2: with each other;
# MPI_Irecv, MPI_Isend, MPI_Waitall, 3 calls per round, timed by CPU clock)
# run unprofiled, under scope timed only (SCOPE_MPI_PAYLOAD=0: the
# functions patched as any other) and under scope with payload (the
# wrappers), ROUNDS times each, interleaved, in this one invocation, with
# the default buffer (a ring that a writer thread spills); the medians give
# ns per recorded call over the unprofiled run, the payload's extra ns per
# call over timed-only (target <= 30 ns) and the ratio of the two, the same
# by the process's CPU time (the spill writer included), and the file's
# bytes per recorded call in both.
# usage: bench_payload.sh MPIRUN BENCH_PAYLOAD SCOPE_CLI [N] [ROUNDS] [RANKS]
set -euo pipefail
mpirun=$1 program=$2 scope=$3 n=${4:-200000} rounds=${5:-5} ranks=${6:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-payload-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
printf '[functions]\nre:^MPI_(Isend|Irecv|Waitall)$ depth=1\n' >bench.conf

run() {   # run KIND: prints "thread-ns process-ns" per round
    case $1 in
        plain) $mpirun -n "$ranks" "$program" "$n" ;;
        timed) SCOPE_MPI_PAYLOAD=0 $mpirun -x SCOPE_MPI_PAYLOAD -n "$ranks" "$scope" run -c bench.conf \
                   -o timed.h5 -- "$program" "$n" 2>/dev/null ;;
        payload) $mpirun -n "$ranks" "$scope" run -c bench.conf -o payload.h5 -- "$program" "$n" \
                     2>/dev/null ;;
    esac | awk '$1 == "ns_per_round" {t = $2} $1 == "process_ns_per_round" {p = $2}
                END {print t ":" p}'
}

declare -A times
for _ in $(seq "$rounds"); do
    for kind in plain timed payload; do
        times[$kind]+="$(run $kind) "
    done
done
median() {   # median FIELD (1: thread, 2: process) of the runs on stdin
    tr ' ' '\n' | grep . | cut -d: -f"$1" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
plain=$(echo "${times[plain]}" | median 1) plain_p=$(echo "${times[plain]}" | median 2)
timed=$(echo "${times[timed]}" | median 1) timed_p=$(echo "${times[timed]}" | median 2)
payload=$(echo "${times[payload]}" | median 1) payload_p=$(echo "${times[payload]}" | median 2)
calls=$((ranks * 3 * (n + n / 10)))
awk -v p="$plain" -v t="$timed" -v q="$payload" -v n="$n" -v calls="$calls" -v ranks="$ranks" \
    -v pp="$plain_p" -v tp="$timed_p" -v qp="$payload_p" \
    -v tb="$(stat -c %s timed.h5)" -v pb="$(stat -c %s payload.h5)" 'BEGIN {
    printf "bench_payload: %d rounds of MPI_Irecv + MPI_Isend + MPI_Waitall of empty messages on %d rank(s), CPU time, medians of the runs\n", n, ranks
    printf "  unprofiled          %8.1f ns per round\n", p
    printf "  scope, timed only   %8.1f ns per round: +%.1f ns per recorded call\n", t, (t - p) / 3
    printf "  scope, payload      %8.1f ns per round: +%.1f ns per recorded call\n", q, (q - p) / 3
    printf "  payload over timed-only: %+.1f ns per recorded call (target <= 30), ratio %.3f\n", (q - t) / 3, q / t
    printf "  process CPU per round (spill writer included): unprofiled %.1f, timed only %.1f, payload %.1f ns: payload over timed-only %+.1f ns per recorded call\n", pp, tp, qp, (qp - tp) / 3
    printf "  file bytes per recorded call: timed only %.2f, payload %.2f (%d calls)\n", tb / calls, pb / calls, calls
    exit ((q - t) / 3 <= 30 ? 0 : 1)
}'
