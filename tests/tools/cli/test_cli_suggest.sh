#!/bin/sh
# CLI test of `scope suggest` on the suggest fixture (2 ranks, 11 regions,
# hook_cost_ns 25, config suggest.conf beside it): the table's figures,
# order and verdicts, the thresholds' options, the config it writes (the
# run's own plus a '!' line per function left out, or the regions by name
# when the run's config is gone), and bad input: a file without calls, a
# file of one region, a file without hook_cost_ns, bad options.
# usage: test_cli_suggest.sh SCOPE MAKE_FIXTURE
set -eu
. "$(dirname "$0")/cli_expect.sh"

"$make_fixture" suggest "$dir/suggest.h5"
printf '# the fixture'"'"'s config\n[functions]\ntiny_*\nwork_*\nns::*\nre:^MPI_\nnamed_tiny\n' \
    > "$dir/suggest.conf"

# csv: every row, by estimated overhead (calls x 25 ns), with its verdict
"$scope" suggest "$dir/suggest.h5" --format csv > "$dir/rows.csv" 2> "$dir/err" ||
    fail "suggest csv: $(cat "$dir/err")"
python3 - "$dir/rows.csv" <<'PY' || fail "suggest csv: wrong rows"
import csv, sys
lines = open(sys.argv[1]).read().split("\n\n")[0].splitlines()
assert lines[0] == "# regions", lines[0]
rows = list(csv.DictReader(lines[1:]))
got = [(r["region"], r["action"], r["reason"]) for r in rows]
want = [
    ("tiny_add", "exclude", "200000 calls, mean 12 ns < 4 x 25 ns hook cost: 2.5 % estimated overhead"),
    ("ns::Vec::dot(double const*) const", "exclude",
     "80000 calls, mean 8 ns < 4 x 25 ns hook cost: 1.0 % estimated overhead"),
    ("named_tiny", "keep", "named in the run's config"),
    ("MPI_Allreduce", "keep", "MPI"),
    ("work_kernel", "keep", "1.2 % of the run, mean 60 ns >= the 25 ns hook cost"),
    ("tiny_mul", "exclude", "30000 calls, mean 20 ns < 4 x 25 ns hook cost: 0.38 % estimated overhead"),
    ("work_medium", "keep", "mean 500 ns >= 4 x 25 ns hook cost"),
    ("work_rare", "keep", "100 calls < 10000"),
    ("work_solve", "keep", "mean 10.00 ms >= 4 x 25 ns hook cost"),
    ("from_env", "keep", "mean 1.00 ms >= 4 x 25 ns hook cost"),
    ("work_idle", "keep", "no calls"),
]
assert got == want, "\n".join(map(str, got))
add = rows[0]
assert add["calls"] == "200000" and float(add["overhead"]) == 0.005, add
assert abs(float(add["overhead_share"]) - 0.0025 / 0.0995) < 1e-6, add
assert add["bytes"] == "3200000", add  # 2 ranks x 100000 calls x 2 x 8 bytes
assert 0.3 < float(add["bytes_share"]) < 0.5, add
assert sum(int(r["bytes"]) for r in rows) < 8000000
PY
grep -q "^scope suggest: 3 of 11 regions left out, about 3.9 % of the run's time in hooks saved; -o CONFIG writes the config$" \
    "$dir/err" || fail "suggest: no outcome line: $(cat "$dir/err")"
[ "$(wc -l < "$dir/err")" -eq 1 ] || fail "suggest: more than one line on stderr: $(cat "$dir/err")"

# a table, and json
"$scope" suggest "$dir/suggest.h5" > "$dir/table.txt" 2> /dev/null || fail "suggest table"
[ "$(sed -n 2p "$dir/table.txt" | cut -d' ' -f1)" = region ] || fail "suggest table: $(head -3 "$dir/table.txt")"
[ "$(sed -n 3p "$dir/table.txt" | cut -d' ' -f1)" = tiny_add ] || fail "suggest table: not by overhead"
grep -q "^hook_cost_from  measured at the run's start$" "$dir/table.txt" || fail "suggest table: rules"
"$scope" suggest "$dir/suggest.h5" --format json > "$dir/s.json" 2> /dev/null || fail "suggest json"
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d['regions']) == 11 and d['rules']['hook_cost_ns'] == 25, d['rules']
assert d['rules']['config'] == sys.argv[2], d['rules']" "$dir/s.json" "$dir/suggest.conf" ||
    fail "suggest json: $(cat "$dir/s.json")"

# the thresholds: the action column for a few settings
actions() {   # actions OPTIONS...: the regions left out, in region order
    "$scope" suggest "$dir/suggest.h5" --format csv --sort region "$@" 2> /dev/null |
        python3 -c "
import csv, sys
rows = csv.DictReader(sys.stdin.read().split(chr(10) * 2)[0].splitlines()[1:])
print(' '.join(r['region'] for r in rows if r['action'] == 'exclude'))"
}
[ "$(actions --factor 0.4)" = "ns::Vec::dot(double const*) const" ] ||
    fail "--factor 0.4: $(actions --factor 0.4)"
[ "$(actions --min-calls 100000)" = "tiny_add" ] || fail "--min-calls 100000: $(actions --min-calls 100000)"
[ "$(actions --min-share 2)" = "ns::Vec::dot(double const*) const tiny_add tiny_mul work_kernel" ] ||
    fail "--min-share 2: $(actions --min-share 2)"
# a cheaper hook: tiny_add (12 ns, 1.2 % of the run) is now longer than a
# hook and big enough to keep
[ "$(actions --hook-cost 5)" = "ns::Vec::dot(double const*) const" ] ||
    fail "--hook-cost 5: $(actions --hook-cost 5)"
