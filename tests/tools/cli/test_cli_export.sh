#!/bin/sh
# CLI test of imbalance, export, plot and diff on the fixtures: the Chrome
# trace parsed and checked (events, pid per rank, tid per thread, units),
# folded stacks line by line, SVGs well-formed (xmllint, when installed) and
# rendered by headless Chromium (when /usr/bin/chromium exists), diff's
# speedups, and exit 2 with one line on bad input.
# usage: test_cli_export.sh SCOPE MAKE_FIXTURE
set -eu
. "$(dirname "$0")/cli_expect.sh"

"$make_fixture" tutorial "$dir/tut.h5"
"$make_fixture" two-ranks "$dir/two.h5"
"$make_fixture" threads "$dir/thr.h5"

# imbalance
"$scope" imbalance "$dir/two.h5" --format json > "$dir/imb.json" || fail "imbalance"
"$scope" imbalance "$dir/two.h5" --sort max_over_mean --top 1 > /dev/null || fail "imbalance --sort"
"$scope" imbalance "$dir/two.h5" --format csv | grep -q '^solve,2,1,' || fail "imbalance csv"

# export: Chrome trace
"$scope" export "$dir/tut.h5" --to chrome -o "$dir/tut.json" || fail "export chrome"
"$scope" export "$dir/thr.h5" -o "$dir/thr.json" || fail "export chrome (threads)"
"$scope" export "$dir/two.h5" --to chrome > "$dir/two.json" || fail "export chrome to stdout"
"$scope" export "$dir/tut.h5" --to chrome --exclude '^(setup|checkpoint)$' --origin first-entry \
    -o "$dir/tut-sel.json" || fail "export chrome selection"
"$scope" export "$dir/tut.h5" --to chrome --absolute -o "$dir/tut-abs.json" || fail "export --absolute"
for f in tut thr two tut-sel tut-abs; do
    python3 -m json.tool "$dir/$f.json" > /dev/null || fail "$f.json: invalid JSON"
done
python3 - "$dir" <<'PY' || fail "Chrome trace contents"
import json, sys
d = sys.argv[1]
def load(name):
    ev = json.load(open(f"{d}/{name}.json"))["traceEvents"]
    return [e for e in ev if e["ph"] == "X"], [e for e in ev if e["ph"] == "M"]
x, m = load("tut")
assert len(x) == 21, len(x)
assert {e["pid"] for e in x} == {0} and {e["tid"] for e in x} == {0}
setup = [e for e in x if e["name"] == "setup"][0]
assert abs(setup["ts"] - 1960.0) < 1e-6 and abs(setup["dur"] - 10080.0) < 1e-6, setup  # µs
solve = [e for e in x if e["name"] == "solve"]
assert [round(e["dur"], 3) for e in solve] == [2068.0 + 1000 * k for k in range(6)]
assert any(e["name"] == "process_name" and e["args"]["name"] == "rank 0" for e in m)
x, m = load("two")
assert [e["pid"] for e in x] == [0, 0, 0, 1, 1, 1], x
assert [e["dur"] for e in x] == [200000.0, 250000.0, 200000.0, 320000.0, 400000.0, 320000.0]
assert {(e["pid"], e["args"]["name"]) for e in m if e["name"] == "process_name"} == \
    {(0, "rank 0"), (1, "rank 1")}
x, m = load("thr")
assert len(x) == 6 and {(e["pid"], e["tid"]) for e in x} == {(0, 0), (0, 1), (1, 0), (1, 1)}
assert 'op<T>&"x"' in {e["name"] for e in x}
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in m if e["name"] == "thread_name"}
assert names == {(0, 0): "thread 0", (0, 1): "thread 1", (1, 0): "thread 0", (1, 1): "thread 1"}
x, m = load("tut-sel")
assert len(x) == 18 and min(e["ts"] for e in x) == 10080.0 + 180.0, min(e["ts"] for e in x)
x, m = load("tut-abs")
assert min(e["ts"] for e in x) == 163429213.445 + 1960.0, min(e["ts"] for e in x)
PY

