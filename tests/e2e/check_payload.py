"""check_payload.py: the file of tests/programs/payload_p2p.c run on 4
ranks must say what every MPI call carried, exactly: the ring's Isend and
Waitall messages (receives from MPI_ANY_SOURCE/MPI_ANY_TAG resolved), the
halo's Sendrecv peers as world ranks (from payload-expected-rank{r}.txt,
which the program wrote), the blocking pair and the send to MPI_PROC_NULL,
the communicator table, totals sent == received per pair of ranks, and the
Isend call sites in the program's ring(); persistent requests started by
MPI_Startall and completed by MPI_Waitall; MPI_Mprobe + MPI_Mrecv and
MPI_Probe + MPI_Recv; with LARGE_COUNT=1 in the environment (the MPI
library has the MPI-4 large-count forms) MPI_Send_c/MPI_Recv_c,
MPI_Isend_c/MPI_Irecv_c + MPI_Wait and MPI_Send_c/MPI_Mprobe + MPI_Mrecv_c
between ranks 0 and 3, which no other rank has.
usage: check_payload.py FILE DIR_OF_EXPECTED_FILES"""
import collections
import os
import sys

import h5py

ITERATIONS, RANKS = 3, 4
path, expected_dir = sys.argv[1], sys.argv[2]
large_count = os.environ.get("LARGE_COUNT") == "1"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def region(f, rank, name):
    g = f[f"rank{rank}/regions/{name}"]
    if g.attrs.get("mpi_payload") not in ("p2p", b"p2p"):
        fail(f"rank {rank} {name}: mpi_payload is {g.attrs.get('mpi_payload')!r}")
    calls = len(g["start_times"])
    cols = {k: g[k][:].tolist() for k in ("bytes", "peer", "tag", "comm")}
    for k, v in cols.items():
        if len(v) != calls:
            fail(f"rank {rank} {name}: {k} has {len(v)} values for {calls} calls")
    msgs = list(zip(*(g[k][:].tolist() for k in ("msg_call", "msg_kind", "msg_peer", "msg_bytes",
                                                  "msg_tag", "msg_comm"))))
    return calls, cols, msgs, g


def by_call(msgs):
    out = collections.defaultdict(list)
    for m in msgs:
        out[m[0]].append(m[1:])
    return out


