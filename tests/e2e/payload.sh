#!/bin/bash
# payload.sh: what MPI calls carried: PROGRAM (tests/programs/payload_*.c)
# on 4 ranks with CONFIG (a shipped config), every call's bytes, peer, tag,
# communicator and messages checked by CHECKER; with "recover" the job
# aborts and the file `scope recover` writes must say the same.
# usage: payload.sh finalize|recover  (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON CHECKER)
set -euo pipefail
mode=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-payload-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat out.txt err.txt 2>/dev/null || true; exit 1; }

if [ "$mode" = recover ]; then
    rc=0
    $MPIRUN -n 4 "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" abort >out.txt 2>err.txt || rc=$?
    [ "$rc" -ne 0 ] || fail "the job did not abort"
    grep -q "MPI_Abort" err.txt || fail "no word of the abort (the launcher's exit status: $rc)"
    pid0=$(grep -o 'pid [0-9]*' err.txt | head -1 | awk '{print $2}')
    [ -n "$pid0" ] || fail "no pid in scope's message"
    for _ in $(seq 50); do
        "$SCOPE_CLI" recover --run "$pid0" -o profiling_data.h5 2>recover.txt && break
        grep -q "still running" recover.txt || break
        sleep 0.2
    done
    cat recover.txt >>err.txt
    [ -f profiling_data.h5 ] || fail "scope recover failed"
else
    $MPIRUN -n 4 "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt || fail "run failed"
    grep -q "^payload_.*: done" out.txt || fail "the program did not finish"
    grep -q "^scope: wrote profiling_data.h5 (.* calls, 4 ranks)" err.txt || fail "not written"
    [ "$(grep -c '^scope:' err.txt)" -eq 1 ] || fail "scope said more than one line"
fi
"$PYTHON" "$CHECKER" profiling_data.h5 . || fail "the payload in the file is wrong"
