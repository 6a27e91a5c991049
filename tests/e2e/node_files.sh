#!/bin/bash
# node_files.sh: a run across nodes, simulated on one machine with pretend
# nodes of 2 ranks (SCOPE_TEST_RANKS_PER_NODE, test-only): 5 tutorial ranks
# make nodes {0,1} {2,3} {4}. The first rank of each other node writes its
# node's ranks into FILE.d/nodeN.h5; rank 0's file holds /metadata, its own
# node's ranks and an external link for every other rank. h5py and scope
# read it as one file (check_tutorial.py, the full check), `scope pack`
# joins it into one file that reads the same without FILE.d/ (its index
# holding every rank's regions), and a node
# that cannot write its part leaves no file but every record, which
# `scope recover` writes in the same layout (FILE + FILE.d/).
# usage: node_files.sh   (env: SCOPE_CLI PROGRAM CONFIG MPIRUN PYTHON CHECKER)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/scope-nodes-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; [ -f err.txt ] && { echo "--- stderr:"; cat err.txt; }; exit 1; }
export SCOPE_TEST_RANKS_PER_NODE=2

# shellcheck disable=SC2086  # MPIRUN carries the launcher's own options
$MPIRUN -n 5 "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt ||
    fail "the run failed"
grep -q "^scope: wrote profiling_data.h5 (105 calls, 5 ranks)" err.txt || fail "no report of 105 calls"
[ "$(ls profiling_data.h5.d)" = "$(printf 'node1.h5\nnode2.h5')" ] ||
    fail "node files: $(ls -A profiling_data.h5.d | tr '\n' ' ')"
"$PYTHON" - <<'PY'
import h5py, sys
with h5py.File("profiling_data.h5") as f:
    for r, part in [(0, None), (1, None), (2, "node1.h5"), (3, "node1.h5"), (4, "node2.h5")]:
        link = f.get(f"rank{r}", getlink=True)
        if part is None and not isinstance(link, h5py.HardLink):
            sys.exit(f"FAIL: rank {r} is on rank 0's node but is {link}")
        if part is not None and not (isinstance(link, h5py.ExternalLink)
                                     and link.filename == f"profiling_data.h5.d/{part}"):
            sys.exit(f"FAIL: rank {r}: {link}, want a link into {part}")
    # a part's /metadata holds the index of its own ranks, nothing of the run
    meta = h5py.File("profiling_data.h5.d/node1.h5")["metadata"]
    if sorted(meta) != ["index_names", "index_ranks", "index_regions"] or len(meta.attrs):
        sys.exit(f"FAIL: a node's part's /metadata holds {sorted(meta)} {list(meta.attrs)}")
    if sorted(meta["index_ranks"]["rank"]) != [2, 3]:
        sys.exit(f"FAIL: node1's index ranks: {meta['index_ranks'][:]}")
    names = [n.decode() for n in meta["index_names"][:]]
    for row in meta["index_regions"][:]:
        g = h5py.File("profiling_data.h5.d/node1.h5")[f"rank{row['rank']}/regions/{names[row['name']]}"]
        if row["calls"] != g.attrs["calls"] or row["total_ns"] != g.attrs["total_ns"]:
            sys.exit(f"FAIL: index row {row} disagrees with its group's attributes")
print("ok: ranks 2-4 linked into their nodes' files, each part indexed")
PY
"$PYTHON" "$CHECKER" "$SCOPE_CLI" profiling_data.h5 5 >check.txt || { cat check.txt; fail "check of the linked file"; }
"$SCOPE_CLI" summary profiling_data.h5 --format csv >linked.csv

"$SCOPE_CLI" pack profiling_data.h5 -o single.h5 2>pack.txt || fail "pack: $(cat pack.txt)"
grep -q "wrote single.h5 (3 ranks joined from node files)" pack.txt || fail "pack said: $(cat pack.txt)"
# its index holds every rank's regions (the run's file's, its own node's only)
"$PYTHON" - <<'PY' || fail "the packed file's index does not hold every rank's regions"
import h5py
with h5py.File("single.h5") as f:
    m = f["metadata"]
    ranks = sorted(int(r) for r in m["index_ranks"]["rank"])
    assert ranks == [0, 1, 2, 3, 4], ranks
    rows, names = m["index_regions"][:], m["index_names"][:]
    for r in ranks:
        held = sorted(names[i].decode() for i in rows["name"][rows["rank"] == r])
        assert held == sorted(f[f"rank{r}/regions"].keys()), (r, held)
        for row in rows[rows["rank"] == r]:
            group = f[f"rank{r}/regions/{names[row['name']].decode()}"]
            assert row["calls"] == len(group["start_times"]), (r, row)
PY
# on a terminal (script's), a pack shows which top-level object it copied (at once: test-only)
SCOPE_TEST_PROGRESS=1 script -qec "'$SCOPE_CLI' pack profiling_data.h5 -o tty.h5" /dev/null \
    >tty.txt || fail "pack on a terminal"
tr '\r' '\n' <tty.txt | grep -q "^scope: pack: /rank4 copied ([0-9]* of [0-9]*)" ||
    fail "no progress line on a terminal: $(cat -v tty.txt)"