# export: folded stacks (µs of self time per path)
"$scope" export "$dir/tut.h5" --to folded -o "$dir/tut.folded" || fail "export folded"
cat > "$dir/tut.expected" <<'TXT'
setup 10080
timestep 120
timestep;assemble 12402
timestep;solve 27408
checkpoint 8138
TXT
diff "$dir/tut.expected" "$dir/tut.folded" || fail "folded stacks differ"
"$scope" export "$dir/tut.h5" --to folded --exclude timestep | grep -qx 'solve 27408' \
    || fail "folded --exclude: children move up"
"$scope" export "$dir/two.h5" --to folded --per-rank > "$dir/two.folded" || fail "folded --per-rank"
printf 'rank 0;solve 650000\nrank 1;solve 1040000\n' | diff - "$dir/two.folded" \
    || fail "folded --per-rank differs"
"$scope" export "$dir/two.h5" --to folded | grep -qx 'solve 1690000' || fail "folded merged"
"$scope" export "$dir/thr.h5" --to folded --ranks 0 | grep -qx 'work;op<T>&"x" 10000' \
    || fail "folded threads"

# export: CSV / JSON of events and summary
"$scope" export "$dir/tut.h5" --to csv -o "$dir/ev.csv" || fail "export csv"
[ "$(wc -l < "$dir/ev.csv")" -eq 22 ] || fail "events CSV: $(wc -l < "$dir/ev.csv") lines"
head -1 "$dir/ev.csv" | grep -q '^name,rank,call_index,start,end,duration' || fail "CSV header"
"$scope" export "$dir/two.h5" --to json --what summary -o "$dir/sum.json" || fail "export summary"
python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['regions'][0]['calls']==6" \
    "$dir/sum.json" || fail "summary JSON"

# plots
have_xmllint=$(command -v xmllint || true)
[ -n "$have_xmllint" ] || echo "SKIP: xmllint not installed (apt-get install libxml2-utils)"
for f in tut two thr; do
    for kind in gantt durations flame; do
        out="$dir/$f-$kind.svg"
        "$scope" plot "$dir/$f.h5" --kind $kind -o "$out" || fail "plot $f $kind"
        grep -q "<title>.*$f.h5</title>" "$out" || fail "$out: no title with the file name"
        [ -z "$have_xmllint" ] || xmllint --noout "$out" || fail "$out: not well-formed"
    done
done
grep -q 'op&lt;T&gt;&amp;&quot;x&quot;' "$dir/thr-gantt.svg" || fail "names not escaped"
grep -q 'rank 1 · thread 1' "$dir/thr-gantt.svg" || fail "no lane per rank and thread"
grep -q '>10 ms</text>' "$dir/tut-gantt.svg" || fail "gantt: no time ticks in ms"
grep -q '>0 ms</text>' "$dir/tut-gantt.svg" || fail "gantt: axis does not start at 0"
[ "$(grep -c 'class="bar" x=' "$dir/tut-gantt.svg")" -ge 21 ] || fail "gantt: a bar per call"
"$scope" plot "$dir/tut.h5" --include solve > "$dir/solve.svg" || fail "plot to stdout"
if [ -x /usr/bin/chromium ]; then
    for f in tut-gantt thr-gantt two-durations tut-flame; do
        profile=$(mktemp -d)
        timeout 60 /usr/bin/chromium --headless --no-sandbox --disable-gpu \
            --disable-background-networking --disable-component-update --disable-sync \
            --no-first-run --user-data-dir="$profile" --screenshot="$dir/$f.png" \
            --window-size=1200,800 "file://$dir/$f.svg" > /dev/null 2>&1 || true
        rm -rf "$profile"
        [ -s "$dir/$f.png" ] || fail "chromium did not render $f.svg"
    done
else
    echo "SKIP: no /usr/bin/chromium, SVGs not rendered"
fi

