#!/bin/bash
# clock_shift.sh: ranks whose clocks disagree by seconds (as on different
# nodes) still land on one timeline. Each rank of a 4-rank tutorial run
# gets its clock shifted (SCOPE_TEST_CLOCK_SHIFT_NS, test-only) by a
# different number of seconds; the merged file must carry the measured
# offsets (to 20 ms) and line up the ranks' first calls.
# usage: clock_shift.sh   (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-clock-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# rank r's clock runs (r - 1) * 3.5 s ahead of the true one
cat >shifted.sh <<'SH'
#!/bin/bash
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
export SCOPE_TEST_CLOCK_SHIFT_NS=$(( (rank - 1) * 3500000000 ))
exec "$@"
SH
chmod +x shifted.sh
$MPIRUN -n 4 ./shifted.sh "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt ||
    { cat out.txt err.txt; exit 1; }
"$PYTHON" - <<'PY'
import h5py, sys
with h5py.File("profiling_data.h5") as f:
    firsts = []
    for r in range(4):
        g = f[f"rank{r}"]
        want = (r - 1) * 3.5e9 - (-1 * 3.5e9)   # relative to rank 0's clock
        got = g.attrs["clock_offset_ns"]
        print(f"rank {r}: clock_offset_ns {got} (shift {want:.0f})")
        if abs(got - want) > 20e6:
            sys.exit(f"FAIL: rank {r} offset {got}, expected about {want:.0f}")
        firsts.append(g["regions/setup/start_times"][0])
    spread = (max(firsts) - min(firsts)) / 1e6
    print(f"first calls of the 4 ranks within {spread:.3f} ms")
    # uncorrected they would be 3.5 s apart or more; ranks leave MPI_Init
    # at different moments on a loaded machine, so allow for that
    if spread > 500:
        sys.exit(f"FAIL: ranks not aligned: first setup calls {spread:.3f} ms apart")
PY
echo "ok: shifted clocks corrected"
