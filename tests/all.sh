#!/bin/bash
# all.sh: the whole test suite on a fresh machine: install the packages,
# build with warnings as errors, run every test (unit, end to end, corpus),
# then the unit tests of the reader, writer and config again under
# AddressSanitizer and UBSan. Ends with the line "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build-ci}
"$top/tests/install-deps.sh" || exit 1

# Counts the results of the last `meson test` in a build directory.
count() {
    /usr/bin/python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
ok = bad = 0
try:
    for line in open(sys.argv[1]):
        result = json.loads(line)["result"]
        if result in ("OK", "EXPECTEDFAIL"):
            ok += 1
        elif result != "SKIP":
            bad += 1
except (OSError, ValueError) as error:
    print(f"no test results in {sys.argv[1]}: {error}", file=sys.stderr)
    bad += 1
print(ok, bad)
PY
}

passed=0 failed=0
run_suite() {   # build-dir setup-options... -- test-options...
    local dir=$1; shift
    local setup=() tests=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do setup+=("$1"); shift; done
    shift
    tests=("$@")
    if ! { [ -f "$dir/build.ninja" ] || meson setup "$dir" "$top" "${setup[@]}"; } ||
       ! ninja -C "$dir"; then
        echo "build in $dir failed"
        failed=$((failed + 1))
        return
    fi
    meson test -C "$dir" --print-errorlogs --num-processes 2 "${tests[@]}"
    read -r ok bad < <(count "$dir")
    passed=$((passed + ok))
    failed=$((failed + bad))
}

run_suite "$build" -Dwerror=true --
run_suite "$build-asan" -Dwerror=true -Db_sanitize=address,undefined -Dbench=false -- --suite unit
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
