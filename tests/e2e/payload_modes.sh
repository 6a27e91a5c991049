#!/bin/bash
# payload_modes.sh: the messages of calls not stored as rows count in
# scope comm's matrix through the regions' peer totals (peer_*):
# payload_p2p (tests/programs/payload_p2p.c) on 4 ranks, 300 rounds, with
# the p2p config, as a trace, as a profile (SCOPE_MODE=profile), with
# SCOPE_MIN_DURATION=1s and with SCOPE_TRACE_LIMIT=32K (every rank passes
# it and folds its later calls): `scope comm --format csv` prints the
# trace's matrix exactly every time, the profile's MPI_Isend has peer
# totals and no rows, the folded run's folded calls and peer totals.
# usage: payload_modes.sh   (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-payload-modes-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt 2>/dev/null || true; exit 1; }
run() {   # NAME [VAR=VALUE ...]
    local name=$1
    shift
    env "$@" $MPIRUN -n 4 "$SCOPE_CLI" run -c "$CONFIG" -o "$name.h5" -- "$PROGRAM" rounds 300 \
        >/dev/null 2>err.txt || fail "$name run"
    "$SCOPE_CLI" comm "$name.h5" --format csv >"$name.csv" 2>>err.txt || fail "$name: scope comm"
}
run trace
[ "$(wc -l <trace.csv)" -ge 9 ] || fail "the trace's matrix has too few pairs: $(cat trace.csv)"
run profile SCOPE_MODE=profile
diff trace.csv profile.csv || fail "the profile's matrix is not the trace's"
run min_duration SCOPE_MIN_DURATION=1s
diff trace.csv min_duration.csv || fail "min_duration's matrix is not the trace's"
run limit SCOPE_TRACE_LIMIT=32K
[ "$(grep -c 'passed trace_limit' err.txt)" -eq 4 ] || fail "not every rank passed trace_limit"
diff trace.csv limit.csv || fail "the matrix after trace_limit is not the trace's"
"$PYTHON" - <<'PY' || fail "peer totals"
import h5py
with h5py.File("profile.h5") as f:
    g = f["rank1/regions/MPI_Isend"]
    assert "bytes" not in g and len(g["peer_ranks"]) == 2, list(g)
    assert g.attrs["mpi_payload"] in ("p2p", b"p2p")
    # rank 1 sends 10 x 2 ints to rank 2 and 20 x 2 doubles to rank 0 per round
    assert g["peer_ranks"][:].tolist() == [0, 2] and set(g["peer_directions"][:]) == {0}
    assert g["peer_messages"][:].tolist() == [300, 300], g["peer_messages"][:]
    assert g["peer_bytes"][:].tolist() == [300 * 320, 300 * 80], g["peer_bytes"][:]
with h5py.File("limit.h5") as f:
    for r in range(4):
        g = f[f"rank{r}/regions/MPI_Isend"]
        folded = int(g.attrs["folded_calls"])
        assert folded > 0 and len(g["start_times"]) + folded == 600, (r, folded)
        assert sum(g["peer_messages"][:]) == folded, (r, folded, g["peer_messages"][:])
PY
