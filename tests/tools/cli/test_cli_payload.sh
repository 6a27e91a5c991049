#!/bin/sh
# CLI test of what MPI calls carried, on the payload fixture (4 ranks: a
# ring of Isend/Irecv+Waitall, a Sendrecv on a Cartesian communicator,
# Alltoallv, Bcast from root 2; see fixtures.h) with and without the
# writer's statistics: `scope comm`'s matrix, totals and collectives;
# a file without payload is one error line with the hint, exit 2.
# usage: test_cli_payload.sh SCOPE MAKE_FIXTURE
set -eu
scope=$1
make_fixture=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/cli_expect.sh"

"$make_fixture" payload "$dir/p.h5"
"$make_fixture" payload-stats "$dir/ps.h5"
"$make_fixture" callsites "$dir/plain.h5"

for f in p ps; do
    "$scope" comm "$dir/$f.h5" --format csv > "$dir/$f.comm.csv" || fail "comm csv"
    printf '%s\n' sender,receiver,messages,bytes 0,1,2,300 0,3,1,8 1,0,1,8 1,2,2,600 \
        2,1,1,8 2,3,2,900 3,0,2,1200 3,2,1,8 | diff - "$dir/$f.comm.csv" || fail "comm matrix ($f)"
done
"$scope" comm "$dir/p.h5" > "$dir/comm.txt" || fail "comm table"
grep -q '^bytes_sent  *3032$' "$dir/comm.txt" || fail "comm table: total sent"
grep -q '^bytes_received  *3032$' "$dir/comm.txt" || fail "comm table: total received"
grep -q '^sent_equals_received  *yes$' "$dir/comm.txt" || fail "comm table: sent == received"
"$scope" comm "$dir/p.h5" --include 'MPI_Isend$' > "$dir/sends.txt" || fail "comm --include"
grep -q '^sent_equals_received  *no$' "$dir/sends.txt" || fail "comm: sends alone are not received"
"$scope" comm "$dir/p.h5" --format json --ranks 3 --collectives > "$dir/comm.json" ||
    fail "comm json"
python3 - "$dir" <<'PY' || fail "comm json"
import json, sys
d = json.load(open(sys.argv[1] + "/comm.json"))
assert d["matrix"] == [{"sender": 3, "receiver": 0, "messages": 2, "bytes": 1200},
                       {"sender": 3, "receiver": 2, "messages": 1, "bytes": 8}], d
assert d["totals"]["bytes_received"] == 1208 and d["totals"]["sent_equals_received"] == "yes", d
assert d["collectives"] == [{"rank": 3, "calls": 2, "bytes": 160}], d
PY
"$scope" comm "$dir/ps.h5" --collectives --format csv | sed -n '/^# collectives/,$p' > "$dir/coll.csv"
printf '%s\n' "# collectives" rank,calls,bytes 0,2,40 1,2,80 2,2,1144 3,2,160 |
    diff - "$dir/coll.csv" || fail "comm --collectives"
# summary: bytes and mean_bytes for the regions with payload, blank for main
"$scope" summary "$dir/ps.h5" --format csv --sort region | sed -n 1,9p |
    cut -d, -f1,2,10,11 > "$dir/sum.csv" || fail "summary csv"
printf '%s\n' "# regions" region,calls,bytes,mean_bytes MPI_Alltoallv,4,400,100 \
    MPI_Bcast,4,1024,256 MPI_Irecv,8,0,0 MPI_Isend,8,3000,375 MPI_Sendrecv,4,64,16 \
    MPI_Waitall,8,3000,375 main,4,, | diff - "$dir/sum.csv" || fail "summary bytes"
"$scope" summary "$dir/plain.h5" --format csv | grep -q '^region,calls,total,mean,std,min,max,self,share$' ||
    fail "summary of a file without payload has other columns"
# callsites: mpiP's message sizes per call site
"$scope" callsites "$dir/p.h5" --format csv | cut -d, -f1-4,11- > "$dir/cs.csv" || fail "callsites"
printf '%s\n' region,id,callsite,calls,min_bytes,mean_bytes,max_bytes,total_bytes \
    "MPI_Isend,0,ring_step (ring.c:30),4,100,250,400,1000" \
    "MPI_Isend,1,ring_step (ring.c:34),4,200,500,800,2000" | diff - "$dir/cs.csv" ||
    fail "callsites message sizes"
"$scope" callsites "$dir/plain.h5" --format csv | head -1 | grep -vq bytes ||
    fail "callsites of a file without payload have byte columns"
# sizes: a histogram per function in powers of two
"$scope" sizes "$dir/ps.h5" --format csv --exclude 'Waitall|Alltoallv' > "$dir/sizes.csv" ||
    fail "sizes csv"
printf '%s\n' function,bin,from,to,count MPI_Isend,64-127,64,127,1 MPI_Isend,128-255,128,255,2 \
    MPI_Isend,256-511,256,511,3 MPI_Isend,512-1023,512,1023,2 MPI_Sendrecv,8-15,8,15,8 \
    MPI_Bcast,0,0,0,3 MPI_Bcast,1024-2047,1024,2047,1 | diff - "$dir/sizes.csv" ||
    fail "sizes histogram"
"$scope" sizes "$dir/p.h5" --format json > "$dir/sizes.json" || fail "sizes json"
python3 - "$dir" <<'PY' || fail "sizes json"
import json, sys
d = json.load(open(sys.argv[1] + "/sizes.json"))
fn = {r["function"]: r for r in d["functions"]}
assert fn["MPI_Waitall"] == {"function": "MPI_Waitall", "family": "p2p", "counts": "messages",
    "count": 8, "min_bytes": 100, "mean_bytes": 375, "max_bytes": 800, "total_bytes": 3000}, fn
assert fn["MPI_Alltoallv"]["counts"] == "calls" and fn["MPI_Alltoallv"]["total_bytes"] == 400, fn
assert fn["MPI_Irecv"]["count"] == 0 and fn["MPI_Irecv"]["min_bytes"] is None, fn
PY
expect_error "plain.h5: the run recorded no MPI payload" sizes "$dir/plain.h5"
expect_error "plain.h5: the run recorded no MPI payload (bytes, peers); profile it with an MPI config" \
    comm "$dir/plain.h5"
"$scope" --help | grep -q '^  comm ' || fail "scope --help lacks comm"
"$scope" --help | grep -q '^  sizes ' || fail "scope --help lacks sizes"
echo "cli payload: ok"