# diff: two timings of the same regions
"$scope" diff "$dir/two.h5" "$dir/two.h5" --format json > "$dir/same.json" || fail "diff same"
"$scope" diff "$dir/tut.h5" "$dir/two.h5" --format json > "$dir/diff.json" || fail "diff"
"$scope" diff "$dir/tut.h5" "$dir/two.h5" --sort speedup > /dev/null || fail "diff --sort"
python3 - "$dir" <<'PY' || fail "diff numbers"
import json, sys
d = sys.argv[1]
same = json.load(open(d + "/same.json"))["diff"]
assert same == [{"region": "solve", "a": 0.845, "b": 0.845, "diff": 0.0, "speedup": 1.0,
                 "in": "both"}], same
rows = {r["region"]: r for r in json.load(open(d + "/diff.json"))["diff"]}
assert set(rows) == {"setup", "timestep", "assemble", "solve", "checkpoint"}
s = rows["solve"]
assert abs(s["a"] - 0.027408) < 1e-9 and abs(s["b"] - 0.845) < 1e-9, s
assert abs(s["speedup"] - 0.027408 / 0.845) < 1e-6 and s["in"] == "both", s
assert rows["setup"]["in"] == "A only" and rows["setup"]["speedup"] is None
PY
"$scope" diff "$dir/two.h5" "$dir/tut.h5" | grep -q 'B only' || fail "diff: B only"

# a profile whose regions have no calls: summary says so, plot and export refuse
"$make_fixture" empty "$dir/empty.h5"
"$scope" summary "$dir/empty.h5" --format csv | grep -q '^solve,0,' || fail "summary of empty regions"
expect_error "no calls to write" plot "$dir/empty.h5" -o "$dir/empty.svg"
expect_error "no calls to write" export "$dir/empty.h5" --to folded
[ ! -e "$dir/empty.svg" ] || fail "plot of empty regions left a file"

for cmd in imbalance export plot; do
    expect_error "No such file" $cmd "$dir/missing.h5"
    expect_error "missing FILE" $cmd
    expect_error "unknown rank 9" $cmd "$dir/two.h5" --ranks 9
    expect_error "bad regular expression" $cmd "$dir/two.h5" --include '('
done
expect_error "No such file" diff "$dir/two.h5" "$dir/missing.h5"
expect_error "^scope: $dir/missing.h5: No such file" diff "$dir/missing.h5" "$dir/two.h5"
expect_error "missing FILE" diff "$dir/two.h5"
expect_error "expected exactly two FILEs" diff "$dir/two.h5" "$dir/two.h5" "$dir/two.h5"
expect_error "unknown rank 9" diff "$dir/two.h5" "$dir/tut.h5" --ranks 9
expect_error "--to: expected chrome, folded, csv or json, not 'svg'" export "$dir/two.h5" --to svg
expect_error "--kind: expected gantt, durations, flame or comm" plot "$dir/two.h5" --kind pie
expect_error "--what summary needs --to csv or json" export "$dir/two.h5" --what summary
expect_error "--per-rank needs --to folded" export "$dir/two.h5" --per-rank
expect_error "unknown option '--format'" plot "$dir/two.h5" --format json
expect_error "cannot write '$dir/no/such/dir/out.svg'" plot "$dir/two.h5" -o "$dir/no/such/dir/out.svg"
expect_error "cannot write '$dir/no/trace.json'" export "$dir/two.h5" -o "$dir/no/trace.json"
expect_error "no column 'bogus'" diff "$dir/two.h5" "$dir/two.h5" --sort bogus
# a failed run leaves no output file behind
set +e
"$scope" plot "$dir/missing.h5" -o "$dir/never.svg" 2> /dev/null
set -e
[ ! -e "$dir/never.svg" ] || fail "a failed plot left its output"
[ -z "$(ls "$dir" | grep '\.svg\.' || true)" ] || fail "temporary files left behind"
echo "cli export/plot/diff/imbalance: ok"
