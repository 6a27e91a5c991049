#!/bin/bash
# profile_recover.sh: `scope recover` of a run in profile mode that never
# finalized. busy_loop under mpirun -n 2 with SCOPE_MODE=profile: rank 0
# calls MPI_Abort after 300 calls of work(); `scope recover --gather`
# copies what the ranks left (their profile tables included) and removes
# it from /dev/shm; `scope recover --dir` then writes a profile (/metadata
# mode) whose work() has, on each rank, exactly the calls that rank
# counted in busy_loop's shared counts file, and says how many it
# recovered; scope info says the profile has no thread ids. The same run
# as a trace that folds every call (SCOPE_MIN_DURATION=1s) is recovered as
# a trace of no rows whose statistics count every call.
# usage: profile_recover.sh   (env: SCOPE_CLI PROGRAM=busy_loop MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-profile-recover-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }
slot() { od -An -tu8 -j $(($1 * 8)) -N8 counts | tr -d ' '; }

SCOPE_MODE=profile $MPIRUN -n 2 "$SCOPE_CLI" run -f work -o never.h5 -- "$PROGRAM" "$work/counts" 300 \
    >/dev/null 2>err.txt || true
[ ! -e never.h5 ] || fail "an aborted run wrote its file"
pid0=$(slot 32)
mkdir gathered
"$SCOPE_CLI" recover --gather gathered --run "$pid0" 2>recover.txt || fail "gather: $(cat recover.txt)"
! ls /dev/shm | grep -q "^scope-$(id -u)-$pid0-" || fail "the run's segments were left in /dev/shm"
ls gathered/*/ | grep -q "^scope-$(id -u)-$pid0-[0-9a-f]*-p0$" || fail "no profile table gathered"
"$SCOPE_CLI" recover --dir gathered -o recovered.h5 2>recover.txt || fail "recover: $(cat recover.txt)"
"$SCOPE_CLI" summary recovered.h5 --format json >summary.json 2>err.txt || fail "summary"
"$PYTHON" - "$(slot 0)" "$(slot 1)" <<'PY' || fail "recovered profile"
import h5py, json, sys
counted = [int(sys.argv[1]), int(sys.argv[2])]
with h5py.File("recovered.h5") as f:
    assert f["metadata"].attrs["mode"] == "profile"
    calls = [int(f[f"rank{r}/regions/work"].attrs["calls"]) for r in (0, 1)]
    assert len(f["rank0/regions/work/start_times"]) == 0
assert calls == counted, (calls, counted)
assert counted[0] == 300
print("ok: recovered profile with", calls, "calls of work")
PY
total=$(($(slot 0) + $(slot 1)))
grep -q "^scope recover: wrote recovered.h5 (a profile of $total calls, 2 rank(s), " recover.txt ||
    fail "recover does not say what it recovered: $(cat recover.txt)"
"$SCOPE_CLI" info recovered.h5 >info.txt 2>err.txt || fail "scope info"
grep -q "^thread_ids *no$" info.txt || fail "scope info: a profile has thread ids"
echo "ok: profile recovered"

rm -f counts
SCOPE_MIN_DURATION=1s $MPIRUN -n 2 "$SCOPE_CLI" run -f work -o never.h5 -- "$PROGRAM" \
    "$work/counts" 300 >/dev/null 2>err.txt || true
[ ! -e never.h5 ] || fail "an aborted run wrote its file"
"$SCOPE_CLI" recover --run "$(slot 32)" -o folded.h5 2>recover.txt || fail "recover: $(cat recover.txt)"
total=$(($(slot 0) + $(slot 1)))
grep -q "^scope recover: wrote folded.h5 (0 calls stored, $total folded, 2 rank(s), " recover.txt ||
    fail "recover of a folded trace does not say what it recovered: $(cat recover.txt)"
"$PYTHON" - "$(slot 0)" "$(slot 1)" <<'PY' || fail "recovered folded trace"
import h5py, sys
counted = [int(sys.argv[1]), int(sys.argv[2])]
with h5py.File("folded.h5") as f:
    assert f["metadata"].attrs["mode"] == "trace"
    for r in (0, 1):
        g = f[f"rank{r}/regions/work"]
        assert g.attrs["calls"] == g.attrs["folded_calls"] == counted[r], (r, dict(g.attrs))
        assert len(g["start_times"]) == 0
    assert f["metadata"].attrs["min_duration_ns"] == 1000000000, dict(f["metadata"].attrs)
print("ok: recovered folded trace with", counted, "calls of work")
PY
echo "ok: folded trace recovered"