with h5py.File(path) as f:
    comms = f["metadata/communicators"][:].tolist()
    members = f["metadata/communicator_members"][:].tolist()
    def members_of(c):
        size, first = comms[c]
        return members[first:first + size]
    if members_of(0) != list(range(RANKS)):
        fail(f"communicator 0 is {members_of(0)}, not MPI_COMM_WORLD")
    frames, sites = f["metadata/callsite_frames"][:], f["metadata/callsites"][:]
    sent, received = collections.Counter(), collections.Counter()
    dup_ids, cart_ids = set(), set()
    for r in range(RANKS):
        left, right = (r - 1) % RANKS, (r + 1) % RANKS
        lines = [l.split() for l in open(f"{expected_dir}/payload-expected-rank{r}.txt")]
        cart = [int(w[2]) for w in lines if w[0] == "cart"]
        halo = [tuple(int(x) for x in w[1:]) for w in lines if w[0] == "halo"]
        # the ring: Isend
        calls, cols, msgs, g = region(f, r, "MPI_Isend")
        want_send = [(right, 40 * (r + 1), 100 + r), (left, 160 * (r + 1), 200 + r)] * ITERATIONS
        if calls != 2 * ITERATIONS:
            fail(f"rank {r}: {calls} MPI_Isend calls")
        got = [(p, b, t) for p, b, t in zip(cols["peer"], cols["bytes"], cols["tag"])]
        if got != want_send:
            fail(f"rank {r}: MPI_Isend (peer, bytes, tag) {got}, want {want_send}")
        if [(m[0], m[1], m[2], m[3], m[4]) for m in msgs] != \
                [(i, 0, p, b, t) for i, (p, b, t) in enumerate(want_send)]:
            fail(f"rank {r}: MPI_Isend messages {msgs}")
        dup_ids |= set(cols["comm"]) | {m[5] for m in msgs}
        for i in g["callsite_ids"][:]:
            fn = frames[sites[i][0]]["function"]
            fn = fn.decode() if isinstance(fn, bytes) else fn
            if fn != "ring":
                fail(f"rank {r}: an MPI_Isend call site is in {fn!r}, not ring()")
        # Irecv: nothing moved yet
        calls, cols, msgs, _ = region(f, r, "MPI_Irecv")
        if calls != 2 * ITERATIONS or any(cols["bytes"]) or msgs or set(cols["peer"]) != {-1}:
            fail(f"rank {r}: MPI_Irecv {calls} calls {cols} {msgs}")
        # Waitall: the two messages from MPI_ANY_SOURCE, resolved
        # (then two for the persistent requests, each receiving one message)
        calls, cols, msgs, _ = region(f, r, "MPI_Waitall")
        want_recv = sorted([(left, 40 * (left + 1), 100 + left), (right, 160 * (right + 1), 200 + right)])
        persistent = [(left, 12 * (left + 1), 300 + left)]
        if calls != ITERATIONS + 2:
            fail(f"rank {r}: {calls} MPI_Waitall calls")
        for i, ms in sorted(by_call(msgs).items()):
            want = want_recv if i < ITERATIONS else persistent
            if sorted((m[1], m[2], m[3]) for m in ms) != want or any(m[0] != 1 for m in ms):
                fail(f"rank {r}: MPI_Waitall call {i} received {ms}, want {want}")
        if len(by_call(msgs)) != ITERATIONS + 2 or \
                cols["bytes"] != [sum(b for _, b, _ in want_recv)] * ITERATIONS + [12 * (left + 1)] * 2:
            fail(f"rank {r}: MPI_Waitall bytes {cols['bytes']} messages {msgs}")
        dup_ids |= set(cols["comm"][:ITERATIONS])
        if cols["comm"][ITERATIONS:] != [0, 0]:
            fail(f"rank {r}: the persistent requests' MPI_Waitall communicators {cols['comm']}")
        # the halo: Sendrecv on the Cartesian communicator, peers as world ranks
        calls, cols, msgs, _ = region(f, r, "MPI_Sendrecv")
        if calls != len(halo):
            fail(f"rank {r}: {calls} MPI_Sendrecv calls, want {len(halo)}")
        per_call = by_call(msgs)
        for i, (it, dim, d, dest, source, nbytes) in enumerate(halo):
            want = [(0, dest, nbytes, 10 * dim + d), (1, source, nbytes, 10 * dim + d)]
            if sorted(m[:4] for m in per_call[i]) != want:
                fail(f"rank {r}: MPI_Sendrecv call {i} carried {per_call[i]}, want {want}")
            if cols["bytes"][i] != 2 * nbytes:
                fail(f"rank {r}: MPI_Sendrecv call {i} bytes {cols['bytes'][i]}")
            cart_ids |= {m[4] for m in per_call[i]}
        cart_ids |= set(cols["comm"])
        if len(cart_ids) != 1 or members_of(next(iter(cart_ids))) != cart:
            fail(f"rank {r}: the Cartesian communicator {cart_ids} is not {cart}")
        # the blocking pair, a send to MPI_PROC_NULL on every rank, the probed ones
        calls, cols, msgs, _ = region(f, r, "MPI_Send")
        want = ([(1, 256, 7)] if r == 0 else []) + [(-1, 0, 8)] + \
            {0: [(1, 20, 400)], 1: [(2, 72, 401)]}.get(r, [])
        if list(zip(cols["peer"], cols["bytes"], cols["tag"])) != want or \
                len(msgs) != len([w for w in want if w[0] >= 0]):
            fail(f"rank {r}: MPI_Send {cols} {msgs}")
        def one_call(name, want):
            _, cols, msgs, _ = region(f, r, name)
            got = (cols["peer"], cols["bytes"], cols["tag"], cols["comm"])
            if got != tuple([v] for v in want):
                fail(f"rank {r}: {name} (peer, bytes, tag, comm) {got}, want {want}")
            return msgs
        if r == 1:
            one_call("MPI_Recv", (0, 256, 7, 0))
            one_call("MPI_Mprobe", (0, 0, 400, 0))
            if one_call("MPI_Mrecv", (0, 20, 400, 0)) != [(0, 1, 0, 20, 400, 0)]:
                fail("rank 1: MPI_Mrecv's message")
        if r == 2:
            one_call("MPI_Probe", (1, 0, 401, 0))
            one_call("MPI_Recv", (1, 72, 401, 0))
        # persistent requests: the inits move nothing, each Startall sends
        one_call("MPI_Send_init", (right, 0, 300 + r, 0))
        one_call("MPI_Recv_init", (left, 0, -1, 0))
        _, cols, msgs, _ = region(f, r, "MPI_Startall")
        if cols["bytes"] != [12 * (r + 1)] * 2 or \
                [m[1:5] for m in msgs] != [(0, right, 12 * (r + 1), 300 + r)] * 2:
            fail(f"rank {r}: MPI_Startall {cols} {msgs}")
        # the large-count forms: the same payload from MPI_Count counts
        regions = set(f[f"rank{r}/regions"])
        large = sorted(n for n in regions if n.endswith("_c"))
        want_large = {0: ["MPI_Irecv_c", "MPI_Send_c"],
                      3: ["MPI_Isend_c", "MPI_Mrecv_c", "MPI_Recv_c"]}.get(r, [])
        if large != (want_large if large_count else []):
            fail(f"rank {r}: large-count regions {large}, want {want_large if large_count else []}")
        if large_count and r == 0:
            _, cols, msgs, _ = region(f, r, "MPI_Send_c")
            if (cols["peer"], cols["bytes"], cols["tag"], cols["comm"]) != \
                    ([3, 3], [800, 32], [500, 502], [0, 0]) or \
                    msgs != [(0, 0, 3, 800, 500, 0), (1, 0, 3, 32, 502, 0)]:
                fail(f"rank 0: MPI_Send_c {cols} {msgs}")
            one_call("MPI_Irecv_c", (3, 0, 501, 0))
            if one_call("MPI_Wait", (3, 132, 501, 0)) != [(0, 1, 3, 132, 501, 0)]:
                fail("rank 0: the MPI_Wait of MPI_Irecv_c did not receive its message")
        if large_count and r == 3:
            if one_call("MPI_Recv_c", (0, 800, 500, 0)) != [(0, 1, 0, 800, 500, 0)]:
                fail("rank 3: MPI_Recv_c's message")
            if one_call("MPI_Isend_c", (0, 132, 501, 0)) != [(0, 0, 0, 132, 501, 0)]:
                fail("rank 3: MPI_Isend_c's message")
            one_call("MPI_Mprobe", (0, 0, 502, 0))
            if one_call("MPI_Mrecv_c", (0, 32, 502, 0)) != [(0, 1, 0, 32, 502, 0)]:
                fail("rank 3: MPI_Mrecv_c's message")
        for name in f[f"rank{r}/regions"]:
            if "msg_kind" in f[f"rank{r}/regions/{name}"]:
                _, _, msgs, _ = region(f, r, name)
                for m in msgs:
                    (sent if m[1] == 0 else received)[(r, m[2]) if m[1] == 0 else (m[2], r)] += m[3]
    if len(dup_ids) != 1 or 0 in dup_ids or members_of(next(iter(dup_ids))) != list(range(RANKS)):
        fail(f"the ring's communicator ids {dup_ids}")
    if dup_ids == cart_ids:
        fail("the duplicate and the Cartesian communicator share an id")
    if sent != received:
        fail(f"bytes sent per pair {dict(sent)} != received {dict(received)}")
    total = sum(sent.values())
    print(f"check_payload: every call's payload as expected; {total} bytes sent = received; "
          f"{len(comms)} communicators")
