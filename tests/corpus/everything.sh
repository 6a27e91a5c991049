#!/bin/bash
# everything.sh: each corpus program under libscope with SCOPE_FUNCTIONS='*'
# (every function of the program and of every library it loads): the
# program must still verify all its results and exit 0, and write its file
# (its children theirs: nothing may be left in /dev/shm).
# usage: everything.sh LIBSCOPE PROGRAM...
set -uo pipefail
lib=$(readlink -f "$1")
shift
programs=()
for program in "$@"; do programs+=("$(readlink -f "$program")"); done
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-corpus-all-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
for program in "${programs[@]}"; do
    name=$(basename "$program")
    status=0
    timeout 300 env LD_PRELOAD="$lib" SCOPE_FUNCTIONS='*' SCOPE_OUTPUT="$name.h5" \
        SCOPE_WARN_STALE=0 "$program" >out.txt 2>err.txt || status=$?
    if [ "$status" -ne 0 ] || ! grep -q "^scope: wrote $name.h5 " err.txt; then
        echo "FAIL: $name: exit status $status"
        grep -v '^scope: warning' err.txt | tail -5
        failed=$((failed + 1))
    else
        echo "ok: $name"
    fi
done
left=$(ls /dev/shm | grep "^scope-$(id -u)-" || true)
[ -z "$left" ] || { echo "FAIL: records left in /dev/shm: $left"; failed=$((failed + 1)); }
[ "$failed" -eq 0 ]
