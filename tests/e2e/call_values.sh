#!/bin/bash
# call_values.sh: 'args=' and 'retval' on tests/programs/call_values.c
# under mpirun -n 2: the arguments and return values of every call, known
# in advance, come out exactly in the file (h5py: arg1, arg3, retval of
# combine; arg4 .. arg6 and retval of six; a pointer returned by where; no
# such datasets for plain), the same with the ranks on two pretend nodes
# (node files), in the file scope recover writes after MPI_Abort and in a
# run of 160 000 calls a rank (sorted at finalize in runs on disk), in
# scope events (columns and JSON); a config
# with args=0 or args=x is one scope.conf:LINE error and the program runs
# on unprofiled.
# usage: call_values.sh   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-values-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }
n=6

printf '[functions]\ncombine args=1,3 retval\nsix  args=6,4,5\tretval\nplain\nwhere retval\n' \
    >values.conf
$MPIRUN -n 2 "$SCOPE_CLI" run -c values.conf -o values.h5 -- "$PROGRAM" $n >out.txt 2>err.txt ||
    fail "run failed"
grep -q "^scope: wrote values.h5 (48 calls, 2 ranks)" err.txt || fail "not written"

# the same on two pretend nodes, then aborted and recovered
SCOPE_TEST_RANKS_PER_NODE=1 $MPIRUN -n 2 "$SCOPE_CLI" run -c values.conf -o nodes.h5 -- \
    "$PROGRAM" $n >nodes-out.txt 2>err.txt || fail "run on two nodes failed"
[ -f nodes.h5.d/node1.h5 ] || fail "no node file"
rc=0
$MPIRUN -n 2 "$SCOPE_CLI" run -c values.conf -- "$PROGRAM" $n abort >abort-out.txt 2>err.txt || rc=$?
[ "$rc" -ne 0 ] || fail "the job did not abort"
cat abort-0.txt abort-1.txt >abort-out.txt || fail "the ranks wrote no abort-R.txt"
pid0=$(sed -n 's/^call_values 0: sum .* (pid \([0-9]*\))$/\1/p' abort-out.txt)
[ -n "$pid0" ] || fail "no pid in scope's message"
for _ in $(seq 50); do
    "$SCOPE_CLI" recover --run "$pid0" -o recovered.h5 2>recover.txt && break
    grep -q "still running" recover.txt || break
    sleep 0.2
done
[ -f recovered.h5 ] || { cat recover.txt >>err.txt; fail "scope recover failed"; }

# more calls than one rank sorts in memory at finalize (131 072): its
# calls go through sorted runs in a scratch file, values and all
long=40000
$MPIRUN -n 2 "$SCOPE_CLI" run -c values.conf -o long.h5 -- "$PROGRAM" $long files \
    >/dev/null 2>err.txt || fail "the long run failed"
cat lines-0.txt lines-1.txt >long-out.txt || fail "the ranks wrote no lines-R.txt"

for file in values.h5:out.txt:$n nodes.h5:nodes-out.txt:$n recovered.h5:abort-out.txt:$n \
    long.h5:long-out.txt:$long; do
IFS=: read -r h5 out calls <<<"$file"
"$PYTHON" - "$h5" "$out" "$calls" <<'PY' || fail "values in $h5"
import sys
import h5py
path, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
pointers = {}
for line in open(out):
    if line.startswith("where "):
        _, rank, i, address = line.split()
        pointers[(int(rank), int(i))] = int(address)
def check(got, want, what):
    """got == want, or the first call that differs (not two long lists)"""
    if got != want:
        diff = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w][:1]
        raise AssertionError(f"{what}: {len(got)} values, {len(want)} wanted, first differing "
                             f"(call, got, wanted): {diff}")
