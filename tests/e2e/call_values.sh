#!/bin/bash
# call_values.sh: 'args=' and 'retval' on tests/programs/call_values.c
# under mpirun -n 2: the arguments and return values of every call, known
# in advance, come out exactly in the file (h5py: arg1, arg3, retval of
# combine; arg4 .. arg6 and retval of six; a pointer returned by where; no
# such datasets for plain), in scope events (columns and JSON); a config
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

"$PYTHON" - values.h5 out.txt $n <<'PY' || fail "values in the file"
import sys
import h5py
path, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
pointers = {}
for line in open(out):
    if line.startswith("where "):
        _, rank, i, address = line.split()
        pointers[(int(rank), int(i))] = int(address)
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
        assert v["arg1"] == [rank * 1000 + i for i in range(n)], v
        assert v["arg3"] == [3 * i for i in range(n)], v
        assert v["retval"] == [rank * 1000 - 2 * i for i in range(n)], v
        assert g["arg1"].dtype == "int64", g["arg1"].dtype
        have, v, _ = values("six")
        assert have == ["arg4", "arg5", "arg6", "retval"], (rank, have)
        assert v["arg4"] == [-4 * i for i in range(n)], v
        assert v["arg5"] == [5 * i for i in range(n)], v
        assert v["arg6"] == [6 * i + rank for i in range(n)], v
        assert v["retval"] == [8 * i + 5 + rank for i in range(n)], v
        have, v, _ = values("plain")
        assert have == [], (rank, have)
        have, v, _ = values("where")
        assert have == ["retval"], (rank, have)
        assert v["retval"] == [pointers[(rank, i)] for i in range(n)], (v, pointers)
PY
echo "ok: call values"
