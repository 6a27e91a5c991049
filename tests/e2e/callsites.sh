#!/bin/bash
# callsites.sh: a function called from three callers at known lines, on 2
# ranks (each with its own ASLR layout), with call sites at depth 1 (set on
# the pattern) or 4 (set for the whole config): the file attributes every
# call to its caller, file and line, with the same ids on both ranks, and
# `scope callsites` says the same. With "recover", the job aborts and the
# file `scope recover` writes must say all of it as well.
# usage: callsites.sh 1|4 [recover]   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
depth=$1 mode=${2:-finalize}
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-callsites-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat out.txt callsites.txt err.txt 2>/dev/null || true; exit 1; }

if [ "$depth" = 1 ]; then
    printf '[functions]\nmeasured depth=1\n' >scope.conf
else
    printf '[callsites]\ndepth = %s\n[functions]\nmeasured\n' "$depth" >scope.conf
fi
if [ "$mode" = recover ]; then
    ! $MPIRUN -n 2 "$SCOPE_CLI" run -c scope.conf -- "$PROGRAM" abort >out.txt 2>err.txt ||
        fail "the job did not abort"
    pid0=$(awk '$1 == "pid" {print $2}' callsites.txt)
    [ -n "$pid0" ] || fail "no pid of rank 0 in callsites.txt"
    # the launcher may return before its killed ranks are gone
    for _ in $(seq 50); do
        "$SCOPE_CLI" recover --run "$pid0" -o profiling_data.h5 2>recover.txt && break
        grep -q "still running" recover.txt || break
        sleep 0.2
    done
    cat recover.txt >>err.txt
    [ -f profiling_data.h5 ] || fail "scope recover failed"
    ! grep -q "call sites are left out" err.txt || fail "call sites not recovered"
else
    $MPIRUN -n 2 "$SCOPE_CLI" run -c scope.conf -- "$PROGRAM" >out.txt 2>err.txt || fail "run failed"
    grep -q "^scope: wrote profiling_data.h5 (12 calls, 2 ranks)" err.txt || fail "not written"
    [ "$(grep -c '^scope:' err.txt)" -eq 1 ] || fail "scope said more than one line"
fi

"$PYTHON" - "$depth" "$(basename "$PROGRAM")" callsites.txt <<'PY' || fail "wrong call sites in the file"
import sys, h5py
depth, program = int(sys.argv[1]), sys.argv[2]
lines = {w[1]: int(w[2]) for w in (l.split() for l in open(sys.argv[3])) if w and w[0] == "line"}
want = {"caller_a": 1, "caller_b": 2, "caller_c": 3}
with h5py.File("profiling_data.h5") as f:
    frames = f["metadata/callsite_frames"][:]
    sites = f["metadata/callsites"][:]
    assert sites.shape[1] == depth, f"stored depth {sites.shape[1]}, asked {depth}"
    def text(v):
        return v.decode() if isinstance(v, bytes) else v
    per_rank = []
    for r in range(2):
        ids = f[f"rank{r}/regions/measured/callsite_ids"][:]
        assert len(ids) == 6, f"rank {r}: {len(ids)} call sites for 6 calls"
        counts = {}
        for i in ids:
            assert i >= 0, f"rank {r}: a call without call site"
            inner = frames[sites[i][0]]
            fn, file, line = text(inner["function"]), text(inner["file"]), int(inner["line"])
            assert text(inner["module"]).endswith(program), f"module {text(inner['module'])}"
            assert file.endswith("callsites.c"), f"{fn}: file {file!r}"
            assert line == lines[fn], f"{fn}: line {line}, the call is on {lines[fn]}"
            if depth > 1:
                outer = [text(frames[k]["function"]) for k in sites[i][1:] if k >= 0]
                assert outer and outer[0] == "main", f"{fn}: called from {outer}"
            counts[fn] = counts.get(fn, 0) + 1
        assert counts == want, f"rank {r}: {counts}"
        per_rank.append(sorted(ids))
    assert per_rank[0] == per_rank[1], "the ranks' same call sites got different ids"
print("ok: every call attributed to its caller and line on both ranks")
PY

"$SCOPE_CLI" callsites profiling_data.h5 --format csv >cs.csv 2>err.txt || fail "scope callsites failed"
for caller in a b c; do
    line=$(awk -v c="caller_$caller" '$2 == c {print $3}' callsites.txt)
    grep -q "caller_$caller (.*callsites.c:$line)" cs.csv || fail "caller_$caller:$line missing"
done
echo "ok: scope callsites lists the three callers with their lines"
