#!/usr/bin/env python3
"""Instructions per operation on the three paths a refactor must not slow
(issue 30): the on-node put (the inline fast path), the on-node AM round
trip (shared-memory rings) and the AM round trip over MPI.

Runs bench/pingpong on 2 ranks under valgrind's callgrind and reads, from
each rank's profile, the inclusive instructions per call of the functions
that do the work. Idle polling is left out: how often a waiting rank polls
depends on timing, the work per message does not.

  put     put_active's instructions per put over shm (two runs, n and 6n
          iterations, differenced, so the loop's set-up cancels)
  am_shm  gasnet_AMRequestShort0 to a neighbour and its reply:
          request + reply + the two deliveries (gasneti_shmam_take)
  am_mpi  the same with GASNET_SUPERNODE_MAXSIZE=1 GASNET_RMA=am (MPI only),
          an 8-byte Medium request and a Short reply: request + reply
          (ammpi's poll delivers inline, so deliveries are not counted)
  poll    the core's own instructions per poll of a wait loop, around
          ammpi's (gasnetc_block_poll less ammpi_poll_wait), on the MPI run:
          the median of three runs (it moves by some 10% between runs)

Usage: bench/icount.py [BUILD_DIR]   (default build/opt; needs valgrind)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = 2000


def run(build, out, op, n, env=None, extra=()):
    wrap = os.path.join(out, "wrap.sh")
    with open(wrap, "w") as f:
        f.write('#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=%s/cg.$PMI_RANK '
                '"$@" 2>/dev/null\n' % out)
    os.chmod(wrap, 0o755)
    e = dict(os.environ, IPATH_NO_BACKTRACE="1", **(env or {}))
    cmd = [os.path.join(ROOT, "launch/gasnetrun_mpi"), "-n", "2", wrap,
           os.path.join(ROOT, build, "bench/pingpong/pingpong"), "-l", "gasnet", "-o", op,
           "-n", str(n), "-r", "1", "-s", "8", "-S", "8"] + list(extra)
    subprocess.run(cmd, env=e, check=True, stdout=subprocess.DEVNULL)
    return [per_call(os.path.join(out, "cg.%d" % r)) for r in (0, 1)]


def per_call(path):
    """{function: (calls, inclusive Ir)} summed over every call site."""
    names, total = {}, {}
    callee, calls = None, None
    for line in open(path):
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith("cfn="):
                callee = names[m.group(1)]
            continue
        if line.startswith("calls="):
            calls = int(line.split()[0][6:])
            continue
        if calls is not None:
            c, ir = total.get(callee, (0, 0))
            total[callee] = (c + calls, ir + int(line.split()[1]))
            calls = None
    return total


def cost(prof, fn):
    c, ir = prof.get(fn, (0, 0))
    if not c:
        sys.exit("icount: %s was never called" % fn)
    return ir / c


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/opt"
    if not shutil.which("valgrind"):
        sys.exit("icount: needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as out:
        a = run(build, out, "put", N, extra=("-P", "shm"))[0]["put_active"]
        b = run(build, out, "put", 6 * N, extra=("-P", "shm"))[0]["put_active"]
        put = (b[1] - a[1]) / (5 * N)
        r0, r1 = run(build, out, "am_short", N)
        shm = (cost(r0, "gasnetc_AMRequestShort") + cost(r1, "gasnetc_AMReplyShort") +
               cost(r0, "gasneti_shmam_take") + cost(r1, "gasneti_shmam_take"))
        polls = []
        for _ in range(3):
            r0, r1 = run(build, out, "am_medium", N, {"GASNET_SUPERNODE_MAXSIZE": "1", "GASNET_RMA": "am"})
            mpi = cost(r0, "gasnetc_AMRequestMedium") + cost(r1, "gasnetc_AMReplyShort")
            calls, incl = r1["gasnetc_block_poll"]
            polls.append((incl - r1["ammpi_poll_wait"][1]) / calls)
        poll = sorted(polls)[1]
    print("icount %s: put %.1f  am_shm %.0f  am_mpi %.0f  poll %.1f  (instructions per operation)"
          % (build, put, shm, mpi, poll))

main()
