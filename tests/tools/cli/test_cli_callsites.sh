#!/bin/sh
# CLI test of call sites: `scope callsites` lists each region's call sites
# by total time with their labels, the slowest ranks and --ranks; `scope
# events` and the exports carry each call's site (CSV/JSON columns, the
# Chrome trace's args, folded stacks under the recorded frames); a file
# without call sites is one error line with the hint, exit 2; two sites on
# one line of a function are told apart by their offsets.
# usage: test_cli_callsites.sh SCOPE MAKE_FIXTURE
set -eu
. "$(dirname "$0")/cli_expect.sh"

"$make_fixture" callsites "$dir/cs.h5"
"$make_fixture" tutorial "$dir/plain.h5"
"$scope" callsites "$dir/cs.h5" --format csv > "$dir/cs.csv" || fail "callsites csv"
"$scope" callsites "$dir/cs.h5" > /dev/null || fail "callsites table"
"$scope" callsites "$dir/cs.h5" --format json | python3 -m json.tool > /dev/null ||
    fail "callsites: invalid JSON"
"$scope" callsites "$dir/cs.h5" --format csv --ranks 1 > "$dir/r1.csv" || fail "callsites --ranks"
"$scope" events "$dir/cs.h5" --format csv > "$dir/ev.csv" || fail "events csv"
"$scope" export "$dir/cs.h5" --to folded -o "$dir/cs.folded" || fail "export folded"
"$scope" export "$dir/cs.h5" --to chrome -o "$dir/cs.json" || fail "export chrome"
"$scope" export "$dir/cs.h5" --to json -o "$dir/ev.json" || fail "export json"
python3 - "$dir" <<'PY' || fail "call sites in the output"
import csv, json, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/cs.csv")))
got = [(r["region"], r["id"], r["callsite"], r["called_from"], r["calls"], r["total"],
        r["ranks"], r["slowest_ranks"]) for r in rows]
assert got == [
    ("MPI_Allreduce", "0", "solve_step (app.c:42)", "main (app.c:10)", "3", "7.000000000", "2", "1 0"),
    ("MPI_Allreduce", "1", "/lib/libx.so+0x1234", "", "1", "5.000000000", "1", "0"),
    ("MPI_Allreduce", "-1", "(none)", "", "1", "1.000000000", "1", "1"),
    ("MPI_Allreduce", "2", "main (app.c:10)", "", "1", "1.000000000", "1", "1"),
], got
assert rows[0]["slowest_total"] == "4.000000000", rows[0]
r1 = [(r["id"], r["calls"], r["total"]) for r in csv.DictReader(open(d + "/r1.csv"))]
assert r1 == [("0", "1", "4.000000000"), ("-1", "1", "1.000000000"), ("2", "1", "1.000000000")], r1
ev = list(csv.DictReader(open(d + "/ev.csv")))
assert [e["callsite_id"] for e in ev] == ["-1", "0", "1", "0", "0", "2", "-1"], ev
assert ev[1]["callsite"] == "solve_step (app.c:42) < main (app.c:10)", ev[1]
assert [e["callsite_id"] for e in json.load(open(d + "/ev.json"))["events"]] == \
    [-1, 0, 1, 0, 0, 2, -1]
folded = dict(l.rsplit(" ", 1) for l in open(d + "/cs.folded").read().split("\n") if l)
assert folded["main;solve_step;MPI_Allreduce"] == "4000000", folded
assert folded["main;MPI_Allreduce"] == "1000000", folded
assert "MPI_Allreduce" in folded, folded   # the call without a site stays a root
assert folded["solve;MPI_Allreduce"] == "8000000", folded
trace = [e for e in json.load(open(d + "/cs.json"))["traceEvents"] if e["ph"] == "X"]
sites = sorted((e["pid"], e["args"]["call_index"], e["args"].get("callsite", ""))
               for e in trace if e["name"] == "MPI_Allreduce")
assert sites[0] == (0, 0, "solve_step (app.c:42) < main (app.c:10)"), sites
assert sites[5] == (1, 2, ""), sites
PY
expect_error "no call sites recorded; give the functions a depth" callsites "$dir/plain.h5"

# Two sites on one line of one function: rows told apart by the offset.
"$make_fixture" callsites-same-line "$dir/line.h5"
"$scope" callsites "$dir/line.h5" --format csv | cut -d, -f1-4 > "$dir/line.csv" ||
    fail "callsites of two sites on one line"
printf '%s\n' "region,id,callsite,calls" "MPI_Send,0,exchange (app.c:42) [+0x20],2" \
    "MPI_Send,1,exchange (app.c:42) [+0x38],1" | diff - "$dir/line.csv" ||
    fail "two sites on one line are not told apart"
"$scope" events "$dir/plain.h5" --format csv | head -1 | grep -vq callsite ||
    fail "events of a file without call sites have call-site columns"
echo "cli callsites: ok"
