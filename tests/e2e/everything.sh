#!/bin/bash
# everything.sh: a config of `*` alone (every function of the program and
# of every library it loads) on a C, a C++ and a Fortran MPI program under
# mpirun -n 2. The output and exit status must be those of the unprofiled
# run, the file must hold the program's own functions, and `scope check`
# must list the functions scope refuses to hook, with the reason.
# usage: everything.sh C_PROGRAM CXX_PROGRAM FORTRAN_PROGRAM
#        (env: SCOPE_CLI MPIRUN)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-everything-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*"; [ -f err.txt ] && { echo "--- stderr:"; tail -20 err.txt; }; exit 1; }

# region $1 in FILE $2: its number of calls (0 when absent)
calls_of() {
    "$SCOPE_CLI" summary "$2" --format csv | awk -F, -v r="$1" '$1 == r {n = $2} END {print n + 0}'
}

for program in "$@"; do
    name=$(basename "$program")
    status0=0 status1=0
    $MPIRUN -n 2 "$program" >plain.txt 2>/dev/null || status0=$?
    $MPIRUN -n 2 "$SCOPE_CLI" run -f '*' -o "$name.h5" -- "$program" >profiled.txt 2>err.txt ||
        status1=$?
    [ "$status1" -eq "$status0" ] || fail "$name: exit status $status1 under scope, $status0 without"
    diff plain.txt profiled.txt >/dev/null || fail "$name: output changed: $(diff plain.txt profiled.txt)"
    grep -q "^scope: wrote $name.h5 " err.txt || fail "$name: no file written"
    main=$(calls_of main "$name.h5")
    [ "$main" -eq 2 ] || fail "$name: main has $main calls, expected one per rank"
    "$SCOPE_CLI" check -f '*' --format csv "$program" >check.csv 2>/dev/null || true
    grep -q ',_setjmp,no,"it returns twice' check.csv ||
        fail "$name: scope check does not list _setjmp as refused"
    grep -q ',dlopen,no,"it acts on its caller' check.csv ||
        fail "$name: scope check does not list dlopen as refused"
    echo "ok: $name"
done
