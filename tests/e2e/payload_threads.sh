#!/bin/bash
# payload_threads.sh: requests made on one thread and started or completed
# on another (tests/programs/payload_threads.c, MPI_THREAD_MULTIPLE, 2
# ranks, configs/mpi-p2p.conf): the persistent sends started on the second
# thread carry their bytes, and the receives it completes (the persistent
# ones and the main thread's MPI_Irecv) their messages, so `scope comm`
# gives each rank's 4 messages of 120 bytes in all, sent and received.
# usage: payload_threads.sh   (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-payload-threads-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; cat out.txt err.txt 2>/dev/null || true; exit 1; }
$MPIRUN -n 2 "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt || fail "run failed"
[ "$(grep -c '^payload_threads: rank [01] done$' out.txt)" -eq 2 ] || fail "the program did not finish"
"$SCOPE_CLI" comm profiling_data.h5 --format csv >comm.csv 2>>err.txt || fail "scope comm"
printf 'sender,receiver,messages,bytes\n0,1,4,120\n1,0,4,120\n' | diff - comm.csv ||
    fail "the matrix is not 4 messages of 120 bytes each way"
"$SCOPE_CLI" comm profiling_data.h5 --format json >comm.json 2>>err.txt || fail "scope comm json"
"$PYTHON" - comm.json <<'PY' || fail "sent and received differ"
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
assert t["sent_equals_received"] == "yes" and t["bytes_received"] == 240, t
print(f"ok: {t['messages_sent']} messages of {t['bytes_sent']} bytes, sent and received across threads")
PY
