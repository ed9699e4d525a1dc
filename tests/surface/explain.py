#!/usr/bin/env python3
"""Maps a compiler/linker log of a gen.py source to the list entries.

usage: explain.py SOURCE LOG
Prints one line per failing entry: NAME (list:line): the first message.
Lines of the log it cannot map (link errors: they name the symbol) are
printed as they are.
"""
import re
import sys

src, log = sys.argv[1], sys.argv[2]
tags = {}
current = None
with open(src) as f:
    for n, line in enumerate(f, 1):
        m = re.search(r'/\* surface: (\S+ \([^)]*\)) \*/', line)
        if m:
            current = m.group(1)
        tags[n] = current
seen = {}
other = []
with open(log) as f:
    for line in f:
        m = re.match(r'[^:]+:(\d+):(?:\d+:)? (?:fatal )?error: (.*)', line)
        if m and tags.get(int(m.group(1))):
            seen.setdefault(tags[int(m.group(1))], m.group(2).strip())
        elif 'undefined reference' in line or re.search(r'\berror:', line):
            other.append(line.rstrip())
for entry, msg in seen.items():
    print('  %s: %s' % (entry, msg))
for line in dict.fromkeys(other):
    print('  ' + line)
