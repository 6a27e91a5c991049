#!/bin/sh
# The share of a real library's functions that libscope can hook, inline or
# (exported ones that cannot be patched) through the GOTs of the modules
# that call them, from `scope symbols --summary`: printed, and at least MIN
# percent; every function not hookable has a reason in the summary.
# usage: coverage.sh SCOPE LIBRARY MIN   (LIBRARY: a path or a soname)
set -u
scope=$1
lib=$2
min=$3
case $lib in
*/*) ;;
*) lib=$(/sbin/ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ { print $NF; exit }') ;;
esac
[ -n "$lib" ] && [ -r "$lib" ] || { echo "FAIL: library $2 not found" >&2; exit 1; }
out=$("$scope" symbols --summary --format csv "$lib" 2>&1 >/dev/null) ||
    { echo "FAIL: scope symbols: $out" >&2; exit 1; }
"$scope" symbols --summary "$lib"
echo "$out"
echo "$out" | awk -v min="$min" -v lib="$lib" '
    /functions,.*hookable inline.*through the PLT/ {
        total = $1; inline = $3; plt = $7; not = $17
        reasons = 0
        if (match($0, /not \(.*\)$/)) {
            n = split(substr($0, RSTART + 5, RLENGTH - 6), parts, ", ")
            for (i = 1; i <= n; i++) reasons += parts[i] + 0
        }
    }
    END {
        if (total == 0) { print "FAIL: no functions in " lib; exit 1 }
        if (reasons != not) { print "FAIL: " not " not hookable, " reasons " with a reason"; exit 1 }
        share = 100 * (inline + plt) / total
        printf "coverage of %s: %.2f%% of %d functions hookable (%d inline, %d through the PLT or their calls; minimum %s%%)\n",
               lib, share, total, inline, plt, min
        exit share >= min ? 0 : 1
    }'
