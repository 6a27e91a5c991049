#!/bin/bash
# peers_recover.sh: the messages per peer (peer_*) of runs killed by
# SIGKILL before MPI_Finalize survive `scope recover`. peers_killed
# (tests/programs/peers_killed.c) on 4 ranks, 2000 rounds of a ring of
# MPI_Isend/MPI_Irecv/MPI_Waitall and an MPI_Alltoallv, every rank then
# killing itself: as a profile, the recovered file's `scope comm --format
# csv` is the ring's matrix exactly (rank r sends 2000 messages of 40 (r + 1)
# bytes to r + 1) and equal to that of the same run ended by MPI_Finalize
# (recovered through `--gather` and `--dir`, as a job across nodes),
# its MPI_Alltoallv holds per rank 2000 messages to and from each peer with
# their exact bytes (and, direction 2, its 2000 calls with all they sent); as a trace, the MPI_Alltoallv's peer totals and `scope
# comm --collectives` are the finalized run's; as a trace past trace_limit
# (SCOPE_TRACE_LIMIT=8K), every rank says when it passed it
# (trace_limit_passed_ns, after every stored row's end) and the matrix,
# rows and folded calls' peer totals together, is the ring's exactly. The
# finalized runs send their peer totals to rank 0 three rows a message
# (SCOPE_TEST_PEER_ROWS=3), the MPI_Alltoallv's 8 rows (a profile's 9) in
# 3 messages.
# usage: peers_recover.sh   (env: SCOPE_CLI PROGRAM MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-peers-recover-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat err.txt recover.txt 2>/dev/null || true; exit 1; }
rounds=2000
printf '[functions]\nMPI_Isend\nMPI_Irecv\nMPI_Waitall\nMPI_Alltoallv\n' >peers.conf
{
    echo sender,receiver,messages,bytes
    for r in 0 1 2 3; do echo "$r,$(((r + 1) % 4)),$rounds,$((rounds * 40 * (r + 1)))"; done
} >ring.csv

finish() {   # NAME [VAR=VALUE ...]: the run ended by MPI_Finalize
    local name=$1
    shift
    env "$@" $MPIRUN -n 4 "$SCOPE_CLI" run -c peers.conf -o "$name.h5" -- "$PROGRAM" $rounds \
        >out.txt 2>err.txt || fail "$name run"
}
killed() {   # NAME [--gather] [VAR=VALUE ...]: the run killed, then recovered into NAME.h5
    local name=$1 rc=0 pid0 gather=
    shift
    if [ "${1:-}" = --gather ]; then gather=1; shift; fi
    env "$@" $MPIRUN -n 4 "$SCOPE_CLI" run -c peers.conf -o never.h5 -- "$PROGRAM" $rounds kill \
        >out.txt 2>err.txt || rc=$?
    [ "$rc" -ne 0 ] && [ ! -e never.h5 ] || fail "$name: the killed run ended normally"
    pid0=$(sed -n 's/^peers_killed: rank 0 pid \([0-9]*\)$/\1/p' out.txt)
    [ -n "$pid0" ] || fail "$name: no pid of rank 0"
    for _ in $(seq 50); do
        if [ -n "$gather" ]; then   # as for a job across nodes: copied, then written
            rm -rf gathered
            if "$SCOPE_CLI" recover --gather gathered --run "$pid0" 2>recover.txt; then
                [ "$(ls gathered/*/ | grep -c -- '-m0$')" -eq 4 ] ||
                    fail "$name: not every rank's peer totals gathered: $(ls gathered/*/)"
                "$SCOPE_CLI" recover --dir gathered -o "$name.h5" 2>>recover.txt
                break
            fi
        else
            "$SCOPE_CLI" recover --run "$pid0" -o "$name.h5" 2>recover.txt && break
        fi
        grep -q "still running" recover.txt || break
        sleep 0.2
    done
    [ -f "$name.h5" ] || fail "$name: scope recover failed"
}
matrix() {   # NAME [--collectives]
    "$SCOPE_CLI" comm "$1.h5" --format csv ${2:-} >"$1${2:-}.csv" 2>err.txt || fail "$1: scope comm"
}

finish profile SCOPE_MODE=profile SCOPE_TEST_PEER_ROWS=3
killed profile-recovered --gather SCOPE_MODE=profile
for name in profile profile-recovered; do matrix $name; done
diff ring.csv profile.csv || fail "the finalized profile's matrix is not the ring's"
diff ring.csv profile-recovered.csv || fail "the recovered profile's matrix is not the ring's"
echo "ok: a killed profile's matrix recovered"

finish trace SCOPE_TEST_PEER_ROWS=3
killed trace-recovered
for name in trace trace-recovered; do matrix $name; matrix $name --collectives; done
diff ring.csv trace-recovered.csv || fail "the recovered trace's matrix is not the ring's"
diff trace--collectives.csv trace-recovered--collectives.csv ||
    fail "the recovered trace's collective pairs are not the finalized one's"

killed limit SCOPE_TRACE_LIMIT=8K
matrix limit
diff ring.csv limit.csv || fail "the matrix of a recovered trace past trace_limit is not the ring's"

"$PYTHON" - $rounds <<'PY' || fail "peer totals"
import sys
import h5py
rounds = int(sys.argv[1])
def alltoallv(name):
    with h5py.File(name) as f:
        for r in range(4):
            g = f[f"rank{r}/regions/MPI_Alltoallv"]
            got = list(zip(g["peer_ranks"][:].tolist(), g["peer_directions"][:].tolist(),
                           g["peer_messages"][:].tolist(), g["peer_bytes"][:].tolist()))
            # rank r sends (r + 1) + 10 d ints to rank d, receives (s + 1) + 10 r from rank s
            want = [(d, w, rounds, rounds * 4 * ((r + 1) + 10 * d if w == 0 else (d + 1) + 10 * r))
                    for d in range(4) for w in (0, 1)]
            if name.startswith("profile"):   # and the calls' own bytes: all it sent
                want.insert(0, (-1, 2, rounds, rounds * 4 * (4 * (r + 1) + 60)))
            assert got == want, (name, r, got, want)
for name in ("profile.h5", "profile-recovered.h5", "trace.h5", "trace-recovered.h5"):
    alltoallv(name)
with h5py.File("limit.h5") as f:
    for r in range(4):
        rank = f[f"rank{r}"]
        passed = rank.attrs.get("trace_limit_passed_ns", 0)
        assert passed > 0, (r, dict(rank.attrs))
        g = rank["regions/MPI_Isend"]
        folded = int(g.attrs["folded_calls"])
        assert folded > 0 and len(g["start_times"]) + folded == rounds, (r, folded)
        assert sum(g["peer_messages"][:]) == folded, (r, folded, g["peer_messages"][:])
        for region in rank["regions"].values():
            if len(region["end_times"]):
                assert region["end_times"][:].max() <= passed, (r, region.name)
print("ok: peer totals and trace_limit_passed_ns recovered")
PY
echo "ok: peer totals recovered"
