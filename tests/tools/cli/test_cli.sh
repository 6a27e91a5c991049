#!/bin/sh
# CLI test: `scope` on the tutorial's two-rank file gives valid JSON with the
# tutorial's numbers, and exits 2 with one error line on bad files.
# usage: test_cli.sh SCOPE MAKE_FIXTURE
set -eu
. "$(dirname "$0")/cli_expect.sh"

"$make_fixture" two-ranks "$dir/two.h5"
for cmd in info summary events tree; do
    "$scope" "$cmd" "$dir/two.h5" --format json > "$dir/$cmd.json" || fail "$cmd exit $?"
    python3 -m json.tool "$dir/$cmd.json" > /dev/null || fail "$cmd: invalid JSON"
    "$scope" "$cmd" "$dir/two.h5" > /dev/null || fail "$cmd table"
    "$scope" "$cmd" "$dir/two.h5" --format csv > /dev/null || fail "$cmd csv"
    "$scope" "$cmd" --help | grep -q example || fail "$cmd --help"
done
python3 - "$dir" <<'PY' || fail "JSON numbers"
import json, sys
d = sys.argv[1]
ev = json.load(open(d + "/events.json"))["events"]
assert [round(e["duration"], 6) for e in ev] == [0.2, 0.25, 0.2, 0.32, 0.4, 0.32], ev
assert [e["rank"] for e in ev] == [0, 0, 0, 1, 1, 1]
s = json.load(open(d + "/summary.json"))
assert [(r["rank"], round(r["total"], 6)) for r in s["per_rank"]] == [(0, 0.65), (1, 1.04)]
assert round(s["imbalance"][0]["max_over_min"], 2) == 1.60
assert s["regions"][0]["region"] == "solve" and s["regions"][0]["calls"] == 6
info = json.load(open(d + "/info.json"))
assert info["info"]["run_start_time"] is None and info["info"]["ranks"] == 2
PY

# streamed CSV: exact nanoseconds, negative times before an origin set late,
# sorting and --top on those rows (the two-rank file: starts 0, 0.5, 1 s)
"$scope" events "$dir/two.h5" --format csv --origin 0.75 --ranks 0 > "$dir/late.csv"
[ "$(sed -n 2p "$dir/late.csv")" = "solve,0,0,-0.750000000,-0.550000000,0.200000000,0,-1" ] ||
    fail "events csv with a late origin: $(sed -n 2p "$dir/late.csv")"
[ "$(wc -l < "$dir/late.csv")" -eq 4 ] || fail "events csv: $(wc -l < "$dir/late.csv") lines"
"$scope" events "$dir/two.h5" --format csv --origin 0.75 --sort start --top 2 > "$dir/sorted.csv"
[ "$(cut -d, -f2,4 "$dir/sorted.csv" | tr '\n' ' ')" = "rank,start 0,0.250000000 1,0.250000000 " ] ||
    fail "events --sort start: $(cat "$dir/sorted.csv")"
"$scope" events "$dir/two.h5" --format json --include none > "$dir/none.json"
python3 -c "import json,sys; assert json.load(open(sys.argv[1])) == {'events': []}" "$dir/none.json" ||
    fail "events json without rows: $(cat "$dir/none.json")"

# many regions: summary by total time, the first 30 rows in a table and a
# note of the rest, every row with --all or in json; info (which reads no
# calls: the fixture stores no statistics) names the first 10 and leaves
# the times empty, saying why; with --recompute, the 10 with the most time
"$make_fixture" many-regions "$dir/many.h5"
"$scope" summary "$dir/many.h5" > "$dir/many.txt" 2> "$dir/many.err" || fail "summary many"
[ "$(grep -c '^r[0-9]' "$dir/many.txt")" -eq 30 ] || fail "summary many: $(grep -c '^r[0-9]' "$dir/many.txt") rows"
[ "$(grep '^r[0-9]' "$dir/many.txt" | head -1 | cut -d' ' -f1)" = r39 ] || fail "summary many: not by total"
grep -q "^scope summary: the first 30 of 40 rows; --all for every one$" "$dir/many.err" ||
    fail "summary many: no note of the rows left out: $(cat "$dir/many.err")"
[ "$("$scope" summary "$dir/many.h5" --all | grep -c '^r[0-9]')" -eq 40 ] || fail "summary --all"
[ "$("$scope" summary "$dir/many.h5" --sort region --top 2 2>&1 | grep -c '^r0[01] ')" -eq 2 ] ||
    fail "summary --sort region --top 2"
"$scope" summary "$dir/many.h5" --format json > "$dir/many.json" || fail "summary many json"
python3 -c "import json,sys; assert len(json.load(open(sys.argv[1]))['regions']) == 40" \
    "$dir/many.json" || fail "summary json: not every row"
"$scope" info "$dir/many.h5" > "$dir/info.txt" 2> "$dir/info.err" || fail "info many"
grep -q "r00, r01, r02, r03, r04, r05, r06, r07, r08, r09 (the first 10; --all for all 40)" \
    "$dir/info.txt" || fail "info many: $(cat "$dir/info.txt")"
grep -q "^time_span  *-$" "$dir/info.txt" || fail "info many: a time span without the calls"
grep -q "^scope info: $dir/many.h5 stores no statistics .* (--recompute reads them)$" \
    "$dir/info.err" || fail "info many: no note why the times are empty: $(cat "$dir/info.err")"
"$scope" info "$dir/many.h5" --recompute > "$dir/info.txt" 2> "$dir/info.err" || fail "info --recompute"
grep -q "r39, r38, r37, r36, r35, r34, r33, r32, r31, r30 (the 10 with the most time; --all for all 40)" \
    "$dir/info.txt" || fail "info many --recompute: $(cat "$dir/info.txt")"
grep -q "^time_span  *[0-9]" "$dir/info.txt" || fail "info --recompute: no time span"
[ ! -s "$dir/info.err" ] || fail "info --recompute: $(cat "$dir/info.err")"
"$scope" info "$dir/many.h5" --all | grep -q "r00, r01" || fail "info --all"

echo "not HDF5" > "$dir/text.h5"
expect_error "^scope: $dir/missing.h5: No such file" summary "$dir/missing.h5"
expect_error "^scope: $dir/text.h5: not an HDF5 file" events "$dir/text.h5"
expect_error "bad regular expression" events "$dir/two.h5" --include '('
expect_error "unknown rank 5" tree "$dir/two.h5" --rank 5
expect_error "no run_start_time" events "$dir/two.h5" --origin run-start
expect_error "no column 'bogus'" summary "$dir/two.h5" --sort bogus
expect_error "unknown option" info "$dir/two.h5" --top 3
expect_error "missing FILE" summary
# an unknown command: the error line first, then the list of commands
set +e
"$scope" frobnicate > "$dir/out" 2> "$dir/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "frobnicate: exit $rc, expected 2"
head -1 "$dir/err" | grep -q "^scope: unknown command 'frobnicate'" || fail "frobnicate: $(head -1 "$dir/err")"
echo "cli: ok"
