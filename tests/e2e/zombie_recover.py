#!/usr/bin/env python3
"""zombie_recover.py: a run killed with kill -9 whose parent has not reaped
it yet (a zombie) is dead for `scope recover`: its records are recovered at
once, every call the program counted, not skipped as a live process.

usage: zombie_recover.py   (env: SCOPE_CLI PROGRAM=busy_loop)
"""
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time

import h5py


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def state(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rpartition(")")[2].split()[0]


def main():
    cli, program = os.environ["SCOPE_CLI"], os.environ["PROGRAM"]
    with tempfile.TemporaryDirectory(prefix="scope-zombie-") as work:
        counts = os.path.join(work, "counts")
        run = subprocess.Popen([cli, "run", "-f", "work", "-o", "never.h5", "--", program, counts],
                               cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            made = 0
            for _ in range(100):
                time.sleep(0.1)
                if os.path.exists(counts) and os.path.getsize(counts) >= 8:
                    with open(counts, "rb") as f:
                        made = struct.unpack("<Q", f.read(8))[0]
                    if made > 100:
                        break
            if made <= 100:
                fail("the program did not start counting")
            os.kill(run.pid, signal.SIGKILL)
            for _ in range(100):
                if state(run.pid) == "Z":
                    break
                time.sleep(0.05)
            else:
                fail("pid %d did not become a zombie" % run.pid)
            with open(counts, "rb") as f:
                made = struct.unpack("<Q", f.read(8))[0]
            out = os.path.join(work, "recovered.h5")
            p = subprocess.run([cli, "recover", "--run", str(run.pid), "-o", out],
                               capture_output=True, text=True)
            print(p.stderr.strip())
            if p.returncode != 0:
                fail("scope recover of the zombie's run failed (%d)" % p.returncode)
            if state(run.pid) != "Z":
                fail("the run was reaped before recover finished: the test proves nothing")
        finally:
            run.kill()
            run.wait()
        with h5py.File(out) as f:
            got = len(f["rank0/regions/work/start_times"])
        print("%d of %d calls recovered from the zombie's records" % (got, made))
        if not made <= got <= made + 1:
            fail("%d calls recovered, the program made %d" % (got, made))
    print("ok: a zombie's run recovered")


if __name__ == "__main__":
    main()
