#!/usr/bin/env python3
"""Writes one C/C++ source that names every entry of the surface lists.

usage: gen.py --lang c|c++ --mode seq|par --flavor opt|debug OUT.c
              [--list FILE]... [--pending FILE]

The lists (default: surface-2020.10.txt, then surface-2025.8.txt, both
beside this script) have one entry a line (see the top of
surface-2020.10.txt): an object-like macro, `NAME = VALUE`, a function-like
macro `NAME(params)`, `NAME [function] PROTOTYPE`, `NAME [typedef]`,
`NAME [enumerator]`, `NAME -> same as: PROTOTYPE`. The 2025.8 list may also
give `NAME(params) -> call: STATEMENT`, a statement that uses the macro, and
`NAME -> use: STATEMENT` for a name (of any kind) that a statement uses.
An entry of a later list replaces the entry of the same name of an earlier
one (2025.8 wins over 2020.10).

What each entry becomes:
  macro            the expansion is stringified (it must expand without
                   error); not a macro: its address is taken
  = VALUE          #ifndef / #error and a static assertion NAME == VALUE
                   (a value with a cast to a handle type is a pointer: the
                   program compares it at run time)
  NAME(params)     not a macro: its address is taken; called if it takes
                   no argument, or with the list's call statement
  [function], ->   the name's address assigned to a file-scope pointer of
                   the listed prototype's type (signature checked; its
                   initializer needs the symbol, so the link fails without)
  -> use:          the statement
  [typedef]        sizeof(NAME *)
  [enumerator]     its value stored in an array

A name the reference makes a macro may be a function or a variable here
(a caller writes the same): where it is no macro, its address is taken, so
it must be declared (and, for a function, link). Types and constants named
by macros in the reference must be macros here too.

Facts of the reference's build configuration become those of the build
under test: GASNET_SEQ = 1 is checked as GASNET_PAR = 1 in PAR (and
GASNETT_THREAD_SINGLE as GASNETT_THREAD_SAFE),
GASNET_NDEBUG as GASNET_DEBUG on a debug install, the C compiler's
PLATFORM_COMPILER_GNU_C and PLATFORM_COMPILER_C_LANGLVL as their _CXX
forms in C++; gex_Client_Init_GASNET_<config> (the reference's link name of
gex_Client_Init, which spells its configuration) is checked as
gex_Client_Init. The pending file (names, one a line, '#' comments) is the
only way to leave a name out. A line `/* surface: NAME */` precedes each
entry's code, so a compiler error's line names the entry (the driver maps
them).
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

ENTRY = re.compile(
    r'^(?P<name>[A-Za-z_][A-Za-z0-9_]*)'
    r'(?P<params>\([^)]*\))?'
    r'(?:\s+(?:(?P<value>=\s*.+)|\[(?P<kind>function|typedef|enumerator)\]\s*(?P<proto>.*)'
    r'|->\s*same as:\s*(?P<same>.+)|->\s*(?P<how>call|use):\s*(?P<call>.+)))?\s*$')


def parse(path):
    entries = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            m = ENTRY.match(line)
            if not m:
                sys.exit('%s:%d: cannot read entry: %s' % (path, n, line))
            name = m.group('name')
            if m.group('params') is not None:
                e = {'form': 'fmacro', 'params': m.group('params')[1:-1], 'call': m.group('call')}
            elif m.group('value'):
                e = {'form': 'value', 'value': m.group('value')[1:].strip()}
            elif m.group('kind') in ('typedef', 'enumerator'):
                e = {'form': m.group('kind')}
            elif m.group('kind') == 'function':
                e = {'form': 'function', 'proto': m.group('proto'), 'fname': name}
            elif m.group('same'):
                proto = m.group('same')
                fm = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*\(', strip_attrs(proto))
                e = {'form': 'function', 'proto': proto, 'fname': fm.group(1) if fm else None}
            elif m.group('how') == 'use':
                e = {'form': 'use', 'call': m.group('call')}
            elif m.group('call'):
                sys.exit('%s:%d: "-> call:" needs a parameter list' % (path, n))
            else:
                e = {'form': 'macro'}
            e['where'] = '%s:%d' % (os.path.basename(path), n)
            # a name listed twice (a static function's declaration and its
            # definition): the first complete form counts
            if name in entries and entries[name].get('_file') == path:
                continue
            e['_file'] = path
            entries[name] = e
    return entries


def strip_attrs(text):
    """Removes __attribute__((...)) groups (balanced parentheses)."""
    out, i = '', 0
    while True:
        j = text.find('__attribute__', i)
        if j < 0:
            return out + text[i:]
        out += text[i:j]
        k = text.find('(', j)
        depth = 0
        while k < len(text):
            depth += {'(': 1, ')': -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        i = k


def pointer_decl(proto, fname, var):
    """'extern int f(int _a);' -> 'int (*var)(int _a)'."""
    p = strip_attrs(proto).strip()
    p = re.sub(r'[;{]\s*$', '', p).strip()
    p = re.sub(r'\b(extern|static|inline|__inline__)\b', '', p).strip()
    m = re.search(r'\b%s\s*\(' % re.escape(fname), p)
    if not m or p.count('(') != p.count(')'):
        return None
    return p[:m.start()] + '(*' + var + ')' + p[m.end() - 1:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--lang', choices=('c', 'c++'), required=True)
    ap.add_argument('--mode', choices=('seq', 'par'), required=True)
    ap.add_argument('--flavor', choices=('opt', 'debug'), required=True)
    ap.add_argument('--list', action='append')
    ap.add_argument('--pending', default=os.path.join(HERE, 'pending.txt'))
    ap.add_argument('out')
    a = ap.parse_args()
    lists = a.list or [os.path.join(HERE, 'surface-2020.10.txt'), os.path.join(HERE, 'surface-2025.8.txt')]

    entries = {}
    for path in lists:
        entries.update(parse(path))
    pending = set()
    if os.path.exists(a.pending):
        with open(a.pending) as f:
            for line in f:
                line = line.split('#', 1)[0].strip()
                if line:
                    pending.add(line)
    unknown = pending - set(entries)
    if unknown:
        sys.exit('pending names that no list has: ' + ' '.join(sorted(unknown)))

    # configuration facts of the reference's build -> those of this build
    rename = {}
    if a.mode == 'par':
        rename['GASNET_SEQ'] = 'GASNET_PAR'
        rename['GASNETT_THREAD_SINGLE'] = 'GASNETT_THREAD_SAFE'
    if a.flavor == 'debug':
        rename['GASNET_NDEBUG'] = 'GASNET_DEBUG'
    if a.lang == 'c++':
        rename['PLATFORM_COMPILER_GNU_C'] = 'PLATFORM_COMPILER_GNU_CXX'
        rename['PLATFORM_COMPILER_C_LANGLVL'] = 'PLATFORM_COMPILER_CXX_LANGLVL'
    for name in list(entries):
        if name.startswith('gex_Client_Init_GASNET_'):
            del entries[name]  # its real form is the gex_Client_Init entry
            if 'gex_Client_Init' not in entries or entries['gex_Client_Init']['form'] != 'function':
                sys.exit('gex_Client_Init needs a [function] entry in a later list')

    out = ['/* generated by tests/surface/gen.py (%s, %s, %s): every name of the surface lists */'
           % (a.lang, a.mode, a.flavor),
           '#include <gasnetex.h>', '#include <gasnet.h>', '#include <gasnet_coll.h>',
           '#include <gasnet_vis.h>', '#include <gasnet_ratomic.h>', '#include <gasnet_mk.h>',
           '#include <gasnet_tools.h>', '#include <gasnet_portable_platform.h>',
           '#include <stdio.h>', '#include <stdint.h>',
           '#define SURF_STR(...) #__VA_ARGS__', '#define SURF_XSTR(...) SURF_STR(__VA_ARGS__)',
           'const char *surf_expansions[] = {']
    decls, asserts, globs, body, runtime = [], [], [], [], []
    checked = 0
    for i, name in enumerate(sorted(entries, key=str.lower)):
        if name in pending:
            continue
        e = entries[name]
        name = rename.get(name, name)
        checked += 1
        tag = '/* surface: %s (%s) */' % (name, e['where'])
        miss = '#ifndef %s\n#error "surface: %s is not defined (%s)"\n#endif' % (name, name, e['where'])
        # a name the reference makes a macro may be a function or variable here
        # (what a caller writes works the same): then its address is taken
        # (file-scope pointers: their initializers need the symbol at link
        # time, whatever the optimizer does with code)
        ifn = '#ifndef %s\n__typeof__(&%s) surf_addr_%d = &%s;\n#endif' % (name, name, i, name)
        form = e['form']
        if form == 'macro':
            decls.append('%s\n#ifdef %s\n    SURF_XSTR(%s),\n#endif' % (tag, name, name))
            globs.append('%s\n%s' % (tag, ifn))
        elif form == 'value':
            v = e['value']
            if re.search(r'\(\s*gex_[A-Za-z]+_t\s*\*?\s*\)', v):
                runtime.append('%s\n    if ((%s) != (%s)) { printf("surface: %s is not %s\\n"); bad++; }'
                               % (tag, name, v, name, v.replace('"', '\\"')))
                decls.append('%s\n%s\n    SURF_XSTR(%s),' % (tag, miss, name))
            else:
                decls.append('%s\n%s\n    SURF_XSTR(%s),' % (tag, miss, name))
                asserts.append('%s\ntypedef char surf_assert_%d[((%s) == (%s)) ? 1 : -1];' % (tag, i, name, v))
        elif form == 'fmacro':
            if e['call']:
                call = e['call']
            elif e['params'].strip() == '':
                call = name + '()'
            else:
                call = ''
            globs.append('%s\n%s' % (tag, ifn))
            body.append('%s\n    { %s; }' % (tag, call))
        elif form == 'use':
            body.append('%s\n    { %s; }' % (tag, e['call']))
        elif form == 'typedef':
            body.append('%s\n    n += sizeof(%s *);' % (tag, name))
        elif form == 'enumerator':
            body.append('%s\n    n += (size_t)(long long)(%s);' % (tag, name))
        elif form == 'function':
            decl = pointer_decl(e['proto'], e['fname'] or name, 'surf_fn_%d' % i) if e['fname'] else None
            if decl is None:
                sys.exit('%s: %s: cannot make a pointer type of its prototype: %s' % (e['where'], name, e['proto']))
            globs.append('%s\n%s = %s;' % (tag, decl, name))
    out += decls
    out.append('    0 };')
    out += asserts
    out += globs
    out.append('size_t surf_uses(void);\nsize_t surf_uses(void)\n{\n    size_t n = 0;')
    out += body
    out.append('    return n;\n}')
    out.append('int main(int argc, char **argv)\n{\n    int bad = 0;\n    (void)argv;')
    out += runtime
    out.append('    if (argc > 1000) return (int)surf_uses(); /* compiled and linked, never run */')
    out.append('    printf("surface: %d names (%s, %s, %s)%%s\\n", bad ? ": FAILED" : " ok");'
               % (checked, a.lang, a.mode, a.flavor))
    out.append('    return bad != 0;\n}')
    with open(a.out, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
