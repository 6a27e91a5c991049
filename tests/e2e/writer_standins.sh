#!/bin/bash
# writer_standins.sh: the process that writes scope's file loads HDF5 but
# not the libraries HDF5 links for its S3 driver only (libcurl, libcrypto
# and, through them, GnuTLS): libscope puts stand-ins in their place in
# the writer's namespace. The file is complete all the same.
# usage: writer_standins.sh   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-standins-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
$MPIRUN -n 2 "$SCOPE_CLI" run -f work -- "$PROGRAM" >out.txt 2>err.txt ||
    { cat out.txt err.txt; fail "run"; }
cat out.txt
grep -q "^scope: wrote profiling_data.h5 (2 calls, 2 ranks): " err.txt || fail "no file written"
grep -Eq "^rank 0: hdf5 [1-9][0-9]* curl 0 crypto 0 gnutls 0$" out.txt ||
    fail "rank 0 wrote the file without HDF5, or with HDF5's network libraries"
"$PYTHON" - <<'PY'
import sys, h5py
with h5py.File("profiling_data.h5") as f:
    for r in range(2):
        if len(f[f"rank{r}/regions/work/start_times"]) != 1:
            sys.exit(f"FAIL: rank{r}: work not recorded once")
print("ok: written without HDF5's network libraries, both calls in the file")
PY
