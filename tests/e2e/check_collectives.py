"""check_collectives.py: the file of tests/programs/payload_collectives.c
run on 4 ranks must say what every collective carried, exactly: bytes
(derived type included, v forms summed, receive-only ranks 0), the root as
a world rank, the communicator (world, or the one split by parity); a
call that failed (an invalid datatype) recorded without payload; on an
intercommunicator the rooted v forms' root (MPI_ROOT) and the other ranks
of its group (MPI_PROC_NULL) as well as the remote group, and a reduce's
root group sending nothing; the v
forms' bytes to and from each peer (peer_* datasets, a message per call),
and the same per (sender, receiver) from `scope comm --collectives`; with
LARGE_COUNT=1 (the MPI library has the MPI-4 large-count forms)
MPI_Bcast_c (one of a count no int holds), MPI_Allreduce_c, MPI_Scan_c,
MPI_Exscan_c, MPI_Reduce_scatter_block_c, and MPI_Gatherv_c and
MPI_Alltoallv_c with their bytes per peer; with PERSISTENT=1 (the MPI-4
persistent collectives) every MPI_Start and MPI_Startall of
MPI_Allreduce_init, MPI_Bcast_init and MPI_Alltoallv_init with the bytes,
root and communicator of one such collective, the inits with none, the
Alltoallv_init's bytes per peer (3 starts) under the init's region, in
its peer_* datasets and `scope comm --collectives`, none under MPI_Start's,
and `scope comm`'s point-to-point matrix empty (the program sends no
message).
usage: check_collectives.py FILE [DIR (unused)]  (env: SCOPE_CLI LARGE_COUNT PERSISTENT)"""
import csv
import io
import os
import subprocess
import sys

import h5py

RANKS = 4
PERSISTENT = os.environ.get("PERSISTENT") == "1"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