with h5py.File(path, "r") as f:
    for rank in range(2):
        regions = f[f"rank{rank}/regions"]
        def values(name):
            g = regions[name]
            calls = len(g["start_times"])
            assert calls == n, (rank, name, calls)
            have = sorted(k for k in g if k.startswith("arg") or k == "retval")
            return have, {k: g[k][:].tolist() for k in have}, g
        have, v, g = values("combine")
        assert have == ["arg1", "arg3", "retval"], (rank, have)
        check(v["arg1"], [rank * 1000 + i for i in range(n)], (rank, "combine arg1"))
        check(v["arg3"], [3 * i for i in range(n)], (rank, "combine arg3"))
        check(v["retval"], [rank * 1000 - 2 * i for i in range(n)], (rank, "combine retval"))
        assert g["arg1"].dtype == "int64", g["arg1"].dtype
        have, v, _ = values("six")
        assert have == ["arg4", "arg5", "arg6", "retval"], (rank, have)
        check(v["arg4"], [-4 * i for i in range(n)], (rank, "six arg4"))
        check(v["arg5"], [5 * i for i in range(n)], (rank, "six arg5"))
        check(v["arg6"], [6 * i + rank for i in range(n)], (rank, "six arg6"))
        check(v["retval"], [8 * i + 5 + rank for i in range(n)], (rank, "six retval"))
        have, v, _ = values("plain")
        assert have == [], (rank, have)
        have, v, _ = values("where")
        assert have == ["retval"], (rank, have)
        check(v["retval"], [pointers[(rank, i)] for i in range(n)], (rank, "where retval"))
PY
done
# scope events: the columns of the values some region records, blank where
# a region has none, the same values per call
"$SCOPE_CLI" events values.h5 --format json >events.json 2>err.txt || fail "scope events"
"$PYTHON" - events.json $n <<'PY' || fail "values in scope events"
import json, sys
rows, n = json.load(open(sys.argv[1]))["events"], int(sys.argv[2])
names = ("arg1", "arg3", "arg4", "arg5", "arg6", "retval")
assert all(set(names) <= set(r) and "arg2" not in r for r in rows), rows[0]
def calls(name, rank):
    got = sorted((r for r in rows if r["name"] == name and r["rank"] == rank),
                 key=lambda r: r["call_index"])
    assert len(got) == n, (name, rank, len(got))
    return [tuple(r[k] for k in names) for r in got]
for rank in range(2):
    assert calls("combine", rank) == [(rank * 1000 + i, 3 * i, None, None, None, rank * 1000 - 2 * i)
                                      for i in range(n)], calls("combine", rank)
    assert calls("six", rank) == [(None, None, -4 * i, 5 * i, 6 * i + rank, 8 * i + 5 + rank)
                                  for i in range(n)], calls("six", rank)
    assert calls("plain", rank) == [(None,) * 6] * n, calls("plain", rank)
PY
# the Chrome trace: the same values in each call's args
"$SCOPE_CLI" export values.h5 --to chrome -o trace.json 2>err.txt || fail "scope export"
"$PYTHON" - trace.json $n <<'PY' || fail "values in the Chrome trace"
import json, sys
doc, n = json.load(open(sys.argv[1])), int(sys.argv[2])
events = doc["traceEvents"] if isinstance(doc, dict) else doc
def args(name, rank, keys):
    got = sorted((e["args"] for e in events
                  if e.get("ph") == "X" and e["name"] == name and e["pid"] == rank),
                 key=lambda a: a["call_index"])
    assert len(got) == n, (name, rank, len(got))
    return [tuple(a.get(k) for k in keys) for a in got]
for rank in range(2):
    assert args("combine", rank, ("arg1", "arg3", "retval", "arg2")) == \
        [(rank * 1000 + i, 3 * i, rank * 1000 - 2 * i, None) for i in range(n)]
    assert args("plain", rank, ("arg1", "retval")) == [(None, None)] * n
PY
"$SCOPE_CLI" events values.h5 --include combine --ranks 1 >events.txt 2>err.txt ||
    fail "scope events (table)"
# only the columns of the regions selected: combine records arg1, arg3, retval
head -1 events.txt | grep -Eq ' arg1 +arg3 +retval$' || fail "scope events: not combine's value columns"
grep -Eq '^combine +1 +2 .* 1002 +6 +996$' events.txt || fail "scope events: combine's third call"

# bad argument lists: one line naming the config's line, the program unprofiled
for bad in 0 x; do
    printf '[functions]\nplain\ncombine args=%s retval\n' $bad >bad.conf
    $MPIRUN -n 1 "$SCOPE_CLI" run -c bad.conf -o bad.h5 -- "$PROGRAM" 2 >out.txt 2>err.txt ||
        fail "args=$bad: the program did not run on"
    grep -q "^call_values 0: sum" out.txt || fail "args=$bad: the program's output changed"
    [ "$(grep -c '^scope:' err.txt)" -eq 1 ] || fail "args=$bad: expected one scope: line"
    grep -q "^scope: .*bad.conf:3: bad argument list 'args=$bad' (expected numbers 1 to 6" err.txt ||
        fail "args=$bad: not the config's line"
    [ ! -e bad.h5 ] || fail "args=$bad: a file was written"
done
echo "ok: call values"
