#!/bin/sh
# The share of a real library's functions that libscope can hook inline,
# from `scope symbols --summary`: printed, and at least MIN percent.
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
    /functions,.*hookable inline/ { total = $1; hookable = $3 }
    END {
        if (total == 0) { print "FAIL: no functions in " lib; exit 1 }
        share = 100 * hookable / total
        printf "coverage of %s: %.2f%% of %d functions hookable inline (minimum %s%%)\n",
               lib, share, total, min
        exit share >= min ? 0 : 1
    }'