"$scope" suggest "$dir/suggest.h5" --hook-cost 5 --format csv 2> "$dir/err" > "$dir/cheap.csv"
grep -q '^tiny_add,.*,keep,"1.2 % of the run, mean 12 ns >= the 5 ns hook cost"$' "$dir/cheap.csv" ||
    fail "--hook-cost 5: tiny_add: $(cat "$dir/cheap.csv")"
grep -q '^work_kernel,.*,keep,mean 60 ns >= 4 x 5 ns hook cost$' "$dir/cheap.csv" ||
    fail "--hook-cost 5: work_kernel"
grep -q '^5,given by --hook-cost,4,10000,0.010000,' "$dir/cheap.csv" ||
    fail "--hook-cost 5: rules: $(tail -2 "$dir/cheap.csv")"

# -o: the run's config as it was, then a '!' line per function left out
# (the C++ one by its symbol, the clone tiny_mul.isra.0 by its function's
# name) and a line for the region the config does not select
"$scope" suggest "$dir/suggest.h5" -o "$dir/next.conf" > /dev/null 2> "$dir/err" ||
    fail "suggest -o: $(cat "$dir/err")"
grep -q "written to $dir/next.conf$" "$dir/err" || fail "suggest -o: $(cat "$dir/err")"
head -7 "$dir/next.conf" | cmp -s - "$dir/suggest.conf" || fail "-o: not the run's config first"
[ "$(grep -v '^#' "$dir/next.conf" | sed -n '8,$p' | sed 's/ *#.*//' | tr '\n' ' ')" = \
    "[functions] from_env !tiny_add !_ZNK2ns3Vec3dotEPKd !tiny_mul " ] ||
    fail "-o: lines: $(cat "$dir/next.conf")"
grep -q '^!_ZNK2ns3Vec3dotEPKd  *# ns::Vec::dot(double const\*) const: 80000 calls, mean 8 ns < 4 x 25 ns hook cost: 1.0 % estimated overhead$' \
    "$dir/next.conf" || fail "-o: the C++ line: $(cat "$dir/next.conf")"
grep -q "^# hook cost: 25 ns per call (measured at the run's start)$" "$dir/next.conf" ||
    fail "-o: no hook cost comment"

# a config with an include: written beside it, it loads; elsewhere the
# include is not found, and nothing is written
printf '[functions]\ntiny_*\ninclude = extra.conf\nns::*\nre:^MPI_\nnamed_tiny\n' > "$dir/suggest.conf"
printf '[functions]\nwork_*\n' > "$dir/extra.conf"
mkdir "$dir/sub"
expect_error "does not load: $dir/sub/next.conf:3: include file 'extra.conf' not found (write it beside the run's config" \
    suggest "$dir/suggest.h5" -o "$dir/sub/next.conf"
[ -z "$(ls "$dir/sub")" ] || fail "include not found: something was written: $(ls "$dir/sub")"
"$scope" suggest "$dir/suggest.h5" -o "$dir/beside.conf" > /dev/null 2>&1 || fail "include beside"
grep -q '^!tiny_add ' "$dir/beside.conf" || fail "include beside: $(cat "$dir/beside.conf")"

# the run's config gone: the regions by name (named_tiny is no longer
# known to be named, so it goes too)
mv "$dir/suggest.conf" "$dir/moved.conf"
"$scope" suggest "$dir/suggest.h5" -o "$dir/list.conf" > /dev/null 2> "$dir/err" ||
    fail "suggest, config gone: $(cat "$dir/err")"
grep -q "^scope suggest: the run's config $dir/suggest.conf is gone (No such file or directory): the suggested config lists the regions of the run$" \
    "$dir/err" || fail "config gone: not said: $(cat "$dir/err")"
[ "$(grep -v '^#' "$dir/list.conf" | sed 's/ *#.*//' | tr '\n' ' ')" = \
    "[functions] MPI_Allreduce work_kernel work_medium work_rare work_solve from_env work_idle !tiny_add !_ZNK2ns3Vec3dotEPKd !named_tiny !tiny_mul " ] ||
    fail "config gone: $(cat "$dir/list.conf")"

# bad input
"$make_fixture" empty "$dir/empty.h5"
expect_error "^scope: $dir/empty.h5: no calls recorded: nothing to suggest" \
    suggest "$dir/empty.h5" --hook-cost 30
"$make_fixture" two-ranks "$dir/one.h5"
"$scope" suggest "$dir/one.h5" --hook-cost 30 > "$dir/out" 2> "$dir/err" || fail "one region: exit $?"
[ "$(cat "$dir/err")" = "scope suggest: $dir/one.h5 has one region only (solve): nothing to choose between, it is kept" ] ||
    fail "one region: $(cat "$dir/err")"
"$scope" suggest "$dir/one.h5" > /dev/null 2> "$dir/err" || fail "no hook cost: exit $?"
grep -q "^scope suggest: $dir/one.h5 does not say what a hooked call cost (written before scope measured it): assuming 30 ns; --hook-cost NS to give it$" \
    "$dir/err" || fail "no hook cost: $(cat "$dir/err")"
expect_error "unknown option '--bogus'" suggest "$dir/suggest.h5" --bogus
expect_error "--factor: expected a number > 0, not '0'" suggest "$dir/suggest.h5" --factor 0
expect_error "--min-share: expected a percentage" suggest "$dir/suggest.h5" --min-share 200
expect_error "cannot write '$dir/no/such/dir.conf'" suggest "$dir/suggest.h5" -o "$dir/no/such/dir.conf"
echo "ok: scope suggest"
