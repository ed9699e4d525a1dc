#!/usr/bin/env python3
"""Merges the per-node statistics files of one job (GASNET_STATSFILE,
core-mpi/trace.c) into one summary: the transfers and AMs by call with
their sizes, where the time of waits, barriers and collectives went
(min/mean/max over every call, and the node that waited longest), the
busiest pairs of nodes, and the other events.

    scripts/stats-summary.py FILE...        (e.g. stats.*)

Each file's last block (the one written at exit, or the last
GASNETT_STATS_DUMP) counts; a block starts with a "# GASNet statistics"
line. Exits non-zero when no file holds a block."""
import re
import sys
from collections import defaultdict

HEADER = re.compile(r"^# GASNet statistics \((\w+)\): node (\d+) of (\d+)")


def fields(words):
    """'count 3 bytes 24' -> {'count': 3, 'bytes': 24}"""
    return {words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)}


def last_block(path):
    node, block, notes = None, [], []
    with open(path) as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                node, block = int(m.group(2)), []
            elif line.startswith("note "):
                notes.append(line[5:].rstrip("\n"))
            elif node is not None and line.strip():
                block.append(line.split())
    return node, block, notes


def size_text(hist):
    return " ".join(f"{lo}:{c}" for lo, c in sorted(hist.items()))


def main(paths):
    sizes = defaultdict(lambda: {"count": 0, "bytes": 0, "min": None, "max": 0, "hist": defaultdict(int)})
    times = defaultdict(lambda: {"count": 0, "total": 0, "min": None, "max": 0, "worst": (0, None)})
    counts = defaultdict(int)
    pairs = []
    notes = []
    nodes = 0
    for path in paths:
        node, block, node_notes = last_block(path)
        if node is None:
            continue
        nodes += 1
        notes += [(node, n) for n in node_notes]
        for w in block:
            kind, rest = w[0], w[1:]
            if kind == "size":
                cat, call = rest[0], rest[1]
                hist_at = rest.index("hist")
                f = fields(rest[2:hist_at])
                s = sizes[(cat, call)]
                s["count"] += f["count"]
                s["bytes"] += f["bytes"]
                s["min"] = f["min"] if s["min"] is None else min(s["min"], f["min"])
                s["max"] = max(s["max"], f["max"])
                for b in rest[hist_at + 1:]:
                    lo, c = b.split(":")
                    s["hist"][int(lo)] += int(c)
            elif kind == "time":
                cat, call, f = rest[0], rest[1], fields(rest[2:])
                t = times[(cat, call)]
                t["count"] += f["count"]
                t["total"] += f["total_ns"]
                t["min"] = f["min_ns"] if t["min"] is None else min(t["min"], f["min_ns"])
                t["max"] = max(t["max"], f["max_ns"])
                if f["total_ns"] > t["worst"][0]:
                    t["worst"] = (f["total_ns"], node)
            elif kind == "count":
                counts[(rest[0], rest[1])] += fields(rest[2:])["count"]
            elif kind == "peer":
                pairs.append((node, int(rest[0]), fields(rest[1:])))
    if not nodes:
        print("stats-summary: no statistics block in " + " ".join(paths), file=sys.stderr)
        return 1
    print(f"GASNet statistics of {nodes} node(s)\n")
    if sizes:
        print("Transfers and AMs (P puts, G gets, A AMs; sizes: lower bound of each power of two: count)")
        print(f"  {'':1} {'call':<28} {'count':>9} {'bytes':>12} {'min':>8} {'max':>9}  sizes")
        for (cat, call), s in sorted(sizes.items(), key=lambda kv: -kv[1]["bytes"]):
            print(f"  {cat:1} {call:<28} {s['count']:>9} {s['bytes']:>12} {s['min']:>8} {s['max']:>9}  "
                  + size_text(s["hist"]))
        print()
    if times:
        print("Where the waits went (S syncs, B barriers, W collectives, L locks; microseconds)")
        print(f"  {'':1} {'call':<28} {'count':>7} {'total':>11} {'min':>9} {'mean':>9} {'max':>9}  longest on")
        for (cat, call), t in sorted(times.items(), key=lambda kv: -kv[1]["total"]):
            print(f"  {cat:1} {call:<28} {t['count']:>7} {t['total'] / 1e3:>11.1f} {t['min'] / 1e3:>9.1f} "
                  f"{t['total'] / t['count'] / 1e3:>9.1f} {t['max'] / 1e3:>9.1f}  node {t['worst'][1]}")
        print()
    if pairs:
        print("Busiest peers (by bytes: puts and AM payloads sent, gets fetched)")
        print(f"  {'from':>5} {'to':>5} {'puts':>8} {'put_bytes':>12} {'gets':>8} {'get_bytes':>12} {'ams':>8} {'am_bytes':>10}")
        pairs.sort(key=lambda p: -(p[2]["put_bytes"] + p[2]["get_bytes"] + p[2]["am_bytes"]))
        for src, dst, f in pairs[:10]:
            print(f"  {src:>5} {dst:>5} {f['puts']:>8} {f['put_bytes']:>12} {f['gets']:>8} "
                  f"{f['get_bytes']:>12} {f['ams']:>8} {f['am_bytes']:>10}")
        print()
    if counts:
        print("Other events")
        for (cat, call), c in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"  {cat:1} {call:<28} {c:>9}")
        print()
    for node, text in notes:
        print(f"note from node {node}: {text}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
