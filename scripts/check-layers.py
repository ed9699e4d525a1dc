#!/usr/bin/env python3
"""No two folders of the library depend on each other.

A folder depends on another when one of its files includes a header of
the other (#include "..." or <...>, resolved as the build's -I order
does), or when one of its objects uses a symbol the other's objects define
(nm over an optimised build's objects). The installed headers (include/,
core-mpi/gasnet_core.h, extended/gasnet_extended.h, tools/gasnet_tools.h)
are the API, not a folder: every layer implements part of it, and they
include only each other. Fails on any cycle between folders, naming an
edge that closes it. Run by make check (tests/suite.sh).

Usage: scripts/check-layers.py [BUILD_DIR]   (default build/opt)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ["ammpi", "base", "barrier", "coll", "conduit", "core-mpi", "core-native", "extended",
           "memkind", "ratomic", "shmam", "tools"]
INCLUDE_ORDER = ["include", "base", "core-mpi", "ammpi", "extended", "barrier", "coll", "core-native",
                 "shmam", "memkind", "tools"]  # mk/flavor.mk's CPPFLAGS
API = {"include/" + f for f in os.listdir(os.path.join(ROOT, "include")) if f.endswith(".h")}
API |= {"core-mpi/gasnet_core.h", "extended/gasnet_extended.h", "tools/gasnet_tools.h"}



def node(path):
    return "api" if path in API else path.split("/")[0]


def include_edges():
    edges = {}
    for d in FOLDERS:
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if not f.endswith((".c", ".h")):
                continue
            path = d + "/" + f
            text = open(os.path.join(ROOT, path), errors="replace").read()
            for quoted, name in re.findall(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', text, re.M):
                where = ([d] if quoted == '"' else []) + INCLUDE_ORDER
                found = next((w for w in where if os.path.isfile(os.path.join(ROOT, w, name))), None)
                if not found:
                    continue
                a, b = node(path), node(found + "/" + name)
                if a != b:
                    edges.setdefault((a, b), "%s includes %s/%s" % (path, found, name))
    return edges


def symbol_edges(build):
    objdir = os.path.join(ROOT, build, "obj")
    defined, used = {}, []
    for top, folder_of in (("seq", lambda parts: parts[0]), ("ammpi", lambda parts: "ammpi")):
        base = os.path.join(objdir, top)
        for dirpath, _, files in os.walk(base):
            for f in files:
                if not f.endswith(".o"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), base).split(os.sep)
                folder = folder_of(rel)
                src = os.path.join(ROOT, folder, f[:-2] + ".c")
                if not os.path.isfile(src):
                    continue  # left from a file since moved or deleted
                out = subprocess.run(["nm", os.path.join(dirpath, f)], capture_output=True,
                                     text=True, check=True).stdout
                for line in out.splitlines():
                    parts = line.split()
                    if len(parts) == 3 and parts[1] in "TDBRVWG":
                        defined[parts[2]] = folder
                    elif len(parts) == 2 and parts[0] == "U":
                        used.append((folder, parts[1]))
    if not defined:
        sys.exit("check-layers: no objects under %s (build it first)" % objdir)
    edges = {}
    for folder, sym in used:
        other = defined.get(sym)
        if other and other != folder:
            edges.setdefault((folder, other), "%s uses %s" % (folder, sym))
    return edges


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/opt"
    edges = include_edges()
    for e, why in symbol_edges(build).items():
        edges.setdefault(e, why)
    bad = 0
    api_out = [(e, w) for e, w in edges.items() if e[0] == "api"]
    for (a, b), why in api_out:
        print("check-layers: the API headers include %s's: %s" % (b, why))
        bad = 1
    # a cycle exists where b reaches a and a -> b; only edges inside one
    reach = {}
    nodes = {n for e in edges for n in e}
    for n in nodes:
        seen, todo = set(), [n]
        while todo:
            x = todo.pop()
            for (a, b) in edges:
                if a == x and b not in seen:
                    seen.add(b)
                    todo.append(b)
        reach[n] = seen
    for (a, b), why in sorted(edges.items()):
        if a in reach[b]:
            print("check-layers: %s -> %s closes a cycle (%s)" % (a, b, why))
            bad = 1
    if not bad:
        order = sorted(nodes, key=lambda n: (len(reach[n]), n))
        print("check-layers: ok; folders by what they reach: " + " ".join(order))
    return bad


sys.exit(main())
