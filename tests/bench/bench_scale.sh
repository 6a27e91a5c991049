#!/bin/bash
# bench_scale.sh: the scale model of scope's end of a run, fed with costs
# measured here. Runs the many_calls program under scope with -v and reads
# what each step of MPI_Finalize cost:
#   - one rank alone: reading its records back, encoding and writing its
#     calls (per call: every rank does this at once, on its own core);
#   - 4 ranks on one pretend node: what the node's writer pays to place the
#     windows of the other ranks (per byte), and the call-site exchange on
#     rank 0 (per rank);
#   - 4 ranks as 4 pretend nodes: the clock offsets at MPI_Init (per node).
# The writers' own share comes from bench_scale_writer: the real writer code
# placing synthetic ranks (20 regions, 50 000 calls each) for a node of 64
# ranks, and rank 0's file for 1 024, 4 096 and 16 384 ranks (64 placed,
# the rest external links).
# Then it projects the whole finalize for jobs of thousands of ranks on
# hundreds of nodes (64 ranks a node, one a core, each node writing its own
# part, all nodes at once):
#   T = 2 x sync/node x nodes            (clock offsets, at init and end)
#     + exchange/rank x ranks            (call sites, on rank 0)
#     + encode/call x calls a rank       (every rank at once)
#     + place/byte x bytes of the 63 other ranks of a node (its writer)
#     + link/rank x ranks                (rank 0's file)
# against the design where rank 0 took every event (measured before this
# one: 150 ns a call, all on rank 0). What it assumes: a node writer's disk
# takes its part as fast as this machine's page cache does; the ranks of a
# node encode on their own cores (here 2 cores share 4 ranks, so the
# measured encode is an upper bound); MPI messages within a node are
# memory copies.
# usage: bench_scale.sh MPIRUN_CMD PROGRAM SCOPE_CLI SCALE_WRITER [CALLS_PER_RANK]
set -euo pipefail
mpirun=$1 program=$2 scope=$3 writer=$4 calls=${5:-2500000}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bench-scale-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
run() {   # ranks per_node -> err.txt
    # shellcheck disable=SC2086  # the launcher command carries its options
    SCOPE_TEST_RANKS_PER_NODE=$2 $mpirun -x SCOPE_TEST_RANKS_PER_NODE -n "$1" \
        "$scope" run -v -f work -- "$program" "$calls" >out.txt 2>err.txt
    rm -rf profiling_data.h5 profiling_data.h5.d
}
field() { sed -n "s/.*$1.*/\\1/p" err.txt | head -1; }

run 1 1
encode_s=$(field 'its own [0-9]* calls encoded and written in \([0-9.]*\) s')
run 4 4
exchange_ms=$(field 'call sites of 4 rank(s) merged in \([0-9.]*\) ms')
placed_mb=$(field 'placed (\([0-9.]*\) MB)')
placed_s=$(field 'MB) in \([0-9.]*\) s')
run 4 1
sync_ms=$(field 'clock offsets of 4 node(s) measured in \([0-9.]*\) ms')

"$writer" "$work" 50000 64 1024 4096 16384 >writer.txt
result() { sed -n "s/^RESULT $1.* $2=\\([0-9.]*\\).*/\\1/p" writer.txt | head -1; }
part_s=$(result node_part seconds)
part_bytes=$(result node_part bytes)
links_s=$(result 'root_file ranks=16384' links_seconds)
root_1k=$(result 'root_file ranks=1024' seconds)
root_4k=$(result 'root_file ranks=4096' seconds)

python3 - "$calls" "$encode_s" "$exchange_ms" "$placed_mb" "$placed_s" "$sync_ms" \
    "$part_s" "$part_bytes" "$links_s" "$root_1k" "$root_4k" <<'PY'
import sys
(calls, encode_s, exchange_ms4, placed_mb, placed_s, sync_ms,
 part_s, part_bytes, links_s, root_1k, root_4k) = map(float, sys.argv[1:])
encode_ns = encode_s / calls * 1e9                     # per call, one rank
bytes_per_call = placed_mb * 1e6 / (3 * calls)
mpi_place_ns = placed_s / (placed_mb * 1e6) * 1e9      # through MPI, 2 cores shared
place_ns = part_s / part_bytes * 1e9                   # the writer alone
exchange_ms = exchange_ms4 / 3                         # per rank
sync_node_ms = sync_ms / 3                             # per node
link_us = links_s / (16384 - 64) * 1e6
print("measured here (2 cores):")
print(f"  read back + encode + write, one rank: {encode_ns:.1f} ns a call; "
      f"{bytes_per_call:.2f} file bytes a call")
print(f"  a node writer placing 64 synthetic ranks: {part_s:.2f} s, {place_ns:.2f} ns a byte "
      f"(through MPI on 4 ranks sharing 2 cores: {mpi_place_ns:.2f} ns a byte)")
print(f"  rank 0's file: 1 024 ranks {root_1k:.2f} s, 4 096 ranks {root_4k:.2f} s; "
      f"{link_us:.1f} us a linked rank")
print(f"  call-site exchange: {exchange_ms:.3f} ms a rank; clock offsets: {sync_node_ms:.3f} ms a node")
print()
print(f"{'ranks':>7} {'nodes':>6} {'calls/rank':>11} {'finalize s':>11} {'rank 0 alone s':>15}")
per_node = 64
for ranks in (1024, 4096, 16384):
    nodes = ranks // per_node
    for e in (1e6, 1e7):
        t = (2 * sync_node_ms * nodes + exchange_ms * ranks) / 1e3 + encode_ns * e / 1e9 \
            + (per_node - 1) * e * bytes_per_call * place_ns / 1e9 + link_us * ranks / 1e6
        old = 150e-9 * ranks * e
        print(f"{ranks:>7} {nodes:>6} {int(e):>11} {t:>11.1f} {old:>15.0f}")
print(f"RESULT scale encode_ns={encode_ns:.1f} place_ns_per_byte={place_ns:.2f} "
      f"bytes_per_call={bytes_per_call:.2f} exchange_ms_per_rank={exchange_ms:.3f} "
      f"sync_ms_per_node={sync_node_ms:.3f} link_us_per_rank={link_us:.1f}")
PY