with h5py.File(sys.argv[1]) as f:
    comms = f["metadata/communicators"][:].tolist()
    members = f["metadata/communicator_members"][:].tolist()
    halves = {}
    for r in range(RANKS):
        # (bytes, peer, comm) of each call, comm None: the half split by
        # parity, "inter": the intercommunicator of the halves
        want = {
            "MPI_Alltoallv": [(4 * (r + 1) * (2 + 3 + 4 + 5), -1, 0)],
            "MPI_Bcast": [(5 * 48 if r == 2 else 0, 2, 0), (4 if r // 2 == 1 else 0, 2 + r % 2, None),
                          (0, -1, -1)],   # failed: recorded, without payload
            "MPI_Reduce": [(80, 1, 0), (0 if r % 2 else 8, -1 if r % 2 else 1, "inter")],
            "MPI_Gather": [(28, 3, 0)],
            "MPI_Scatterv": [(40 if r == 0 else 0, 0, 0),
                             (16 if r == 3 else 0, -1 if r % 2 else 3, "inter")],
            "MPI_Gatherv": [(4 * (2 * r + 1), 2, 0),
                            (4 * (r + 1) if r % 2 else 0, 0 if r % 2 else -1, "inter")],
            "MPI_Allreduce": [(12, -1, 0), (8, -1, None)],
            "MPI_Iallreduce": [(32, -1, 0)],
            "MPI_Barrier": [(0, -1, 0)],
        }
        for name, calls in want.items():
            g = f[f"rank{r}/regions/{name}"]
            if g.attrs.get("mpi_payload") not in ("collective", b"collective"):
                fail(f"rank {r} {name}: mpi_payload {g.attrs.get('mpi_payload')!r}")
            got = list(zip(g["bytes"][:].tolist(), g["peer"][:].tolist(), g["comm"][:].tolist()))
            if len(got) != len(calls):
                fail(f"rank {r} {name}: {len(got)} calls, want {len(calls)}")
            for (b, p, c), (wb, wp, wc) in zip(got, calls):
                if (b, p) != (wb, wp) or (isinstance(wc, int) and c != wc):
                    fail(f"rank {r} {name}: (bytes, peer, comm) {got}, want {calls}")
                if wc is None:
                    halves.setdefault(r % 2, set()).add(c)
                if wc == "inter":   # its id: the rank's own group's
                    size, first = comms[c] if 0 < c < len(comms) else (0, 0)
                    if members[first:first + size] != [r % 2, r % 2 + 2]:
                        fail(f"rank {r} {name} on the intercommunicator: comm {c}")
            if any(k.startswith("msg_") for k in g) or set(g["tag"][:].tolist()) != {-1}:
                fail(f"rank {r} {name}: a collective with message datasets or tags")
        # the large-count forms, on world and (3e9 bytes) on MPI_COMM_SELF
        large = sorted(n for n in f[f"rank{r}/regions"] if n.endswith("_c"))
        want_large = {"MPI_Allreduce_c": [(20, -1, 0)], "MPI_Scan_c": [(8, -1, 0)],
                      "MPI_Exscan_c": [(12, -1, 0)], "MPI_Reduce_scatter_block_c": [(16, -1, 0)],
                      "MPI_Gatherv_c": [(4 * (r + 2), 1, 0)], "MPI_Alltoallv_c": [(40, -1, 0)],
                      "MPI_Bcast_c": [(48 if r == 1 else 0, 1, 0), (3000000000, r, None)]}
        if large != (sorted(want_large) if os.environ.get("LARGE_COUNT") == "1" else []):
            fail(f"rank {r}: large-count regions {large}")
        for name in large:
            g = f[f"rank{r}/regions/{name}"]
            got = list(zip(g["bytes"][:].tolist(), g["peer"][:].tolist(), g["comm"][:].tolist()))
            if g.attrs.get("mpi_payload") not in ("collective", b"collective") or \
                    [(b, p, c if w[2] is not None else None) for (b, p, c), w in
                     zip(got, want_large[name])] != want_large[name]:
                fail(f"rank {r} {name}: (bytes, peer, comm) {got}, want {want_large[name]}")
        # the persistent collectives: their inits move nothing, each start
        # what one call of the blocking form does (Allreduce_init: 6 ints,
        # Alltoallv_init: r + j + 1 ints to each rank j, Bcast_init: 9
        # doubles from root 3), no peer totals under the starts' regions
        want_persistent = {
            "MPI_Allreduce_init": [(0, -1, 0)], "MPI_Bcast_init": [(0, 3, 0)],
            "MPI_Alltoallv_init": [(0, -1, 0)],
            "MPI_Start": [(24, -1, 0), (4 * (4 * r + 10), -1, 0)] * 3,
            "MPI_Startall": [(72 if r == 3 else 0, 3, 0)] * 2,
        }
        for name, calls in want_persistent.items() if PERSISTENT else ():
            g = f[f"rank{r}/regions/{name}"]
            family = "p2p" if name.startswith("MPI_Start") else "collective"
            got = list(zip(*(g[d][:].tolist() for d in ("bytes", "peer", "comm")))) \
                if "bytes" in g else []   # calls without payload
            if g.attrs.get("mpi_payload") not in (family, family.encode()) or got != calls:
                fail(f"rank {r} {name}: (bytes, peer, comm) {got}, want {calls}")
            if family == "p2p" and "peer_ranks" in g:
                fail(f"rank {r} {name}: peer totals {g['peer_ranks'][:].tolist()}")
    # bytes sent by sender s to receiver t in each v form, 4-byte ints
    sent = {
        "MPI_Alltoallv": lambda s, t: 4 * (s + 1) * (t + 2),
        # (on the intercommunicator too: from world rank 3 to the even
        # ranks, from the odd ranks to world rank 0)
        "MPI_Scatterv": lambda s, t: 4 * (t + 1) if s == 0 or (s == 3 and t % 2 == 0) else None,
        "MPI_Gatherv": lambda s, t: 4 * (2 * s + 1) if t == 2 else
                                    4 * (s + 1) if t == 0 and s % 2 else None,
    }
    if os.environ.get("LARGE_COUNT") == "1":
        sent["MPI_Gatherv_c"] = lambda s, t: 4 * (s + 2) if t == 1 else None
        sent["MPI_Alltoallv_c"] = lambda s, t: 4 * (t + 1)
    calls = {name: 1 for name in sent}
    if PERSISTENT:   # three starts of one Alltoallv_init
        sent["MPI_Alltoallv_init"] = lambda s, t: 3 * 4 * (s + t + 1)
        calls["MPI_Alltoallv_init"] = 3
    for name, bytes_of in sent.items():
        for r in range(RANKS):
            want = []
            for p in range(RANKS):
                for direction, (s, t) in ((0, (r, p)), (1, (p, r))):
                    if bytes_of(s, t) is not None:
                        want.append((p, direction, calls[name], bytes_of(s, t)))
            g = f[f"rank{r}/regions/{name}"]
            got = list(zip(*(g[d][:].tolist() for d in
                             ("peer_ranks", "peer_directions", "peer_messages", "peer_bytes")))) \
                if "peer_ranks" in g else []
            if got != want:
                fail(f"rank {r} {name}: (peer, direction, messages, bytes) {got}, want {want}")
    for parity, ids in halves.items():
        size, first = comms[next(iter(ids))]
        if len(ids) != 1 or members[first:first + size] != [parity, parity + 2]:
            fail(f"the communicator of parity {parity}: ids {ids}")
    if halves[0] == halves[1]:
        fail("both halves share a communicator id")
cli = subprocess.run([os.environ["SCOPE_CLI"], "comm", sys.argv[1], "--collectives",
                      "--format", "csv"], capture_output=True, text=True)
if cli.returncode != 0:
    fail(f"scope comm --collectives: {cli.stderr}")
pairs, section = {}, None
for row in csv.reader(io.StringIO(cli.stdout)):
    if row and row[0].startswith("# "):
        section = row[0][2:]
    elif section == "collective_pairs" and len(row) == 6 and row[0] != "region":
        # region,sender,receiver,calls,bytes,received_bytes
        pairs[(row[0], int(row[1]), int(row[2]))] = (int(row[3]), int(row[4]), int(row[5]))
want = {}
for name, bytes_of in sent.items():
    for s in range(RANKS):
        for t in range(RANKS):
            if bytes_of(s, t) is not None:
                want[(name, s, t)] = (calls[name], bytes_of(s, t), bytes_of(s, t))
if pairs != want:
    fail(f"scope comm --collectives pairs {sorted(pairs.items())}, want {sorted(want.items())}")
p2p = subprocess.run([os.environ["SCOPE_CLI"], "comm", sys.argv[1], "--format", "csv"],
                     capture_output=True, text=True)
if p2p.returncode != 0 or p2p.stdout.split() != ["sender,receiver,messages,bytes"]:
    fail(f"scope comm: a point-to-point matrix of a program without messages: {p2p.stdout}"
         f"{p2p.stderr}")
print("check_collectives: every collective's payload as expected")
