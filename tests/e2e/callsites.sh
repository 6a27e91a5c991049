#!/bin/bash
# callsites.sh: a function called from four callers at known lines (the
# fourth calls it twice on one line), on 2
# ranks (each with its own ASLR layout), with call sites at depth 1 (set on
# the pattern) or 4 (set for the whole config): the file attributes every
# call to its caller, file and line, with the same ids on both ranks, and
# `scope callsites` says the same. With "recover", the job aborts and the
# file `scope recover` writes must say all of it as well. With "profile"
# (or "profile-recover") the run is in profile mode: each caller's calls
# are paths of their own, whose path_sites name the caller and line,
# `scope callsites` gives the calls per site that a trace run of the same
# program gives, and `scope tree` shows each path's call site (the two on
# one line told apart by their offsets).
# usage: callsites.sh 1|4 [recover|profile|profile-recover]
#        (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
depth=$1 mode=${2:-finalize}
profile=
case $mode in profile*) profile=1 mode=${mode#profile} mode=${mode#-} mode=${mode:-finalize} ;; esac
run_mode=(--mode trace)
[ -z "$profile" ] || run_mode=(--mode profile)
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
    ! $MPIRUN -n 2 "$SCOPE_CLI" run "${run_mode[@]}" -c scope.conf -- "$PROGRAM" abort \
        >out.txt 2>err.txt ||
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
    $MPIRUN -n 2 "$SCOPE_CLI" run "${run_mode[@]}" -c scope.conf -- "$PROGRAM" >out.txt 2>err.txt ||
        fail "run failed"
    wrote="16 calls, 2 ranks"
    [ -z "$profile" ] || wrote="a profile, 2 ranks"
    grep -q "^scope: wrote profiling_data.h5 ($wrote)" err.txt || fail "not written"
    [ "$(grep -c '^scope:' err.txt)" -eq 1 ] || fail "scope said more than one line"
fi

check="wrong call sites in the file"
"$PYTHON" - "$depth" "$(basename "$PROGRAM")" callsites.txt "$profile" <<'PY' || fail "$check"
import sys, h5py
depth, program, profile = int(sys.argv[1]), sys.argv[2], sys.argv[4] == "1"
lines = {w[1]: int(w[2]) for w in (l.split() for l in open(sys.argv[3])) if w and w[0] == "line"}
want = {"caller_a": 1, "caller_b": 2, "caller_c": 3, "caller_d": 2}
with h5py.File("profiling_data.h5") as f:
    frames = f["metadata/callsite_frames"][:]
    sites = f["metadata/callsites"][:]
    assert sites.shape[1] == depth, f"stored depth {sites.shape[1]}, asked {depth}"
    def text(v):
        return v.decode() if isinstance(v, bytes) else v
    per_rank = []
    for r in range(2):
        region = f[f"rank{r}/regions/measured"]
        if profile:   # each path's calls at its site
            assert len(region["start_times"]) == 0, "a profile with calls"
            calls = region["path_calls"][:]
            ids = [i for i, n in zip(region["path_sites"][:], calls) for _ in range(n)]
            assert sum(calls) == int(region.attrs["calls"]) == 8, f"rank {r}: paths {calls}"
        else:
            ids = region["callsite_ids"][:]
        assert len(ids) == 8, f"rank {r}: {len(ids)} call sites for 8 calls"
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
for caller in a b c d; do
    line=$(awk -v c="caller_$caller" '$2 == c {print $3}' callsites.txt)
    grep -q "caller_$caller (.*callsites.c:$line)" cs.csv || fail "caller_$caller:$line missing"
done
echo "ok: scope callsites lists the three callers with their lines"

[ -n "$profile" ] || exit 0
# the same program traced: the same calls at the same sites
$MPIRUN -n 2 "$SCOPE_CLI" run --mode trace -c scope.conf -o trace.h5 -- "$PROGRAM" >out.txt \
    2>err.txt || fail "trace run failed"
"$SCOPE_CLI" callsites trace.h5 --format csv >trace.csv 2>err.txt || fail "scope callsites (trace)"
"$PYTHON" - cs.csv trace.csv <<'PY' || fail "the profile's call sites differ from the trace's"
import csv, sys
def calls(path):
    rows = list(csv.DictReader(open(path)))
    return {(r["region"], r["callsite"], r.get("called_from")): int(r["calls"]) for r in rows}
profile, trace = calls(sys.argv[1]), calls(sys.argv[2])
assert profile == trace, f"profile {profile}\ntrace {trace}"
assert sum(n for (region, _, _), n in profile.items() if region == "measured") == 16, profile
print("ok: scope callsites gives the profile's calls per site as the trace's")
PY
"$SCOPE_CLI" tree profiling_data.h5 --rank 1 --format csv >tree.csv 2>err.txt || fail "scope tree"
for caller in a b c d; do
    line=$(awk -v c="caller_$caller" '$2 == c {print $3}' callsites.txt)
    case $caller in a) want=1 ;; b | d) want=2 ;; c) want=3 ;; esac
    got=$(awk -F, -v c="caller_$caller" -v l=":$line)" \
        '$1 == "measured" && index($7, c " (") == 1 && index($7, l) {n += $2} END {print n + 0}' tree.csv)
    [ "$got" = "$want" ] || fail "scope tree: $got calls of measured from caller_$caller:$line, want $want"
done
line=$(awk '$2 == "caller_d" {print $3}' callsites.txt)
sites=$(awk -F, -v l=":$line) [+0x" '$1 == "measured" && index($7, "caller_d (") == 1 &&
    index($7, l) {print $7}' tree.csv | sort -u | wc -l)
[ "$sites" = 2 ] || fail "scope tree: the two calls on line $line of caller_d do not read apart"
echo "ok: scope tree shows each path's call site"
