#!/bin/bash
# spill.sh: memory stays bounded and nothing is dropped. 8 ranks make 1 M
# calls each with a 4 KiB buffer per thread (256 records), so every rank
# spills about 4000 times; the file must hold every call, say no event was
# dropped, and no spill file or segment may be left behind.
# usage: spill.sh   (env: SCOPE_CLI PROGRAM=many_calls MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-spill-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir spill
printf '[output]\nbuffer = 4K\n[functions]\nwork\n' >spill.conf
TMPDIR=$work/spill $MPIRUN -n 8 "$SCOPE_CLI" run -c spill.conf -- "$PROGRAM" 1000000 \
    >out.txt 2>err.txt || { cat out.txt err.txt; exit 1; }
cat out.txt err.txt
grep -q "^scope: wrote profiling_data.h5 (8000000 calls, 8 ranks)" err.txt
[ -z "$(find spill -type f)" ] || { echo "FAIL: spill files left: $(find spill -type f | head)"; exit 1; }
"$PYTHON" - <<'PY'
import h5py, sys
with h5py.File("profiling_data.h5") as f:
    for r in range(8):
        g = f[f"rank{r}"]
        s, e = g["regions/work/start_times"][:], g["regions/work/end_times"][:]
        if len(s) != 1000000 or g.attrs["dropped_events"] != 0:
            sys.exit(f"FAIL: rank {r}: {len(s)} calls, dropped {g.attrs['dropped_events']}")
        if (s[1:] < s[:-1]).any() or (e < s).any():
            sys.exit(f"FAIL: rank {r}: times out of order")
PY
echo "ok: 8 ranks x 1 M calls through 4 KiB buffers, none lost"
