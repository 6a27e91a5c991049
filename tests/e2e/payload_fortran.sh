#!/bin/bash
# payload_fortran.sh: Fortran MPI calls under the MPI configs stay recorded
# (by scope's Fortran wrapper, by the C wrapper the binding reaches, or,
# for Open MPI's bindings of functions scope has no Fortran wrapper of,
# which call PMPI_* directly, by the function's patch): the Fortran
# tutorial (`use mpi`) on 2 ranks with mpi-all.conf has its one
# MPI_Barrier per rank in the file.
# usage: payload_fortran.sh   (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-payload-fortran-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat out.txt err.txt 2>/dev/null || true; exit 1; }
$MPIRUN -n 2 "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt || fail "run failed"
"$PYTHON" - <<'PY' || fail "the Fortran MPI calls are not in the file"
import h5py
with h5py.File("profiling_data.h5") as f:
    for r in range(2):
        g = f[f"rank{r}/regions/MPI_Barrier"]
        assert len(g["start_times"]) == 1, (r, len(g["start_times"]))
        if "bytes" in g:
            assert g["bytes"][:].tolist() == [0] and g["comm"][:].tolist() == [0], r
print("ok: every Fortran MPI_Barrier recorded")
PY
