#!/usr/bin/env python3
"""check_profile_mode.py: a corpus program in trace mode and in profile mode.

Runs PROGRAM twice under LD_PRELOAD=libscope with SCOPE_FUNCTIONS, once
recording every call (trace) and once counting them (SCOPE_MODE=profile),
each in a fresh directory, and checks that both runs verified their own
results, that every region has the same calls in both files (`scope
summary`), and that the call paths the profile stored, with their calls,
are exactly those the trace's calls nest into (`scope tree` lists the
trace's calls and the profile's paths, each with its depth): a longjmp, an
exception, a signal handler or a thread's end leaves no path the trace
does not have, loses none, and moves no call to another.

usage: check_profile_mode.py --lib LIB --cli SCOPE --functions F1,F2 -- PROGRAM [ARGS]
Exit status: 0 pass, 1 fail, 77 skip (the program skipped itself).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(args, mode, work):
    out = os.path.join(work, mode + ".h5")
    env = dict(os.environ, LD_PRELOAD=args.lib, SCOPE_FUNCTIONS=args.functions,
               SCOPE_OUTPUT=out, SCOPE_MODE=mode, SCOPE_WARN_STALE="0")
    env.pop("SCOPE_CONFIG", None)
    p = subprocess.run(args.program, env=env, cwd=work, capture_output=True, text=True,
                       timeout=120)
    if p.returncode == SKIP:
        print("skipped by the program:", p.stdout.strip())
        sys.exit(SKIP)
    if p.returncode != 0:
        fail(f"{mode} run exited with {p.returncode}: {p.stderr.strip()}")
    return out


def cli(args, *words):
    p = subprocess.run([args.cli, *words], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"scope {' '.join(words)}: {p.stderr.strip()}")
    return p.stdout


def calls(args, path):
    rows = json.loads(cli(args, "summary", path, "--all", "--format", "json"))["regions"]
    return {r["region"]: r["calls"] for r in rows}


def paths(args, path, counted):
    """{"outer;inner": calls} from `scope tree`: a trace's rows are calls,
    each under its parent_id (the threads' calls interleave); a profile's
    are paths with their calls, depth first, each under the last row of
    the depth above."""
    out, stack, of_call = {}, [], {}
    for row in csv.DictReader(cli(args, "tree", path, "--format", "csv").splitlines()):
        if counted:
            stack[int(row["depth"]):] = [row["path"].strip()]
            key = ";".join(stack)
        else:
            parent = int(row["parent_id"])
            key = of_call[row["call_id"]] = (of_call[str(parent)] + ";" if parent >= 0 else
                                            "") + row["name"].strip()
        out[key] = out.get(key, 0) + (int(row["calls"]) if counted else 1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--functions", required=True)
    ap.add_argument("program", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.program[:1] == ["--"]:
        args.program = args.program[1:]
    # the runs happen in a directory of their own
    args.lib, args.cli = os.path.abspath(args.lib), os.path.abspath(args.cli)
    args.program[0] = os.path.abspath(args.program[0])
    with tempfile.TemporaryDirectory(prefix="scope-profile-mode-") as work:
        trace, profile = run(args, "trace", work), run(args, "profile", work)
        want, got = calls(args, trace), calls(args, profile)
        if want != got:
            fail(f"calls per region: trace {want}, profile {got}")
        want_paths, got_paths = paths(args, trace, False), paths(args, profile, True)
        if want_paths != got_paths:
            differ = sorted(k for k in want_paths.keys() | got_paths.keys()
                            if want_paths.get(k) != got_paths.get(k))
            fail("calls per call path, trace against profile: " +
                 ", ".join(f"{k}: {want_paths.get(k, 0)} {got_paths.get(k, 0)}" for k in differ))
        print(f"ok: {sum(got.values())} calls in {len(got)} regions and {len(got_paths)} call "
              "paths, as in the trace")


main()
