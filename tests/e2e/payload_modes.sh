#!/bin/bash
# payload_modes.sh: the messages of calls not stored as rows count in
# scope comm's matrix through the regions' peer totals (peer_*):
# payload_p2p (tests/programs/payload_p2p.c) on 4 ranks, 300 rounds, with
# the p2p config, as a trace, as a profile (SCOPE_MODE=profile), with
# SCOPE_MIN_DURATION=1s and with SCOPE_TRACE_LIMIT=32K (every rank passes
# it and folds its later calls): `scope comm --format csv` prints the
# trace's matrix exactly every time, the profile's MPI_Isend has peer
# totals and no rows, the folded run's folded calls and peer totals.
# Then COLLECTIVES (payload_collectives.c with mpi-all.conf) and RMA_IO
# (payload_rma_io.c with mpi-onesided-io.conf), each as a trace and as a
# profile: the bytes a profile's calls moved without a message come from
# their peer totals, so `scope comm --collectives` and the calls, bytes
# and mean_bytes of `scope summary` are the trace's.
# usage: payload_modes.sh   (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON
#                            COLLECTIVES ALL_CONFIG RMA_IO RMA_IO_CONFIG)
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
# NAME PROGRAM CONFIG: a trace and a profile of PROGRAM move the same bytes
same_bytes() {
    local name=$1 program=$2 config=$3 mode
    for mode in trace profile; do
        SCOPE_MODE=$mode $MPIRUN -n 4 "$SCOPE_CLI" run -c "$config" -o "$name-$mode.h5" -- \
            "$program" >/dev/null 2>err.txt || fail "$name: $mode run"
        "$SCOPE_CLI" comm "$name-$mode.h5" --collectives --format csv >"$name-$mode.csv" \
            2>>err.txt || fail "$name: scope comm of the $mode"
        "$SCOPE_CLI" summary "$name-$mode.h5" --format csv 2>>err.txt |
            "$PYTHON" -c 'import csv, itertools, sys
lines = itertools.takewhile(lambda l: l.strip() and not l.startswith("#"),
                            itertools.dropwhile(lambda l: l.startswith("#"), sys.stdin))
for row in csv.DictReader(lines):
    print(row["region"], row["calls"], row["bytes"], row["mean_bytes"])' \
            | sort >"$name-$mode.bytes" || fail "$name: scope summary of the $mode"
    done
    grep -q "[0-9] [0-9.]*$" "$name-trace.bytes" || fail "$name: no bytes in the trace's summary"
    diff "$name-trace.csv" "$name-profile.csv" || fail "$name: the profile's collectives differ"
    diff "$name-trace.bytes" "$name-profile.bytes" || fail "$name: the profile's bytes differ"
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
same_bytes collectives "$COLLECTIVES" "$ALL_CONFIG"
same_bytes rma-io "$RMA_IO" "$RMA_IO_CONFIG"
echo "ok: a profile's collectives, one-sided and I/O calls moved the trace's bytes"
