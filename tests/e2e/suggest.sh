#!/bin/bash
# suggest.sh: `scope suggest` on a real run. suggest_mix under mpirun -n 2,
# with a config that selects its tiny and its heavy functions by globs, one
# tiny function by name and two MPI functions by a regex: the file carries
# the hook cost measured at start (> 0, < 10 us); `scope suggest -o` leaves
# out exactly the three tiny_* functions (named_tiny is named, MPI_Comm_rank
# is MPI, rare_tiny has few calls, the heavy ones are long); a second run
# with the suggested config records none of those three and every other
# function with the same calls as the first.
# usage: suggest.sh   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-suggest-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt suggest.txt next.conf 2>/dev/null || true; exit 1; }

cat > mix.conf <<'CONF'
# suggest_mix: everything it has, by globs, one function by name, MPI by a regex
[functions]
tiny_*
rare_*
heavy_*
named_tiny
re:^MPI_(Allreduce|Comm_rank)$
CONF
$MPIRUN -n 2 "$SCOPE_CLI" run -c mix.conf -- "$PROGRAM" >out.txt 2>err.txt || fail "first run failed"
grep -q "^scope: wrote profiling_data.h5 (1840410 calls, 2 ranks)" err.txt || fail "first run: no file"

"$SCOPE_CLI" info profiling_data.h5 --format json >info.json || fail "scope info"
"$PYTHON" - info.json <<'PY' || fail "hook_cost_ns missing or implausible"
import json, sys
cost = json.load(open(sys.argv[1]))["metadata"].get("hook_cost_ns")
assert isinstance(cost, int) and 0 < cost < 10000, cost
print(f"ok: a hooked call cost {cost} ns (measured at start)")
PY

"$SCOPE_CLI" suggest profiling_data.h5 -o next.conf --format csv >suggest.csv 2>suggest.txt ||
    fail "scope suggest failed"
grep -q "^scope suggest: 3 of 10 regions left out, about .* written to next.conf$" suggest.txt ||
    fail "scope suggest: $(cat suggest.txt)"
[ "$(grep '^!' next.conf | sed 's/ .*//' | sort | tr '\n' ' ')" = "!tiny_add !tiny_flag !tiny_mul " ] ||
    fail "not exactly the tiny functions left out"
[ "$(grep -v '^#' next.conf | sed 's/ *#.*//' | grep -c .)" -eq 10 ] ||
    fail "more lines than the run's config and three exclusions"
"$PYTHON" - suggest.csv <<'PY' || fail "the table's verdicts"
import csv, sys
rows = {r["region"]: r for r in csv.DictReader(open(sys.argv[1]).read().split("\n\n")[0].splitlines()[1:])}
assert sorted(k for k, r in rows.items() if r["action"] == "exclude") == ["tiny_add", "tiny_flag", "tiny_mul"]
assert rows["named_tiny"]["reason"] == "named in the run's config", rows["named_tiny"]
assert rows["MPI_Comm_rank"]["reason"] == rows["MPI_Allreduce"]["reason"] == "MPI"
assert rows["rare_tiny"]["reason"] == "200 calls < 10000", rows["rare_tiny"]
for name in ("heavy_solve", "heavy_step", "heavy_exchange"):
    assert rows[name]["reason"].startswith("mean "), rows[name]
print("ok: left out", ", ".join(k for k, r in rows.items() if r["action"] == "exclude"))
PY

$MPIRUN -n 2 "$SCOPE_CLI" run -c next.conf -o second.h5 -- "$PROGRAM" >out.txt 2>err.txt ||
    fail "second run failed"
grep -q "^scope: wrote second.h5 (640410 calls, 2 ranks)" err.txt || fail "second run: no file"
"$SCOPE_CLI" summary profiling_data.h5 --format csv >first.csv || fail "summary of the first run"
"$SCOPE_CLI" summary second.h5 --format csv >second.csv || fail "summary of the second run"
"$PYTHON" - first.csv second.csv <<'PY' || fail "the second run"
import csv, sys
def calls(path):
    lines = open(path).read().split("\n\n")[0].splitlines()[1:]
    return {r["region"]: int(r["calls"]) for r in csv.DictReader(lines)}
first, second = calls(sys.argv[1]), calls(sys.argv[2])
left_out = {"tiny_add", "tiny_mul", "tiny_flag"}
assert set(second) == set(first) - left_out, sorted(second)
assert all(second[k] == first[k] for k in second), (first, second)
print(f"ok: the second run has the {len(second)} kept functions with their calls, not the 3 left out")
PY
