#!/bin/bash
# planted_links.sh: a spill directory someone else prepared is never used.
# $TMPDIR/scope-UID planted as a symlink to another directory, then as a
# directory anyone can write to: the run goes on with the program's own
# exit status, the target is untouched, scope says why in one line, and
# every call is in the file or counted in dropped_events.
# usage: planted_links.sh   (env: SCOPE_CLI PROGRAM=many_calls PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-planted-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }
printf '[output]\nbuffer = 4K\n[functions]\nwork\n' >small.conf
calls=100000

check_run() {   # $1: what scope must say
    rm -f profiling_data.h5
    TMPDIR=$work/tmp "$SCOPE_CLI" run -c small.conf -- "$PROGRAM" $calls >out.txt 2>err.txt ||
        fail "the program's exit status changed"
    grep -q "$1" err.txt || fail "scope did not say '$1'"
    [ "$(ls -A victim)" = precious ] && [ "$(cat victim/precious)" = keep ] ||
        fail "the planted target changed: $(ls -A victim)"
    "$PYTHON" - "$calls" <<'PY' || fail "calls lost"
import sys, h5py
calls = int(sys.argv[1])
with h5py.File("profiling_data.h5") as f:
    g = f["rank0"]
    got, dropped = len(g["regions/work/start_times"]), int(g.attrs["dropped_events"])
    print(f"{got} calls recorded, {dropped} dropped, of {calls}")
    assert dropped > 0 and got + dropped == calls, (got, dropped)
PY
}

mkdir tmp victim
echo keep >victim/precious
ln -s "$work/victim" "tmp/scope-$(id -u)"
check_run "not a directory (a symlink?), not used"

rm "tmp/scope-$(id -u)"
mkdir -m 0777 "tmp/scope-$(id -u)"
check_run "with mode 777: not a private directory, not used"
[ -z "$(ls -A "tmp/scope-$(id -u)")" ] || fail "a file was created in the open directory"
echo "ok: planted spill directories refused, every call recorded or counted"
