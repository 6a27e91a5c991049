#!/bin/bash
# bad_input.sh: what a user gets wrong. A bad config line, a missing config,
# a function that matches nothing, an inherited LD_PRELOAD in mpirun, and
# bad files for the reader: each gives one clear 'scope:' line (or none
# where scope has nothing to say), the program still runs and keeps its
# own output and exit status.
# usage: bad_input.sh   (env: SCOPE_CLI PROGRAM MPIRUN)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-bad-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*"; echo "--- stderr:"; cat err.txt; exit 1; }

# Runs PROGRAM through scope run with the given scope options and status 7;
# the program's own output and status must come through unchanged.
run_profiled() {
    local status=0
    "$SCOPE_CLI" run "$@" -- "$PROGRAM" 7 >out.txt 2>err.txt || status=$?
    [ "$status" -eq 7 ] || fail "exit status $status, expected the program's 7"
    grep -qx "work=22" out.txt || fail "the program's output changed"
}

expect_line() {   # exactly one scope line, matching the pattern
    [ "$(grep -c '^scope:' err.txt)" -eq 1 ] || fail "expected one scope: line"
    grep -q "$1" err.txt || fail "message does not match '$1'"
}

# 1. a config with a bad line: file:LINE: message, nothing profiled
printf '[functions]\nwork\n[output]\nfiel = x.h5\n' >bad.conf
run_profiled -c bad.conf
expect_line "^scope: .*bad.conf:4: .*fiel"
[ ! -e profiling_data.h5 ] || fail "a file was written from a bad config"

# 2. a missing config
run_profiled -c missing.conf
expect_line "^scope: .*missing.conf.*[Nn]o such file"

# 2b. a directory given as the config
mkdir confdir
run_profiled -c confdir
expect_line "^scope: .*confdir' is a directory, not a config file"

# 3. a function that matches nothing is named; the others are still profiled
printf '[functions]\nwork\nno_such_function\n' >good.conf
run_profiled -c good.conf
grep -q "^scope: warning: .*good.conf:3: 'no_such_function' matches no function" err.txt ||
    fail "no warning naming the unmatched function"
grep -q "^scope: wrote profiling_data.h5 (1 call, 1 rank)" err.txt || fail "work not recorded"
rm -f profiling_data.h5

# 4. exit status and output untouched when profiling works (status 0 too)
"$SCOPE_CLI" run -f work -- "$PROGRAM" 0 >out.txt 2>err.txt || fail "status 0 not kept"
grep -qx "work=1" out.txt || fail "output changed"
rm -f profiling_data.h5

# 5. mpirun inheriting LD_PRELOAD, and processes that hook nothing: silent
LD_PRELOAD=$("$SCOPE_CLI" lib) SCOPE_FUNCTIONS=no_such_function \
    $MPIRUN -n 2 /bin/true >out.txt 2>err.txt || fail "mpirun failed under LD_PRELOAD"
! grep -q "scope:" err.txt || fail "a process that hooked nothing spoke"
[ ! -e profiling_data.h5 ] || fail "a process that recorded nothing wrote a file"

# 6. the reader on a missing file and on a file that is not HDF5: status 2, one line
for input in missing.h5 bad.conf; do
    status=0
    "$SCOPE_CLI" summary "$input" >out.txt 2>err.txt || status=$?
    [ "$status" -eq 2 ] || fail "scope summary $input: status $status, expected 2"
    expect_line "^scope: $input: "
done

# 7. recover --run with something that is not a pid: status 2, one line, nothing recovered
for pid in "" abc 12x -3; do
    status=0
    "$SCOPE_CLI" recover --run "$pid" --list >out.txt 2>err.txt || status=$?
    [ "$status" -eq 2 ] || fail "scope recover --run '$pid': status $status, expected 2"
    [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "^scope recover: --run wants a pid, got '$pid'" err.txt ||
        fail "scope recover --run '$pid': not one clear line"
done
echo "ok: bad input handled"
