#!/usr/bin/env python3
"""Merges the per-node statistics files of one job (GASNET_STATSFILE,
core-mpi/trace.c) into one summary: the transfers and AMs by call with
their sizes, where the time of waits, barriers and collectives went
(min/mean/max over every call, and the node that waited longest), the
busiest pairs of nodes, and the other events.

    scripts/stats-summary.py [--plot OUT.png] FILE...   (e.g. stats.*)

--plot also draws, with gnuplot, two panels: the bytes each node sent
each other node (puts and AM payloads; gets counted for the node that
fetched) as a matrix, and each node's time in waits, barriers,
collectives and locks.

Each node's last block (the one written at exit, or the last
GASNETT_STATS_DUMP) counts, in a file of its own or one the nodes shared;
a block starts with a "# GASNet statistics" line. Exits non-zero when no
file holds a block."""
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

HEADER = re.compile(r"^# GASNet statistics \((\w+)\): node (\d+) of (\d+)")


def fields(words):
    """'count 3 bytes 24' -> {'count': 3, 'bytes': 24}"""
    return {words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)}


def category_call(rest):
    """['A', 'library', 'AM', 'Request', 'count', ...] -> ('A', 'library AM Request', ['count', ...]):
    a call's name may have several words; its fields start at 'count'."""
    at = rest.index("count")
    return rest[0], " ".join(rest[1:at]), rest[at:]


def last_blocks(path):
    """{node: (its last block's rows, its notes)} of one file: a node's
    own, or one the nodes shared (each block is written whole)."""
    nodes, node, pending = {}, None, []  # notes precede the next block of their node
    with open(path) as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                node = int(m.group(2))
                nodes[node] = ([], (nodes[node][1] if node in nodes else []) + pending)
                pending = []
            elif line.startswith("note "):
                pending.append(line[5:].rstrip("\n"))
            elif node is not None and line.strip():
                nodes[node][0].append(line.split())
    if pending and node is not None:
        nodes[node][1].extend(pending)
    return nodes


def size_text(hist):
    return " ".join(f"{lo}:{c}" for lo, c in sorted(hist.items()))


WAIT_NAMES = [("S", "syncs"), ("B", "barriers"), ("W", "collectives"), ("L", "locks")]


def plot(out, nodes, pairs, waited):
    """Draws the traffic matrix and the waits per node into out (PNG)."""
    ids = sorted(set(waited) | {p[0] for p in pairs} | {p[1] for p in pairs})
    n = max(ids) + 1 if ids else nodes
    matrix = [[0] * n for _ in range(n)]
    for src, dst, f in pairs:
        if 0 <= src < n and 0 <= dst < n:
            matrix[src][dst] += f["put_bytes"] + f["get_bytes"] + f["am_bytes"]
    with tempfile.TemporaryDirectory() as tmp:
        mat, bars = os.path.join(tmp, "matrix"), os.path.join(tmp, "waits")
        with open(mat, "w") as f:
            for row in matrix:
                f.write(" ".join(str(v) for v in row) + "\n")
        with open(bars, "w") as f:
            f.write("node " + " ".join(name for _, name in WAIT_NAMES) + "\n")
            for node in range(n):
                f.write(f"{node} " + " ".join(f"{waited[node][c] / 1e6:.3f}" for c, _ in WAIT_NAMES) + "\n")
        script = f"""
set terminal pngcairo size 1200,520 font ',10'
set output '{out}'
set multiplot layout 1,2 title 'GASNet statistics of {nodes} node(s)'
set title 'Bytes sent from node (row) to node (column): puts, AM payloads, gets'
set xlabel 'to node'; set ylabel 'from node'
set xrange [-0.5:{n - 0.5}]; set yrange [{n - 0.5}:-0.5]
set xtics 0,{max(1, n // 16)}; set ytics 0,{max(1, n // 16)}
set cblabel 'bytes'; set palette defined (0 'white', 1 '#9ecae1', 2 '#08519c')
plot '{mat}' matrix with image notitle
unset xrange; unset yrange; unset cblabel
set title 'Time each node spent waiting (ms)'
set xlabel 'node'; set ylabel 'ms'; set yrange [0:*]
set style data histograms; set style histogram rowstacked; set style fill solid 0.8 border -1
set boxwidth 0.7; set key outside right top vertical
set xtics 0,{max(1, n // 16)}
plot for [i=2:{len(WAIT_NAMES) + 1}] '{bars}' using i:xtic(1) title columnheader(i)
unset multiplot
"""
        try:
            subprocess.run(["gnuplot"], input=script, text=True, check=True, capture_output=True)
        except FileNotFoundError:
            print("stats-summary: --plot needs gnuplot (package gnuplot-nox)", file=sys.stderr)
            return 1
        except subprocess.CalledProcessError as e:
            print("stats-summary: gnuplot failed: " + e.stderr.strip(), file=sys.stderr)
            return 1
    return 0


def main(paths, plot_to=None):
    sizes = defaultdict(lambda: {"count": 0, "bytes": 0, "min": None, "max": 0, "hist": defaultdict(int)})
    times = defaultdict(lambda: {"count": 0, "total": 0, "min": None, "max": 0, "worst": (0, None)})
    waited = defaultdict(lambda: defaultdict(int))  # node -> category -> ns
    counts = defaultdict(int)
    pairs = []
    notes = []
    nodes = 0
    blocks = {}
    for path in paths:
        blocks.update(last_blocks(path))
    for node, (block, node_notes) in sorted(blocks.items()):
        nodes += 1
        notes += [(node, n) for n in node_notes]
        for w in block:
            kind, rest = w[0], w[1:]
            if kind == "size":
                cat, call, rest = category_call(rest)
                hist_at = rest.index("hist")
                f = fields(rest[:hist_at])
                s = sizes[(cat, call)]
                s["count"] += f["count"]
                s["bytes"] += f["bytes"]
                s["min"] = f["min"] if s["min"] is None else min(s["min"], f["min"])
                s["max"] = max(s["max"], f["max"])
                for b in rest[hist_at + 1:]:
                    lo, c = b.split(":")
                    s["hist"][int(lo)] += int(c)
            elif kind == "time":
                cat, call, rest = category_call(rest)
                f = fields(rest)
                t = times[(cat, call)]
                t["count"] += f["count"]
                t["total"] += f["total_ns"]
                t["min"] = f["min_ns"] if t["min"] is None else min(t["min"], f["min_ns"])
                t["max"] = max(t["max"], f["max_ns"])
                if f["total_ns"] > t["worst"][0]:
                    t["worst"] = (f["total_ns"], node)
                waited[node][cat] += f["total_ns"]
            elif kind == "count":
                cat, call, rest = category_call(rest)
                counts[(cat, call)] += fields(rest)["count"]
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
    return plot(plot_to, nodes, pairs, waited) if plot_to else 0


if __name__ == "__main__":
    args, plot_to = sys.argv[1:], None
    if args[:1] == ["--plot"] and len(args) >= 2:
        plot_to, args = args[1], args[2:]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(args, plot_to))
