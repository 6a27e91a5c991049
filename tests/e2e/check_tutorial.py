#!/usr/bin/env python3
"""check_tutorial.py: asserts what a user checks in a profile of the bundled
tutorial example: the file's layout (h5py), and through the `scope` CLI the
events, nesting, self times and durations of every rank.

usage: check_tutorial.py SCOPE_CLI FILE NRANKS
"""
import glob
import json
import os
import statistics
import subprocess
import sys

import h5py

import stored_stats

MS = 1e-3
EXPECTED_CALLS = {"setup": 1, "timestep": 6, "assemble": 6, "solve": 6, "checkpoint": 2}
SLACK = 15 * MS   # typical lateness of a sleep's wake-up
WORST = 0.5       # any single call


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def scope(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def check_layout(path, nranks):
    with h5py.File(path, "r") as f:
        groups = sorted(f.keys())
        want = sorted(["metadata"] + [f"rank{r}" for r in range(nranks)])
        if groups != want:
            fail(f"top-level groups {groups}, expected {want}")
        meta = f["metadata"].attrs
        for key in ("version", "hostname", "platform", "user", "working_directory",
                    "timestamp", "mpi_size", "omp_num_threads", "total_cores", "command",
                    "config", "clock", "run_start_time"):
            if key not in meta:
                fail(f"/metadata lacks attribute {key}")
        if meta["mpi_size"] != nranks:
            fail(f"mpi_size {meta['mpi_size']} != {nranks}")
        for r in range(nranks):
            g = f[f"rank{r}"]
            if g.attrs["dropped_events"] != 0:
                fail(f"rank{r} dropped events")
            leaked = glob.glob(f"/dev/shm/scope-{os.getuid()}-{g.attrs['pid']}-*")
            if leaked:
                fail(f"rank{r} left its shared-memory buffers: {leaked}")
            regions = g["regions"]
            if sorted(regions.keys()) != sorted(EXPECTED_CALLS):
                fail(f"rank{r} regions {sorted(regions.keys())}")
            for name, n in EXPECTED_CALLS.items():
                s, e = regions[name]["start_times"][:], regions[name]["end_times"][:]
                if len(s) != n or len(e) != n:
                    fail(f"rank{r}/{name}: {len(s)} calls, expected {n}")
                if list(s) != sorted(s) or any(b < a for a, b in zip(s, e)):
                    fail(f"rank{r}/{name}: start_times unsorted or end before start")
            if meta["run_start_time"] > min(regions[n]["start_times"][0] for n in EXPECTED_CALLS):
                fail("run_start_time is after the first region entry")


def check_rank(events, rank):
    mine = [e for e in events if e["rank"] == rank]
    if len(mine) != 21:
        fail(f"rank {rank}: {len(mine)} calls, expected 21")
    by_id = {e["call_id"]: e for e in mine}
    if sorted(by_id) != list(range(21)):
        fail(f"rank {rank}: call_ids {sorted(by_id)}")
    for e in mine:
        parent = by_id.get(e["parent_id"])
        if e["name"] in ("assemble", "solve"):
            if not parent or parent["name"] != "timestep":
                fail(f"rank {rank}: {e['name']} #{e['call_index']} not inside a timestep")
            if e["start"] < parent["start"] or e["end"] > parent["end"]:
                fail(f"rank {rank}: {e['name']} #{e['call_index']} outside its parent")
        elif e["parent_id"] != -1:
            fail(f"rank {rank}: {e['name']} should be a root, parent {e['parent_id']}")
    # The tutorial's numbering: timesteps at 1, 4, 7, the sixth solve 19 in 17.
    steps = [e["call_id"] for e in mine if e["name"] == "timestep"]
    if steps[:3] != [1, 4, 7]:
        fail(f"rank {rank}: timestep call_ids {steps}")
    last_solve = [e for e in mine if e["name"] == "solve"][-1]
    if (last_solve["call_id"], last_solve["parent_id"]) != (19, 17):
        fail(f"rank {rank}: last solve call_id/parent_id {last_solve['call_id']}/{last_solve['parent_id']}")
    # A sleep never ends early. On a loaded, oversubscribed 2-core machine a
    # wake-up may come late, so single calls get a wide bound and the typical
    # (median) overshoot a tight one.
    want = {"setup": lambda i: 10, "assemble": lambda i: 2, "checkpoint": lambda i: 4,
            "solve": lambda i: 2 + i}
    overshoot = {}
    for e in mine:
        if e["name"] in want:
            lo = want[e["name"]](e["call_index"]) * MS
            if not lo <= e["duration"] <= lo + WORST:
                fail(f"rank {rank}: {e['name']} #{e['call_index']} took {e['duration']:.6f} s, "
                     f"expected {lo:.3f} s (at most +{WORST:.3f})")
            overshoot.setdefault(e["name"], []).append(e["duration"] - lo)
    for name, extra in overshoot.items():
        if len(extra) >= 6 and statistics.median(extra) > SLACK:
            fail(f"rank {rank}: {name} runs typically {statistics.median(extra):.6f} s "
                 f"over its sleep (more than {SLACK:.3f})")


def check_summary(summary, nranks):
    rows = {r["region"]: r for r in summary["regions"]}
    for name, n in EXPECTED_CALLS.items():
        if rows[name]["calls"] != n * nranks:
            fail(f"summary {name}: {rows[name]['calls']} calls")
    ts = rows["timestep"]
    if ts["self"] > 0.02 * ts["total"]:
        fail(f"timestep self time {ts['self']} is not a tiny part of {ts['total']}")
    for name in ("setup", "assemble", "solve", "checkpoint"):
        if abs(rows[name]["self"] - rows[name]["total"]) > 1e-9:
            fail(f"{name}: self {rows[name]['self']} != total {rows[name]['total']}")


def main():
    cli, path, nranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    check_layout(path, nranks)
    events = scope(cli, "events", path, "--format", "json")["events"]
    for rank in range(nranks):
        check_rank(events, rank)
    check_summary(scope(cli, "summary", path, "--format", "json"), nranks)
    try:
        stored_stats.check(cli, path)
    except AssertionError as e:
        fail(str(e))
    print(f"ok: {nranks} rank(s), 21 calls each, tutorial nesting and durations")


if __name__ == "__main__":
    main()
