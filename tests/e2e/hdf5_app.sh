#!/bin/bash
# hdf5_app.sh: an application that uses HDF5 itself (serial, or parallel
# through MPI-IO) runs unchanged under scope: its own file(s) hold exactly
# what it wrote, and scope's profile of it is complete.
# usage: hdf5_app.sh serial|parallel   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
kind=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-hdf5app-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
$MPIRUN -n 2 "$SCOPE_CLI" run -f fill,write_values -- "$PROGRAM" >out.txt 2>err.txt ||
    { cat out.txt err.txt; exit 1; }
cat err.txt
grep -q "^scope: wrote profiling_data.h5 (4 calls, 2 ranks)" err.txt
"$PYTHON" - "$kind" <<'PY'
import sys, h5py, numpy as np
files = {"parallel": [("app.h5", range(2000))],
         "serial": [(f"app_{r}.h5", range(r * 1000, r * 1000 + 1000)) for r in range(2)]}[sys.argv[1]]
for name, want in files:
    with h5py.File(name) as f:
        got = f["values"][:]
        if not np.array_equal(got, np.array(list(want))):
            sys.exit(f"FAIL: {name} does not hold what the application wrote")
with h5py.File("profiling_data.h5") as f:
    for r in range(2):
        for region in ("fill", "write_values"):
            if len(f[f"rank{r}/regions/{region}/start_times"]) != 1:
                sys.exit(f"FAIL: rank{r}/{region} not recorded once")
print("ok: the application's HDF5 file(s) intact, profile complete")
PY
