#!/bin/bash
# clock_shift.sh: ranks whose clocks disagree by seconds (as on different
# nodes) still land on one timeline. Ranks are grouped into pretend nodes
# (SCOPE_TEST_RANKS_PER_NODE, test-only), and each node's clock is shifted
# (SCOPE_TEST_CLOCK_SHIFT_NS, test-only) by a different number of seconds;
# the merged file must carry the measured offsets (to 20 ms), the same for
# every rank of a node and exactly 0 on rank 0's (only the first rank of a
# node measures), and line up the ranks' first calls. Two layouts of a
# 4-rank tutorial run: one rank per node, and two.
# usage: clock_shift.sh   (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-clock-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# the clock of node n (ranks n*per_node ...) runs (n - 1) * 3.5 s ahead of
# the true one
cat >shifted.sh <<'SH'
#!/bin/bash
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
export SCOPE_TEST_CLOCK_SHIFT_NS=$(( (rank / SCOPE_TEST_RANKS_PER_NODE - 1) * 3500000000 ))
exec "$@"
SH
chmod +x shifted.sh
for per_node in 1 2; do
export SCOPE_TEST_RANKS_PER_NODE=$per_node
rm -f profiling_data.h5
$MPIRUN -n 4 ./shifted.sh "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt ||
    { cat out.txt err.txt; exit 1; }
"$PYTHON" - "$per_node" <<'PY'
import h5py, sys
per_node = int(sys.argv[1])
with h5py.File("profiling_data.h5") as f:
    firsts, offsets = [], []
    for r in range(4):
        g = f[f"rank{r}"]
        node = r // per_node
        want = (node - 1) * 3.5e9 - (-1 * 3.5e9)   # relative to rank 0's clock
        got = g.attrs["clock_offset_ns"]
        offsets.append(got)
        print(f"{per_node} rank(s) per node: rank {r} (node {node}): clock_offset_ns {got} (shift {want:.0f})")
        if abs(got - want) > 20e6:
            sys.exit(f"FAIL: rank {r} offset {got}, expected about {want:.0f}")
        if node == 0 and got != 0:
            sys.exit(f"FAIL: rank {r} shares rank 0's node, yet its offset is {got}, not 0")
        if r % per_node and got != offsets[r - 1]:
            sys.exit(f"FAIL: ranks {r - 1} and {r} share a node, yet their offsets differ")
        firsts.append(g["regions/setup/start_times"][0])
    spread = (max(firsts) - min(firsts)) / 1e6
    print(f"first calls of the 4 ranks within {spread:.3f} ms")
    # uncorrected they would be 3.5 s apart or more; ranks leave MPI_Init
    # at different moments on a loaded machine, so allow for that
    if spread > 500:
        sys.exit(f"FAIL: ranks not aligned: first setup calls {spread:.3f} ms apart")
PY
done
echo "ok: shifted clocks corrected, by node"
