#!/bin/bash
# run_tutorial.sh: profiles the bundled tutorial example with `scope run`,
# under mpirun with N ranks or with no launcher at all ("serial"), and
# checks the file and what `scope` reports with check_tutorial.py.
# usage: run_tutorial.sh serial|N     (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON CHECKER)
set -euo pipefail
mode=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-e2e-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

if [ "$mode" = serial ]; then
    "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt
    nranks=1
else
    # shellcheck disable=SC2086  # MPIRUN carries the launcher's own options
    $MPIRUN -n "$mode" "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt
    nranks=$mode
fi
cat out.txt err.txt
grep -q "tutorial: $nranks rank(s) done" out.txt
grep -q "^scope: wrote profiling_data.h5 ($((21 * nranks)) calls, $nranks rank" err.txt
[ "$(grep -c '^scope:' err.txt)" -eq 1 ] || { echo "FAIL: scope said more than one line"; exit 1; }
[ ! -e profiling_data.h5.tmp.* ] 2>/dev/null || { echo "FAIL: temporary file left"; exit 1; }
"$PYTHON" "$CHECKER" "$SCOPE_CLI" profiling_data.h5 "$nranks"
if [ "$mode" = serial ]; then
    # on a terminal (script's), writing shows the calls written so far (at once: test-only)
    SCOPE_TEST_PROGRESS=1 script -qec "'$SCOPE_CLI' run -c '$CONFIG' -o tty.h5 -- '$PROGRAM'" \
        /dev/null >tty.txt || { echo "FAIL: run on a terminal"; exit 1; }
    tr '\r' '\n' <tty.txt | grep -q "^scope: rank 0: 21 of 21 calls written" ||
        { echo "FAIL: no progress line on a terminal: $(cat -v tty.txt)"; exit 1; }
fi
