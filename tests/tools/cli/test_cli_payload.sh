#!/bin/sh
# CLI test of what MPI calls carried, on the payload fixture (4 ranks: a
# ring of Isend/Irecv+Waitall, a Sendrecv on a Cartesian communicator,
# Alltoallv, Bcast from root 2; see fixtures.h) with and without the
# writer's statistics: `scope comm`'s matrix, totals and collectives (per
# rank, and the Alltoallv's bytes per pair from its peer totals);
# a file without payload is one error line with the hint, exit 2.
# usage: test_cli_payload.sh SCOPE MAKE_FIXTURE
set -eu
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
pairs=$(for s in 0 1 2 3; do for t in 0 1 2 3; do
    echo "MPI_Alltoallv,$s,$t,1,$((10 * (s + 1))),$((10 * (s + 1)))"; done; done)
printf '%s\n' "# collectives" rank,calls,bytes 0,2,40 1,2,80 2,2,1144 3,2,160 "" \
    "# collective_pairs" region,sender,receiver,calls,bytes,received_bytes $pairs |
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
# events and the exports carry bytes/peer/tag/comm; the trace draws each
# matched send -> receive as an arrow; the matrix as a heatmap
"$scope" events "$dir/ps.h5" --format csv --ranks 2 --include 'main|Isend|Bcast' |
    cut -d, -f1-3,11- > "$dir/ev.csv" || fail "events csv"
printf '%s\n' name,rank,call_index,bytes,peer,tag,comm main,2,0,,,, MPI_Isend,2,0,300,3,7,0 \
    MPI_Isend,2,1,600,3,7,0 MPI_Bcast,2,0,1024,2,-1,0 | diff - "$dir/ev.csv" ||
    fail "events payload columns"
"$scope" export "$dir/p.h5" --to csv -o "$dir/ex.csv" || fail "export csv"
grep -q '^MPI_Sendrecv,1,0,.*,16,-1,3,1$' "$dir/ex.csv" || fail "export csv: Sendrecv payload"
"$scope" export "$dir/p.h5" --to json --ranks 0 -o "$dir/ex.json" || fail "export json"
"$scope" export "$dir/p.h5" --to chrome -o "$dir/trace.json" || fail "export chrome"
"$scope" export "$dir/p.h5" --to chrome --ranks 0,1 --exclude Sendrecv -o "$dir/trace01.json" ||
    fail "export chrome --ranks"
"$scope" plot "$dir/p.h5" --kind comm -o "$dir/m.svg" || fail "plot --kind comm"
python3 - "$dir" <<'PY' || fail "payload in the exports"
import json, re, sys
d = sys.argv[1]
ev = json.load(open(d + "/ex.json"))["events"]
w = [e for e in ev if e["name"] == "MPI_Waitall"]
assert [(e["bytes"], e["peer"], e["tag"], e["comm"]) for e in w] == [(400, 3, 7, 0), (800, 3, 7, 0)], w
assert [e for e in ev if e["name"] == "main"][0]["bytes"] is None
trace = json.load(open(d + "/trace.json"))["traceEvents"]
x = [e for e in trace if e["ph"] == "X" and e["name"] == "MPI_Alltoallv" and e["pid"] == 3]
assert x[0]["args"]["bytes"] == 160 and x[0]["args"]["peer"] == -1, x
starts = {e["id"]: e for e in trace if e["ph"] == "s"}
ends = {e["id"]: e for e in trace if e["ph"] == "f"}
assert len(starts) == 12 and starts.keys() == ends.keys(), (starts, ends)
arrows = sorted((s["pid"], s["ts"], ends[i]["pid"], ends[i]["ts"]) for i, s in starts.items())
assert arrows[:3] == [(0, 1000000.0, 1, 2000000.0), (0, 3000000.0, 3, 3000000.0),
                      (0, 11000000.0, 1, 12000000.0)], arrows
assert all(e["bp"] == "e" and e["cat"] == "mpi" for e in ends.values())
t01 = json.load(open(d + "/trace01.json"))["traceEvents"]
a01 = sorted((e["pid"], e["ts"]) for e in t01 if e["ph"] == "s")
assert a01 == [(0, 1000000.0), (0, 11000000.0)], a01   # 0 -> 1 only: 1 sends to 2
svg = open(d + "/m.svg").read()
cells = re.findall(r'<title>rank (\d) \u2192 rank (\d): (\d+) messages?, (\d+) bytes', svg)
assert sorted(cells) == [("0", "1", "2", "300"), ("0", "3", "1", "8"), ("1", "0", "1", "8"),
    ("1", "2", "2", "600"), ("2", "1", "1", "8"), ("2", "3", "2", "900"),
    ("3", "0", "2", "1200"), ("3", "2", "1", "8")], cells
assert 'fill="#08306b"><title>rank 3 \u2192 rank 0' in svg   # the most bytes: the darkest
PY
# the Gantt chart: a line from each matched send to its receive, both shown
for sel in ":12" "--exclude Waitall:4" "--ranks 0,1:3"; do
    "$scope" plot "$dir/p.h5" ${sel%:*} -o "$dir/g.svg" || fail "plot gantt ${sel%:*}"
    [ "$(grep -c '<line class="message"' "$dir/g.svg")" -eq "${sel#*:}" ] ||
        fail "gantt ${sel%:*}: $(grep -c '<line class="message"' "$dir/g.svg") message lines"
done
"$scope" plot "$dir/plain.h5" -o "$dir/plain.svg" || fail "plot gantt plain"
grep -q message "$dir/plain.svg" && fail "message lines in a Gantt chart without payload"
"$scope" export "$dir/plain.h5" --to chrome -o "$dir/plain.json" || fail "export chrome plain"
grep -q '"ph": "s"' "$dir/plain.json" && fail "arrows in a trace without payload"
"$scope" events "$dir/plain.h5" --format csv | head -1 | grep -vq bytes ||
    fail "events of a file without payload have payload columns"
expect_error "plain.h5: the run recorded no MPI payload" plot "$dir/plain.h5" --kind comm -o "$dir/no.svg"
[ ! -e "$dir/no.svg" ] || fail "plot --kind comm without payload wrote a file"
expect_error "plain.h5: the run recorded no MPI payload" sizes "$dir/plain.h5"
expect_error "plain.h5: the run recorded no MPI payload (bytes, peers); profile it with an MPI config" \
    comm "$dir/plain.h5"
"$scope" --help | grep -q '^  comm ' || fail "scope --help lacks comm"
"$scope" --help | grep -q '^  sizes ' || fail "scope --help lacks sizes"
echo "cli payload: ok"
