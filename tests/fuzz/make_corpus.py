#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz harnesses (docs/fuzzing.md):
tests/fuzz/corpus/<target>/seed-*, a few valid messages of each format.
The committed files are its output; run it again after a wire change."""
import os
import struct

ARENA = 0x200000000000          # FUZZ_ARENA in fuzz.h
SEG0, SEG1 = ARENA, ARENA + 0x100000
K_SHORT, K_MEDIUM, K_LONG, K_CREDIT, K_REPLY = 1, 2, 4, 8, 0x80
F_SEPARATE, F_INPLACE = 1, 2
HERE = os.path.dirname(os.path.abspath(__file__))


def hdr(kind, handler, args=(), nbytes=0, flags=0, credits=0, ep=0, src_ep=0, tag=-1, dest=0):
    """ammpi_hdr_t (ammpi/internal.h), its arguments, padded to 16 bytes."""
    h = struct.pack('<BBBBHBBIiQ', kind, handler, len(args), flags, credits, ep, src_ep,
                    nbytes, tag, dest)
    h += struct.pack('<%di' % len(args), *args)
    return h + b'\0' * (-len(h) % 16)


def write(target, seeds):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(d, 'seed-' + name), 'wb') as f:
            f.write(data)


def ammpi_wire():
    def mpi(msg, payload=b'', outstanding=0, received=0, channel=0):
        mode = channel | outstanding << 1 | received << 4
        return struct.pack('<BH', mode, len(msg)) + msg + payload
    def seq(msgs, outstanding=0, received=0):
        out = struct.pack('<B', 0x80 | outstanding << 1 | received << 4)
        for channel, msg, payload in msgs:
            out += struct.pack('<BH', channel, len(msg)) + msg + struct.pack('<H', len(payload)) + payload
        return out
    body = bytes(range(256)) * 4
    return {
        'short': mpi(hdr(K_SHORT, 2, (7, 8))),
        'medium': mpi(hdr(K_MEDIUM, 4, (1,), 10) + body[:10]),
        'long': mpi(hdr(K_LONG, 1, (), 32, dest=SEG0 + 128) + body[:32]),
        'medium-separate': mpi(hdr(K_MEDIUM, 1, (1, 2, 3), 300, F_SEPARATE, tag=5), body[:300]),
        'long-separate': mpi(hdr(K_LONG, 4, (9,), 1000, F_SEPARATE, tag=6, dest=SEG0), body[:1000]),
        'credit': mpi(hdr(K_CREDIT, 0, (), credits=1), outstanding=1),
        'reply': mpi(hdr(K_SHORT | K_REPLY, 3, (1,), credits=1), outstanding=1),
        'long-ep1': mpi(hdr(K_LONG, 1, (), 16, ep=1, dest=SEG1 + 4080) + body[:16]),
        'channel-short': mpi(hdr(K_SHORT, 2, (7, 8)), channel=1),
        'channel-medium': mpi(hdr(K_MEDIUM, 4, (1,), 20) + body[:20], channel=1),
        'channel-inplace': mpi(hdr(K_LONG, 1, (), 64, F_INPLACE, ep=1, dest=SEG1), channel=1),
        # sequences (mode bit 7): 8 replies returning a credit each, 2 outstanding
        'seq-reply-flood': seq([(0, hdr(K_SHORT | K_REPLY, 3, (1,), credits=1), b'')] * 8, outstanding=2),
        'seq-requests-credit': seq([(0, hdr(K_SHORT, 2, (7, 8)), b'')] * 4
                                   + [(0, hdr(K_CREDIT, 0, (), credits=4), b'')]),
        'seq-payload-longer': seq([(0, hdr(K_MEDIUM, 1, (1,), 300, F_SEPARATE, tag=5), body[:400]),
                                   (1, hdr(K_MEDIUM, 4, (1,), 10) + body[:30], b'')]),
        'seq-payload-shorter': seq([(0, hdr(K_LONG, 1, (), 1000, F_SEPARATE, tag=6, dest=SEG0), body[:10]),
                                    (0, hdr(K_SHORT, 2, (7, 8)), b'')]),
    }


def entry(msg, at=0):
    """A ring entry (shmam/shmam.h) at position at: frame (its stamp
    1 + at), message, padding to 64."""
    total = (16 + len(msg) + 63) & ~63
    return struct.pack('<IIQ', total, len(msg), at + 1) + msg + b'\0' * (total - 16 - len(msg))


def shm_ring():
    def ring(lines, head, data):
        return struct.pack('<BH', lines - 1, head) + data
    short = entry(hdr(K_SHORT, 201, (5,)))
    medium_msg = hdr(K_MEDIUM, 202, (), 40) + bytes(range(40))
    medium = entry(medium_msg)
    long0 = entry(hdr(K_LONG, 203, (), 0, dest=0))
    wrap = struct.pack('<IIQ', 64, 0, 193) + b'\0' * 48
    return {
        'short': ring(4, 0, short),
        'medium': ring(4, 0, medium),
        'long-empty': ring(4, 0, long0),
        'two': ring(8, 0, short + entry(medium_msg, len(short))),
        # head in the last line (192): a wrap frame there, the entry at offset 0 (position 256)
        'wrap': ring(4, 192, entry(medium_msg, 256) + b'\0' * (192 - len(medium)) + wrap),
        'library-put': ring(4, 0, entry(hdr(K_MEDIUM, 64, (0, 0, 0, 0), 0))),
    }


def ext_handlers():
    M = 0x2000                       # SEG_MARK in ext_handlers.c: (M, off) = segment + off
    def req(index, args, dest=None, payload=b''):
        d = b'' if dest is None else struct.pack('<Q', dest)
        return bytes([index]) + struct.pack('<%di' % len(args), *args) + d + payload
    seg = lambda off: (M << 32) | off
    t = (0, 0)                       # completion target: echoed, never read by a request handler
    vec = struct.pack('<QQ', seg(256), 16) + bytes(range(16)) + struct.pack('<QQ', seg(512), 8) + bytes(8)
    str_hdr = struct.pack('<QQQQQ', seg(1024), 8, 1, 0, 32) + struct.pack('<qQ', 16, 4)
    return {
        'put-medium': req(64, (M, 16) + t, payload=bytes(range(32))),
        'put-long': req(65, t, dest=seg(4096), payload=bytes(64)),
        'get': req(67, (M, 0, 128, 0, 0) + t + (0,)),
        'memset': req(70, (M, 32, 7, 0, 100) + t),
        'put-val': req(71, (M, 8, 0, 5, 8) + t),
        'get-val': req(72, (M, 8, 4) + t),
        'atomic-add-u64': req(104, (M, 64, 0, 1, 0, 0, 0, 0) + t + (3 | 3 << 4,)),
        'vis-put-vec': req(112, (1,) + t, payload=vec),
        'vis-put-str': req(112, (2,) + t, payload=str_hdr + bytes(32)),
        'vis-get-vec': req(114, (1, 0, 0, 0, 0, 0, 0), payload=struct.pack('<QQ', seg(0), 100)),
    }


def exit_notice():
    def notice(src, code, origin, count, words=4, kind=1):
        return struct.pack('<Bb4q', src, words, kind, code, origin, count)
    return {
        'three-nodes-exit': bytes([3]) + notice(1, 0, 1, 10) + notice(2, 0, 1, 0) + notice(3, 0, 1, 7),
        'code-from-lowest': bytes([1]) + notice(0, 3, 0, 2) + notice(1, 5, 1, 0),
        'second-notice': bytes([1]) + notice(1, 0, 1, 1) + notice(1, 0, 1, 1),
        'short-message': bytes([1]) + notice(1, 0, 1, 1, words=3),
    }


if __name__ == '__main__':
    write('ammpi_wire', ammpi_wire())
    write('shm_ring', shm_ring())
    write('exit_notice', exit_notice())
    write('ext_handlers', ext_handlers())