mv profiling_data.h5.d elsewhere
"$SCOPE_CLI" summary single.h5 --format csv >single.csv
cmp -s linked.csv single.csv || fail "the packed file reads differently: $(diff linked.csv single.csv)"
"$PYTHON" "$CHECKER" "$SCOPE_CLI" single.h5 5 >check.txt || { cat check.txt; fail "check of the packed file"; }
# the index only spares opening groups: without it a file reads the same
cp single.h5 unindexed.h5
"$PYTHON" -c '
import h5py, sys
with h5py.File(sys.argv[1], "r+") as f:
    for name in ("index_ranks", "index_names", "index_regions"):
        del f["metadata"][name]' unindexed.h5
"$SCOPE_CLI" summary unindexed.h5 --format csv >unindexed.csv
cmp -s unindexed.csv single.csv || fail "the index changes the summary: $(diff unindexed.csv single.csv)"
"$SCOPE_CLI" events single.h5 --format csv >events.csv
"$SCOPE_CLI" events unindexed.h5 --format csv >unindexed-events.csv
cmp -s events.csv unindexed-events.csv || fail "the index changes the events"
# a damaged index is refused, naming it
cp single.h5 damaged.h5
"$PYTHON" -c '
import h5py, sys
with h5py.File(sys.argv[1], "r+") as f:
    rows = f["metadata/index_regions"][:]
    rows[0]["rank"] = 99
    f["metadata/index_regions"][:] = rows' damaged.h5
"$SCOPE_CLI" summary damaged.h5 >/dev/null 2>damaged.txt && fail "a damaged index was read"
grep -q "^scope: damaged.h5: metadata/index_regions: row [0-9]* does not describe" damaged.txt ||
    fail "the damaged index is not named: $(cat damaged.txt)"
# without its node files, the run's file reads its own ranks, naming each
# missing file and the ranks it held
"$SCOPE_CLI" info profiling_data.h5 --format json >missing.json 2>missing.txt ||
    fail "the run's own ranks unread without the node files: $(cat missing.txt)"
grep -q "^scope: profiling_data.h5: ranks 2-3 left out: their node's file profiling_data.h5.d/node1.h5 cannot be read (No such file or directory)$" \
    missing.txt || fail "a missing node file is not named: $(cat missing.txt)"
grep -q "^scope: profiling_data.h5: rank 4 left out: their node's file profiling_data.h5.d/node2.h5" \
    missing.txt || fail "the second missing node file is not named: $(cat missing.txt)"
"$PYTHON" -c 'import json, sys; i = json.load(open(sys.argv[1]))["info"]
assert (i["ranks"], i["rank_ids"]) == (2, "0-1"), i' missing.json || fail "not ranks 0-1 alone"
mkdir profiling_data.h5.d
cp elsewhere/node1.h5 profiling_data.h5.d/
"$SCOPE_CLI" info profiling_data.h5 --format json >missing.json 2>missing.txt || fail "one node file"
"$PYTHON" -c 'import json, sys; i = json.load(open(sys.argv[1]))["info"]
assert (i["ranks"], i["rank_ids"]) == (4, "0-3"), i' missing.json || fail "not ranks 0-3"
[ "$(wc -l <missing.txt)" -eq 1 ] && grep -q "rank 4 left out" missing.txt ||
    fail "one node file missing: $(cat missing.txt)"
rm -r profiling_data.h5.d
echo "ok: packed into one file"

# a node that cannot write its part: no file, every record kept, recovered
rm -rf profiling_data.h5 elsewhere
echo "not a directory" >profiling_data.h5.d
# shellcheck disable=SC2086
$MPIRUN -n 5 "$SCOPE_CLI" run -c "$CONFIG" -- "$PROGRAM" >out.txt 2>err.txt || true
[ ! -e profiling_data.h5 ] || fail "a file was written without the ranks of two nodes"
grep -q "cannot create profiling_data.h5.d" err.txt || fail "no reason given"
grep -q "^scope: wrote" err.txt && fail "scope says it wrote a file"
# every failing rank names the run to recover: rank 0's pid
pid0=$(sed -n 's/.*data left for `scope recover --run \([0-9]*\)`$/\1/p' err.txt | sort -u)
[ "$(echo "$pid0" | wc -w)" -eq 1 ] || fail "not one run named: $(cat err.txt)"
rm profiling_data.h5.d
"$SCOPE_CLI" recover --run "$pid0" -o recovered.h5 2>recover.txt || fail "recover: $(cat recover.txt)"
grep -q "5 of 5 rank(s) on 3 nodes -> recovered.h5 + recovered.h5.d/" recover.txt ||
    fail "recover said: $(cat recover.txt)"
[ "$(ls recovered.h5.d)" = "$(printf 'node1.h5\nnode2.h5')" ] ||
    fail "recovered node files: $(ls -A recovered.h5.d | tr '\n' ' ')"
"$SCOPE_CLI" summary recovered.h5 --format csv >recovered.csv
grep -q "^timestep,30," recovered.csv || fail "recovered calls: $(cat recovered.csv)"
"$PYTHON" "$CHECKER" "$SCOPE_CLI" recovered.h5 5 >check.txt || { cat check.txt; fail "check of the recovered file"; }
echo "ok: a node's failure keeps every record; scope recover writes the run's file and its nodes' parts"
